#!/usr/bin/env bash
# Fuzzes every operation of /v1/openapi.json with schemathesis (docs/architecture.md#tests), after `npm start`:
# installs schemathesis into .venv (git-ignored), bootstraps an organization of its own with the operator CLI
# (a unique title and e-mail per run), seeds one resource of each kind in it (scripts/fuzz.py seed) so path
# parameters can draw real ids, then runs schemathesis with the organization's admin token and writes
#   .data/fuzz/<stamp>/           schemathesis' reports (NDJSON with every request and answer, JSON, JUnit)
#   bench/results/fuzz-<date>.md  the summary: requests, 5xx, response-schema failures, valid requests refused
# It is not part of `npm test`. Exit code: 0 when no answer was a 5xx, 1 otherwise.
# Settings: FUZZ_API_URL (default http://127.0.0.1:$PORT, PORT 8080), FUZZ_MAX_EXAMPLES (per operation and
# phase, default 10), FUZZ_WORKERS (default 1: with more, Python 3.11's parser fails now and then under
# schemathesis' threads, "AST constructor recursion depth mismatch"; the API's rate limit sets the pace anyway),
# FUZZ_SEED, FUZZ_CHECKS and FUZZ_PHASES (defaults below).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

SCHEMATHESIS_VERSION=4.32.5
API="${FUZZ_API_URL:-http://127.0.0.1:${PORT:-8080}}"
API="${API%/}"
CHECKS="${FUZZ_CHECKS:-not_a_server_error,response_schema_conformance,positive_data_acceptance,status_code_conformance,content_type_conformance}"
PHASES="${FUZZ_PHASES:-examples,coverage,fuzzing,stateful}"
STAMP="$(date -u +%Y%m%dT%H%M%SZ)-$$"
OUT="$DATA/fuzz/$STAMP"
SUMMARY="$ROOT/bench/results/fuzz-$(date -u +%Y-%m-%d).md"

if ! curl -fsS -o /dev/null "$API/v1/openapi.json"; then
  log "ERROR: no API answers at $API/v1/openapi.json; run \`npm start\` first (or set FUZZ_API_URL)"
  exit 1
fi
[ -f dist/cli/main.js ] || { log "ERROR: dist/cli/main.js is missing; run \`npm start\` (or npm run build) first"; exit 1; }

VENV="$ROOT/.venv"
if [ ! -x "$VENV/bin/schemathesis" ] || [ "$("$VENV/bin/schemathesis" --version 2>/dev/null)" != "schemathesis, version $SCHEMATHESIS_VERSION" ]; then
  log "installing schemathesis $SCHEMATHESIS_VERSION from PyPI into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

mkdir -p "$OUT"
json_field() { node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(0,"utf8"))[process.argv[1]]))' "$1"; }
# the CLI uses the database settings of lib.sh, the same as the API of `npm start`
BOOT=$(node dist/cli/main.js bootstrap --json --email "fuzz-$STAMP@example.com" --org "Fuzz $STAMP")
# the token reaches fuzz.py and schemathesis through the environment, not their command lines (ps shows those)
FUZZ_TOKEN=$(printf '%s' "$BOOT" | json_field token)
export FUZZ_TOKEN
ORG=$(printf '%s' "$BOOT" | json_field organizationId)
ADMIN=$(printf '%s' "$BOOT" | json_field userId)
MEMBER=$(node dist/cli/main.js user add --json --org "$ORG" --email "fuzz-$STAMP-member@example.com" --role edit | json_field userId)
VICTIM=$(node dist/cli/main.js user add --json --org "$ORG" --email "fuzz-$STAMP-victim@example.com" --role read | json_field userId)
log "organization $ORG (Fuzz $STAMP); seeding resources"
"$VENV/bin/python" scripts/fuzz.py seed "$API" "$ORG" "$ADMIN" "$MEMBER" "$VICTIM" "$OUT/schemathesis.toml" >"$OUT/seed.json"
log "seeded: $(cat "$OUT/seed.json")"

log "fuzzing $API (reports in $OUT)"
set +e
# run from $OUT: schemathesis keeps its caches (.hypothesis, .schemathesis) in the working directory.
# --rate-limit auto: a 429 (the API's rate limits, docs/decisions.md) waits its Retry-After and retries;
# --request-timeout 70: an import answers within IMPORT_WAIT_SECONDS (50 by default), however slow its source.
(cd "$OUT" && "$VENV/bin/schemathesis" --config-file schemathesis.toml run "$API/v1/openapi.json" \
  --url "$API" \
  --checks "$CHECKS" --phases "$PHASES" --max-examples "${FUZZ_MAX_EXAMPLES:-10}" \
  --workers "${FUZZ_WORKERS:-1}" ${FUZZ_SEED:+--seed "$FUZZ_SEED"} --rate-limit auto --request-timeout 70 \
  --suppress-health-check all --continue-on-failure --no-shrink --no-color \
  --report ndjson,json,junit --report-dir "$OUT" >"$OUT/schemathesis.txt" 2>&1)
STATUS=$?
set -e
NDJSON=$(ls "$OUT"/ndjson-*.ndjson 2>/dev/null | head -1 || true)
if [ -z "$NDJSON" ]; then
  tail -30 "$OUT/schemathesis.txt" >&2
  log "ERROR: schemathesis wrote no report (exit $STATUS); its output: $OUT/schemathesis.txt"
  exit 1
fi
tail -25 "$OUT/schemathesis.txt"
"$VENV/bin/python" scripts/fuzz.py summary "$OUT" "$SUMMARY" "$API"
cp "$SUMMARY" "$OUT/summary.md"
log "summary: $SUMMARY; every request and answer: $OUT"
grep -q '^| 5xx answers | 0 |$' "$SUMMARY"
