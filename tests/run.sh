#!/bin/sh
# run.sh BUILD-DIR: runs every test of refkit and ends with the line
# "N passed, N failed".  (tests/README lists the suites of each area:
# a suite's name starts with the src/ folder it tests, crs-, db-, sync-
# ..., so that ls tests/*/AREA-* finds them.)
#   - unit tests: each BUILD-DIR/unit-* prints TAP; every "ok" line counts;
#   - CLI cases: each tests/cli/NAME.sh runs in a fresh temporary directory
#     with a fresh database, LC_ALL=C and TZ=UTC, and its transcript must
#     equal tests/expected/NAME.out byte for byte;
#   - the completion scripts: tests/complete.sh, whose checks count;
#   - the man pages must be clean under mandoc -Tlint -Wstyle.
# The unit tests, and then the CLI cases, run REFKIT_JOBS at a time
# (default: the number of processors); each is independent of the others,
# and their results are printed in name order as they would be one by one.
# REFKIT_UPDATE=1 rewrites the golden files instead (review the diff!).
# REFKIT_CASES="a b" runs only those CLI cases, REFKIT_SKIP="c d" all
# but those.  The cases of stations, migrations and seals run only with
# REFKIT_SLOW=1 (make check-full) or when named in REFKIT_CASES.  REFKIT_CLI_ONLY=1 runs
# only the CLI cases (no unit tests, completion or man pages).
# REFKIT_PG=1 runs the CLI cases only, each on a fresh database of the
# PostgreSQL server that PGHOST names (tests/pg/server.sh starts one):
# REFKIT_DB is then its connection URI, and the transcripts are the same.
# REFKIT_WRAP=DIR puts DIR first on the CLI cases' PATH (tests/valgrind.sh
# puts a valgrind wrapper of each tool there) and skips the unit tests and
# the man pages, which that run is not about.
# Each part ends with a line of its counts and its wall time
# ("== unit: 1234 passed, 0 failed, 4.1 s"), and the part times again
# before the last line.
set -u
B=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
self="$top/tests/run.sh"
jobs=${REFKIT_JOBS:-$(nproc 2>/dev/null || echo 1)}
wrap=${REFKIT_WRAP:-}
pg=${REFKIT_PG:-0}

# (Internal) run.sh --unit WORK BIN: one unit test binary; its counts
# and what to show into WORK/unit-NAME.res.
if [ "${1:-}" = --unit ]; then
	t=$3
	res="$2/$(basename "$t").res"
	out=$("$t" 2>&1)
	rc=$?
	p=$(printf '%s\n' "$out" | grep -c '^ok ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	{
		echo "$p $f"
		if [ "$f" -gt 0 ]; then
			printf '%s\n' "$out" | grep -A4 '^not ok '
		fi
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			printf 'FAIL: %s exited %d\n' "$(basename "$t")" "$rc"
			printf '%s\n' "$out" | tail -20
		fi
		printf '%s: %d passed, %d failed\n' "$(basename "$t")" "$p" \
		    "$([ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && echo 1 || echo "$f")"
	} >"$res"
	exit 0
fi

