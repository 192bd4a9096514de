#!/bin/sh
# combat.sh BUILD-DIR OUT-DIR: the crs-combat benchmarks.
#  1. One attack (open, derive the combat from its ledger, validate,
#     compute, append, print): the median wall time of 200 attacks made in
#     20 combats of 10 rounds (each attack sees at most 44 earlier
#     events), against the floor of the sqlite3 shell inserting one row
#     into the same file, 200 times.  Target: under 5 ms.  Since the state
#     is derived from the ledger, the cost grows with the combat, so the
#     same is measured at the end of one 200-round combat too.
#  2. history --char NAME over a generated ledger of 1,000,000 events:
#     the median of 20 runs.  Target: under 5 ms (issue #20), which it
#     meets by reading the histories kept as events are appended rather
#     than the events.  The events are written straight into the table,
#     so the histories are added up the way an older database gets them:
#     the database goes back to version 7 and the next command migrates
#     it, which is timed too.
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
# pass and Clean Up, in the current combat.
rounds() {
	k=0
	while [ $k -lt "$1" ]; do
		"$bin/crs-combat" init Ann=9 Bob=2 >/dev/null
		t0=$(date +%s%N)
		"$bin/crs-combat" attack Ann Bob >/dev/null
		t1=$(date +%s%N)
		sqlite3 "$db" "INSERT INTO floor VALUES ($k, 'x')"
		t2=$(date +%s%N)
		ms "$t0" "$t1" >>"$2.attack"
		ms "$t1" "$t2" >>"$2.floor"
		"$bin/crs-combat" pass Bob >/dev/null
		"$bin/crs-combat" round >/dev/null
		k=$((k + 1))
	done
}

rm -f "$out/short.attack" "$out/short.floor" "$out/long.attack" "$out/long.floor"
c=0
while [ $c -lt 20 ]; do
	"$bin/crs-combat" start Ann Bob >/dev/null
	rounds 10 "$out/short"
	"$bin/crs-combat" end --agreed >/dev/null
	c=$((c + 1))
done
a=$(median <"$out/short.attack")
f=$(median <"$out/short.floor")
echo "crs-combat attack, median of 200 in 20 combats of 10 rounds:"
printf '  refkit  crs-combat attack          %8.3f ms (target < 5)\n' "$a"
printf '  floor   sqlite3 INSERT of one row  %8.3f ms\n' "$f"
printf '  ratio (refkit / floor)             %8.3f\n' \
    "$(awk -v a="$a" -v b="$f" 'BEGIN { print a / b }')"
"$bin/crs-combat" start Ann Bob >/dev/null
rounds 200 "$out/long"
echo "  the same over one combat of 200 rounds (up to 800 events):"
printf '  refkit median %.3f ms, last 20 median %.3f ms; floor %.3f ms\n' \
    "$(median <"$out/long.attack")" \
    "$(tail -n 20 "$out/long.attack" | median)" \
    "$(median <"$out/long.floor")"
"$bin/crs-combat" end --agreed >/dev/null

# A ledger of 1,000,000 events: 10,000 combats of 100 attacks among 2,000
# characters, written straight into the table.
first=$(sqlite3 "$db" 'SELECT max(id) + 1 FROM combat')
sqlite3 "$db" <<SQL
BEGIN;
INSERT INTO combat (id, rules, created)
  WITH RECURSIVE c(i) AS (SELECT $first UNION ALL SELECT i + 1 FROM c
    WHERE i < $first + 9999)
  SELECT i, 'crs', 1790000000 + i FROM c;
INSERT INTO event (combat_id, seq, round, action, actor, target, range,
  cards, vs_cards, base, vs_base, offense, defense, hit, damage,
  life_before, life_after, fumble, vs_fumble, time)
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n
    WHERE i < 999999)
  SELECT $first + i / 100, 1 + i % 100, 1 + (i % 100) / 4, 'attack',
    'Fighter ' || ((i * 7919) % 2000), 'Fighter ' || ((i * 104729 + 1) % 2000),
    'short', '7', '5', 8, 9, 15, 14, 1, 1, 50, 49, (i % 9 = 0), 0,
    1790000000 + i
  FROM n;
COMMIT;
SQL
sqlite3 "$db" 'DROP TABLE history; DROP TABLE history_combat;
    PRAGMA user_version = 7'
t0=$(date +%s%N)
"$bin/crs-combat" history --char 'Fighter 1234' >/dev/null
t1=$(date +%s%N)
echo "migration 7 -> 8, adding up the histories of 1,000,000 events:"
printf '  %8.3f s\n' "$(awk -v a="$t0" -v b="$t1" \
    'BEGIN { print (b - a) / 1e9 }')"
rm -f "$out/history.ms"
i=0
while [ $i -lt 20 ]; do
	t0=$(date +%s%N)
	"$bin/crs-combat" history --char 'Fighter 1234' >/dev/null
	t1=$(date +%s%N)
	ms "$t0" "$t1" >>"$out/history.ms"
	i=$((i + 1))
done
echo "crs-combat history --char over $(sqlite3 "$db" 'SELECT count(*) FROM event') events, median of 20:"
printf '  %8.3f ms (target < 5)\n' "$(median <"$out/history.ms")"
