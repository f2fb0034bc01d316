#!/usr/bin/env bash
# Starts or stops a throwaway PostgreSQL cluster for the test suite, from the
# server binaries installed on this machine (the Debian package `postgresql`
# is installed when they are missing and we are root).
#
#   eval "$(scripts/pg-test-db.sh start)"   # exports VDS_TEST_DATABASE_URL and VDS_TEST_PGDIR
#   scripts/pg-test-db.sh stop "$VDS_TEST_PGDIR"
#
# The cluster listens on a Unix socket inside its own temporary directory
# only, so it never collides with another server or another test run.
set -euo pipefail

find_bin() {
	ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

install_server() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "pg-test-db: PostgreSQL server binaries not found and not root; install the postgresql package" >&2
		exit 1
	fi
	echo "pg-test-db: installing the postgresql package" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq postgresql >&2
}

# as_owner runs a command as the cluster owner: postgres when we are root
# (initdb refuses to run as root), else ourselves.
as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

start() {
	local bin dir
	bin=$(find_bin)
	if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
		install_server
		bin=$(find_bin)
	fi
	dir=$(mktemp -d /tmp/vds-pg.XXXXXX)
	if [ "$(id -u)" -eq 0 ]; then
		chown postgres:postgres "$dir"
	fi
	as_owner "$bin/initdb" -D "$dir/data" -U vds -A trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 ||
		{ cat "$dir/initdb.log" >&2; exit 1; }
	# fsync off: a test cluster that dies is thrown away anyway.
	as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
		-o "-c listen_addresses='' -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
		start >&2 || { cat "$dir/server.log" >&2; exit 1; }
	echo "export VDS_TEST_PGDIR=$dir"
	echo "export VDS_TEST_DATABASE_URL='postgres://vds@/postgres?host=$dir&sslmode=disable'"
}

stop() {
	local dir=${1:?usage: pg-test-db.sh stop DIR}
	local bin
	bin=$(find_bin)
	if [ -d "$dir/data" ]; then
		as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	rm -rf "$dir"
}

case "${1:-}" in
start) start ;;
stop) stop "${2:-}" ;;
*)
	echo "usage: $0 start | stop DIR" >&2
	exit 2
	;;
esac
