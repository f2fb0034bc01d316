#!/usr/bin/env bash
# The whole test suite: lint and the release config check, every Go test
# with the race detector, with a throwaway PostgreSQL so the PostgreSQL
# contract and end-to-end tests run too, then the bare-clone check and the
# fuzz targets. This is what `make test` and CI run.
set -euo pipefail
cd "$(dirname "$0")/.."

# Lint and the release config check read the tree and write nothing the
# tests read, so they run alongside the tests, filling the cores while a
# test waits; their output comes after the tests', and a failure fails the
# suite.
checks_log=$(mktemp "${TMPDIR:-/tmp}/vds-checks.XXXXXX")
{ scripts/lint.sh && scripts/release-check.sh; } >"$checks_log" 2>&1 &
checks_pid=$!
trap 'rm -f "$checks_log"' EXIT
checks() {
	local status=0
	wait "$checks_pid" || status=$?
	cat "$checks_log" >&2
	rm -f "$checks_log"
	if [ "$status" -ne 0 ]; then
		echo "test: lint or the release config check failed" >&2
	fi
	return "$status"
}

# The dashboard's browser tests drive Debian's Chromium, and the image test
# (cmd/vds TestImage) builds the container image with podman. Under CI they
# must run, so missing packages are installed.
if [ -n "${CI:-}" ]; then
	missing=()
	[ -x /usr/bin/chromium ] || missing+=(chromium)
	command -v podman >/dev/null || missing+=(podman)
	if [ "${#missing[@]}" -gt 0 ]; then
		if [ "$(id -u)" -eq 0 ]; then
			echo "test: installing ${missing[*]} for the browser and image tests" >&2
			export DEBIAN_FRONTEND=noninteractive
			apt-get update -qq >&2
			apt-get install -y -qq "${missing[@]}" >&2
		else
			echo "test: ${missing[*]} missing and we are not root: the browser or image tests will fail under CI" >&2
		fi
	fi
fi

# The TypeScript client check (internal/httpapi) runs openapi-typescript and
# tsc under Node, and the test data's vPIC snapshot comes from npm; under CI
# they must run, so Debian's Node and npm are installed when missing.
if [ -n "${CI:-}" ] && ! { command -v node && command -v npm; } >/dev/null; then
	if [ "$(id -u)" -eq 0 ]; then
		echo "test: installing nodejs and npm for the TypeScript client check and the vPIC test data" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >&2
		apt-get install -y -qq nodejs npm >&2
	else
		echo "test: node or npm is missing and we are not root: the TypeScript client check will fail under CI" >&2
	fi
fi

eval "$(scripts/pg-test-db.sh start)"
trap 'scripts/pg-test-db.sh stop "$VDS_TEST_PGDIR"; rm -f "$checks_log"' EXIT

# The browser tests write a screenshot of every dashboard page here.
export VDS_SCREENSHOT_DIR="${VDS_SCREENSHOT_DIR:-$PWD/bin/screenshots}"
mkdir -p "$VDS_SCREENSHOT_DIR"

# The race detector sleeps 1 s at every exit by default: each test binary
# and every race-built vds the tests start would pay it.
export GORACE="atexit_sleep_ms=0${GORACE:+ $GORACE}"
tests=0
go test -race -count=1 -timeout 20m "$@" ./... || tests=$?
checks
[ "$tests" -eq 0 ] || exit "$tests"

# A clone alone must pass: the tests that read data run again in a copy of
# the tracked files, with no local mirror beside it and an empty cache.
scripts/test-bare-clone.sh

# Then every fuzz target of the module, FUZZTIME (5000 inputs) each, so a target
# anyone adds runs in CI too.
scripts/fuzz.sh
