#!/usr/bin/env bash
# Starts everything: installs what is missing, starts MariaDB and Temporal (with its Web UI),
# migrates, starts the API and the worker, and prints the URLs and an admin token.
# A second run skips the installs and reuses whatever already runs.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
setup_all
ensure_database "$MYSQL_DATABASE"
(cd "$ROOT" && node dist/platform/db/migrate.js)

: "${PORT:=8080}"
export PORT

# The tour's demo servers (docs/tour.md): a website to import on 8765 and an integration's tunnel on 8766, the only
# loopback destinations the service may fetch here (the guarded fetch refuses every other). Production and docker-compose.yml never set it.
: "${FETCH_ALLOW_DESTINATIONS=127.0.0.1:8765,127.0.0.1:8766}"
export FETCH_ALLOW_DESTINATIONS

# a bounded old generation makes V8 collect before the heap grows to 4 times what is live (docs/decisions/performance.md);
# for the worker, so that a job's garbage does not grow its memory with the content (docs/benchmarks.md)
start_process worker dist/worker/main.js --max-old-space-size=512
# a larger young generation collects short-lived request garbage less often
start_process api dist/api/server.js --max-old-space-size=512 --max-semi-space-size=32
wait_port 127.0.0.1 "$PORT" API 30

BOOT=$(cd "$ROOT" && node dist/cli/main.js bootstrap --json --email "${BOOTSTRAP_EMAIL:-admin@example.com}" --org "${BOOTSTRAP_ORG:-Docs Platform}")
TOKEN=$(printf '%s' "$BOOT" | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0,"utf8")).token)')
ORG=$(printf '%s' "$BOOT" | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0,"utf8")).organizationId)')

if local_temporal; then TEMPORAL_LINE="Temporal UI:  http://127.0.0.1:$TEMPORAL_UI_PORT"
else TEMPORAL_LINE="Temporal:     $TEMPORAL_ADDRESS, namespace ${TEMPORAL_NAMESPACE:-default} (an existing cluster: use its own Web UI)"; fi
if local_smtp; then MAIL_LINE="Mail UI:      $MAILPIT_URL   (Mailpit: every mail the service sends lands here)"
else MAIL_LINE="Mail:         sent through your SMTP server (SMTP_URL)"; fi

cat <<MSG

API:          http://127.0.0.1:$PORT   (reference: http://127.0.0.1:$PORT/docs, OpenAPI: http://127.0.0.1:$PORT/v1/openapi.json)
$TEMPORAL_LINE
$MAIL_LINE
Organization: $ORG
Admin token:  $TOKEN

Try:  curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:$PORT/v1/orgs/$ORG
Logs: $DATA/log/   Metrics: http://127.0.0.1:${METRICS_PORT:-9464}/metrics (API), http://127.0.0.1:${WORKER_METRICS_PORT:-9465}/metrics (worker)
Stop: bash scripts/stop.sh
MSG
