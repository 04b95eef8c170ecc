# Shared by start.sh and test.sh: idempotent installs and private servers under .data/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="$ROOT/.data"
mkdir -p "$DATA/log"
export PATH="$(go env GOPATH 2>/dev/null || echo "$HOME/go")/bin:$PATH"

: "${MYSQL_HOST:=127.0.0.1}"
: "${MYSQL_PORT:=3407}"
: "${MYSQL_USER:=docs}"
: "${MYSQL_PASSWORD:=docs}"
: "${MYSQL_DATABASE:=docs}"
: "${TEMPORAL_ADDRESS:=127.0.0.1:7233}"
: "${TEMPORAL_UI_PORT:=8233}"
: "${S3_PORT:=7070}"
: "${S3_ENDPOINT:=http://127.0.0.1:$S3_PORT}"
# credentials of the private versitygw below, which listens on 127.0.0.1 only (the service has no default for them)
: "${S3_ACCESS_KEY_ID:=docsaccess}"
: "${S3_SECRET_ACCESS_KEY:=docssecret123}"
export MYSQL_HOST MYSQL_PORT MYSQL_USER MYSQL_PASSWORD MYSQL_DATABASE TEMPORAL_ADDRESS S3_ENDPOINT S3_ACCESS_KEY_ID S3_SECRET_ACCESS_KEY

log() { printf '[setup] %s\n' "$*" >&2; }

# The signing secrets, which have no default (domain/config.ts): generated once into a git-ignored file
# (mode 600) and reused by every later run, so links and cursors stay valid; values already in the
# environment win. Two runs racing to create the file both end up with the first one written.
load_secrets() { # [file]
  local file="${1:-$DATA/secrets.env}" tmp
  if [ ! -f "$file" ]; then
    tmp="$(mktemp "$file.XXXXXX")"
    node -e 'const r = () => require("crypto").randomBytes(32).toString("base64url");
      process.stdout.write(`BLOB_URL_SECRET=${r()}\nCURSOR_SECRET=${r()}\n`)' >"$tmp"
    mv -n "$tmp" "$file" || true
    rm -f "$tmp"
    log "generated the signing secrets into $file"
  fi
  : "${BLOB_URL_SECRET:=$(sed -n 's/^BLOB_URL_SECRET=//p' "$file")}"
  : "${CURSOR_SECRET:=$(sed -n 's/^CURSOR_SECRET=//p' "$file")}"
  export BLOB_URL_SECRET CURSOR_SECRET
}

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

wait_port() { # host port what seconds
  local i
  for ((i = 0; i < $4 * 4; i++)); do port_open "$1" "$2" && return 0; sleep 0.25; done
  log "$3 did not open $1:$2 within $4 s; see $DATA/log"; return 1
}

apt_install() { # package
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$1" >/dev/null
}

install_mariadb() {
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
    (cd "$ROOT" && npm install --no-audit --no-fund --loglevel=error)
  fi
}

start_mariadb() {
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
  if [ ! -S "$DATA/mysql.sock" ]; then log "MariaDB was started elsewhere: assuming database $1 exists"; return 0; fi
  env -u MYSQL_HOST -u MYSQL_PWD -u MYSQL_TCP_PORT mariadb --no-defaults --protocol=SOCKET -uroot --socket="$DATA/mysql.sock" <<SQL
CREATE DATABASE IF NOT EXISTS \`$1\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '$MYSQL_USER'@'127.0.0.1' IDENTIFIED BY '$MYSQL_PASSWORD';
CREATE USER IF NOT EXISTS '$MYSQL_USER'@'localhost' IDENTIFIED BY '$MYSQL_PASSWORD';
GRANT ALL PRIVILEGES ON \`$1\`.* TO '$MYSQL_USER'@'127.0.0.1';
GRANT ALL PRIVILEGES ON \`$1\`.* TO '$MYSQL_USER'@'localhost';
SQL
}

# Custom search attributes every workflow carries (workflows/ids.ts SEARCH_ATTRIBUTES).
SEARCH_ATTRIBUTES=(OrganizationId SpaceId ResourceId)

start_temporal() {
  local port="${TEMPORAL_ADDRESS##*:}"
  if port_open 127.0.0.1 "$port"; then log "Temporal already on $port"; register_search_attributes; return 0; fi
  log "starting Temporal dev server on $port (UI $TEMPORAL_UI_PORT)"
  local name attributes=()
  for name in "${SEARCH_ATTRIBUTES[@]}"; do attributes+=(--search-attribute "$name=Keyword"); done
  nohup temporal server start-dev --ip 127.0.0.1 --port "$port" --ui-port "$TEMPORAL_UI_PORT" \
    --db-filename "$DATA/temporal.sqlite" --log-level warn "${attributes[@]}" \
    >"$DATA/log/temporal.log" 2>&1 </dev/null &
  wait_port 127.0.0.1 "$port" Temporal 90
  wait_port 127.0.0.1 "$TEMPORAL_UI_PORT" "Temporal UI" 30
}

# A server started by an older version of this script lacks the newer attributes: add what is missing.
register_search_attributes() {
  local known name
  known="$(temporal operator search-attribute list --address "$TEMPORAL_ADDRESS" 2>/dev/null)" || { log "cannot list Temporal search attributes"; return 0; }
  for name in "${SEARCH_ATTRIBUTES[@]}"; do
    grep -qw "$name" <<<"$known" && continue
    log "registering Temporal search attribute $name"
    temporal operator search-attribute create --address "$TEMPORAL_ADDRESS" --name "$name" --type Keyword >/dev/null
  done
}

start_s3() {
  if port_open 127.0.0.1 "$S3_PORT"; then log "versitygw already on $S3_PORT"; return 0; fi
  mkdir -p "$DATA/s3"
  log "starting versitygw (S3) on $S3_PORT"
  ROOT_ACCESS_KEY="$S3_ACCESS_KEY_ID" ROOT_SECRET_KEY="$S3_SECRET_ACCESS_KEY" \
    nohup versitygw --port "127.0.0.1:$S3_PORT" posix "$DATA/s3" >"$DATA/log/s3.log" 2>&1 </dev/null &
  wait_port 127.0.0.1 "$S3_PORT" versitygw 30
}

setup_all() {
  load_secrets
  install_mariadb
  install_go_tool temporal github.com/temporalio/cli/cmd/temporal@v1.5.1
  install_go_tool versitygw github.com/versity/versitygw/cmd/versitygw@v1.7.0
  install_node_modules
  start_mariadb
  start_temporal
  start_s3
  (cd "$ROOT" && npx tsc -p tsconfig.json)
}
