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

# fresh_db STORE prints the URL of an empty database of that store.
fresh_db() {
	case $1 in
	sqlite)
		rm -f "$work"/scale.db*
		echo "sqlite:$work/scale.db"
		;;
	postgres)
		PGOPTIONS="-c client_min_messages=warning" "$psql" -q "$pgurl" -c 'DROP DATABASE IF EXISTS vds_scale' -c 'CREATE DATABASE vds_scale' >&2
		# The same server and options, the database swapped.
		echo "$pgurl" | sed -E 's#^(postgres(ql)?://[^/]*/)[^?]*#\1vds_scale#'
		;;
	*)
		echo "scale: unknown store $1 (sqlite, postgres)" >&2
		exit 1
		;;
	esac
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

# latency URL prints "p50/p99" of an open-loop run, ms.
latency() {
	"$work/load" -json -url "$1" -rate "$RATE" -d "$DURATION" -H "Authorization: Bearer $token" -H 'Accept-Encoding: gzip' >"$work/load.json"
	python3 - "$work/load.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
bad = f" ({r['errors']} errors)" if r["errors"] else ""
print(f"{r['p50_ms']:.2f}/{r['p99_ms']:.2f}{bad}")
PY
}

printf 'open loop at %s requests/s for %s per endpoint, gzip; p50/p99 in ms\n\n' "$RATE" "$DURATION"
printf '| cars | store | ingest s [cpu] | ingest peak RSS MiB | start-up s [cpu] | peak RSS MiB | RSS MiB | list | q | makes | models |\n'
printf '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for n in $SIZES; do
	file=""
	if [ "$n" != demo ]; then
		file="$work/cars-$n.csv"
		[ -f "$file" ] || "$work/catalog" -cars "$n" -seed "$SEED" -o "$file"
	fi
	for st in $STORES; do
		VDS_DATABASE_URL=$(fresh_db "$st")
		export VDS_DATABASE_URL
		"$work/vds" ingest >/dev/null 2>&1
		"$work/vds" accounts create --email scale@example.com --plan bench >/dev/null
		token=$("$work/vds" tokens create --email scale@example.com --json | sed -n 's/.*"token": "\(vds_[a-z2-7]*\)".*/\1/p')
		ingest="-" ingest_rss="-"
		if [ -n "$file" ]; then
			/usr/bin/time -f '%e %U %S %M' -o "$work/ingest.time" "$work/vds" ingest --source "$file" --allow-removals >/dev/null 2>"$work/ingest.log" ||
				{ cat "$work/ingest.log" >&2; exit 1; }
			read -r wall user sys rss <"$work/ingest.time"
			ingest=$(awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f [%.1f]", w, u + s }')
			ingest_rss=$(mib "$rss")
		fi
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
		cpu=$(cpu_s "$pid")
		base="http://127.0.0.1:$port"
		list=$(latency "$base/v1/cars?make=Toyota")
		q=$(latency "$base/v1/cars?q=camry")
		makes=$(latency "$base/v1/cars/makes")
		models=$(latency "$base/v1/cars/models?make=Toyota")
		hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
		rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
		kill "$pid"
		wait "$pid" 2>/dev/null || true
		printf '| %s | %s | %s | %s | %s [%s] | %s | %s | %s | %s | %s | %s |\n' "$n" "$st" "$ingest" "$ingest_rss" "$ready" "$cpu" \
			"$(mib "$hwm")" "$(mib "$rss")" "$list" "$q" "$makes" "$models"
	done
done
