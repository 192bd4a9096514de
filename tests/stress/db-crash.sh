#!/bin/sh
# db-crash.sh BUILD-DIR [RUNS]: kills refkit's writers with SIGKILL at random
# moments and checks that nothing is lost or half-written.
#
# Each run starts from the same database (two characters and a combat of
# one event), then starts at once an import of 100,000 characters and a
# stream of combat events (a new round and its initiative, over and over),
# and kills both with SIGKILL after a random time up to 1.3 times what an
# import takes alone on this machine (measured first), so that some kills
# land mid-import and some after its commit; where each landed is
# recorded, and both kinds, and kills mid-stream, must occur.  The database
# must then pass PRAGMA integrity_check; the import must be all or
# nothing (2 or 100,002 characters); the combat's events must run 1..N
# without a gap and replay without a mismatch.  Last, a checkpoint is
# killed: a reader holds the WAL open while the import commits, so the
# 100,000 rows wait in the WAL, and the process that checkpoints them as
# it closes is killed part-way, RUNS/10 times.
#
# SIGKILL stops the process, not the machine: the kernel still writes
# what it was given.  A lost cache on a real power cut is SQLite's to
# survive (synchronous=FULL in WAL mode); this shows refkit's own writes
# never leave a half-done command behind.
set -u
B=$1
runs=${2:-100}
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/lib/tally.sh"
tally stress/db-crash

awk -v n=100000 -f "$top/bench/gen-roster.awk" >"$tmp/big.csv"
export REFKIT_DB="$tmp/base.db"
"$bin/crs-stats" add Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1 >/dev/null
"$bin/crs-stats" add John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2 >/dev/null
"$bin/crs-combat" start Fred John >/dev/null

# A random number of milliseconds below $1, from the system's generator.
rand_ms() {
	od -An -N4 -tu4 /dev/urandom | awk -v m="$1" '{ print $1 % m }'
}
pause_ms() {
	sleep "$(awk -v m="$1" 'BEGIN { printf "%.3f", m / 1000 }')"
}

# check DB LABEL: the database's invariants after a kill.
check() {
	db=$1
	what=$2
	ic=$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1)
	[ "$ic" = ok ] || { bad "$what: integrity_check: $ic"; return; }
	n=$(sqlite3 "$db" 'SELECT count(*) FROM character')
	case $n in
	2|100002) ;;
	*) bad "$what: $n characters: the import was cut in half"; return ;;
	esac
	gaps=$(sqlite3 "$db" 'SELECT count(*) - max(seq), min(seq)
	    FROM event WHERE combat_id % 2147483648 = 1')
	[ "$gaps" = "0|1" ] || { bad "$what: event seq not 1..N ($gaps)"; return; }
	REFKIT_DB=$db "$bin/crs-combat" replay >"$tmp/replay" 2>&1 ||
	    { bad "$what: replay failed: $(tail -1 "$tmp/replay")"; return; }
	grep -q ' 0 mismatches$' "$tmp/replay" ||
	    { bad "$what: replay: $(tail -1 "$tmp/replay")"; return; }
	REFKIT_DB=$db "$bin/refkit" verify --no-replay >"$tmp/verify" 2>&1 ||
	    { bad "$what: the hash chains: $(head -1 "$tmp/verify")"; return; }
	ok
}

# How long an import takes here, alone: the kills are spread over it.
cp "$tmp/base.db" "$tmp/timing.db"
t0=$(date +%s%N)
REFKIT_DB="$tmp/timing.db" "$bin/crs-stats" import "$tmp/big.csv" >/dev/null
t1=$(date +%s%N)
span=$(((t1 - t0) / 1000000 * 13 / 10 + 50))

