#!/bin/sh
# Makes the cluster at the first start (an empty volume), as the official image does, then runs
# postgres in the foreground with the flags it is given. The password never reaches a command line.
set -eu
: "${POSTGRES_USER:=app}"
: "${POSTGRES_DB:=app}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "entrypoint: set POSTGRES_PASSWORD: the cluster is made with password authentication" >&2
    exit 1
  fi
  pwfile="$(mktemp)"
  printf '%s' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --pgdata="$PGDATA" --username="$POSTGRES_USER" --pwfile="$pwfile" --auth=scram-sha-256 --encoding=UTF8 >/dev/null
  rm -f "$pwfile"
  # Connections from other hosts too (compose's replicas, or a pod's), always with the password.
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "CREATE DATABASE \"$POSTGRES_DB\";" | postgres --single -D "$PGDATA" postgres >/dev/null
fi
exec postgres -D "$PGDATA" -c unix_socket_directories=/tmp "$@"
