#!/bin/sh
# valgrind.sh BUILD-DIR [CASE...]: the golden CLI cases (all, or those
# named) with every tool run under valgrind memcheck (a dynamically
# linked build, make VALGRIND=1).  Any
# memory error or leak (definite, indirect or possible) makes the tool
# exit 99 and print valgrind's report, so the case's transcript differs
# from the golden one and the case fails.
set -u
B=$1
top=$(cd "$(dirname "$0")/.." && pwd)
wrap=$(mktemp -d)
chmod 755 "$wrap"	# the hostile case runs a tool as another user
trap 'rm -rf "$wrap"' EXIT
for t in crs-stats crs-draw crs-combat d6-roll fb-duel bg-board; do
	cat >"$wrap/$t" <<WRAP
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full \\
    --errors-for-leak-kinds=definite,indirect,possible \\
    --show-leak-kinds=definite,indirect,possible \\
    "$top/$B/$t" "\$@"
WRAP
	chmod +x "$wrap/$t"
done
shift
REFKIT_CASES="$*" REFKIT_WRAP=$wrap sh "$top/tests/run.sh" "$B" | sed 's/^FAIL: /FAIL: valgrind: /'
