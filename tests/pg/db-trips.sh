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
# issue's target is 2 for every table command: the readers (status, log)
# are there.  A writer still pays one trip to find the GM's combat (none
# with --combat), one to read the combat, one for the INSERT whose row
# it hashes, one for its other writes with the reading of the server's
# notes of its changes, and one for the record of them with the COMMIT
# (refkit.db(5), "PostgreSQL"): the ceilings below hold it there.
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
		    index($4, "SET client_min_messages") { open = 1 }
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
quiet crs-stats add Ann OR=8 DR=10 MIND=6 LIFE=100000 IN=3 LB=2 EM=20
quiet crs-stats add Eve OR=6 DR=7 MIND=8 LIFE=100000 IN=0 EM=200
quiet crs-stats power add 'Fire Dart' em=5 picks=1 defend=none
quiet crs-stats give Eve 'Fire Dart'
quiet crs-combat start Ann Eve

echo "round trips after connecting, each command once:"
cost 5 crs-combat init Ann=9 Eve=2
cost 5 crs-combat attack Ann Eve
# One more for the power: its name, what it is and who knows it, asked
# together once the caster is known from the combat.
cost 6 crs-combat power Eve 'Fire Dart' Ann
cost 5 crs-combat round
cost 5 crs-combat init Ann=9 Eve=2
cost 5 crs-combat mental Ann Eve
cost 5 crs-combat pass Eve
cost 5 crs-combat undo
cost 2 crs-combat status
cost 2 crs-combat log
# Named, the combat needs no finding.
cost 4 crs-combat --combat 1 pass Eve
cost 1 crs-combat --combat 1 status
# A reader's trips do not grow with its log.
i=0
while [ $i -lt 30 ]; do
	quiet crs-combat round
	quiet crs-combat init Ann=9 Eve=2
	quiet crs-combat attack Ann Eve
	i=$((i + 1))
done
cost 2 crs-combat log
cost 5 crs-combat pass Eve

# play keeps one connection for all its commands (issue #40): the
# schema's check, made once by each connection, is counted, and the
# trips of the whole session.  A refusal ends the session's worker, and
# the next command connects again: two connections then.
# session FILE CONNECTIONS MAX: plays FILE traced.
session() {
	rm -f "$t/trace"
	REFKIT_PG_TRACE="$t/trace" "$bin/crs-combat" play <"$1" >"$t/out" 2>&1
	c=$(grep -c 'Query.*SET client_min_messages' "$t/trace")
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
# Which combat is the GM's: asked once, as the session begins (2 trips);
# then each command with the combat named (4 a writer, 1 a reader).
session "$t/six" 1 $((2 + 4 * 5 + 1))
printf 'round\na Ann Zed\nround\n' >"$t/refused"
session "$t/refused" 2 $((2 + 4 * 3 + 2))

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
    [ "$(grep -c 'Query.*SET client_min_messages' "$t/trace")" -eq 2 ]; then
	ok
else
	bad "play after pg_terminate_backend: $(grep -v 'begins' "$t/out" |
	    head -1)"
fi
tally_done
