#!/bin/sh
# lint.sh: cppcheck and clang-tidy (.clang-tidy) on src/; each must report
# nothing.  Prints "N passed, N failed".  (paper/draw.c includes cairo's,
# pango's and libqrencode's headers, which pkg-config finds.)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
pass=0
fail=0
out=$(cppcheck --quiet --enable=warning,portability,performance --std=c11 \
    --inline-suppr -D_GNU_SOURCE --suppress=missingIncludeSystem \
    --error-exitcode=1 -Isrc src/ 2>&1)
if [ $? -eq 0 ] && [ -z "$out" ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	printf 'FAIL: cppcheck\n%s\n' "$out" | head -40
fi
# clang-tidy checks a file at a time: the files are shared out among the
# processors, each process given a few.
jobs=$(nproc 2>/dev/null || echo 2)
flags="-std=c17 -D_DEFAULT_SOURCE -D_GNU_SOURCE -DSQLITE_ENABLE_SESSION
    -DSQLITE_ENABLE_PREUPDATE_HOOK -Isrc -I$(pg_config --includedir)
    $(pkg-config --cflags sqlite3) $(pkg-config --cflags pangocairo libqrencode)"
# shellcheck disable=SC2086
out=$(ls src/*/*.c | xargs -P "$jobs" -n 8 sh -c \
    'clang-tidy --quiet "$@" -- '"$(echo $flags)"' 2>&1' sh)
if [ $? -eq 0 ] && ! printf '%s\n' "$out" | grep -q 'warning:\|error:'; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	printf 'FAIL: clang-tidy\n%s\n' "$out" | grep -v 'generated\.$' | head -40
fi
echo "$pass passed, $fail failed"
