#!/usr/bin/env bash
# The whole test suite: the static checks (format, lint, layering) first, so a finding fails in seconds,
# then the same set-up as start.sh and jest on a test database against the real servers.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
install_node_modules
cd "$ROOT"
npm run -s format:check
npm run -s lint
npm run -s check:layers
setup_all
install_chromium
export MYSQL_DATABASE="${TEST_MYSQL_DATABASE:-docs_test}"
ensure_database "$MYSQL_DATABASE"
cd "$ROOT"
status=0
npx jest --ci --json --outputFile="$DATA/jest-results.json" "$@" || status=$?
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
' "$DATA/jest-results.json" || true
exit $status
