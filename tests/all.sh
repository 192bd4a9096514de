#!/bin/sh
# all.sh: every test refkit has, as make check-full runs it, each part's
# "N passed, N failed" summed into the last line, and each part's wall
# time printed as it ends and again in a table before that line.
#   1. the quick suite (unit, golden CLI, man lint) on the normal build
#   2. the same under ASan and UBSan (make SANITIZE=1), and the golden
#      CLI cases with a snapshot after every event
#      (REFKIT_SNAPSHOT_EVERY=1), so that every command of every golden
#      case derives its state from a snapshot and must still print what
#      it prints from the first event
#   2b. the live boards (watch) in a real terminal, under tmux
#   3. golden CLI cases under valgrind memcheck (make VALGRIND=1): those
#      of VALGRIND_CASES, one per tool and path (the sanitizers judge the
#      rest); all of them with REFKIT_SOAK=1
#   4. each fuzz target: its regression inputs and seeds, then
#      FUZZ_SMOKE seconds of fuzzing (default 5; 60 when soaking)
#   5. crash safety: CRASH_RUNS SIGKILLs (default 40; 100 when soaking)
#   6. concurrency: 21 writers of every ledger kind, 4 readers
#   7. stations: four stations' days merged into hubs in several orders
#      must agree; and three to five stations through random edits,
#      conflicts, settlements and exchanges must converge (sync-converge.sh);
#      and a short convention day, four tables (one on a server) and a
#      hub, played end to end by bench/convention.py, must end with
#      every check held
#   7a. version-7 databases of 1,000,000 and 100,000 events migrated in
#      under 64 MB (tests/stress/db-migrate-big.sh, about 3 minutes)
#   7b. the PostgreSQL form of the schema, against a real server, and
#      the migration of an older one; the tools on a server: the golden
#      cases, the live board, 16 GMs and 4 readers over TCP
#      (1,600 events; 10,000 when soaking), the server killed under a stream of writes, and
#      the errors a GM can meet (refused, password, connection dropped,
#      a read-only standby), the hash chains on a server and merged
#      between a server and a file
#   8. import under load: 3 imports of 10,000 characters, then one of
#      200,000, while 3 GMs fight (a combat action's worst wait under
#      250 ms, under 1 s), and changes made while an import waits for
#      the lock
#   9. the interactive parts on a real terminal, driven through tmux, and
#      two GMs' play sessions on one database file and on a server
#   9b. the organiser's report in a real browser (headless Chromium):
#      its DOM against history --json, its layout, a screenshot
#  10. cppcheck and clang-tidy
#  11. every benchmark (bench/*.sh) run to its end at a small size
# REFKIT_SOAK=1 (make check-soak) runs the long forms: every golden case
# under valgrind, core-seal under ASan and on a server, a minute of each fuzz
# target, 100 crashes, 8,000 concurrent events, 10,000 events of 16 GMs
# on a server, imports under load 5 times of 10,000 and 3 of 200,000.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
jobs=$(nproc 2>/dev/null || echo 2)
total_pass=0
total_fail=0
t_start=$(date +%s)
times=

