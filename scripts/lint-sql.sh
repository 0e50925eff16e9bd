#!/usr/bin/env bash
# lint-sql.sh: check every golden SQL statement of internal/oraclesql with
# ../shared/tools/oracle-sql-lint (a third-party PL/SQL grammar, SPEC §12).
# Run from anywhere; paths are taken from the repository root. Exits 0 with
# a message when the tool is absent (a clone without ../shared), non-zero
# when any statement is rejected. Files under testdata/nolint hold shapes
# the grammar cannot parse although Oracle does; they are not linted.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tool=../shared/tools/oracle-sql-lint/oracle-sql-lint
if [ ! -x "$tool" ]; then
  echo "oracle-sql-lint not found: SQL lint skipped"
  exit 0
fi
shopt -s nullglob
files=(internal/oraclesql/testdata/*.sql)
if [ ${#files[@]} -eq 0 ]; then
  echo "lint-sql: no golden files in internal/oraclesql/testdata" >&2
  exit 1
fi
exec "$tool" "${files[@]}"
