#!/bin/sh
# d6.sh BUILD-DIR OUTDIR: the d6-roll benchmarks (run by run.sh).
#
# odds: "d6-roll odds --csv" against "dicelab -c" on the same schemes
#   (5D and 12D with an exploding Wild Die, 30D plain), best of 3 x 200
#   runs each, alternating.  The two distributions must agree to 1e-6 at
#   every total (dicelab prints six decimals).  Target: ratio <= 1.0.
# bulk: "d6-roll 4D --times 10000000" to /dev/null, rolls per second.
# latency: one "d6-roll 4D" against "rolldice 4d6", best of 3 x 500 runs.
#   Target: ratio <= 1.5.
# D6_ROLLS (10000000) is the bulk roll's count, BENCH_RUNS the runs of
# each timing (200 for odds, 500 for latency).
set -eu
B=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
d6="$top/$B/d6-roll"

# loop N CMD...: mean milliseconds of one run of CMD over N runs.
loop() {
	n=$1
	shift
	t0=$(date +%s%N)
	i=0
	while [ $i -lt "$n" ]; do
		"$@" >/dev/null
		i=$((i + 1))
	done
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.4f\n", (b - a) / n / 1e6 }'
}

min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b < a) ? b : a }'; }

if command -v dicelab >/dev/null 2>&1; then
	echo "exact odds, one process per scheme (best of 3 x 200 runs):"
	for scheme in "5D|sum(4#d6) + sum(while x=d6 do ((count ==6 x)#d6))" \
	    "12D|sum(11#d6) + sum(while x=d6 do ((count ==6 x)#d6))" \
	    "30D6|sum(30#d6)"; do
		code=${scheme%%|*}
		printf '%s\n' "${scheme#*|}" >"$out/scheme.dl"
		"$d6" odds "$code" --csv | tail -n +2 | tr ',' ' ' >"$out/ours.txt"
		dicelab -c -f "$out/scheme.dl" >"$out/peer.txt"
		worst=$(awk 'NR == FNR { p[$1] = $2; seen[$1] = 1; next }
		    { q[$1] = $2; seen[$1] = 1 }
		    END { w = 0; for (v in seen) { d = p[v] - q[v]; if (d < 0) d = -d; if (d > w) w = d }
		          printf "%.2g", w }' "$out/ours.txt" "$out/peer.txt")
		br=999999 bp=999999
		for i in 1 2 3; do
			br=$(min "$br" "$(loop "${BENCH_RUNS:-200}" "$d6" odds "$code" --csv)")
			bp=$(min "$bp" "$(loop "${BENCH_RUNS:-200}" dicelab -c -f "$out/scheme.dl")")
		done
		printf '  %-5s refkit %.4f ms  dicelab %.4f ms  ratio %.3f (target <= 1.0)  largest difference %s over %d totals\n' \
		    "$code" "$br" "$bp" "$(awk -v a="$br" -v b="$bp" 'BEGIN { print a / b }')" \
		    "$worst" "$(wc -l <"$out/ours.txt")"
	done
else
	echo "dicelab is not installed (tools/install-deps.sh installs it)"
fi

cc -O2 -o "$out/measure" "$top/bench/measure.c"
rolls=${D6_ROLLS:-10000000}
set -- $("$out/measure" sh -c "exec '$d6' 4D --times $rolls --seed 1 >/dev/null")
echo "bulk rolling, d6-roll 4D --times $rolls (one run):"
printf '  %.3f s, %.0f rolls per second, peak %.1f MB\n' "$1" \
    "$(awk -v t="$1" -v n="$rolls" 'BEGIN { print n / t }')" \
    "$(awk -v k="$2" 'BEGIN { print k / 1024 }')"

rolldice=$(command -v rolldice || echo /usr/games/rolldice)
if [ -x "$rolldice" ]; then
	br=999999 bp=999999
	for i in 1 2 3; do
		br=$(min "$br" "$(loop "${BENCH_RUNS:-500}" "$d6" 4D)")
		bp=$(min "$bp" "$(loop "${BENCH_RUNS:-500}" "$rolldice" 4d6)")
	done
	echo "one roll per process (best of 3 x 500 runs):"
	printf '  refkit  d6-roll 4D      %.4f ms\n' "$br"
	printf '  peer    rolldice 4d6    %.4f ms\n' "$bp"
	printf '  ratio (refkit / peer)   %.3f (target <= 1.5)\n' \
	    "$(awk -v a="$br" -v b="$bp" 'BEGIN { print a / b }')"
else
	echo "rolldice is not installed (tools/install-deps.sh installs it)"
fi
