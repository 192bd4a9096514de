#!/bin/sh
# latency.sh OUTDIR CMD...: runs CMD 500 times (BENCH_RUNS) and prints
# the mean wall time of one run in milliseconds.
set -eu
out=$1
shift
n=${BENCH_RUNS:-500}
t0=$(date +%s%N)
i=0
while [ $i -lt $n ]; do
	"$@" >/dev/null
	i=$((i + 1))
done
t1=$(date +%s%N)
awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.4f\n", (b - a) / n / 1e6 }'
