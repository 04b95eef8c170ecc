# Shared by start.sh and test.sh: idempotent installs and private servers under .data/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="$ROOT/.data"
mkdir -p "$DATA/log"
export PATH="$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin:$PATH"

# A setting given as NAME_FILE (platform/config.ts reads the file) gets no default here: NAME and NAME_FILE
# together are refused.
from_file() { local file="$1_FILE"; [ -n "${!file:-}" ]; }
# the value of a setting, from NAME_FILE when given (for the servers the scripts start themselves)
value_of() { if from_file "$1"; then local file="$1_FILE"; cat "${!file}"; else printf '%s' "${!1:-}"; fi; }

: "${MYSQL_HOST:=127.0.0.1}"
: "${MYSQL_PORT:=3407}"
: "${MYSQL_USER:=docs}"
from_file MYSQL_PASSWORD || : "${MYSQL_PASSWORD:=docs}"
: "${MYSQL_DATABASE:=docs}"
: "${TEMPORAL_ADDRESS:=127.0.0.1:7233}"
: "${TEMPORAL_UI_PORT:=8233}"
: "${S3_PORT:=7070}"
: "${S3_ENDPOINT:=http://127.0.0.1:$S3_PORT}"
# credentials of the private versitygw below, which listens on 127.0.0.1 only (the service has no default for them)
from_file S3_ACCESS_KEY_ID || : "${S3_ACCESS_KEY_ID:=docsaccess}"
from_file S3_SECRET_ACCESS_KEY || : "${S3_SECRET_ACCESS_KEY:=docssecret123}"
export MYSQL_HOST MYSQL_PORT MYSQL_USER MYSQL_PASSWORD MYSQL_DATABASE TEMPORAL_ADDRESS S3_ENDPOINT S3_ACCESS_KEY_ID S3_SECRET_ACCESS_KEY
# the private Mailpit below: SMTP for the invitation mail, and its web UI and HTTP API (which the tests read mail back through)
: "${MAILPIT_SMTP_PORT:=1025}"
: "${MAILPIT_UI_PORT:=8025}"
from_file SMTP_URL || : "${SMTP_URL:=smtp://127.0.0.1:$MAILPIT_SMTP_PORT}"
: "${MAILPIT_URL:=http://127.0.0.1:$MAILPIT_UI_PORT}"
export SMTP_URL MAILPIT_URL

log() { printf '[setup] %s\n' "$*" >&2; }

# The signing secrets, which have no default (platform/config.ts): generated once into a git-ignored file
# (mode 600) and reused by every later run, so links and cursors stay valid; values already in the
# environment win. Two runs racing to create the file both end up with the first one written.
load_secrets() { # [file]
  local file="${1:-$DATA/secrets.env}" tmp
  if [ ! -f "$file" ]; then
    tmp="$(mktemp "$file.XXXXXX")"
    node -e 'const r = () => require("crypto").randomBytes(32).toString("base64url");
      process.stdout.write(`BLOB_URL_SECRET=${r()}\nCURSOR_SECRET=${r()}\nINTEGRATION_SECRETS_KEY=${r()}\n`)' >"$tmp"
    mv -n "$tmp" "$file" || true
    rm -f "$tmp"
    log "generated the signing secrets into $file"
  fi
  # a file from before a secret existed gets it appended (the first value wins if two runs race)
  if ! grep -q '^INTEGRATION_SECRETS_KEY=' "$file"; then
    node -e 'process.stdout.write(`INTEGRATION_SECRETS_KEY=${require("crypto").randomBytes(32).toString("base64url")}\n`)' >>"$file"
    log "generated INTEGRATION_SECRETS_KEY into $file"
  fi
  from_file BLOB_URL_SECRET || : "${BLOB_URL_SECRET:=$(sed -n 's/^BLOB_URL_SECRET=//p' "$file")}"
  from_file CURSOR_SECRET || : "${CURSOR_SECRET:=$(sed -n 's/^CURSOR_SECRET=//p' "$file")}"
  from_file INTEGRATION_SECRETS_KEY || : "${INTEGRATION_SECRETS_KEY:=$(sed -n '/^INTEGRATION_SECRETS_KEY=/{s///p;q;}' "$file")}"
  export BLOB_URL_SECRET CURSOR_SECRET INTEGRATION_SECRETS_KEY
}

# A log over the size limit (MiB) when its server starts (one written before rotation existed, or a server
# whose log does not rotate) is cut to its last MiB, which keeps the end of the previous run.
trim_log() { # file max_mb
  [ -f "$1" ] || return 0
  local size; size=$(stat -c %s "$1")
  [ "$size" -gt $(($2 * 1048576)) ] || return 0
  tail -c 1048576 "$1" >"$1.trim" && mv "$1.trim" "$1"
  log "$(basename "$1") was $((size / 1048576)) MiB (over $2): kept its last MiB"
}

# The API's and the worker's logs rotate by size: .data/log/<name>.log, then .1 … .$LOG_FILE_KEEP (scripts/rotate-log.js).
: "${LOG_FILE_MAX_MB:=50}"
: "${LOG_FILE_KEEP:=5}"

