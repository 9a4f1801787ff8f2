#!/bin/bash
# Initialises $PGDATA on first start (database $POSTGRES_DB owned by $POSTGRES_USER, password auth over TCP),
# then runs the server in the foreground as the container's main process.
set -euo pipefail
: "${POSTGRES_USER:=gantry}" "${POSTGRES_PASSWORD:=gantry}" "${POSTGRES_DB:=$POSTGRES_USER}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  printf "listen_addresses = '*'\nfsync = off\nfull_page_writes = off\nsynchronous_commit = off\nshared_buffers = 32MB\n" >>"$PGDATA/postgresql.conf"
  echo "host all all 0.0.0.0/0 scram-sha-256" >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  [ "$POSTGRES_DB" = postgres ] || psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres -qc "CREATE DATABASE \"$POSTGRES_DB\""
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec postgres -D "$PGDATA"
