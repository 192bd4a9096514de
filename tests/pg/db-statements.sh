#!/bin/sh
# db-statements.sh BUILD-DIR: every SQL statement in src/, translated by
# dbpg_translate and prepared on a real PostgreSQL server (issue #38).
#
# The statements are found in the sources themselves (tests/pg/
# db-statements.c): each file of src/ goes through the C preprocessor, so
# that macros are expanded, and every call of a function that sends SQL
# is a statement, or a dynamic one that tests/pg/db-statements.list names
# with where its SQL is; a call the list does not know fails.  The
# server's database holds refkit's schema as a tool makes it (a first
# command against an empty database).  Prints a FAIL line for each
# statement the server refuses, with where it is written, its translation
# and the server's error; ends with "N passed, N failed".
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"
tally pg/db-statements
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! make -s -C "$top" "$B/pg-statements" >"$work/make.out" 2>&1; then
	bad "cannot build $B/pg-statements: $(tail -3 "$work/make.out")"
	tally_done
	exit
fi

# The preprocessor's view of each source, as make compiles it (without
# the checksums and libraries' headers that change no SQL).
cflags="-std=c17 -D_DEFAULT_SOURCE -D_GNU_SOURCE -Isrc
    -I$(pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
    $(pkg-config --cflags sqlite3 pangocairo libqrencode)
    -DSQLITE_ENABLE_SESSION -DSQLITE_ENABLE_PREUPDATE_HOOK"
cd "$top" || exit 1
find src -name '*.c' | sort >"$work/sources"
# Two at a time, as the machines that run it have cores.
# shellcheck disable=SC2086
if ! xargs -P 2 -I % sh -c 'cc -E '"$(echo $cflags)"' % \
    >"'"$work"'/$(echo % | tr / _).i"' <"$work/sources" 2>"$work/cpp.err"; then
	bad "the preprocessor failed: $(head -3 "$work/cpp.err")"
	tally_done
	exit
fi
ok

if ! pg_start; then
	bad "no server"
	tally_done
	exit
fi
trap 'pg_stop; rm -rf "$work"' EXIT
psql -q -X -v ON_ERROR_STOP=1 -c 'CREATE DATABASE refkit' >/dev/null ||
    bad "CREATE DATABASE"
export PGDATABASE=refkit
unset REFKIT_DB REFKIT_STATION
# The schema as the tools make it: a first command creates it.
if "$bin/refkit" --db "postgresql:///refkit?host=$PGHOST&user=refkit" \
    station >"$work/station.out" 2>&1; then
	ok
else
	bad "refkit station did not create the schema: $(cat "$work/station.out")"
fi

"$bin/pg-statements" tests/pg/db-statements.list "$work"/*.i >"$work/out" \
    2>"$work/err"
rc=$?
grep -v '^tally ' "$work/out"
[ -s "$work/err" ] && bad "pg-statements: $(cat "$work/err")"
[ "$rc" -eq 0 ] || bad "pg-statements exited $rc"
if t=$(grep '^tally ' "$work/out"); then
	set -- $t
	pass=$((pass + $2))
	fail=$((fail + $3))
else
	bad "pg-statements gave no tally"
fi
tally_done
