#!/bin/sh
# db-errors.sh BUILD-DIR: what a GM meets when the PostgreSQL server fails
# him (issue #22).  A private server listening on 127.0.0.1 as well, with
# a password there (tests/pg/server.sh).  Each failure must be one line
# on stderr, exit 1, and leave the database as it was (its rows, dumped
# before and after, are the same):
#   - connection refused (the server is down);
#   - a wrong password, and none (the line says so, and shows neither
#     password);
#   - the connection dropped mid-command (pg_terminate_backend): while
#     the command waits for the writers' lock (a psql session holds it),
#     and while it is inside its write, its event inserted and the next
#     table locked by a psql session;
#   - a read-only server: a hot standby of the test server, where reads
#     work (a log reads as on the server; list, status, history and
#     replay succeed) and a write is refused, as is a first command on a
#     database without refkit's tables.
# And two things the tools once got wrong: first commands at once on new
# databases (all but one failed as each created the schema), and a
# reader must not wait for a writer's lock.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"
pg_setup db-errors tcp
tmp=$PG_WORK
# The database's rows (pg_dump_of); a dump without the combat's events
# is no dump: a failure.
rows() {
	pg_dump_of "${1:-gm}" -a >"$tmp/dump" 2>&1
	grep -q '^COPY public.event ' "$tmp/dump" ||
	    bad "no dump of ${1:-gm}: $(head -1 "$tmp/dump")" >&2
	cat "$tmp/dump"
}

pg_tcp_db gm || { bad "CREATE DATABASE"; exit 1; }
tcp="127.0.0.1:$PG_TCP_PORT"
shown=$PG_SHOWN
"$bin/crs-stats" add Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1 >/dev/null &&
"$bin/crs-stats" add John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2 >/dev/null &&
"$bin/crs-combat" start Fred John >/dev/null &&
"$bin/crs-combat" init Fred=5 John=3 >/dev/null ||
    bad "setting up the combat"

# expect WHAT WANT CMD...: CMD exits 1 with the one line WANT on stderr,
# and the database's rows are as they were.
expect() {
	what=$1 want=$2
	shift 2
	rows >"$tmp/before"
	got=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$got" = "$want" ]; then
		ok
	else
		bad "$what: exit $rc, got '$got', want '$want'"
	fi
	rows >"$tmp/after"
	cmp -s "$tmp/before" "$tmp/after" && ok || bad "$what: the database changed"
}

# --- connection refused: the server is down ---
rows >"$tmp/before"
pg_crash
got=$("$bin/crs-combat" attack Fred John --card 5 --vs-card 3 2>&1 >/dev/null)
rc=$?
want="crs-combat: cannot connect to '$shown': Connection refused"
[ "$rc" -eq 1 ] && [ "$got" = "$want" ] && ok ||
    bad "server down: exit $rc, got '$got', want '$want'"
pg_resume || { bad "the server did not start again"; tally_done; exit 1; }
rows >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" && ok || bad "server down: the database changed"

# --- passwords: wrong, and none ---
expect "wrong password" \
    "crs-stats: cannot connect to '$shown': password authentication failed for user \"refkit\"" \
    "$bin/crs-stats" --db "postgresql://refkit:wrong-$PG_PASSWORD@$tcp/gm" \
    add Ann OR=1 DR=1 MIND=1 LIFE=1 IN=1
expect "no password" \
    "crs-stats: cannot connect to '$shown': the server wants a password, and none was given" \
    "$bin/crs-stats" --db "postgresql://refkit@$tcp/gm" \
    add Ann OR=1 DR=1 MIND=1 LIFE=1 IN=1
# The password never shows, not even part of it.
"$bin/crs-stats" --db "postgresql://refkit:wrong-$PG_PASSWORD@$tcp/gm" \
    list 2>"$tmp/err" >/dev/null
grep -q "${PG_PASSWORD#pw-}" "$tmp/err" && bad "a password was shown" || ok

# --- the connection dropped while the command waits for the lock ---
# victim CMD...: runs CMD in the background as application "victim".
victim() {
	PGAPPNAME=victim "$@" >/dev/null 2>"$tmp/victim.err" &
	victim_pid=$!
}
# victim_end WHAT WANT: the victim exited 1 with the one line WANT.
victim_end() {
	wait "$victim_pid"
	rc=$?
	got=$(cat "$tmp/victim.err")
	if [ "$rc" -eq 1 ] && [ "$got" = "$2" ]; then
		ok
	else
		bad "$1: exit $rc, got '$got', want '$2'"
	fi
}
terminate() {
	pg_q gm "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
	    WHERE application_name = 'victim'" >/dev/null
}

rows >"$tmp/before"
pg_hold gm "SELECT pg_advisory_xact_lock(1380338516)"
victim "$bin/crs-combat" attack Fred John --card 5 --vs-card 3
pg_wait_for "never saw the command wait for the lock" gm "SELECT count(*) = 1
    FROM pg_stat_activity WHERE application_name = 'victim'
    AND wait_event_type = 'Lock' AND wait_event = 'advisory'" && terminate
