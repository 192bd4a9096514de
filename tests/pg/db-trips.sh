#!/bin/sh
# db-trips.sh BUILD-DIR: the round trips to the server each table command
# costs after connecting (issue #40), counted, not timed.  Each command
# runs once against the tests' server with $REFKIT_PG_TRACE set, which
# makes db/dbpg.c hand the connection to libpq's PQtrace: every message
# to the server (F) and from it (B), in order.  A round trip is a run of
# the client's messages that the server answers: F lines followed by B
# lines.  The first, the check of the database's schema as it is opened
# (one simple Query), is part of connecting and counted apart.
#
# Each command has its ceiling here; a command over it fails.  The
# issue's target is 2 for every table command, and every one is there:
# a writer pays one trip to read its combat, which the server picks in
# the same trip (the GM's, journal_pick_ahead), with the next free key
# and the event table's columns, so that it hashes its event before the
# INSERT, and one for its writes, which the server records as the
# station's change (refkit_store), with the COMMIT (refkit.db(5),
# "PostgreSQL").  A reader (status, log) pays the first alone.  The
# ceilings below hold them there.
#
# The server's lock of a log picked ahead (refkit_log_lock) must be the
# one the client takes for the log named (db.c's log_lock_key): both are
# read off the trace and compared.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"

pg_setup db-trips
"$pg_bin/psql" -qX -c 'CREATE DATABASE trips' || {
	bad "CREATE DATABASE"
	tally_done
	exit 1
}
export REFKIT_DB="host=$PGHOST dbname=trips"
t=$PG_WORK

# trips FILE: the round trips in a trace, less the opening check's.
trips() {
	awk -F'\t' '
		NR == 1 && $1 == "F" && $3 == "Query" &&
		    index($4, "FROM refkit_meta m") { open = 1 }
		$1 == "B" && last == "F" { n++ }
		$1 == "F" || $1 == "B" { last = $1 }
		END { print n - open }' "$1"
}

# cost MAX TOOL ARG...: runs the command traced; its trips at most MAX.
cost() {
	max=$1
	shift
	rm -f "$t/trace"
	if ! REFKIT_PG_TRACE="$t/trace" "$bin/$@" >"$t/out" 2>&1; then
		bad "$*: $(head -1 "$t/out")"
		return
	fi
	n=$(trips "$t/trace")
	printf '  %-44s %2s round trips (at most %s)\n' "$*" "$n" "$max"
	if [ "$n" -le "$max" ]; then
		ok
	else
		bad "$*: $n round trips after connecting, more than $max"
	fi
}

quiet() { "$bin/$@" >/dev/null || bad "setting up: $*"; }
# table_commands: every table command once, each within its ceiling.
table_commands() {
	quiet crs-stats add Ann OR=8 DR=10 MIND=6 LIFE=100000 IN=3 LB=2 EM=20
	quiet crs-stats add Eve OR=6 DR=7 MIND=8 LIFE=100000 IN=0 EM=200
	quiet crs-stats power add 'Fire Dart' em=5 picks=1 defend=none
	quiet crs-stats give Eve 'Fire Dart'
	quiet crs-combat start Ann Eve
	cost 2 crs-combat init Ann=9 Eve=2
	cost 2 crs-combat attack Ann Eve
	# The power, and whether the caster knows it, asked with the
	# combat by the names as typed; typed short, asked again once the
	# caster is known from the combat and the power's name looked up.
	cost 2 crs-combat power Eve 'Fire Dart' Ann
	cost 2 crs-combat round
	cost 2 crs-combat init Ann=2 Eve=9
	cost 3 crs-combat power E 'Fire Dart' Ann
	cost 2 crs-combat round
	cost 2 crs-combat init Ann=2 Eve=9
	# The power's name typed short: looked up (the name as typed, then
	# every name), then the power asked again.
	cost 5 crs-combat power Eve Fire Ann
	cost 2 crs-combat round
	cost 2 crs-combat init Ann=9 Eve=2
	cost 2 crs-combat mental Ann Eve
	cost 2 crs-combat pass Eve
	cost 2 crs-combat undo
	# A reader's combat, ended or not, picked in the trip that reads
	# it, its whole story (log) with its snapshots as well.
	cost 1 crs-combat status
	cost 1 crs-combat log
	# Named, the combat needs no finding.
	cost 2 crs-combat --combat 1 pass Eve
	cost 1 crs-combat --combat 1 status
	# A reader's trips do not grow with its log.
	i=0
	while [ $i -lt 30 ]; do
		quiet crs-combat round
		quiet crs-combat init Ann=9 Eve=2
		quiet crs-combat attack Ann Eve
		i=$((i + 1))
	done
	cost 1 crs-combat log
	cost 2 crs-combat pass Eve
}
echo "round trips after connecting, each command once:"
table_commands
rm -f "$t/trace"
REFKIT_PG_TRACE="$t/trace" "$bin/crs-combat" --combat 1 pass Ann \
    >/dev/null 2>&1
