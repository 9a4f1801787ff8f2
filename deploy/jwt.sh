#!/usr/bin/env bash
# Local bearer tokens for Gantry (README "Security"), with openssl only: a key pair per run, and RS256 JWTs the
# services verify with its public key (issuer "gantry", roles in the "groups" claim).
#   deploy/jwt.sh keys DIR                        make DIR/jwt-private.pem and DIR/jwt-public.pem unless present
#   deploy/jwt.sh token DIR SUBJECT GROUPS [TTL]  print a token for SUBJECT with GROUPS (comma-separated), TTL s
set -euo pipefail

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

jwt_keys() { # jwt_keys DIR
  mkdir -p "$1"
  [ -f "$1/jwt-private.pem" ] && return 0
  (umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1/jwt-private.pem" 2>/dev/null)
  openssl pkey -in "$1/jwt-private.pem" -pubout -out "$1/jwt-public.pem"
}

jwt_token() { # jwt_token DIR SUBJECT GROUPS [TTL_S]
  local dir=$1 sub=$2 groups=$3 ttl=${4:-86400} now header claims signing
  case "$sub" in *[!A-Za-z0-9._@-]*|"") echo "jwt.sh: subject must be letters, digits and . _ @ -" >&2; return 2 ;; esac
  case "$groups" in *[!a-z,]*|"") echo "jwt.sh: groups must be comma-separated roles (user,operator,admin)" >&2; return 2 ;; esac
  now=$(date +%s)
  header=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
  claims=$(printf '{"iss":"gantry","sub":"%s","upn":"%s","iat":%s,"exp":%s,"groups":["%s"]}' \
    "$sub" "$sub" "$now" "$((now + ttl))" "${groups//,/\",\"}" | b64url)
  signing="$header.$claims"
  printf '%s.%s\n' "$signing" "$(printf '%s' "$signing" | openssl dgst -sha256 -sign "$dir/jwt-private.pem" -binary | b64url)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
    keys) jwt_keys "$2" ;;
    token) shift; jwt_token "$@" ;;
    *) echo "usage: deploy/jwt.sh keys DIR | token DIR SUBJECT GROUPS [TTL_S]" >&2; exit 2 ;;
  esac
fi
