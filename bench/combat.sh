#!/bin/sh
# combat.sh BUILD-DIR OUT-DIR: the crs-combat benchmarks.
#  1. One attack (open, derive the combat from its newest snapshot and
#     the events after it, validate, compute, append, print): the median
#     wall time of 30 attacks in a combat of 10, 100, 1,000 and 10,000
#     events, each against the floor of the sqlite3 shell inserting one
#     row into the same file, timed alternately in the same run.  Target
#     (issue #20): a ratio of at most 1.1 at every length, and no growth
#     with the length.  The long combats are written by bench/longcombat.c
#     through the ledger, snapshots and all, in one process, so as not to
#     wait for ten thousand processes.
#  2. history --char NAME over generated ledgers of 1,000,000 and
#     10,000,000 events: the median of 20 runs.  Target: under 5 ms at
#     both (issue #20), which it meets by reading the histories kept as
#     events are appended rather than the events.  The events are written
#     straight into the table, so the histories are added up the way an
#     older database gets them: the database goes back to version 7 and
#     the next command migrates it, which is timed too, with its peak
#     memory (issue #37: under 64 MB at both).  HISTORY_SIZES ("1000000
#     10000000") chooses the sizes, COMBAT_LENGTHS ("10 100 1000 10000")
#     the lengths of part 1, BENCH_RUNS the timed runs of each median.
set -eu
B=$1
top=${top:?}
out=$2
bin="$top/$B"
db="$out/combat.db"
rm -f "$db" "$db-wal" "$db-shm"
export REFKIT_DB="$db"
"$bin/crs-stats" add Ann OR=8 DR=10 MIND=6 LIFE=100000 IN=3 LB=2
"$bin/crs-stats" add Bob OR=7 DR=9 MIND=5 LIFE=100000 IN=1 LB=2
sqlite3 "$db" 'CREATE TABLE floor (a INTEGER, b TEXT)'

median() {
	sort -n | awk '{ v[NR] = $1 } END { printf "%.3f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ms() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }'
}

# rounds N FILE: N rounds of init, a timed attack, a timed floor insert,
# pass and Clean Up, in combat $id.
rounds() {
	k=0
	while [ $k -lt "$1" ]; do
		"$bin/crs-combat" --combat "$id" init Ann=9 Bob=2 >/dev/null
		t0=$(date +%s%N)
		"$bin/crs-combat" --combat "$id" attack Ann Bob >/dev/null
		t1=$(date +%s%N)
		sqlite3 "$db" "INSERT INTO floor VALUES ($k, 'x')"
		t2=$(date +%s%N)
		ms "$t0" "$t1" >>"$2.attack"
		ms "$t1" "$t2" >>"$2.floor"
		"$bin/crs-combat" --combat "$id" pass Bob >/dev/null
		"$bin/crs-combat" --combat "$id" round >/dev/null
		k=$((k + 1))
	done
}

cc -O2 -std=c17 -D_DEFAULT_SOURCE -DSQLITE_ENABLE_SESSION -I"$top/src" \
    -o "$out/longcombat" "$top/bench/longcombat.c" "$top/$B/librefkit.a" \
    $(pkg-config --libs sqlite3) -lcsv -lgmp -lsodium -lnettle -lm -pthread
runs=${BENCH_RUNS:-30}
echo "crs-combat attack by the length of the combat, median of $runs (target: ratio <= 1.1), load average $(cut -d' ' -f1-3 /proc/loadavg):"
printf '  %8s  %12s  %12s  %6s\n' events "refkit ms" "floor ms" ratio
for len in ${COMBAT_LENGTHS:-10 100 1000 10000}; do
	"$bin/crs-combat" start Ann Bob >/dev/null
	# longcombat takes the combat's key; the tool its local number.
	key=$(sqlite3 "$db" 'SELECT max(id) FROM combat')
	id=$(sqlite3 "$db" 'SELECT max(id) % 2147483648 FROM combat')
	"$out/longcombat" "$db" "$key" "$len"
	rm -f "$out/len.attack" "$out/len.floor"
	rounds "$runs" "$out/len"
	a=$(median <"$out/len.attack")
	f=$(median <"$out/len.floor")
	printf '  %8d  %12.3f  %12.3f  %6.3f\n' "$len" "$a" "$f" \
	    "$(awk -v a="$a" -v b="$f" 'BEGIN { print a / b }')"
	"$bin/crs-combat" --combat "$id" end --agreed >/dev/null