key=$(awk -F'\t' '$3 == "Parse" && index($4, "pg_advisory_xact_lock($1::int8)") {
	want = 1; next } want && $3 == "Bind" { split($4, f, "'"'"'");
	if (f[2] ~ /^-/) { print f[2]; exit } want = 0 }' "$t/trace")
id=$("$pg_bin/psql" -qXAt -d trips -c "SELECT id FROM combat")
sql=$("$pg_bin/psql" -qXAt -d trips -c "SELECT refkit_log_lock('combat', $id)")
[ -n "$key" ] && [ "$key" = "$sql" ] && ok ||
    bad "the lock of combat $id: the client's '$key', the server's '$sql'"
# Each event was hashed before its INSERT, from what the writer bound:
# the chain that verify reads from the rows as stored must hold.
if "$bin/refkit" verify >"$t/verify" 2>&1; then
	ok
else
	bad "refkit verify of the events hashed ahead: $(tail -1 "$t/verify")"
fi

# play keeps one connection for all its commands (issue #40): the
# schema's check, made once by each connection, is counted, and the
# trips of the whole session.  A refusal ends the session's worker, and
# the next command connects again: two connections then.
# session FILE CONNECTIONS MAX: plays FILE traced.
session() {
	rm -f "$t/trace"
	REFKIT_PG_TRACE="$t/trace" "$bin/crs-combat" play <"$1" >"$t/out" 2>&1
	c=$(grep -c 'Query.*FROM refkit_meta m' "$t/trace")
	n=$(trips "$t/trace")
	n=$((n + 1 - c))
	printf '  play, %-38s %2s connections, %2s round trips (at most %s)\n' \
	    "$(wc -l <"$1") commands" "$c" "$n" "$3"
	if [ "$c" -eq "$2" ] && [ "$n" -le "$3" ]; then
		ok
	else
		bad "play $1: $c connections (want $2), $n round trips" \
		    "(at most $3)"
	fi
}
printf 'round\ninit Ann=9 Eve=2\na Ann Eve\np Eve\ns\nround\n' >"$t/six"
echo "play, one session:"
# Which combat is the GM's: asked once, as the session begins (1 trip);
# then each command with the combat named (2 a writer, 1 a reader).
# A script's next command is always there: a reader's end comes with
# it, and the count is the same every run.
session "$t/six" 1 $((1 + 2 * 5 + 1))
# The refused attack reads the combat and the names (2), then exits.
printf 'round\na Ann Zed\nround\n' >"$t/refused"
session "$t/refused" 2 $((1 + 2 + 2 + 2))

# A connection the server closes between two commands (a restart, an
# administrator's pg_terminate_backend) is noticed before the next one,
# which connects again and succeeds.
echo "play, its connection closed by the server between two commands:"
rm -f "$t/cmds" "$t/trace"
mkfifo "$t/cmds"
REFKIT_PG_TRACE="$t/trace" "$bin/crs-combat" play <"$t/cmds" >"$t/out" 2>&1 &
player=$!
exec 3>"$t/cmds"
others() {
	"$pg_bin/psql" -qXAt -c "SELECT count(*) FROM pg_stat_activity WHERE
	    datname = 'trips' AND pid <> pg_backend_pid()"
}
echo round >&3
i=0
until [ "$(grep -c 'round [0-9]* begins' "$t/out" 2>/dev/null)" -ge 1 ] || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
"$pg_bin/psql" -qXAt -c "SELECT pg_terminate_backend(pid) FROM
    pg_stat_activity WHERE datname = 'trips' AND pid <> pg_backend_pid()" \
    >/dev/null
i=0
until [ "$(others)" = 0 ] || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo round >&3
exec 3>&-
if wait $player && [ "$(grep -c 'round [0-9]* begins' "$t/out")" -eq 2 ] &&
    [ "$(grep -c 'Query.*FROM refkit_meta m' "$t/trace")" -eq 2 ]; then
	ok
else
	bad "play after pg_terminate_backend: $(grep -v 'begins' "$t/out" |
	    head -1)"