full=0
mid_import=0
mid_stream=0
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	db="$tmp/run.db"
	rm -f "$db" "$db-wal" "$db-shm"
	cp "$tmp/base.db" "$db"
	export REFKIT_DB="$db"
	setsid "$bin/crs-stats" import "$tmp/big.csv" >/dev/null 2>&1 &
	imp=$!
	setsid sh -c 'while :; do "$1/crs-combat" round && "$1/crs-combat" \
	    init Fred=6 John=3 || exit 1; done' sh "$bin" >/dev/null 2>&1 &
	loop=$!
	pause_ms "$(rand_ms "$span")"
	# Where the kill lands: is each still at work?
	imp_alive=0
	loop_alive=0
	kill -0 "-$imp" 2>/dev/null && imp_alive=1
	kill -0 "-$loop" 2>/dev/null && loop_alive=1
	# (One kill each: a group already gone must not spare the other.)
	kill -KILL "-$imp" 2>/dev/null
	kill -KILL "-$loop" 2>/dev/null
	wait "$imp" "$loop" 2>/dev/null
	# A killed grandchild may not be gone yet: wait for the groups.
	while kill -0 "-$imp" 2>/dev/null || kill -0 "-$loop" 2>/dev/null; do
		sleep 0.01
	done
	check "$db" "run $i"
	if [ "$(sqlite3 "$db" 'SELECT count(*) FROM character')" = 100002 ]
	then
		full=$((full + 1))
	elif [ "$imp_alive" = 1 ]; then
		mid_import=$((mid_import + 1))
	fi
	[ "$loop_alive" = 1 ] && mid_stream=$((mid_stream + 1))
done
echo "stress/db-crash: $runs kills in 0 to $span ms: $mid_import mid-import, the" \
    "import committed in $full, $mid_stream mid-stream" >&2
# A test of kills must have killed where it says.
[ "$mid_import" -gt 0 ] && ok || bad "no kill landed mid-import"
[ "$full" -gt 0 ] && ok || bad "no import committed before its kill"
[ "$mid_stream" -gt $((runs / 2)) ] && ok ||
    bad "only $mid_stream of $runs kills landed mid-stream"

# Killing a checkpoint.
k=0
cut=0
while [ "$k" -lt $((runs / 10)) ]; do
	k=$((k + 1))
	db="$tmp/ckpt.db"
	rm -f "$db" "$db-wal" "$db-shm"
	cp "$tmp/base.db" "$db"
	# The reader: a read transaction held open, then killed, so that
	# no graceful close checkpoints the WAL the import leaves behind.
	# It holds its snapshot until killed, and the import starts only
	# once the reader has answered, however slow the machine.
	rm -f "$tmp/reader.out" "$tmp/reader.in"
	mkfifo "$tmp/reader.in"
	setsid sqlite3 "$db" <"$tmp/reader.in" >"$tmp/reader.out" &
	reader=$!
	exec 4>"$tmp/reader.in"
	printf 'BEGIN;\nSELECT count(*) FROM character;\n' >&4
	until [ -s "$tmp/reader.out" ]; do sleep 0.01; done
	REFKIT_DB=$db "$bin/crs-stats" import "$tmp/big.csv" >/dev/null
	kill -KILL "-$reader" 2>/dev/null
	wait "$reader" 2>/dev/null
	exec 4>&-
	walsz=$(wc -c <"$db-wal" 2>/dev/null || echo 0)
	# crs-stats list opens, reads and, closing last, checkpoints.
	REFKIT_DB=$db setsid "$bin/crs-stats" list >/dev/null 2>&1 &
	pid=$!
	pause_ms "$(rand_ms 300)"
	kill -KILL "-$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	while kill -0 "-$pid" 2>/dev/null; do sleep 0.01; done
	# The WAL is deleted when the closing checkpoint completes.
	[ -f "$db-wal" ] && cut=$((cut + 1))
	if [ "$walsz" -lt 1000000 ]; then
		bad "checkpoint $k: the WAL held only $walsz bytes"
		continue
	fi
	check "$db" "checkpoint $k"
	n=$(sqlite3 "$db" 'SELECT count(*) FROM character')
	[ "$n" = 100002 ] || bad "checkpoint $k: $n characters after commit"
done
echo "stress/db-crash: $k checkpoint kills, $cut before the checkpoint finished" >&2
tally_done
