#!/usr/bin/env bash
# The whole test suite: lint and the release config check, every Go test
# with the race detector, with a throwaway PostgreSQL so the PostgreSQL
# contract and end-to-end tests run too, then the bare-clone check and the
# fuzz targets. This is what `make test` and CI run.
set -euo pipefail
cd "$(dirname "$0")/.."

# background CMD... runs CMD alongside the Go tests, its output kept until
# await prints it; await fails if any of them failed.
pids=() logs=()
trap 'rm -f "${logs[@]}"' EXIT
background() {
	local log
	log=$(mktemp "${TMPDIR:-/tmp}/vds-test.XXXXXX")
	"$@" >"$log" 2>&1 &
	pids+=($!) logs+=("$log")
}
await() {
	local status=0 i job_status
	for i in "${!pids[@]}"; do
		job_status=0
		wait "${pids[$i]}" || job_status=$?
		cat "${logs[$i]}" >&2
		if [ "$job_status" -ne 0 ]; then
			echo "test: the above failed alongside the Go tests" >&2
			status=1
		fi
	done
	return "$status"
}

# Lint and the release config check read the tree and write nothing the
# tests read, so they run alongside the tests, filling the cores while a
# test waits.
background bash -c 'scripts/lint.sh && scripts/release-check.sh'

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
trap 'scripts/pg-test-db.sh stop "$VDS_TEST_PGDIR"; rm -f "${logs[@]}"' EXIT

# The browser tests write a screenshot of every dashboard page here.
export VDS_SCREENSHOT_DIR="${VDS_SCREENSHOT_DIR:-$PWD/bin/screenshots}"
mkdir -p "$VDS_SCREENSHOT_DIR"

# A clone alone must pass: the tests that read data run again in a copy of
# the tracked files, with no local mirror beside it and an empty cache. It
# spends most of its time fetching and cutting the vPIC snapshot, little of
# it on the CPU, so it runs alongside the race-enabled tests too.
background scripts/test-bare-clone.sh

# The race detector sleeps 1 s at every exit by default: each test binary
# and every race-built vds the tests start would pay it.
export GORACE="atexit_sleep_ms=0${GORACE:+ $GORACE}"
# -race also turns on checkptr, which checks every unsafe.Pointer
# conversion; in modernc's SQLite, C translated to Go, that check was half
# the CPU of the SQLite-heavy tests. It stays on for our code, and the race
# detector stays on everywhere.
tests=0
go test -race -gcflags='modernc.org/...=-d=checkptr=0' -count=1 -timeout 20m "$@" ./... || tests=$?
await
[ "$tests" -eq 0 ] || exit "$tests"

# Then every fuzz target of the module, FUZZTIME (5000 inputs) each, so a target
# anyone adds runs in CI too.
scripts/fuzz.sh