victim_end "connection dropped at the lock" \
    "crs-combat: cannot start a transaction: the connection to the server was lost; nothing of this command was written"
pg_release
rows >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" && ok ||
    bad "connection dropped at the lock: the database changed"

# --- ... and inside the write: the event inserted, history_combat
# locked by another session, so that the command waits there.  Its
# writes go with the record of its changes and its COMMIT, in one round
# trip (refkit.db(5)): a connection lost before the answer leaves the
# tool unable to tell whether the server committed, and it says so; the
# server, whose transaction never reached the COMMIT, rolled it back ---
rows >"$tmp/before"
pg_hold gm "LOCK TABLE history_combat IN EXCLUSIVE MODE"
victim "$bin/crs-combat" attack Fred John --card 5 --vs-card 3
pg_wait_for "never saw the command insert its event and wait" gm \
    "SELECT count(*) = 1
    FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid
    JOIN pg_class c ON c.oid = l.relation
    WHERE a.application_name = 'victim' AND a.wait_event_type = 'Lock'
    AND c.relname = 'event' AND l.mode = 'RowExclusiveLock' AND l.granted" &&
    terminate
victim_end "connection dropped inside the write" \
    "crs-combat: cannot commit: the connection to the server was lost while committing; whether this command was written, its log tells"
pg_release
rows >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" && ok ||
    bad "connection dropped inside the write: the database changed"
# The same command goes through once nothing is in its way.
"$bin/crs-combat" attack Fred John --card 5 --vs-card 3 >/dev/null 2>&1 &&
    ok || bad "the attack after the dropped ones failed"

# --- a reader does not wait for a writer ---
pg_hold gm "SELECT pg_advisory_xact_lock(1380338516)"
PGAPPNAME=victim "$bin/crs-combat" log >"$tmp/log" 2>&1 &
reader=$!
waited=no
while kill -0 "$reader" 2>/dev/null; do
	if [ "$(pg_q gm "SELECT count(*) > 0 FROM pg_stat_activity
	    WHERE application_name = 'victim' AND wait_event_type = 'Lock'")" = t ]
	then
		waited=yes
		terminate
		break
	fi
	sleep 0.1
done
wait "$reader"
rc=$?
pg_release
[ "$waited" = no ] && [ "$rc" -eq 0 ] && ok ||
    bad "a reader waited for the writers' lock (exit $rc): $(head -2 "$tmp/log")"

# --- first commands at once on a new database (three, for the race) ---
for d in 1 2 3; do
	psql -qc "CREATE DATABASE fresh$d"
	for i in 1 2 3 4 5 6 7 8; do
		"$bin/crs-stats" --db "host=$PGHOST dbname=fresh$d" list \
		    >/dev/null 2>"$tmp/first$d.$i" &
	done
	wait
	[ "$(psql -X -d "fresh$d" -Atc 'SELECT count(*) FROM station')" = 1 ] &&
	    ok || bad "first commands at once: not one station in fresh$d"
done
errs=$(cat "$tmp"/first*)
[ -z "$errs" ] && ok || bad "first commands at once: $(echo "$errs" | head -2)"

# --- a read-only server: a hot standby ---
psql -qc 'CREATE DATABASE empty'
if pg_standby; then
	sb="host=$PG_STANDBY_HOST port=$PGPORT dbname=gm"
	sbshown="postgresql://refkit@$PG_STANDBY_HOST:$PGPORT/gm"
	"$bin/crs-combat" log >"$tmp/log.server" 2>&1
	"$bin/crs-combat" --db "$sb" log >"$tmp/log.standby" 2>&1 &&
	    cmp -s "$tmp/log.server" "$tmp/log.standby" && ok ||
	    bad "a read on the standby: $(diff "$tmp/log.server" "$tmp/log.standby" | head -3)"
	for r in "crs-stats list" "crs-combat status" "crs-combat history" \
	    "crs-combat replay"; do
		"$bin/${r% *}" --db "$sb" "${r#* }" >/dev/null 2>&1 && ok ||
		    bad "$r on the standby failed"
	done
	rows "host=$PG_STANDBY_HOST dbname=gm" >"$tmp/sb.before"
	expect "write to a standby" \
	    "crs-combat: cannot write to '$sbshown': the server is read-only (a standby?); commands that only read work" \
	    "$bin/crs-combat" --db "$sb" attack Fred John --card 5 --vs-card 3
	expect "add to a standby" \
	    "crs-stats: cannot write to '$sbshown': the server is read-only (a standby?); commands that only read work" \
	    "$bin/crs-stats" --db "$sb" add Ann OR=1 DR=1 MIND=1 LIFE=1 IN=1
	expect "new database on a standby" \
	    "crs-stats: cannot create the schema: the server is read-only (a standby?); nothing was written (commands that only read work)" \
	    "$bin/crs-stats" --db "host=$PG_STANDBY_HOST port=$PGPORT dbname=empty" list
	rows "host=$PG_STANDBY_HOST dbname=gm" >"$tmp/sb.after"
	cmp -s "$tmp/sb.before" "$tmp/sb.after" && ok ||
	    bad "the standby's rows changed"
else
	bad "no standby"
fi

tally_done
