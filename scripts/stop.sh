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
[ -f "$DATA/mysql.pid" ] && kill "$(cat "$DATA/mysql.pid")" 2>/dev/null && log "stopping MariaDB"
pkill -f "temporal server start-dev --ip 127.0.0.1" 2>/dev/null && log "stopping Temporal"
pkill -f "versitygw --port 127.0.0.1:$S3_PORT" 2>/dev/null && log "stopping versitygw"
exit 0
