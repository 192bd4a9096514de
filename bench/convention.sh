#!/bin/sh
# convention.sh BUILD-DIR OUT-DIR: whole convention days at several sizes
# (issue #42), played by bench/convention.py over the built tools, with
# a private PostgreSQL server (tests/pg/server.sh, fsync on, as a
# convention's server has it) and PgBouncer in front of it.
#
# For each size in CONVENTION_SIZES (default "20 100 1000"):
#   - up to 100 tables: a quarter of the tables on the server (a
#     connection each, straight to it), the others each with a station
#     of its own, a hub; CONVENTION_HOURS (8) hours at CONVENTION_SPEED
#     (600) times the speed of a real day, 2,000 characters;
#   - more: every table on the server through PgBouncer (transaction
#     mode, CONVENTION_POOL (16) connections to the server for every
#     GM), the server exchanging with the hub; CONVENTION_BIG_HOURS (0.3)
#     hours at CONVENTION_BIG_SPEED (60) times, 4,000 characters.  A
#     thousand stations' final exchange through one hub is not played:
#     each station takes every change it lacks, so its cost is the
#     stations times the changes (refkit(7), "How big a convention",
#     projects it from the 20- and 100-table days' merges).
# Each day prints its summary (bench/convention.py): commands a second,
# the latency of the table commands on stations and on the server,
# merges and conflicts, the final exchange, verify and the report, the
# peak memory, and whether every check held; the floor is the machine
# itself (which resource ran out is read from the figures: see
# refkit(7)).  A day whose checks fail makes the bench fail.
set -eu
B=$1
out=$2
top=${top:-$(cd "$(dirname "$0")/.." && pwd)}
sizes=${CONVENTION_SIZES:-20 100 1000}
PG_FSYNC=on
. "$top/tests/pg/server.sh"
if ! pg_start; then
	echo "bench/convention: no PostgreSQL server; skipped" >&2
	exit 0
fi
bouncer=
ulimit -n 4096 2>/dev/null || true
if PG_BOUNCER_POOL=${CONVENTION_POOL:-16} PG_BOUNCER_CLIENTS=2000 \
    pg_bouncer; then
	bouncer=1
fi
rc=0
for n in $sizes; do
	db=day$n
	"$pg_bin/psql" -X -q -c "CREATE DATABASE $db"
	direct="postgresql:///$db?host=$PGHOST"
	# The schema made through a session of its own, not the pool.
	REFKIT_DB=$direct "$top/$B/refkit" station >/dev/null
	if [ "$n" -le 100 ]; then
		set -- --tables "$n" --server "$direct" \
		    --hours "${CONVENTION_HOURS:-8}" \
		    --speed "${CONVENTION_SPEED:-600}"
	elif [ -n "$bouncer" ]; then
		set -- --tables "$n" --characters 4000 --server \
		    "postgresql:///$db?host=$PG_BOUNCER_HOST&port=$PG_BOUNCER_PORT" \
		    --server-tables "$n" --hours "${CONVENTION_BIG_HOURS:-0.3}" \
		    --speed "${CONVENTION_BIG_SPEED:-60}"
	else
		echo "bench/convention: $n tables want PgBouncer; skipped" >&2
		continue
	fi
	echo "== $n tables"
	python3 "$top/bench/convention.py" "$top/$B" "$out/day$n" "$@" \
	    >"$out/day$n.log" 2>&1 || rc=1
	grep -v '^    refused: ' "$out/day$n.log" || true
done
exit $rc
