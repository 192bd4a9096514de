#!/bin/sh
# valgrind.sh BUILD-DIR [CASE...]: the golden CLI cases (all but core-seal, see
# below, or those named) with every tool run under valgrind memcheck (a dynamically
# linked build, make VALGRIND=1).  VALGRIND_JOBS cases run at once
# (default: the number of processors).
#
# Each tool process writes valgrind's findings to a log of its own; any
# memory error or leak (definite, indirect or possible) fails the case,
# whatever its transcript says, and the log is printed.  The transcript
# must also equal the golden one, except in two cases where valgrind
# itself changes the output, which are judged by the logs alone:
#   crs-draw-odds  valgrind computes long double with 64-bit precision,
#              not 80, so a few probabilities differ in their last digit;
#   db-sharing 25 processes at once under valgrind (30 times slower) hold
#              the write lock past the 10 s busy timeout, so some of them
#              get the "locked" error by design (tests/stress covers
#              locking at full speed).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
self="$top/tests/valgrind.sh"
# one_case NAME: runs it under valgrind; prints "pass" or the failure.
one_case() {
	name=$1
	wrap="$work/$name"
	logs="$wrap/logs"
	mkdir -p "$logs"
	chmod 1777 "$logs"
	for t in crs-stats crs-draw crs-combat d6-roll fb-duel bg-board refkit; do
		cat >"$wrap/$t" <<WRAP
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full \\
    --suppressions="$top/tests/valgrind.supp" \\
    --errors-for-leak-kinds=definite,indirect,possible \\
    --show-leak-kinds=definite,indirect,possible \\
    --log-file="$logs/$t.%p" "$top/$B/$t" "\$@"
WRAP
		chmod 755 "$wrap/$t"
	done
	chmod 755 "$wrap"
	out=$(REFKIT_CASES="$name" REFKIT_WRAP="$wrap" \
	    sh "$top/tests/run.sh" "$B" 2>&1)
	found=$(find "$logs" -type f -size +0 | sort)
	if [ -n "$found" ]; then
		echo "FAIL: valgrind: cli/$name: valgrind reported errors in" \
		    "$(echo "$found" | wc -l) processes; the first:"
		for f in $(echo "$found" | head -3); do
			echo "--- $(basename "$f")"
			head -40 "$f"
		done
		return
	fi
	nlogs=$(find "$logs" -type f | wc -l)
	if [ "$nlogs" -eq 0 ]; then
		echo "FAIL: valgrind: cli/$name: no tool ran under valgrind"
		return
	fi
	case $name in
	crs-draw-odds|db-sharing)
		echo "pass $name ($nlogs processes; transcript not compared)"
		return ;;
	esac
	if printf '%s\n' "$out" | grep -q '^FAIL: '; then
		printf '%s\n' "$out" | sed 's/^FAIL: /FAIL: valgrind: /' |
		    grep -v '^cli: done$\|passed, .* failed$\|^== cli: '
		return
	fi
	echo "pass $name ($nlogs processes)"
}

# (Internal) valgrind.sh --one BUILD-DIR WORK-DIR NAME: one case, its
# result into WORK-DIR/NAME.result.
if [ "${1:-}" = --one ]; then
	B=$2
	work=$3
	one_case "$4" >"$work/$4.result" 2>&1
	exit 0
fi

B=$1
shift
work=$(mktemp -d)
chmod 755 "$work"	# the hostile case runs a tool as another user
trap 'rm -rf "$work"' EXIT
if [ $# -eq 0 ]; then
	# core-seal is left out of "all": its sealed event is 3,000 commands,
	# most of an hour under valgrind.  It runs under ASan and UBSan
	# (make SANITIZE=1 check), and by name here.
	for c in "$top"/tests/cli/*.sh; do
		c=$(basename "$c" .sh)
		[ "$c" = lib ] || [ "$c" = core-seal ] || set -- "$@" "$c"
	done
fi
jobs=${VALGRIND_JOBS:-$(nproc 2>/dev/null || echo 1)}
printf '%s\n' "$@" | xargs -P "$jobs" -n 1 sh "$self" --one "$B" "$work"
pass=0
fail=0
for name in "$@"; do
	r=$(cat "$work/$name.result" 2>/dev/null)
	case $r in
	pass*)	pass=$((pass + 1)); echo "valgrind: $r" ;;
	*)	fail=$((fail + 1))
		printf '%s\n' "${r:-FAIL: valgrind: cli/$name: no result}" ;;
	esac
done
echo "$pass passed, $fail failed"
