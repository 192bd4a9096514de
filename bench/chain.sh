#!/bin/sh
# chain.sh BUILD-DIR OUT-DIR: what the hash chains cost (issue #24).
#  1. One crs-combat attack with the chain and without it: the same tools
#     built with NOCHAIN=1 (make NOCHAIN=1, for this benchmark only) on a
#     file of their own holding the same combat of 100 events; the median
#     of 30 attacks each, timed alternately in the same run.  Target: the
#     chain makes an attack at most 5% slower.
#  2. refkit verify --all --no-replay over 1,000,000 events (CHAIN_EVENTS)
#     in 10 logs and in 10,000 (CHAIN_LOGS, "10 10000": combats of
#     CHAIN_EVENTS / logs events each; one written through the ledger by
#     bench/longcombat.c, the others copies of it under other keys,
#     chained by bench/chainfill.c as the migration chains a log; a
#     database per count, kept in OUT-DIR for the next run), against the
#     floor of sha256sum over as many bytes as verify hashes,
#     alternating, best of 3 each.  Target (issue #40): at least
#     1,000,000 events a second whatever the number of logs.
set -eu
B=$1
top=${top:?}
out=$2
bin="$top/$B"
n=${CHAIN_EVENTS:-1000000}

median() {
	sort -n | awk '{ v[NR] = $1 } END { printf "%.3f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ms() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }'
}
[ -x "$out/measure" ] || cc -O2 -o "$out/measure" "$top/bench/measure.c"
(cd "$top" && make -s NOCHAIN=1 -j2 >/dev/null)
cc -O2 -std=c17 -D_DEFAULT_SOURCE -DSQLITE_ENABLE_SESSION -I"$top/src" \
    -o "$out/longcombat" "$top/bench/longcombat.c" "$top/$B/librefkit.a" \
    $(pkg-config --libs sqlite3) -lcsv -lgmp -lsodium -lnettle -lm -pthread
cc -O2 -std=c17 -D_DEFAULT_SOURCE -DSQLITE_ENABLE_SESSION -I"$top/src" \
    -o "$out/chainfill" "$top/bench/chainfill.c" "$top/$B/librefkit.a" \
    $(pkg-config --libs sqlite3) -lcsv -lgmp -lsodium -lnettle -lm -pthread

# setup DB: Ann and Bob, and a combat of 100 events (its local number is 1).
setup() {
	rm -f "$1" "$1-wal" "$1-shm"
	REFKIT_DB=$1 "$bin/crs-stats" add Ann OR=8 DR=10 MIND=6 LIFE=100000 \
	    IN=3 LB=2 >/dev/null
	REFKIT_DB=$1 "$bin/crs-stats" add Bob OR=7 DR=9 MIND=5 LIFE=100000 \
	    IN=1 LB=2 >/dev/null
	REFKIT_DB=$1 "$bin/crs-combat" start Ann Bob >/dev/null
	"$out/longcombat" "$1" "$(sqlite3 "$1" 'SELECT max(id) FROM combat')" \
	    100
}
# attack TOOLS DB: one timed attack by TOOLS' crs-combat, in a round of
# its own; prints its milliseconds.
attack() {
	REFKIT_DB=$2 "$1/crs-combat" init Ann=9 Bob=2 >/dev/null
	t0=$(date +%s%N)
	REFKIT_DB=$2 "$1/crs-combat" attack Ann Bob >/dev/null
	t1=$(date +%s%N)
	REFKIT_DB=$2 "$1/crs-combat" pass Bob >/dev/null
	REFKIT_DB=$2 "$1/crs-combat" round >/dev/null
	ms "$t0" "$t1"
}
setup "$out/chain-on.db"
setup "$out/chain-off.db"
rm -f "$out/chain.on" "$out/chain.off"
for k in $(seq "${BENCH_RUNS:-30}"); do
	attack "$bin" "$out/chain-on.db" >>"$out/chain.on"
	attack "$top/build-nochain" "$out/chain-off.db" >>"$out/chain.off"
done
on=$(median <"$out/chain.on")
off=$(median <"$out/chain.off")
echo "crs-combat attack with the hash chain and without, median of ${BENCH_RUNS:-30}:"
printf '  with     %8.3f ms\n  without  %8.3f ms\n' "$on" "$off"
printf '  ratio    %8.3f (target <= 1.05)\n' \
    "$(awk -v a="$on" -v b="$off" 'BEGIN { print a / b }')"
