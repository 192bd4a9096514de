# server.sh: a PostgreSQL server for one test script, sourced by it
# (issue #22).  pg_start makes a cluster in a new temporary directory and
# starts it listening only on a Unix socket in that directory, never on
# the network; it sets PGHOST, PGUSER and PGDATABASE for psql and libpq,
# and arranges (trap on EXIT, HUP, INT, PIPE, TERM) that the server is
# stopped and the directory removed however the script ends.  PostgreSQL's initdb
# refuses to run as root, so as root the server runs as the unprivileged
# user nobody (through setpriv); otherwise as the caller.
#
# pg_start tcp listens on 127.0.0.1 as well (never on another address),
# on a free port, where a connection must give the password (SCRAM-SHA-256);
# the socket stays open without one for the harness.  It sets PGPORT (the
# socket's name has the port in it), and PG_TCP_PORT and PG_PASSWORD for
# the script, which names the password itself where a test needs it
# (PGPASSWORD is not set, so that a test of a wrong password is one).
#
# pg_crash stops the server at once (pg_ctl stop -m immediate: its
# processes killed, no checkpoint, so that it starts again by recovery, as
# after a crash); pg_resume starts it again, as it was.  pg_standby starts a hot standby copied
# from the server (pg_basebackup), read-only, on a socket of its own in
# the directory PG_STANDBY_HOST names; pg_stop stops it too.
#
# pg_bouncer starts PgBouncer (Debian's pgbouncer) in front of the
# server, in transaction mode, as the server's user, on a Unix socket
# only (PG_BOUNCER_HOST, a directory, and PG_BOUNCER_PORT), with at most
# PG_BOUNCER_POOL (default 4) connections to the server for all its
# clients (at most PG_BOUNCER_CLIENTS of them, default 1000), whoever
# they say they are; pg_stop stops it too.  Returns 1
# with a line on standard error when it is not installed or does not
# start.
#
# pg_start returns 1 with a line on standard error when no PostgreSQL
# server is installed (tools/install-deps.sh installs it).
#
# The tests' server does not wait for the disk (fsync off, -F): a test
# checks what is written, and a crash test kills the server, not the
# machine.  PG_FSYNC=on keeps the server's default, as a convention's
# server has it, for a benchmark whose figures count the disk's time too
# (bench/pg-import.sh).
#
# What the scripts on a server share, so that none copies it:
#   pg_setup NAME [tcp]  the start of a test script: its count of checks
#                        (tests/lib/tally.sh: ok, bad, tally_done; its
#                        failures named pg/NAME), the server (pg_start),
#                        and PG_WORK, a directory of the script's own that
#                        goes with the server's; a server that does not
#                        start fails the script there;
#   pg_tcp_db NAME       a new database for GMs over TCP (pg_start tcp):
#                        REFKIT_DB its URI with the password, PG_SHOWN the
#                        same as the tools show it, without;
#   pg_q DB SQL          SQL's rows from DB, one a line, columns joined by
#                        '|', no header (DB a name or a connection string);
#   pg_until DB SQL [WANT [TENTHS]]  polls SQL until its answer is WANT
#                        (default t), every tenth of a second, at most
#                        TENTHS times (default 600, a minute): returns 1
#                        then, so that what never comes fails a test
#                        instead of hanging it; pg_wait_for FAILURE DB SQL
#                        [WANT] is the same with bad FAILURE on time out;
#   pg_hold DB SQL       a psql session (application_name holder) that
#                        runs BEGIN and SQL on DB, a lock taken, and keeps
#                        the transaction open; it returns once SQL is
#                        done; pg_release [SQL] sends SQL (default COMMIT;
#                        '' for a session the server's crash ended) and
#                        waits for the session to end;
#   pg_dump_of DB [OPTION...]  pg_dump of DB (-a its rows, -s its schema)
#                        less its random \restrict key and the places of
#                        its sequences (a transaction rolled back moves
#                        one on, and writes nothing).

. "$top/tests/lib/tally.sh"

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
		if [ -f "$pg_dir/bouncer/pgbouncer.pid" ]; then
			kill "$(cat "$pg_dir/bouncer/pgbouncer.pid")" 2>/dev/null
			sleep 0.2
		fi
		for d in "$pg_dir"/standby "$pg_dir"/data; do
			[ -f "$d/postmaster.pid" ] || continue
			as_owner "$pg_bin/pg_ctl" -D "$d" -m immediate \
			    -w stop >/dev/null 2>&1 || true
		done
		rm -rf "$pg_dir"
	fi
	pg_dir=
}

# pg_run_server LOG OPTIONS: starts the cluster in $pg_dir/data.
pg_run_server() {
	as_owner "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/$1" -w \
	    -o "$2" start >"$pg_dir/pg_ctl.out" 2>&1
}

