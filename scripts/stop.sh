#!/usr/bin/env bash
# Stops the API, the worker and the private servers started by start.sh (data is kept in .data/).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
for name in api worker; do
  pidfile="$DATA/$name.pid"
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    log "stopping $name"; kill "$(cat "$pidfile")"
  fi
  rm -f "$pidfile"
done
# each server by the pid its start wrote into this checkout's .data/: another checkout's servers (a CI clone's) stay up
stop_pidfile() { # file what
  [ -f "$1" ] || return 0
  kill "$(cat "$1")" 2>/dev/null && log "stopping $2"
  rm -f "$1"
}
stop_pidfile "$DATA/mysql.pid" MariaDB
stop_pidfile "$DATA/temporal.pid" Temporal
stop_pidfile "$DATA/s3.pid" versitygw
stop_pidfile "$DATA/mailpit.pid" Mailpit
exit 0
