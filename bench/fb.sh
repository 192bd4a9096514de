#!/bin/sh
# fb.sh BUILD-DIR OUTDIR: the fb-duel benchmark (run by run.sh).
#
# sim: "fb-duel sim A B --n N --jobs 1" between two default Learner
#   sheets, for N = 100,000 and 1,000,000, one process each on one core,
#   timed with peak memory by measure, best time of three runs.  Reports
#   duels per second against the target of 500,000 (ratio >= 1.0 meets it)
#   and the peak memory of the larger run against the smaller (about 1.0
#   when memory does not grow with N).
# jobs: the 1,000,000 duels with --jobs 1 and --jobs 2 (two threads),
#   alternating, best of three each: duels per second, and the speed-up
#   of two jobs over one (target, issue #40: at least 1.9; a different
#   sample of duels, see fb-duel(1)), against the floor of two processes
#   of --jobs 1 running at once, half the duels each: the speed-up two
#   cores give work that shares nothing, which the target cannot beat.
# geas: for information, no target: 100,000 duels between a Templar and
#   a Diamedes who hold GEAS, which the sim plays stage by stage.
# round: the wall time of one "fb-duel round" command (issue #20: the
#   same whatever the length of the duel), the median of 20, in duels of
#   10 events (20 duels, each timed at its 11th event) and in one duel of
#   1,000 events (timed at its events 1,001 to 1,020), each against the
#   floor of the sqlite3 shell inserting one row into the same database
#   file, timed right after each command.  The rounds are "round --init
#   5,2 --pass": initiative, then the attacker passes, a whole round that
#   changes no counter, so that the duel never ends; the 1,000 events
#   are played through fb-duel itself, one command each.  For
#   information, the long duel's rounds again with REFKIT_SNAPSHOT_EVERY=0
#   (no snapshot read or written: every event derived).
# FB_SIMS ("100000 1000000": the smaller is also the GEAS run's, the
# larger the --jobs 2 run's), FB_LONG (1000, the long duel's events) and
# BENCH_RUNS (20, the timed rounds of each median) choose the sizes.
set -eu
B=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
fb="$top/$B/fb-duel"
[ -x "$out/measure" ] || cc -O2 -o "$out/measure" "$top/bench/measure.c"
db="$out/fb.db"

rm -f "$db" "$db-wal" "$db-shm"
"$fb" --db "$db" sheet add Ann --side light --hand right >/dev/null
"$fb" --db "$db" sheet add Bob --side dark --hand left >/dev/null
# best3 A B N [JOBS]: sets s to the best time of three runs of "sim A B
# --n N --jobs JOBS" (1 unless given; the first run on a cold core is the
# slowest) and kb to the largest peak memory.
best3() {
	s=999999
	kb=0
	for i in 1 2 3; do
		r=$("$out/measure" sh -c "exec '$fb' --db '$db' sim $1 $2 --n $3 --seed 1 --jobs ${4:-1} >/dev/null")
		s=$(awk -v a="$s" -v b="${r% *}" 'BEGIN { print (b < a) ? b : a }')
		if [ "${r#* }" -gt "$kb" ]; then kb=${r#* }; fi
	done
}

echo "fb-duel sim between two learners (one process, one core):"
sims=${FB_SIMS:-100000 1000000}
small=${sims%% *}
large=${sims##* }
for n in $small $large; do
	best3 Ann Bob "$n"
	eval "kb_$n=$kb"
	awk -v n="$n" -v s="$s" -v kb="$kb" 'BEGIN {
		printf "  n=%-8d %.3f s  %.0f duels/s  peak %d KB  target 500000: ratio %.3f\n",
		    n, s, n / s, kb, n / s / 500000 }'
done
eval "kb_small=\$kb_$small kb_large=\$kb_$large"
awk -v a="$kb_small" -v b="$kb_large" -v n="$large" -v m="$small" 'BEGIN {
	printf "  peak memory, %d against %d: %d KB vs %d KB, ratio %.3f\n", n, m, b, a, b / a }'