# Starts a server of ours in the background (its pid in $DATA/<name>.pid), unless it already runs.
start_process() { # name entry [node options...]
  local pidfile="$DATA/$1.pid" logfile="$DATA/log/$1.log"
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    log "$1 already running (pid $(cat "$pidfile"))"
    return 0
  fi
  trim_log "$logfile" "$LOG_FILE_MAX_MB"
  log "starting $1"
  # stdout and stderr (a crash's trace too) go through the rotating writer, which ends when the process does
  (cd "$ROOT" && exec setsid nohup node "${@:3}" "$2" \
    > >(exec setsid node scripts/rotate-log.js "$logfile" "$LOG_FILE_MAX_MB" "$LOG_FILE_KEEP") 2>&1 </dev/null) &
  echo $! >"$pidfile"
}

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

wait_port() { # host port what seconds
  local i
  for ((i = 0; i < $4 * 4; i++)); do port_open "$1" "$2" && return 0; sleep 0.25; done
  log "$3 did not open $1:$2 within $4 s; see $DATA/log"; return 1
}

# The scripts run their private servers on loopback addresses only. Any other host names a server that
# already exists (a managed MySQL, a Temporal cluster, S3): nothing is installed or started for it; it is
# checked and prepared (database, migrations, search attributes) instead.
is_loopback() { case "$1" in localhost | 127.* | ::1 | '[::1]') return 0 ;; *) return 1 ;; esac; }
TEMPORAL_HOST="${TEMPORAL_ADDRESS%:*}"
S3_HOST="${S3_ENDPOINT#*://}"; S3_HOST="${S3_HOST%%[:/]*}"
local_mysql() { is_loopback "$MYSQL_HOST"; }
local_temporal() { is_loopback "$TEMPORAL_HOST"; }
local_s3() { is_loopback "$S3_HOST"; }
# a private Mailpit only for the scripts' own SMTP_URL (one given as SMTP_URL_FILE names a real server)
local_smtp() { ! from_file SMTP_URL && [ "$SMTP_URL" = "smtp://127.0.0.1:$MAILPIT_SMTP_PORT" ]; }

require_reachable() { # what host port variables
  local host="${2#[}"; host="${host%]}"
  timeout 10 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$host" "$3" 2>/dev/null && return 0
  log "ERROR: $1 at $2:$3 is not reachable (from $4). Check the address, that the server runs and that this machine may connect to it."
  exit 1
}

# Existing servers are checked before anything is installed, so a wrong address fails within seconds.
check_existing_servers() {
  local_mysql || require_reachable MySQL "$MYSQL_HOST" "$MYSQL_PORT" "MYSQL_HOST, MYSQL_PORT"
  local_temporal || require_reachable Temporal "$TEMPORAL_HOST" "${TEMPORAL_ADDRESS##*:}" TEMPORAL_ADDRESS
}

apt_install() { # package
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$1" >/dev/null
}

install_mariadb() {
  local_mysql || return 0
  command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] && return 0
  log "installing MariaDB from Debian"
  apt_install mariadb-server
}

# Headless browser of the /docs test (test/api/docs.test.ts drives /usr/bin/chromium).
install_chromium() {
  [ -x /usr/bin/chromium ] && return 0
  log "installing Chromium from Debian"
  apt_install chromium
}

install_go_tool() { # binary module@version
  command -v "$1" >/dev/null 2>&1 && return 0
  log "installing $1 ($2) from the Go module proxy"
  go install "$2"
}

