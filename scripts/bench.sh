#!/usr/bin/env bash
# The benchmarks (docs/benchmarks.md): the same set-up as start.sh, then bench/content.ts (the default,
# or `content`), bench/http.ts (`http`), bench/openapi.ts (`openapi`), bench/pdf.ts (`pdf`), bench/import.ts
# (`import`), bench/translation.ts (`translation`) bench/purge.ts (`purge`), bench/revision-changes.ts (`revision-changes`)
# or bench/replicas.ts (`replicas`: two APIs and two workers, `--seconds N --rate N`) on its own database, which the
# benchmark wipes and migrates first; the arguments after the name are the benchmark's (`--pages N`).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
case "${1:-content}" in
  content) export MYSQL_DATABASE="${BENCH_MYSQL_DATABASE:-docs_bench}" ;;
  http) export MYSQL_DATABASE="${BENCH_HTTP_MYSQL_DATABASE:-docs_bench_http}" ;;
  openapi) export MYSQL_DATABASE="${BENCH_OPENAPI_MYSQL_DATABASE:-docs_bench_openapi}" ;;
  pdf) export MYSQL_DATABASE="${BENCH_PDF_MYSQL_DATABASE:-docs_bench_pdf}" ;;
  import) export MYSQL_DATABASE="${BENCH_IMPORT_MYSQL_DATABASE:-docs_bench_import}" ;;
  translation) export MYSQL_DATABASE="${BENCH_TRANSLATION_MYSQL_DATABASE:-docs_bench_translation}" ;;
  purge) export MYSQL_DATABASE="${BENCH_PURGE_MYSQL_DATABASE:-docs_bench_purge}" ;;
  zip) export MYSQL_DATABASE="${BENCH_ZIP_MYSQL_DATABASE:-docs_bench_zip}" ;;
  revision-changes) export MYSQL_DATABASE="${BENCH_CHANGES_MYSQL_DATABASE:-docs_bench_changes}" ;;
  replicas) export MYSQL_DATABASE="${BENCH_REPLICAS_MYSQL_DATABASE:-docs_bench_replicas}" ;;
  *) echo "usage: bash scripts/bench.sh [content|http|openapi|pdf|import|zip|translation|purge|revision-changes|replicas] [--pages N] …" >&2; exit 2 ;;
esac
setup_all
ensure_database "$MYSQL_DATABASE"
cd "$ROOT"
node "dist/bench/${1:-content}.js" "${@:2}"