# --jobs 1 and --jobs 2 of the larger run, and the machine's own floor
# of two cores: two processes of --jobs 1 at the same time, half the
# duels each, which share nothing at all (what two cores give when the
# program is not the limit), alternating so that all three meet the
# same load, best of three each.
s1=999999 s2=999999 s3=999999 kb=0
half=$((large / 2))
for i in 1 2 3; do
	for j in 1 2 3; do
		if [ "$j" = 3 ]; then
			r=$("$out/measure" sh -c "'$fb' --db '$db' sim Ann Bob --n $half --seed 1 --jobs 1 >/dev/null & '$fb' --db '$db' sim Ann Bob --n $half --seed 2 --jobs 1 >/dev/null; wait")
		else
			r=$("$out/measure" sh -c "exec '$fb' --db '$db' sim Ann Bob --n $large --seed 1 --jobs $j >/dev/null")
		fi
		eval "s$j=\$(awk -v a=\"\$s$j\" -v b=\"${r% *}\" 'BEGIN { print (b < a) ? b : a }')"
		if [ "$j" = 2 ] && [ "${r#* }" -gt "$kb" ]; then kb=${r#* }; fi
	done
done
awk -v s="$s2" -v one="$s1" -v two="$s3" -v kb="$kb" -v n="$large" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" 'BEGIN {
	printf "fb-duel sim between two learners, --jobs 1, --jobs 2 and two processes alternating (best of 3, load average %s):\n", load
	printf "  --jobs 1  n=%-8d %.3f s  %.0f duels/s\n", n, one, n / one
	printf "  --jobs 2  n=%-8d %.3f s  %.0f duels/s  peak %d KB\n", n, s, n / s, kb
	printf "  floor: 2 processes of --jobs 1, n=%d each, at once  %.3f s  %.0f duels/s\n", n / 2, two, n / two
	printf "  ratio (--jobs 2 / --jobs 1 duels/s) %.3f (target >= 1.9)\n", one / s
	printf "  ratio of the floor (2 processes / --jobs 1) %.3f: what this machine gives two cores\n", one / two
	printf "  ratio (--jobs 2 / the floor, duels/s) %.3f\n", two / s }'

"$fb" --db "$db" sheet add Tem --side light --hand right --level templar \
    heal=2 protect=2 jump=1 >/dev/null
"$fb" --db "$db" sheet add Dia --side dark --hand left --level diamedes \
    --free-geas lightning rage=3 choke=2 speed=2 >/dev/null
best3 Tem Dia "$small"
rounds=$("$fb" --db "$db" sim Tem Dia --n "$small" --seed 1 --jobs 1 --json |
    sed -n 's/.*"rounds":{"mean":\([0-9.]*\).*/\1/p')
awk -v s="$s" -v m="$rounds" -v n="$small" 'BEGIN {
	printf "fb-duel sim, Templar against Diamedes with GEAS (no target):\n"
	printf "  n=%-8d %.3f s  %.0f duels/s  %.0f rounds/s (mean %.2f rounds)\n",
	    n, s, n / s, n * m / s, m }'

# ---- round ----
rdb="$out/fb-round.db"
rm -f "$rdb" "$rdb-wal" "$rdb-shm" "$out/round.short" "$out/round.long" \
    "$out/round.none" "$out/floor.short" "$out/floor.long" "$out/floor.none"
"$fb" --db "$rdb" sheet add Ann --side light --hand right >/dev/null
"$fb" --db "$rdb" sheet add Bob --side dark --hand left >/dev/null
sqlite3 "$rdb" 'CREATE TABLE floor (a INTEGER, b TEXT)'
median() {
	sort -n | awk '{ v[NR] = $1 } END { printf "%.3f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# timed SUFFIX: one timed round and one timed floor insert.
timed() {
	t0=$(date +%s%N)
	"$fb" --db "$rdb" round --init 5,2 --pass >/dev/null
	t1=$(date +%s%N)
	sqlite3 "$rdb" "INSERT INTO floor VALUES ($t1, 'x')"
	t2=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }' \
	    >>"$out/round.$1"
	awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f\n", (b - a) / 1e6 }' \
	    >>"$out/floor.$1"
}
# rounds N: N untimed passing rounds in the current duel.
rounds() {
	k=0
	while [ $k -lt "$1" ]; do
		"$fb" --db "$rdb" round --init 5,2 --pass >/dev/null
		k=$((k + 1))
	done
}
runs=${BENCH_RUNS:-20}
long=${FB_LONG:-1000}
d=0
while [ $d -lt "$runs" ]; do
	"$fb" --db "$rdb" start Ann Bob >/dev/null
	rounds 9
	timed short
	d=$((d + 1))
done
"$fb" --db "$rdb" start Ann Bob >/dev/null
rounds $((long - 1))
k=0
while [ $k -lt "$runs" ]; do timed long; k=$((k + 1)); done
k=0
while [ $k -lt "$runs" ]; do
	REFKIT_SNAPSHOT_EVERY=0 timed none
	k=$((k + 1))
done
echo "fb-duel round, median of $runs, against sqlite3 inserting one row:"
for x in short long none; do
	case $x in
	short) what="duel of 10 events" ;;
	long) what="duel of $long events" ;;
	none) what="$long, no snapshots" ;;
	esac
	awk -v w="$what" -v r="$(median <"$out/round.$x")" \
	    -v f="$(median <"$out/floor.$x")" 'BEGIN {
		printf "  %-20s round %7.3f ms  floor %7.3f ms  ratio %.2f\n",
		    w, r, f, r / f }'
done
