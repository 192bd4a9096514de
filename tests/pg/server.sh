# server.sh: a PostgreSQL server for one test script, sourced by it
# (issue #22).  pg_start makes a cluster in a new temporary directory and
# starts it listening only on a Unix socket in that directory, never on
# the network; it sets PGHOST, PGUSER and PGDATABASE for psql and libpq,
# and arranges (trap on EXIT, INT, TERM) that the server is stopped and
# the directory removed however the script ends.  PostgreSQL's initdb
# refuses to run as root, so as root the server runs as the unprivileged
# user nobody (through setpriv); otherwise as the caller.
#
# pg_start returns 1 with a line on standard error when no PostgreSQL
# server is installed (tools/install-deps.sh installs it).

pg_bindir() {
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
	done
	return 1
}

# as_owner CMD...: runs CMD as the server's user.
as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
	else
		"$@"
	fi
}

pg_stop() {
	if [ -n "${pg_dir:-}" ] && [ -d "$pg_dir" ]; then
		if [ -f "$pg_dir/data/postmaster.pid" ]; then
			as_owner "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate \
			    -w stop >/dev/null 2>&1 || true
		fi
		rm -rf "$pg_dir"
	fi
	pg_dir=
}

pg_start() {
	if ! pg_bin=$(pg_bindir); then
		echo "no PostgreSQL server is installed" \
		    "(tools/install-deps.sh installs postgresql)" >&2
		return 1
	fi
	pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/refkit-pg.XXXXXX")
	trap 'pg_stop' EXIT
	trap 'pg_stop; exit 130' INT
	trap 'pg_stop; exit 143' TERM
	chmod 755 "$pg_dir"
	[ "$(id -u)" -ne 0 ] || chown nobody:nogroup "$pg_dir"
	if ! as_owner "$pg_bin/initdb" -D "$pg_dir/data" -U refkit -A trust \
	    -E UTF8 --no-locale --no-sync >"$pg_dir/initdb.log" 2>&1; then
		echo "initdb failed: $(tail -3 "$pg_dir/initdb.log")" >&2
		return 1
	fi
	if ! as_owner "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w \
	    -o "-k $pg_dir -c listen_addresses= -F" start >/dev/null 2>&1; then
		echo "the server did not start: $(tail -3 "$pg_dir/log")" >&2
		return 1
	fi
	export PGHOST="$pg_dir" PGUSER=refkit PGDATABASE=postgres
	unset PGPORT PGPASSWORD PGSERVICE
}
