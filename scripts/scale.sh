#!/usr/bin/env bash
# make scale: what a growing car catalog costs. For each size (SCALE_SIZES,
# car counts; "demo" is the demo catalog alone) and store (SCALE_STORES:
# sqlite, postgres) it writes a synthetic catalog (go run
# ./internal/bench/catalog), ingests it over the demo into a fresh database
# and times that, starts vds serve and times it to /readyz answering, and
# reads the server's memory from /proc (VmHWM: peak, VmRSS: now, after the
# load). Then internal/bench/load drives a list, a q search and the two car
# taxonomies in turn, open loop at SCALE_RATE requests/s for SCALE_DURATION
# each, with gzip as real clients ask: p50/p99 in ms, from each request's
# scheduled start.
# Times are wall seconds and, in brackets, the CPU seconds the process used:
# on a busy machine the second says more. PostgreSQL is
# scripts/pg-test-db.sh's cluster, started and stopped here unless
# SCALE_DATABASE_URL names a server whose database the runs may drop.
# Prints one markdown row per run (docs/architecture.md#cost-as-the-catalog-grows).
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SCALE_SIZES:-demo 10000 100000 1000000}
STORES=${SCALE_STORES:-sqlite postgres}
SEED=${SCALE_SEED:-1}
RATE=${SCALE_RATE:-1000}
DURATION=${SCALE_DURATION:-10s}

work=$(mktemp -d /tmp/vds-scale.XXXXXX)
pids=()
pgdir=""
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	if [ -n "$pgdir" ]; then scripts/pg-test-db.sh stop "$pgdir" >/dev/null 2>&1 || true; fi
	rm -rf "$work"
}
trap cleanup EXIT

CGO_ENABLED=0 go build -o "$work/vds" ./cmd/vds
go build -o "$work/catalog" ./internal/bench/catalog
go build -o "$work/load" ./internal/bench/load

pgurl=${SCALE_DATABASE_URL:-}
if [[ " $STORES " == *" postgres "* && -z "$pgurl" ]]; then
	eval "$(scripts/pg-test-db.sh start)"
	pgdir=$VDS_TEST_PGDIR
	pgurl=$VDS_TEST_DATABASE_URL
fi
psql=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)/psql
command -v "$psql" >/dev/null || psql=psql

# fresh_db STORE NAME prints the URL of an empty database NAME of that store.
fresh_db() {
	case $1 in
	sqlite)
		rm -f "$work/$2".db*
		echo "sqlite:$work/$2.db"
		;;
	postgres)
		PGOPTIONS="-c client_min_messages=warning" "$psql" -q "$pgurl" -c "DROP DATABASE IF EXISTS $2" -c "CREATE DATABASE $2" >&2
		# The same server and options, the database swapped.
		echo "$pgurl" | sed -E "s#^(postgres(ql)?://[^/]*/)[^?]*#\\1$2#"
		;;
	*)
		echo "scale: unknown store $1 (sqlite, postgres)" >&2
		exit 1
		;;
	esac
}

# prepare ingests the demo into $VDS_DATABASE_URL and prints a token of an
# unlimited account.
prepare() {
	"$work/vds" ingest >/dev/null 2>&1
	"$work/vds" accounts create --email scale@example.com --plan bench >/dev/null
	"$work/vds" tokens create --email scale@example.com --json | sed -n 's/.*"token": "\(vds_[a-z2-7]*\)".*/\1/p'
}

# serve starts vds serve on $VDS_DATABASE_URL and waits for /readyz: it
# sets pid, base and ready (wall seconds from the start).
serve() {
	local port start
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	start=$(date +%s.%N)
	"$work/vds" serve --addr "127.0.0.1:$port" >/dev/null 2>"$work/serve.log" &
	pid=$!
	pids+=("$pid")
	until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
		kill -0 "$pid" 2>/dev/null || { cat "$work/serve.log" >&2; exit 1; }
		sleep 0.05
	done
	ready=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	base="http://127.0.0.1:$port"
}

