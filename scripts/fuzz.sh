#!/usr/bin/env bash
# Runs every Go fuzz target of the module briefly: FUZZTIME each (default
# 5000 inputs), one target at a time, since go test -fuzz takes exactly one.
# New targets are found by name, so nothing here needs editing when one is
# added. A failure leaves the input under the package's testdata/fuzz/.
#
# The budget is a count, not a duration: with a duration, Go 1.26's fuzz
# coordinator can report "context deadline exceeded" as a failure when a
# busy worker misses the deadline (golang/go#75804, fixed in Go 1.27); a
# count has no deadline to race. 5000 inputs take 1-10 s per target here.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime="${FUZZTIME:-5000x}"
# The targets are read from the test files go list names for each package,
# without building a test binary just to list them.
targets=$(go list -f '{{$p := .ImportPath}}{{$d := .Dir}}{{range .TestGoFiles}}{{$p}} {{$d}}/{{.}}
{{end}}{{range .XTestGoFiles}}{{$p}} {{$d}}/{{.}}
{{end}}' ./... | while read -r pkg file; do
	sed -nE 's/^func (Fuzz[A-Za-z0-9_]*)\(\w+ \*testing\.F\).*/\1/p' "$file" | sed "s|^|$pkg |"
done)
if [ -z "$targets" ]; then
	echo "fuzz: no Fuzz targets found" >&2
	exit 1
fi
while read -r pkg name; do
	echo "fuzz: $name in $pkg for $fuzztime" >&2
	go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg"
done <<<"$targets"
