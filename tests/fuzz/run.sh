#!/bin/sh
# run.sh FUZZ-BUILD SECONDS TARGET...: runs each fuzz target for SECONDS on
# a corpus in FUZZ-BUILD/corpus/TARGET, started from the seeds (seeds.sh)
# and the regression inputs in tests/fuzz/regress/TARGET, and prints the
# executions each made.  A crash stops the run with its input saved as
# FUZZ-BUILD/crash-TARGET-*; fix it and copy the input into
# tests/fuzz/regress/TARGET.  SECONDS 0 only replays the seeds and the
# regression inputs.
set -u
fz=$1
secs=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
seeds="$fz/seeds.$$"		# one per run: runs may go in parallel
trap 'rm -rf "$seeds"' EXIT
sh "$top/tests/fuzz/seeds.sh" "$seeds"
pass=0
fail=0
for t in "$@"; do
	bin="$fz/fuzz-$t"
	corpus="$fz/corpus/$t"
	reg="$top/tests/fuzz/regress/$t"
	mkdir -p "$corpus" "$seeds/$t"
	inputs="$seeds/$t"
	[ -d "$reg" ] && inputs="$inputs $reg"
	opts="-timeout=30 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1"
	# The argv targets leave a command's memory to exit(): no leak check.
	case $t in argv-*) opts="$opts -detect_leaks=0 -close_fd_mask=3"
		export ASAN_OPTIONS=detect_leaks=0 ;;
	*) unset ASAN_OPTIONS ;;
	esac
	if [ "$secs" -gt 0 ]; then
		# shellcheck disable=SC2086
		"$bin" $opts -max_total_time="$secs" \
		    -artifact_prefix="$fz/crash-$t-" "$corpus" $inputs \
		    >"$fz/$t.log" 2>&1
	else
		# shellcheck disable=SC2086
		"$bin" $opts -runs=0 -artifact_prefix="$fz/crash-$t-" $inputs \
		    >"$fz/$t.log" 2>&1
	fi
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$fz/$t.log" | tail -1)
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
		printf 'fuzz %s: ok, %s executions in %ss\n' "$t" "${execs:-?}" "$secs"
	else
		fail=$((fail + 1))
		printf 'fuzz %s: FAILED (exit %d); see %s\n' "$t" "$rc" "$fz/$t.log"
		grep -m1 -A12 'ERROR\|check failed\|runtime error' "$fz/$t.log"
	fi
done
echo "$pass passed, $fail failed"