# part NAME COMMAND...: runs a part, shows its output, adds its counts.
exec 3>&1
part() {
	name=$1
	shift
	echo "== $name"
	t0=$(date +%s)
	# Shown as it runs, so that a long part is seen to progress.
	rc=$( { "$@" 2>&1; echo "rc=$?" >"$top/.part.rc"; } |
	    tee "$top/.part.out" >&3; cat "$top/.part.rc")
	rc=${rc#rc=}
	last=$(tail -1 "$top/.part.out")
	p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	if [ -z "$p" ]; then
		echo "FAIL: $name did not finish (exit $rc)"
		p=0
		f=1
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	rm -f "$top/.part.out" "$top/.part.rc"
	t=$(($(date +%s) - t0))
	echo "== $name: ${t} s"
	times="$times$(printf '%6d s  %s' "$t" "$name")
"
}

# build ARGS...: make ARGS; a build that fails is shown and counted as a
# failure (the part it was for then does not run, and must not pass
# unseen).
build() {
	t0=$(date +%s)
	if ! make -s -j"$jobs" "$@" >"$top/.build.out" 2>&1; then
		cat "$top/.build.out"
		rm -f "$top/.build.out"
		echo "FAIL: make $* failed"
		total_fail=$((total_fail + 1))
		return 1
	fi
	rm -f "$top/.build.out"
	t=$(($(date +%s) - t0))
	times="$times$(printf '%6d s  %s' "$t" "make $*")
"
}

# Every pass runs every golden case, the slow ones that make check
# leaves out included (tests/run.sh).
export REFKIT_SLOW=1
build all units && part "tests" make -s check
build SANITIZE=1 all units && part "tests under ASan and UBSan" make -s SANITIZE=1 check
part "CLI cases with a snapshot after every event" env \
    REFKIT_SNAPSHOT_EVERY=1 REFKIT_CLI_ONLY=1 sh tests/run.sh build
part "the live boards under tmux" sh tests/watch.sh build
# valgrind makes each command 20-50 times slower: every case would take
# most of half an hour on two cores.  ASan and UBSan have judged every
# case above; what valgrind adds (reads of memory never written, and the
# libraries loaded with dlopen, which the sanitizers do not see into) is
# reached by a case of each family and path: a combat under Avatar 2.6's
# rules, a duel, a game, the D6 System, the printed sheets (cairo,
# pango, libqrencode), stations and their merge, and play's processes
# (15 cases took ten minutes on two cores).
soak=${REFKIT_SOAK:-0}
if [ "$soak" = 1 ]; then
	vg_cases=
else
	vg_cases=${VALGRIND_CASES:-"crs-combat-avatar fb-duel bg-board d6-roll
	    crs-sheets sync-merge term-play"}
fi
# shellcheck disable=SC2086
build VALGRIND=1 && part "CLI cases under valgrind" sh tests/valgrind.sh \
    build-vg $vg_cases
[ "$soak" = 1 ] && fuzz_default=60 || fuzz_default=5
[ "$soak" = 1 ] && crash_default=100 || crash_default=40
build fuzz-build && part "fuzz targets" sh tests/fuzz/run.sh build-fuzz \
    "${FUZZ_SMOKE:-$fuzz_default}" sheet deck d6 import-csv import-json fb bg changes \
    changes-show resolve argv-crs-stats argv-crs-draw argv-crs-combat \
    argv-d6-roll argv-fb-duel argv-bg-board argv-refkit
part "crash safety" sh tests/stress/db-crash.sh build \
    "${CRASH_RUNS:-$crash_default}"
[ "$soak" = 1 ] && events=8000 || events=4000
part "concurrency" sh tests/stress/db-concurrency.sh build "$events"
part "stations" sh tests/stress/sync-stations.sh build
part "converge" sh tests/stress/sync-converge.sh build
part "a convention day" sh tests/stress/convention.sh build
part "migration of a big database" sh tests/stress/db-migrate-big.sh build
part "PostgreSQL schema" sh tests/pg/db-schema.sh build
part "PostgreSQL migrations" sh tests/pg/db-migrate.sh build
part "every SQL statement on PostgreSQL" sh tests/pg/db-statements.sh build
part "tools on PostgreSQL" sh tests/pg/db-cli.sh build
part "round trips to PostgreSQL" sh tests/pg/db-trips.sh build
part "tools on PostgreSQL: the live board" sh tests/watch.sh build pg
part "a PostgreSQL station" sh tests/pg/sync-merge.sh build
part "hash chains on PostgreSQL" sh tests/pg/trust-verify.sh build
part "import on PostgreSQL" sh tests/pg/crs-import.sh build
part "tools on PostgreSQL: who waits for whom" sh tests/pg/db-appenders.sh build
# About 9 events a second on two cores (one process, one connection, an
# event): 960 events, 60 a GM, take under 2 minutes; the soak's 10,000
# about 20.
[ "$soak" = 1 ] && gm_events=10000 || gm_events=960
part "tools on PostgreSQL: 16 GMs at once" sh tests/pg/db-writers.sh build \
    "$gm_events"
part "tools on PostgreSQL: the server killed" sh tests/pg/db-crash.sh build 4
part "tools on PostgreSQL: errors" sh tests/pg/db-errors.sh build
# shellcheck disable=SC2046
part "import under load" sh tests/stress/crs-import-lock.sh build \
    $([ "$soak" = 1 ] && echo 10000:5:250 200000:3:1000)
part "play on a terminal (tmux)" sh tests/tty/play.sh build
part "two GMs' play on one database (tmux)" sh tests/tty/gms.sh build
part "two GMs' play on a PostgreSQL server (tmux)" sh tests/tty/gms.sh \
    build pg
part "the report in a browser (Chromium)" sh tests/html.sh build
part "the player view (refkit serve, Chromium)" sh tests/serve.sh build
part "the player view on PostgreSQL" sh tests/serve.sh build pg
part "static analysis" sh tests/lint.sh
part "benchmarks at a small size" sh tests/bench-smoke.sh build
echo "== time of each part (wall clock)"
printf '%s' "$times"
printf '%6d s  in all\n' "$(($(date +%s) - t_start))"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
