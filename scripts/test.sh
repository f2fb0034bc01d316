#!/usr/bin/env bash
# The whole test suite: lint and the release config check, then every Go
# test with the race detector,
# with a throwaway PostgreSQL so the PostgreSQL contract and end-to-end tests
# run too. This is what `make test` and CI run.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/lint.sh
scripts/release-check.sh

eval "$(scripts/pg-test-db.sh start)"
trap 'scripts/pg-test-db.sh stop "$VDS_TEST_PGDIR"' EXIT

go test -race -count=1 -timeout 20m "$@" ./...