# pg_why LOG: the last lines the server, or else pg_ctl, said.
pg_why() {
	tail -3 "$pg_dir/$1" 2>/dev/null || tail -3 "$pg_dir/pg_ctl.out"
}

# A port from the system's generator, in the range no service is given.
pg_random_port() {
	od -An -N2 -tu2 /dev/urandom | awk '{ print 20000 + $1 % 30000 }'
}

pg_start() {
	pg_tcp=${1:-}
	if ! pg_bin=$(pg_bindir); then
		echo "no PostgreSQL server is installed" \
		    "(tools/install-deps.sh installs postgresql)" >&2
		return 1
	fi
	pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/refkit-pg.XXXXXX")
	trap 'pg_stop' EXIT
	trap 'pg_stop; exit 129' HUP
	trap 'pg_stop; exit 130' INT
	trap 'pg_stop; exit 141' PIPE
	trap 'pg_stop; exit 143' TERM
	chmod 755 "$pg_dir"
	[ "$(id -u)" -ne 0 ] || chown nobody:nogroup "$pg_dir"
	if [ "$pg_tcp" = tcp ]; then
		PG_PASSWORD=pw-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
		# initdb reads the password from a file the server's user
		# can read, gone once the cluster is made.
		printf '%s\n' "$PG_PASSWORD" >"$pg_dir/pw"
		[ "$(id -u)" -ne 0 ] || chown nobody:nogroup "$pg_dir/pw"
		chmod 600 "$pg_dir/pw"
		set -- --auth-local=trust --auth-host=scram-sha-256 \
		    --pwfile="$pg_dir/pw"
	else
		set -- -A trust
	fi
	if ! as_owner "$pg_bin/initdb" -D "$pg_dir/data" -U refkit "$@" \
	    -E UTF8 --no-locale --no-sync >"$pg_dir/initdb.log" 2>&1; then
		echo "initdb failed: $(tail -3 "$pg_dir/initdb.log")" >&2
		return 1
	fi
	rm -f "$pg_dir/pw"
	pg_nosync=-F
	[ "${PG_FSYNC:-off}" = on ] && pg_nosync=
	if [ "$pg_tcp" != tcp ]; then
		pg_opts="-k $pg_dir -c listen_addresses= $pg_nosync"
		if ! pg_run_server log "$pg_opts"; then
			echo "the server did not start: $(pg_why log)" >&2
			return 1
		fi
		export PGHOST="$pg_dir" PGUSER=refkit PGDATABASE=postgres
		unset PGPORT PGPASSWORD PGSERVICE
		return 0
	fi
	# A port another program holds fails the start ("could not bind"):
	# then another port, a few times.
	tries=0
	while :; do
		tries=$((tries + 1))
		PG_TCP_PORT=$(pg_random_port)
		if [ "$tries" -lt 10 ] &&
		    ss -Htln "sport = :$PG_TCP_PORT" 2>/dev/null | grep -q .; then
			continue
		fi
		# One line: pg_ctl hands the options to a shell command
		# line, where a newline would end the command before its
		# redirection to the log.
		pg_opts="-k $pg_dir -c listen_addresses=127.0.0.1"
		pg_opts="$pg_opts -p $PG_TCP_PORT"
		pg_opts="$pg_opts -c password_encryption=scram-sha-256 $pg_nosync"
		pg_run_server log "$pg_opts" && break
		if [ "$tries" -ge 10 ] || ! grep -q 'could not bind\|could not create' \
		    "$pg_dir/log" 2>/dev/null; then
			echo "the server did not start: $(pg_why log)" >&2
			return 1
		fi
		rm -f "$pg_dir/log"
	done
	export PGHOST="$pg_dir" PGUSER=refkit PGDATABASE=postgres \
	    PGPORT="$PG_TCP_PORT"
	unset PGPASSWORD PGSERVICE
}

pg_bouncer() {
	if ! command -v pgbouncer >/dev/null &&
	    ! [ -x /usr/sbin/pgbouncer ]; then
		echo "PgBouncer is not installed (tools/install-deps.sh" \
		    "installs pgbouncer)" >&2
		return 1
	fi
	PG_BOUNCER_HOST=$pg_dir/bouncer
	PG_BOUNCER_PORT=$(( ${PGPORT:-5432} + 1 ))
	as_owner mkdir -p "$PG_BOUNCER_HOST"
	cat >"$pg_dir/bouncer.ini" <<INI
[databases]
* = host=$pg_dir port=${PGPORT:-5432} user=refkit
[pgbouncer]
listen_addr =
listen_port = $PG_BOUNCER_PORT
unix_socket_dir = $PG_BOUNCER_HOST
auth_type = any
pool_mode = transaction
default_pool_size = ${PG_BOUNCER_POOL:-4}
max_client_conn = ${PG_BOUNCER_CLIENTS:-1000}
logfile = $pg_dir/bouncer.log
pidfile = $PG_BOUNCER_HOST/pgbouncer.pid
INI
	chmod 644 "$pg_dir/bouncer.ini"
	if ! as_owner "$(command -v pgbouncer || echo /usr/sbin/pgbouncer)" \
	    -d -q "$pg_dir/bouncer.ini" >"$pg_dir/bouncer.out" 2>&1; then
		echo "PgBouncer did not start: $(tail -3 "$pg_dir/bouncer.out")" >&2
		return 1
	fi
	pg_n=0
	until [ -S "$PG_BOUNCER_HOST/.s.PGSQL.$PG_BOUNCER_PORT" ]; do
		pg_n=$((pg_n + 1))
		if [ "$pg_n" -gt 100 ]; then
			echo "PgBouncer did not start: $(tail -3 \
			    "$pg_dir/bouncer.log" 2>/dev/null)" >&2
			return 1
		fi
		sleep 0.1
	done
}