# (Internal) run.sh --case BUILD WORK NAME: one CLI case; "pass", "skip"
# or "fail" on the first line of WORK/NAME.res, then what to show.
if [ "${1:-}" = --case ]; then
	B=$2
	work=$3
	name=$4
	c="$top/tests/cli/$name.sh"
	res="$work/$name.res"
	want="$top/tests/expected/$name.out"
	# On a RAM file system where there is one: every command of a case
	# commits and closes its database, three fsyncs, which on a disk
	# shared with other jobs each wait for the disk (core-seal's 400
	# commands took two minutes under load, and 14 s of that load on
	# /dev/shm); no case is about what reaches the disk (tests/stress
	# has the crashes).
	shm=${TMPDIR:-/tmp}
	[ -d /dev/shm ] && [ -w /dev/shm ] && shm=/dev/shm
	tmp=$(TMPDIR=$shm mktemp -d)
	db="$tmp/refkit.db"
	if [ "$pg" = 1 ]; then
		pgdb=rk_$(printf '%s' "$name" | tr -c 'a-z0-9\n' _)
		dropdb --if-exists "$pgdb" 2>/dev/null
		if ! createdb "$pgdb"; then
			echo "fail" >"$res"
			echo "FAIL: cli/$name: createdb $pgdb" >>"$res"
			exit 0
		fi
		db="postgresql:///$pgdb?host=$PGHOST&user=$PGUSER"
	fi
	(cd "$tmp" && env -i \
	    PATH="${wrap:+$wrap:}$top/$B:/usr/local/bin:/usr/bin:/bin" \
	    HOME="$tmp" LC_ALL=C TZ=UTC REFKIT_DB="$db" REFKIT_GM=Ref \
	    TOP="$top" T="$tmp" ASAN_OPTIONS="${ASAN_OPTIONS:-}" \
	    LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0" \
	    REFKIT_SNAPSHOT_EVERY="${REFKIT_SNAPSHOT_EVERY:-}" \
	    sh -c '. "$TOP/tests/cli/lib.sh"; . "$1"' sh "$c") \
	    >"$tmp.out" 2>&1
	# A case that cannot run here says "skip: WHY" as its only output.
	if head -1 "$tmp.out" | grep -q '^skip: ' &&
	    [ "$(wc -l <"$tmp.out")" -eq 1 ]; then
		printf 'skip\nSKIP: cli/%s: %s\n' "$name" \
		    "$(cut -c7- "$tmp.out")" >"$res"
	else
		if [ "${REFKIT_UPDATE:-0}" = 1 ]; then
			cp "$tmp.out" "$want"
		fi
		if [ -f "$want" ] && diff -u "$want" "$tmp.out" >"$tmp.diff"
		then
			printf 'pass\ncli/%s: ok\n' "$name" >"$res"
		else
			{
				echo fail
				echo "FAIL: cli/$name"
				[ -f "$want" ] || echo "  (no golden file $want)"
				head -40 "$tmp.diff" 2>/dev/null
			} >"$res"
		fi
	fi
	rm -rf "$tmp" "$tmp.out" "$tmp.diff"
	[ "$pg" = 1 ] && dropdb "$pgdb"
	exit 0
fi

pass=0
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
times=

# part_start; part_end NAME P F: a part's line, its counts and wall time.
part_start() {
	t0=$(date +%s%N)
}
part_end() {
	ms=$((($(date +%s%N) - t0) / 1000000))
	sec=$(printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)))
	printf '== %s: %d passed, %d failed, %s s\n' "$1" "$2" "$3" "$sec"
	times="$times$(printf '%8s s  %s' "$sec" "$1")
"
}

note_fail() {
	fail=$((fail + 1))
	printf 'FAIL: %s\n' "$1"
}

if [ -z "$wrap" ] && [ "$pg" != 1 ] && [ "${REFKIT_CLI_ONLY:-0}" != 1 ]; then
	part_start
	for t in "$top/$B"/unit-*; do
		case $t in *.o) continue ;; esac
		[ -x "$t" ] && printf '%s\n' "$t"
	done | xargs -P "$jobs" -n 1 sh "$self" --unit "$work"
	for t in "$top/$B"/unit-*; do
		case $t in *.o) continue ;; esac
		[ -x "$t" ] || continue
		r="$work/$(basename "$t").res"
		if [ ! -f "$r" ]; then
			note_fail "$(basename "$t"): no result"
			continue
		fi
		read -r p f <"$r"
		if grep -q "^FAIL: $(basename "$t") exited" "$r"; then
			fail=$((fail + 1))
		fi
		pass=$((pass + p))
		fail=$((fail + f))
		sed 1d "$r"
	done
	part_end unit "$pass" "$fail"
fi

# The completion scripts (tests/complete.sh) spend most of their time
# waiting on the shells they drive, so they run beside the CLI cases;
# their result is read after them, with the part's own wall time.
cpid=
if [ -z "$wrap" ] && [ "$pg" != 1 ] && [ "${REFKIT_CLI_ONLY:-0}" != 1 ]; then
	(
		s=$(date +%s%N)
		sh "$top/tests/complete.sh" "$B" >"$work/complete.out" 2>&1
		echo $((($(date +%s%N) - s) / 1000000)) >"$work/complete.ms"
	) &
	cpid=$!
