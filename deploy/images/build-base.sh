#!/usr/bin/env bash
# Builds localhost/gantry/base:17 from Debian's own packages, with no image registry: debootstrap (minbase) of
# bookworm from this machine's Debian mirror, openjdk-17-jre-headless inside, docs and apt lists stripped, then
# `tar | <engine> import`. Reused when the image exists already (CI caches it between runs); --force rebuilds it.
# Needs root (debootstrap, chroot) and debootstrap; the engine is podman if present, else docker (deploy/images/engine.sh).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$HERE/engine.sh"
BASE_IMAGE="${GANTRY_BASE_IMAGE:-localhost/gantry/base:17}"
SUITE="${GANTRY_BASE_SUITE:-bookworm}"

if [ "${1:-}" != "--force" ] && $ENGINE image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  echo "build-base: $BASE_IMAGE exists, reused (--force rebuilds it)"
  exit 0
fi
command -v debootstrap >/dev/null || { echo "build-base: debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "build-base: debootstrap and chroot need root" >&2; exit 1; }

# The machine's configured Debian mirror (deb822 .sources or one-line .list), else deb.debian.org.
MIRROR="${GANTRY_DEBIAN_MIRROR:-}"
if [ -z "$MIRROR" ]; then
  MIRROR=$(grep -hsE '^URIs:.*/debian/?$' /etc/apt/sources.list.d/*.sources | head -1 | awk '{print $2}' || true)
  [ -n "$MIRROR" ] || MIRROR=$(grep -hsE '^deb .*/debian/? ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | head -1 | awk '{print $2}' || true)
  [ -n "$MIRROR" ] || MIRROR=http://deb.debian.org/debian
fi

ROOTFS=$(mktemp -d /tmp/gantry-base.XXXXXX)
cleanup() { umount "$ROOTFS/proc" 2>/dev/null || true; rm -rf "$ROOTFS"; }
trap cleanup EXIT
echo "build-base: debootstrap --variant=minbase $SUITE from $MIRROR"
debootstrap --variant=minbase "$SUITE" "$ROOTFS" "$MIRROR" >/tmp/gantry-debootstrap.log 2>&1 \
  || { tail -20 /tmp/gantry-debootstrap.log >&2; exit 1; }

# The same sources as the host's Debian entries (main, updates, security), so derived images install the same versions.
rm -f "$ROOTFS/etc/apt/sources.list"
if ls /etc/apt/sources.list.d/*.sources >/dev/null 2>&1 && grep -qs "$MIRROR" /etc/apt/sources.list.d/*.sources; then
  for f in /etc/apt/sources.list.d/*.sources; do grep -q "$MIRROR" "$f" && cp "$f" "$ROOTFS/etc/apt/sources.list.d/"; done
else
  printf 'deb %s %s main\ndeb %s %s-updates main\n' "$MIRROR" "$SUITE" "$MIRROR" "$SUITE" >"$ROOTFS/etc/apt/sources.list"
fi
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
# No docs, man pages or locales in this image or in any image built on it.
cat >"$ROOTFS/etc/dpkg/dpkg.cfg.d/01-gantry-nodoc" <<'NODOC'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
NODOC
printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$ROOTFS/etc/apt/apt.conf.d/01-gantry-norecommends"
mount -t proc proc "$ROOTFS/proc"
echo "build-base: apt-get install openjdk-17-jre-headless"
chroot "$ROOTFS" /bin/sh -ec '
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  mkdir -p /usr/share/man/man1   # openjdk postinst writes alternatives for man pages
  apt-get install -y -qq openjdk-17-jre-headless >/dev/null
  apt-get clean
  rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/* /usr/share/doc/*/changelog* /usr/share/man/* /tmp/*
  useradd --uid 185 --gid 0 --home-dir /opt/gantry --no-create-home --shell /usr/sbin/nologin gantry
' >/tmp/gantry-base-apt.log 2>&1 || { tail -20 /tmp/gantry-base-apt.log >&2; exit 1; }
umount "$ROOTFS/proc"
: >"$ROOTFS/etc/resolv.conf"

echo "build-base: importing as $BASE_IMAGE"
tar -C "$ROOTFS" --numeric-owner -c . | $ENGINE import \
  --change 'ENV PATH=/usr/lib/jvm/java-17-openjdk-amd64/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["/bin/bash"]' \
  - "$BASE_IMAGE" >/dev/null
echo "build-base: $BASE_IMAGE $($ENGINE image inspect --format '{{.Size}}' "$BASE_IMAGE" | awk '{printf "%.0f MB", $1/1e6}')"