done

# Ledgers of N events: N / 100 combats of 100 attacks among 2,000
# characters, written straight into the table of a database of their own.
# Their ids are keys already (2^62 + n: the keys of station tag 80000000),
# so that migration 11 has no ids to give them (tests/stress/db-migrate-big.sh
# migrates ids that are not keys yet).  The later versions' tables and
# columns are dropped again, the seals' too, before the events go in.
K=4611686018427387904
for n in ${HISTORY_SIZES:-1000000 10000000}; do
hdb="$out/history.db"
# (No ledger was made when HISTORY_SIZES names none.)
rm -f "$out/history.db" "$out/history.db-wal" "$out/history.db-shm"
"$bin/crs-stats" --db "$hdb" list >/dev/null
sqlite3 "$hdb" 'DROP TABLE history; DROP TABLE history_combat;
    DROP TABLE snapshot; DROP TABLE station_self; DROP TABLE gone;
    DROP TABLE change_staged; DROP TABLE change_rest;
    DROP TABLE change; DROP TABLE seal_log; DROP TABLE seal;
    DROP TABLE seal_secret;
    DROP TABLE station; DROP TABLE chain; DROP INDEX event_by_gm;
    DROP INDEX fb_event_by_gm; DROP INDEX bg_event_by_gm;
    ALTER TABLE fb_event DROP COLUMN gm; ALTER TABLE bg_event DROP COLUMN gm;
    ALTER TABLE bg_game DROP COLUMN gm; ALTER TABLE event DROP COLUMN hash;
    ALTER TABLE fb_event DROP COLUMN hash; ALTER TABLE bg_event DROP COLUMN hash;
    ALTER TABLE d6_roll DROP COLUMN hash;
    PRAGMA user_version = 7'
sqlite3 "$hdb" <<SQL
BEGIN;
INSERT INTO combat (id, rules, created)
  WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c
    WHERE i < $n / 100)
  SELECT $K + i, 'crs', 1790000000 + i FROM c;
INSERT INTO event (id, combat_id, seq, round, action, actor, target, range,
  cards, vs_cards, base, vs_base, offense, defense, hit, damage,
  life_before, life_after, fumble, vs_fumble, time)
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n
    WHERE i < $n - 1)
  SELECT $K + 1 + i, $K + 1 + i / 100, 1 + i % 100, 1 + (i % 100) / 4,
    'attack',
    'Fighter ' || ((i * 7919) % 2000), 'Fighter ' || ((i * 104729 + 1) % 2000),
    'short', '7', '5', 8, 9, 15, 14, 1, 1, 50, 49, (i % 9 = 0), 0,
    1790000000 + i
  FROM n;
COMMIT;
SQL
# A fighter of every size of ledger (the first event's actor), or the
# one the numbers were quoted for.
who='Fighter 1234'
[ "$n" -ge 2000 ] || who='Fighter 0'
[ -x "$out/measure" ] || cc -O2 -o "$out/measure" "$top/bench/measure.c"
set -- $("$out/measure" sh -c "exec '$bin/crs-combat' --db '$hdb' history \
    --char '$who' >/dev/null")
echo "migration 7 -> current (histories added up, events chained) of $n events:"
printf '  %8.3f s  peak %6.1f MB (target < 64)\n' "$1" \
    "$(awk -v k="$2" 'BEGIN { print k / 1024 }')"
rm -f "$out/history.ms" "$out/open.ms"
i=0
while [ $i -lt "$runs" ]; do
	t0=$(date +%s%N)
	"$bin/crs-combat" --db "$hdb" history --char "$who" >/dev/null
	t1=$(date +%s%N)
	sqlite3 "$hdb" 'SELECT 1' >/dev/null
	t2=$(date +%s%N)
	ms "$t0" "$t1" >>"$out/history.ms"
	ms "$t1" "$t2" >>"$out/open.ms"
	i=$((i + 1))
done
echo "crs-combat history --char over $n events, median of $runs:"
printf '  refkit  history --char          %8.3f ms (target < 5)\n' \
    "$(median <"$out/history.ms")"
printf '  floor   sqlite3 file "SELECT 1" %8.3f ms\n' \
    "$(median <"$out/open.ms")"
done
# (No ledger was made when HISTORY_SIZES names none.)
rm -f "$out/history.db" "$out/history.db-wal" "$out/history.db-shm"