fi

part_start
p0=$pass
f0=$fail
# The cases of stations, migrations and seals, the slowest (a third of
# the golden cases' time), run with REFKIT_SLOW=1, as make check-full
# runs every pass, or when named in REFKIT_CASES: without them make check
# stays under a minute on two cores.
slow_cases="sync-changes-show sync-converge db-keys sync-merge
    sync-merge-orders sync-merge-removal sync-resolve db-schema core-seal
    db-sharing"
nslow=0
for c in "$top"/tests/cli/*.sh; do
	name=$(basename "$c" .sh)
	[ "$name" = lib ] && continue
	case " ${REFKIT_CASES:-$name} " in *" $name "*) ;; *) continue ;; esac
	case " ${REFKIT_SKIP:-} " in *" $name "*) continue ;; esac
	if [ "${REFKIT_SLOW:-0}" != 1 ] && [ -z "${REFKIT_CASES:-}" ]; then
		case " $(echo $slow_cases) " in
		*" $name "*) nslow=$((nslow + 1)); continue ;;
		esac
	fi
	printf '%s\n' "$name"
done >"$work/cases"
if [ "$nslow" -gt 0 ]; then
	printf 'cli: %d cases of stations, migrations and seals left to %s\n' \
	    "$nslow" "make check-full (REFKIT_SLOW=1 runs them)"
fi
# The longest cases start first, so that the others fill the other
# processors meanwhile instead of waiting at the end for the longest
# (core-seal's sealed event alone is 3,000 commands); the results are
# printed in name order all the same.
{
	for slow in core-seal db-sharing crs-combat-sharing sync-merge-orders \
	    crs-sheets; do
		grep -x "$slow" "$work/cases"
	done
	grep -vx 'core-seal\|db-sharing\|crs-combat-sharing\|sync-merge-orders\|crs-sheets' \
	    "$work/cases"
} | xargs -P "$jobs" -n 1 sh "$self" --case "$B" "$work"
while read -r name; do
	r="$work/$name.res"
	if [ ! -f "$r" ]; then
		note_fail "cli/$name: no result"
		continue
	fi
	case $(head -1 "$r") in
	pass)	pass=$((pass + 1)) ;;
	fail)	fail=$((fail + 1)) ;;
	esac
	sed 1d "$r"
done <"$work/cases"
echo "cli: done"
part_end cli $((pass - p0)) $((fail - f0))

if [ -n "$wrap" ] || [ "$pg" = 1 ] || [ "${REFKIT_CLI_ONLY:-0}" = 1 ]; then
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi

# The completion scripts, as bash and zsh run them, started above.
wait "$cpid"
t0=$(($(date +%s%N) - $(cat "$work/complete.ms" 2>/dev/null || echo 0) * 1000000))
out=$(cat "$work/complete.out")
p=$(printf '%s\n' "$out" | sed -n '$s/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
f=$(printf '%s\n' "$out" | sed -n '$s/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
printf '%s\n' "$out" | sed '$d'
if [ -z "$p" ]; then
	note_fail "complete.sh did not finish"
	p=0
	f=0
fi
pass=$((pass + p))
fail=$((fail + f))
part_end complete "$p" "$f"

# mandoc checks every Xr against a manual tree: give it ours alone.
part_start
p0=$pass
f0=$fail
mt="$top/$B/mantree"
rm -rf "$mt"
mkdir -p "$mt/man1" "$mt/man5" "$mt/man7"
for m in "$top"/man/*.[157]; do
	cp "$m" "$mt/man${m##*.}/"
done
makewhatis "$mt" 2>/dev/null
if lint=$(cd "$top" && MANPATH="$mt" mandoc -Tlint -Wstyle man/*.[157] 2>&1) &&
    [ -z "$lint" ]; then
	pass=$((pass + 1))
else
	note_fail "mandoc -Tlint -Wstyle man/*"
	printf '%s\n' "$lint"
fi
part_end man $((pass - p0)) $((fail - f0))

printf '%s' "$times"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