# cpu_s PID prints the CPU seconds (user + system) the process has used.
cpu_s() {
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / hz }' "/proc/$1/stat"
}

mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
mkdir -p "$XDG_CONFIG_HOME/vds"
cat >"$XDG_CONFIG_HOME/vds/config.yaml" <<'YAML'
plans:
  bench: {rate_per_minute: 0, monthly_quota: 0, api_access: true}
YAML

# latency BASE TOKEN PATH prints p50 and p99 of an open-loop run, ms.
latency() {
	"$work/load" -json -url "$1$3" -rate "$RATE" -d "$DURATION" -H "Authorization: Bearer $2" -H 'Accept-Encoding: gzip' >"$work/load.json"
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["p50_ms"], r["p99_ms"], r["errors"])' "$work/load.json"
}

# compare PATH runs PATH on the demo server, then on the measured one, and
# prints the measured one's p50/p99 and its p99 over the demo's.
compare() {
	local ref got
	# Warm-up: connections, the answers' caches, first encodings.
	DURATION=1s latency "$refbase" "$reftoken" "$1" >/dev/null
	DURATION=1s latency "$base" "$token" "$1" >/dev/null
	ref=$(latency "$refbase" "$reftoken" "$1")
	got=$(latency "$base" "$token" "$1")
	awk -v r="$ref" -v g="$got" 'BEGIN { split(r, a, " "); split(g, b, " ");
		printf "%.2f/%.2f (%.1fx)%s", b[1], b[2], b[2] / a[2], (a[3] + b[3] > 0 ? " errors!" : "") }'
}

printf 'open loop at %s requests/s for %s per endpoint and server, gzip: p50/p99 in ms, (p99 over a demo server'"'"'s in the same minute)\n\n' "$RATE" "$DURATION"
printf '| cars | store | ingest s [cpu] | ingest peak RSS MiB | start-up s [cpu] | peak RSS MiB | RSS MiB | list | q | makes | models |\n'
printf '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for st in $STORES; do
	VDS_DATABASE_URL=$(fresh_db "$st" vds_scale_ref)
	export VDS_DATABASE_URL
	reftoken=$(prepare)
	serve
	refbase=$base refpid=$pid
	for n in $SIZES; do
		file=""
		if [ "$n" != demo ]; then
			file="$work/cars-$n.csv"
			[ -f "$file" ] || "$work/catalog" -cars "$n" -seed "$SEED" -o "$file"
		fi
		VDS_DATABASE_URL=$(fresh_db "$st" vds_scale)
		token=$(prepare)
		ingest="-" ingest_rss="-"
		if [ -n "$file" ]; then
			/usr/bin/time -f '%e %U %S %M' -o "$work/ingest.time" "$work/vds" ingest --source "$file" --allow-removals >/dev/null 2>"$work/ingest.log" ||
				{ cat "$work/ingest.log" >&2; exit 1; }
			read -r wall user sys rss <"$work/ingest.time"
			ingest=$(awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f [%.1f]", w, u + s }')
			ingest_rss=$(mib "$rss")
		fi
		serve
		cpu=$(cpu_s "$pid")
		list=$(compare "/v1/cars?make=Toyota")
		q=$(compare "/v1/cars?q=camry")
		makes=$(compare "/v1/cars/makes")
		models=$(compare "/v1/cars/models?make=Toyota")
		hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
		rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
		kill "$pid"
		wait "$pid" 2>/dev/null || true
		printf '| %s | %s | %s | %s | %s [%s] | %s | %s | %s | %s | %s | %s |\n' "$n" "$st" "$ingest" "$ingest_rss" "$ready" "$cpu" \
			"$(mib "$hwm")" "$(mib "$rss")" "$list" "$q" "$makes" "$models"
	done
	kill "$refpid"
	wait "$refpid" 2>/dev/null || true
done