install_node_modules() {
  if [ ! -d "$ROOT/node_modules" ] || [ "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]; then
    log "installing npm packages"
    # npm ci refuses this npm's own lock files (other platforms' optional packages are left out), so install from the lock
    # --ignore-scripts: @gitbook/cli's postinstall downloads cloudflared from github.com (needed only by
    # `gitbook dev`), which fails without internet; every other package here ships prebuilt platform binaries
    (cd "$ROOT" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
  fi
}

start_mariadb() {
  if ! local_mysql; then log "MySQL: the existing server at $MYSQL_HOST:$MYSQL_PORT"; return 0; fi
  if port_open "$MYSQL_HOST" "$MYSQL_PORT"; then log "MariaDB already on $MYSQL_PORT"; return 0; fi
  local dir="$DATA/mysql"
  if [ ! -d "$dir/mysql" ]; then
    log "initialising MariaDB data in $dir"
    mkdir -p "$dir"
    mariadb-install-db --no-defaults --datadir="$dir" --auth-root-authentication-method=normal \
      --skip-test-db --user="$(id -un)" >"$DATA/log/mariadb-init.log" 2>&1
  fi
  log "starting MariaDB on $MYSQL_PORT"
  nohup /usr/sbin/mariadbd --no-defaults --datadir="$dir" --port="$MYSQL_PORT" --bind-address=127.0.0.1 \
    --socket="$DATA/mysql.sock" --pid-file="$DATA/mysql.pid" --user="$(id -un)" \
    --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
    --innodb-buffer-pool-size=512M --innodb-flush-log-at-trx-commit=2 --max-connections=500 \
    >"$DATA/log/mariadb.log" 2>&1 </dev/null &
  wait_port "$MYSQL_HOST" "$MYSQL_PORT" MariaDB 60
}

ensure_database() { # name
  # a server the scripts did not start: create the database as the configured user, if it may
  if ! local_mysql || [ ! -S "$DATA/mysql.sock" ]; then (cd "$ROOT" && MYSQL_DATABASE="$1" node dist/platform/db/create-database.js); return; fi
  local password
  password="$(value_of MYSQL_PASSWORD)"
  env -u MYSQL_HOST -u MYSQL_PWD -u MYSQL_TCP_PORT mariadb --no-defaults --protocol=SOCKET -uroot --socket="$DATA/mysql.sock" <<SQL
CREATE DATABASE IF NOT EXISTS \`$1\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '$MYSQL_USER'@'127.0.0.1' IDENTIFIED BY '$password';
CREATE USER IF NOT EXISTS '$MYSQL_USER'@'localhost' IDENTIFIED BY '$password';
GRANT ALL PRIVILEGES ON \`$1\`.* TO '$MYSQL_USER'@'127.0.0.1';
GRANT ALL PRIVILEGES ON \`$1\`.* TO '$MYSQL_USER'@'localhost';
SQL
}

start_temporal() {
  if ! local_temporal; then log "Temporal: the existing cluster at $TEMPORAL_ADDRESS"; return 0; fi
  local port="${TEMPORAL_ADDRESS##*:}"
  if port_open 127.0.0.1 "$port"; then log "Temporal already on $port"; return 0; fi
  log "starting Temporal dev server on $port (UI $TEMPORAL_UI_PORT)"
  nohup temporal server start-dev --ip 127.0.0.1 --port "$port" --ui-port "$TEMPORAL_UI_PORT" \
    --db-filename "$DATA/temporal.sqlite" --log-level warn --namespace "${TEMPORAL_NAMESPACE:-default}" \
    >"$DATA/log/temporal.log" 2>&1 </dev/null &
  echo $! >"$DATA/temporal.pid"
  wait_port 127.0.0.1 "$port" Temporal 90
  wait_port 127.0.0.1 "$TEMPORAL_UI_PORT" "Temporal UI" 30
}

# The search attributes every workflow carries (workflows/ids.ts), on the dev server or an existing cluster;
# where registering them is not allowed, it prints the command for an administrator and stops.
prepare_temporal_namespace() {
  (cd "$ROOT" && node dist/worker/prepare-namespace.js)
}

start_s3() {
  if ! local_s3; then log "S3: the existing endpoint $S3_ENDPOINT"; return 0; fi
  if port_open 127.0.0.1 "$S3_PORT"; then log "versitygw already on $S3_PORT"; return 0; fi
  mkdir -p "$DATA/s3"
  log "starting versitygw (S3) on $S3_PORT"
  ROOT_ACCESS_KEY="$(value_of S3_ACCESS_KEY_ID)" ROOT_SECRET_KEY="$(value_of S3_SECRET_ACCESS_KEY)" \
    nohup versitygw --port "127.0.0.1:$S3_PORT" posix "$DATA/s3" >"$DATA/log/s3.log" 2>&1 </dev/null &
  echo $! >"$DATA/s3.pid"
  wait_port 127.0.0.1 "$S3_PORT" versitygw 30
}

start_mailpit() {
  local_smtp || return 0
  if port_open 127.0.0.1 "$MAILPIT_SMTP_PORT"; then log "Mailpit already on $MAILPIT_SMTP_PORT"; return 0; fi
  log "starting Mailpit (SMTP $MAILPIT_SMTP_PORT, UI $MAILPIT_UI_PORT)"
  nohup mailpit --smtp "127.0.0.1:$MAILPIT_SMTP_PORT" --listen "127.0.0.1:$MAILPIT_UI_PORT" \
    --database "$DATA/mailpit.db" --max 5000 --disable-version-check >"$DATA/log/mailpit.log" 2>&1 </dev/null &
  echo $! >"$DATA/mailpit.pid"
  wait_port 127.0.0.1 "$MAILPIT_SMTP_PORT" "Mailpit SMTP" 30
  wait_port 127.0.0.1 "$MAILPIT_UI_PORT" "Mailpit UI" 30
}

setup_all() {
  load_secrets
  check_existing_servers
  install_mariadb
  if local_temporal; then install_go_tool temporal github.com/temporalio/cli/cmd/temporal@v1.5.1; fi
  if local_s3; then install_go_tool versitygw github.com/versity/versitygw/cmd/versitygw@v1.7.0; fi
  if local_smtp; then install_go_tool mailpit github.com/axllent/mailpit@v1.33.1; fi
  install_node_modules
  start_mariadb
  start_temporal
  start_s3
  start_mailpit
  (cd "$ROOT" && npx tsc -p tsconfig.json)
  prepare_temporal_namespace
}