REFKIT_DB="$out/chain-on.db" "$bin/refkit" verify >/dev/null ||
    echo "  the timed combat does not verify"

# verify_at LOGS: part 2 over a database of LOGS combats.
verify_at() {
	combats=$1
	db="$out/chain-$n-$combats.db"
	per=$((n / combats))
	if [ ! -f "$db" ] ||
	    [ "$(sqlite3 "$db" 'SELECT count(*) FROM event' 2>/dev/null ||
	    echo 0)" -lt "$n" ]; then
		rm -f "$db" "$db-wal" "$db-shm"
		REFKIT_DB=$db "$bin/crs-stats" add Ann OR=8 DR=10 MIND=6 \
		    LIFE=100000 IN=3 LB=2 >/dev/null
		REFKIT_DB=$db "$bin/crs-stats" add Bob OR=7 DR=9 MIND=5 \
		    LIFE=100000 IN=1 LB=2 >/dev/null
		REFKIT_DB=$db "$bin/crs-combat" start Ann Bob >/dev/null
		"$out/longcombat" "$db" \
		    "$(sqlite3 "$db" 'SELECT max(id) FROM combat')" "$per"
		REFKIT_DB=$db "$bin/crs-combat" end --agreed >/dev/null
		# The copies: combat k's events are the first's, k times
		# their span further on, under the first's key plus k.
		cols=$(sqlite3 "$db" "SELECT group_concat(CASE name
		    WHEN 'id' THEN 'id + k.i * span'
		    WHEN 'combat_id' THEN 'combat_id + k.i' ELSE name END, ', ')
		    FROM pragma_table_info('event')")
		sqlite3 "$db" "BEGIN;
		    CREATE TEMP TABLE k AS WITH RECURSIVE c(i) AS (SELECT 1
		    UNION ALL SELECT i + 1 FROM c WHERE i < $combats - 1)
		    SELECT i, (SELECT max(id) - min(id) + 1 FROM event) AS span
		    FROM c WHERE i < $combats;
		    INSERT INTO combat SELECT c.id + k.i, c.rules, c.created
		    FROM combat c, k;
		    INSERT INTO event SELECT $cols FROM event, k;
		    COMMIT;"
		"$out/chainfill" "$db"
	fi
	events=$(sqlite3 "$db" 'SELECT count(*) FROM event')
	bytes=$(REFKIT_DB=$db "$bin/refkit" --json verify --no-replay |
	    sed 's/.*"bytes":\([0-9]*\).*/\1/')
	head -c "$bytes" /dev/urandom >"$out/chain-bytes"
	bv=999999 bf=999999 mv=0
	for i in 1 2 3; do
		set -- $("$out/measure" sh -c "exec '$bin/refkit' --db '$db' \
		    verify --all --no-replay >/dev/null")
		bv=$(awk -v a="$bv" -v b="$1" 'BEGIN { print (b < a) ? b : a }')
		[ "$2" -gt "$mv" ] && mv=$2
		set -- $("$out/measure" sh -c "exec sha256sum \
		    '$out/chain-bytes' >/dev/null")
		bf=$(awk -v a="$bf" -v b="$1" 'BEGIN { print (b < a) ? b : a }')
	done
	rm -f "$out/chain-bytes"
	echo "refkit verify --all --no-replay over $events events in $combats logs ($bytes bytes hashed), best of 3, load average $(cut -d' ' -f1-3 /proc/loadavg):"
	printf '  refkit verify    %8.3f s  %10.0f events/s  peak %6.1f MB\n' \
	    "$bv" "$(awk -v e="$events" -v t="$bv" 'BEGIN { print e / t }')" \
	    "$(awk -v k="$mv" 'BEGIN { print k / 1024 }')"
	printf '  floor sha256sum  %8.3f s  %10.0f events/s (target: refkit >= 1,000,000)\n' \
	    "$bf" "$(awk -v e="$events" -v t="$bf" 'BEGIN { print e / t }')"
	printf '  ratio (refkit / floor) %8.3f\n' \
	    "$(awk -v a="$bv" -v b="$bf" 'BEGIN { print a / b }')"
}
for logs in ${CHAIN_LOGS:-10 10000}; do
	verify_at "$logs"
done
