#!/usr/bin/env bash
# The content benchmark (docs/benchmarks.md): the same set-up as start.sh, then bench/content.ts
# on its own database, which it wipes and migrates first.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
setup_all
export MYSQL_DATABASE="${BENCH_MYSQL_DATABASE:-docs_bench}"
ensure_database "$MYSQL_DATABASE"
cd "$ROOT"
node dist/bench/content.js
