#!/bin/sh
# convention.sh BUILD-DIR: a short convention day, end to end (issue #42).
#
# bench/convention.py plays a seeded day over the built tools: four
# tables, three each a GM with a station of its own and one on a private
# PostgreSQL server (tests/pg/server.sh), a hub, forty characters
# imported in the morning and again with changes at noon, the seeds'
# whole mix (CRS and Avatar 2.6 combats with cards drawn and typed,
# items, powers, flees, charges, blows, rulings and undos; Force Battles
# duels, Battle Grounds games, D6 rolls: bench/convention_games.py),
# notes edited at two stations at once, an exchange with the hub every
# simulated hour (a station offline now and then misses one) and a full
# one at the end; three and a half hours,
# one table at a time on a simulated clock, so that a seed gives the
# same day every run.  Checked, for each seed: every check of the day
# held (every station and the server hold the hub's rows, refkit
# verify passes at each, the report is written), and the day met
# conflicts to settle.
# A seed that fails is printed and its day kept in BUILD-DIR/convention-
# SEED; CONVENTION_SEEDS (default "1 2") names the seeds.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/pg/server.sh"
tally stress/convention
unset REFKIT_DB REFKIT_STATION REFKIT_NOW
export LC_ALL=C TZ=UTC
if ! pg_start; then
	bad "no PostgreSQL server"
	tally_done
	exit 1
fi

for seed in ${CONVENTION_SEEDS:-1 2}; do
	out="$top/$B/convention-$seed"
	rm -rf "$out"
	"$pg_bin/psql" -X -q -c "CREATE DATABASE day$seed" || bad "createdb"
	if python3 "$top/bench/convention.py" "$top/$B" "$out" --tables 4 \
	    --characters 40 --hours 3.5 --serial --seed "$seed" \
	    --server "postgresql:///day$seed?host=$PGHOST" --server-tables 1 \
	    >"$out.log" 2>&1; then
		ok
		rm -rf "$out"
	else
		bad "seed $seed: the day failed (kept in $out; $out.log):"
		grep 'FAILED\|Error' "$out.log" | head -5
	fi
	met=$(sed -n 's/.*conflicts met \([0-9]*\),.*/\1/p' "$out.log")
	if [ "${met:-0}" -gt 0 ]; then
		ok
	else
		bad "seed $seed: the day met no conflict to settle"
	fi
	sed -n 's/^a convention day: /seed '"$seed"': /p
	    /table commands/p; / on a /p; /offline/p; /merges:/p' "$out.log"
done
tally_done