fi

# The same through PgBouncer in transaction mode (issue #40), which a
# convention puts before its server for GMs' one-shot commands, with a
# pool of two server connections for all its clients: each command
# within the same ceilings, on a database made through it; a play
# session; four GMs at once, each command's statements run again on
# whichever server connection the pooler gives (none is kept prepared);
# and watch, which needs the server's own connection, refused.
echo "through PgBouncer (transaction mode, a pool of 2):"
if PG_BOUNCER_POOL=2 pg_bouncer; then
	"$pg_bin/psql" -qX -c 'CREATE DATABASE pooled'
	REFKIT_DB="host=$PG_BOUNCER_HOST port=$PG_BOUNCER_PORT dbname=pooled"
	export REFKIT_DB
	table_commands
	session "$t/six" 1 $((1 + 2 * 5 + 1))
	# On a terminal (script(1) gives it one), where watch would listen.
	got=$(TERM=xterm timeout 20 script -qec \
	    "'$bin/crs-combat' --combat 1 watch" /dev/null 2>&1 </dev/null)
	case $got in
	*"through a connection pooler"*) ok ;;
	*) bad "watch through PgBouncer: '$got'" ;;
	esac
	i=1
	while [ $i -le 4 ]; do
		printf 'G%s,%s,%s\n' $i 7 $i
		i=$((i + 1))
	done >/dev/null
	g=1
	while [ $g -le 4 ]; do
		quiet crs-stats add "P$g" OR=8 DR=10 MIND=6 LIFE=100000 IN=3
		quiet crs-stats add "Q$g" OR=7 DR=9 MIND=5 LIFE=100000 IN=1
		quiet crs-combat --gm "GM$g" start "P$g" "Q$g"
		g=$((g + 1))
	done
	g=1
	while [ $g -le 4 ]; do
		(
			k=0
			while [ $k -lt 10 ]; do
				"$bin/crs-combat" --gm "GM$g" init "P$g=9" "Q$g=2" &&
				"$bin/crs-combat" --gm "GM$g" attack "P$g" "Q$g" &&
				"$bin/crs-combat" --gm "GM$g" pass "Q$g" &&
				"$bin/crs-combat" --gm "GM$g" round || exit 1
				k=$((k + 1))
			done >/dev/null
		) 2>"$t/gm$g.err" &
		g=$((g + 1))
	done
	wait
	# Each GM's combat holds the same events: none lost, none twice.
	ours="combat_id IN (SELECT combat_id FROM event WHERE seq = 1 AND
	    gm IN ('GM1', 'GM2', 'GM3', 'GM4'))"
	n=$(pg_q pooled "SELECT count(*) || ' ' || count(DISTINCT (combat_id,
	    seq)) FROM event WHERE $ours")
	one=$(pg_q pooled "SELECT count(*) FROM event WHERE $ours AND
	    combat_id = (SELECT min(combat_id) FROM event WHERE $ours)")
	if [ "$(cat "$t"/gm*.err)" = "" ] &&
	    [ "$n" = "$((4 * one)) $((4 * one))" ] && [ "$one" -gt 40 ]; then
		ok
	else
		bad "four GMs through PgBouncer: $n events, $(cat "$t"/gm*.err |
		    head -2)"
	fi
	if "$bin/refkit" verify >"$t/verify" 2>&1; then
		ok
	else
		bad "refkit verify through PgBouncer: $(tail -1 "$t/verify")"
	fi
else
	bad "PgBouncer did not start"
fi
tally_done
