#!/bin/sh
# bg.sh BUILD-DIR OUT-DIR: the bg-board benchmark (run by run.sh).
#
# One "bg-board move" (open, derive the game from its newest snapshot and
# the events after it, check the move, append it and the snapshot when
# due, print), against the floor of the sqlite3 shell inserting one row
# into the same database file, measured alternately in the same run:
#  - in a game of 10 events: the median of 20 games, each built to 10
#    events and then moved once, timed;
#  - in a game of 1,000 events: the median of 20 moves made one after
#    another (the game goes from 1,000 to 1,020 events).
# The games do not end because the two sides move a figure back and
# forth (Rogue a2-a3, Toad a6-a5, a cycle of four moves), every one a
# real bg-board command with the database as bg-board leaves it, so the
# 1,000 events carry their snapshots (one every 16 events).  Target (issue #20): the same
# cost at both lengths.  BG_LONG (1000) is the long game's length,
# BENCH_RUNS (20) the moves timed at each length.
set -eu
B=$1
top=${top:?}
out=$2
bin="$top/$B"
db="$out/bg.db"
rm -f "$db" "$db-wal" "$db-shm"
export REFKIT_DB="$db"
unset REFKIT_SNAPSHOT_EVERY
"$bin/bg-board" team add Red --file "$top/tests/fixtures/bg/red.team" >/dev/null
"$bin/bg-board" team add Blue --file "$top/tests/fixtures/bg/blue.team" >/dev/null
sqlite3 "$db" 'CREATE TABLE floor (a INTEGER, b TEXT)'

median() {
	sort -n | awk '{ v[NR] = $1 } END { printf "%.3f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ms() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }'
}

# step K: event K+1 of the back-and-forth, as bg-board arguments.
step() {
	case $(($1 % 4)) in
	0) echo Rogue a3 ;;
	1) echo Toad a5 ;;
	2) echo Rogue a2 ;;
	3) echo Toad a6 ;;
	esac
}

# play FROM TO: the moves FROM .. TO-1 of the current game, untimed.
play() {
	k=$1
	while [ "$k" -lt "$2" ]; do
		"$bin/bg-board" move $(step "$k") >/dev/null
		k=$((k + 1))
	done
}

# timed K FILE: move K timed, then a floor insert timed.
timed() {
	set -- "$1" "$2" $(step "$1")
	t0=$(date +%s%N)
	"$bin/bg-board" move "$3" "$4" >/dev/null
	t1=$(date +%s%N)
	sqlite3 "$db" "INSERT INTO floor VALUES ($1, 'x')"
	t2=$(date +%s%N)
	ms "$t0" "$t1" >>"$2.move"
	ms "$t1" "$t2" >>"$2.floor"
}

rm -f "$out/bg-short.move" "$out/bg-short.floor" "$out/bg-long.move" \
    "$out/bg-long.floor"
runs=${BENCH_RUNS:-20}
long=${BG_LONG:-1000}
g=0
while [ $g -lt "$runs" ]; do
	"$bin/bg-board" new Red Blue >/dev/null
	play 0 10
	timed 10 "$out/bg-short"
	g=$((g + 1))
done
"$bin/bg-board" new Red Blue >/dev/null
play 0 "$long"
k=$long
while [ $k -lt $((long + runs)) ]; do
	timed $k "$out/bg-long"
	k=$((k + 1))
done
n=$(sqlite3 "$db" "SELECT count(*) FROM bg_event WHERE game_id = (SELECT max(id) FROM bg_game)")
s=$(sqlite3 "$db" "SELECT count(*) FROM snapshot WHERE kind = 'game' AND log = (SELECT max(id) FROM bg_game)")
echo "bg-board move, median of $runs, against one sqlite3 INSERT into the same file:"
for len in short long; do
	m=$(median <"$out/bg-$len.move")
	f=$(median <"$out/bg-$len.floor")
	if [ $len = short ]; then what="a game of 10 events   "; else
		what="a game of $long events"; fi
	printf '  %s  refkit %7.3f ms  floor %7.3f ms  ratio %6.3f\n' \
	    "$what" "$m" "$f" "$(awk -v a="$m" -v b="$f" 'BEGIN { print a / b }')"
done
echo "  (the long game ended with $n events and $s snapshots)"