# pg_crash: the server's processes killed at once; pg_resume starts it.
pg_crash() {
	as_owner "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate -w stop \
	    >/dev/null 2>&1
}
pg_resume() {
	if ! pg_run_server log "$pg_opts"; then
		echo "the server did not start again: $(pg_why log)" >&2
		return 1
	fi
}

# pg_standby: a hot standby of the server, on a socket only, in its own
# directory (PG_STANDBY_HOST), following the server's changes.
pg_standby() {
	as_owner mkdir "$pg_dir/standby-sock" &&
	as_owner "$pg_bin/pg_basebackup" -D "$pg_dir/standby" -X stream -R \
	    -c fast >"$pg_dir/basebackup.log" 2>&1 || {
		echo "pg_basebackup failed: $(tail -3 "$pg_dir/basebackup.log")" >&2
		return 1
	}
	if ! as_owner "$pg_bin/pg_ctl" -D "$pg_dir/standby" \
	    -l "$pg_dir/standby.log" -w -o "-k $pg_dir/standby-sock \
	    -p ${PGPORT:-5432} -c listen_addresses= -c hot_standby=on -F" start >/dev/null 2>&1; then
		echo "the standby did not start: $(tail -3 "$pg_dir/standby.log")" >&2
		return 1
	fi
	PG_STANDBY_HOST=$pg_dir/standby-sock
}

pg_setup() {
	tally "pg/$1"
	if ! pg_start ${2:-}; then
		bad "no server"
		tally_done
		exit 1
	fi
	PG_WORK=$pg_dir/work
	mkdir "$PG_WORK"
}

pg_tcp_db() {
	"$pg_bin/psql" -X -q -c "CREATE DATABASE $1" || return 1
	PG_SHOWN="postgresql://$PGUSER@127.0.0.1:$PG_TCP_PORT/$1"
	REFKIT_DB="postgresql://$PGUSER:$PG_PASSWORD@127.0.0.1:$PG_TCP_PORT/$1"
	export REFKIT_DB
}

pg_q() {
	"$pg_bin/psql" -X -q -A -t -d "$1" -c "$2"
}

pg_until() {
	pg_n=0
	until [ "$(pg_q "$1" "$2")" = "${3:-t}" ]; do
		pg_n=$((pg_n + 1))
		[ "$pg_n" -le "${4:-600}" ] || return 1
		sleep 0.1
	done
}
pg_wait_for() {
	pg_until "$2" "$3" "${4:-t}" || { bad "$1"; return 1; }
}

pg_hold() {
	rm -f "$pg_dir/hold.in"
	mkfifo "$pg_dir/hold.in"
	: >"$pg_dir/hold.out"
	PGAPPNAME=holder "$pg_bin/psql" -X -q -A -t -d "$1" \
	    <"$pg_dir/hold.in" >"$pg_dir/hold.out" 2>&1 &
	pg_holder=$!
	exec 9>"$pg_dir/hold.in"
	printf "BEGIN;\n%s;\nSELECT 'held';\n" "$2" >&9
	pg_n=0
	until grep -qx 'held' "$pg_dir/hold.out"; do
		pg_n=$((pg_n + 1))
		if grep -q 'ERROR' "$pg_dir/hold.out" || [ "$pg_n" -gt 1200 ]; then
			bad "the holder never held its lock ($2): $(head -2 \
			    "$pg_dir/hold.out")"
			return 1
		fi
		sleep 0.1
	done
}
pg_release() {
	[ -z "${1-COMMIT}" ] || printf '%s;\n' "${1-COMMIT}" >&9
	exec 9>&-
	wait "$pg_holder"
}

pg_dump_of() {
	pg_dump_db=$1
	shift
	"$pg_bin/pg_dump" "$@" -d "$pg_dump_db" |
	    grep -v '^\\\(un\)\{0,1\}restrict \|^SELECT pg_catalog.setval('
}
