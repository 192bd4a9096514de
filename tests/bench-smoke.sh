#!/bin/sh
# bench-smoke.sh BUILD-DIR: every benchmark (bench/*.sh) run to its end
# at a small size, so that one that no longer runs is seen before the day
# its numbers are wanted (issue #37: combat.sh's history part had stopped
# at "table seal_secret already exists").  Each passes if it exits 0; its
# numbers mean nothing at these sizes and are not looked at.  A bench
# whose peer tool or server is not installed says so and goes on, as it
# does in a real run.  Each runs in a directory of its own; the sizes
# are the environment variables each bench's header names (bench/run.sh).
set -u
B=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

export top BENCH_RUNS=2
# bench NAME ARGS...: runs bench/NAME.sh with ARGS (after BUILD-DIR OUT).
bench() {
	name=$1
	shift
	mkdir -p "$tmp/$name"
	t0=$(date +%s)
	env "$@" sh "$top/bench/$name.sh" "$B" "$tmp/$name" \
	    >"$tmp/$name.log" 2>&1
	rc=$?
	# A failed command inside a bench's $(...) does not stop it.
	if [ "$rc" -eq 0 ] && ! grep -q 'failed (status' "$tmp/$name.log"; then
		pass=$((pass + 1))
		printf 'bench/%s: ok (%d s)\n' "$name" $(($(date +%s) - t0))
	else
		fail=$((fail + 1))
		printf 'FAIL: bench/%s exited %d; the end of its output:\n' \
		    "$name" "$rc"
		tail -15 "$tmp/$name.log" | sed 's/^/  /'
	fi
}

# run.sh alone (its import, sheets out, versus and latency parts): the
# others are run one by one below.  pg-import.sh reads the roster it
# writes.
mkdir -p "$tmp/run"
bench run BENCH_OUT="$tmp/run" BENCH_ROWS=1000 BENCH_PARTS=
# latency.sh is the helper that run.sh times single commands with.
t0=$(date +%s)
if BENCH_RUNS=2 sh "$top/bench/latency.sh" "$tmp" "$top/$B/crs-draw" pick \
    >"$tmp/latency.log" 2>&1; then
	pass=$((pass + 1))
	printf 'bench/latency: ok (%d s)\n' $(($(date +%s) - t0))
else
	fail=$((fail + 1))
	printf 'FAIL: bench/latency failed\n'
	sed 's/^/  /' "$tmp/latency.log"
fi
bench combat COMBAT_LENGTHS="10 100" HISTORY_SIZES=1000
bench d6 D6_ROLLS=1000
bench fb FB_SIMS="100 1000" FB_LONG=20
bench bg BG_LONG=20
bench merge MERGE_SIZES="100:10000"
bench pg ATTACKS=2 GM_EVENTS=4 GMS=2 PGBENCH_SECONDS=1 NET_ATTACKS=2 NET_ROUNDS=1 \
    NET_TRIPS="0 5"
mkdir -p "$tmp/pg-import"
cp "$tmp/run/roster.csv" "$tmp/pg-import/" 2>/dev/null
bench pg-import
bench chain CHAIN_EVENTS=1000 CHAIN_LOGS="2 5"
bench sheets BENCH_SHEETS=20
bench serve SERVE_VIEWERS=20 SERVE_SECONDS=1
bench convention CONVENTION_SIZES="4 120" CONVENTION_HOURS=1.5 \
    CONVENTION_BIG_HOURS=0.1
# A bench added later must be added here too.
for f in "$top"/bench/*.sh; do
	name=$(basename "$f" .sh)
	[ -f "$tmp/$name.log" ] || [ "$name" = latency ] && continue
	fail=$((fail + 1))
	printf 'FAIL: bench/%s.sh is not run by tests/bench-smoke.sh\n' "$name"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
