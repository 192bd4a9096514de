#!/bin/sh
# merge.sh BUILD-DIR: a PostgreSQL database is a station (issue #22).
# Starts a private server (tests/pg/server.sh), then
#   - runs tests/pg/merge-case.sh twice, with the hub an SQLite file and
#     with it a database on the server; both transcripts must be
#     tests/pg/merge.out (REFKIT_UPDATE=1 rewrites it from the SQLite
#     run: review the diff);
#   - checks what only a server can do: a merge into it that loses its
#     connection half way, and one that the server refuses half way,
#     write nothing; and what its record of changes holds after writes
#     of every kind, against SQLite's record of the same writes.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); printf 'FAIL: pg/merge: %s\n' "$1"; }
work=$(mktemp -d)
finish() {
	rm -rf "$work"
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

if ! pg_start; then
	bad "no server"
	finish
	exit 1
fi
trap 'pg_stop; rm -rf "$work"' EXIT

# case HUB DISPLAY: the case's transcript, the hub shown as <HUB>.
run_case() {
	d=$(mktemp -d "$work/case.XXXXXX")
	(cd "$d" && env -i PATH="$bin:/usr/local/bin:/usr/bin:/bin" HOME="$d" \
	    LC_ALL=C TZ=UTC T="$d" HUB="$1" PGHOST="$PGHOST" PGUSER="$PGUSER" \
	    sh -c '. "$0/tests/cli/lib.sh"; . "$0/tests/pg/merge-case.sh"' \
	    "$top" 2>&1) | sed -e "s|'$1'|<HUB>|g" -e "s|$1|<HUB>|g" \
	    -e "s|'$2'|<HUB>|g" -e "s|$2|<HUB>|g"
}

want="$top/tests/pg/merge.out"
run_case hub.db hub.db >"$work/sqlite.out"
if [ "${REFKIT_UPDATE:-0}" = 1 ]; then
	cp "$work/sqlite.out" "$want"
fi
if cmp -s "$work/sqlite.out" "$want"; then
	ok
else
	bad "the hub on SQLite differs from merge.out:"
	diff "$want" "$work/sqlite.out" | head -30
fi
createdb hub
run_case "postgresql:///hub?host=$PGHOST" \
    "postgresql://$PGUSER@$PGHOST:5432/hub" >"$work/pg.out"
if cmp -s "$work/pg.out" "$want"; then
	ok
else
	bad "the hub on PostgreSQL differs from merge.out:"
	diff "$want" "$work/pg.out" | head -40
fi

# A merge into the server that loses its connection half way, and one
# the server refuses half way, write nothing at either side.  A trigger
# of the test's own, on the hub, ends the server's side of the
# connection (or raises an error) when the merge inserts Zed, whose
# change comes after others.
d=$(mktemp -d "$work/fail.XXXXXX")
createdb fail
hub="postgresql:///fail?host=$PGHOST"
printf 'name,OR,DR,MIND,LIFE,IN\nAnn,8,5,4,12,3\nBob,6,6,7,9,2\n' >"$d/r.csv"
export REFKIT_NOW=1795000000
(cd "$d" &&
    REFKIT_STATION=table-1 "$bin/crs-stats" --db t1.db import r.csv &&
    "$bin/crs-combat" --db t1.db start Ann Bob &&
    "$bin/crs-stats" --db t1.db add Zed OR=1 &&
    "$bin/crs-stats" --db t1.db add Zoe OR=2 &&
    "$bin/refkit" --db "$hub" --station hub station) >/dev/null 2>&1 ||
    bad "the stations to merge"
psql -X -q -d fail -c "CREATE FUNCTION test_fail() RETURNS trigger
    LANGUAGE plpgsql AS \$\$ BEGIN IF NEW.name = 'Zed' THEN
    IF current_setting('test.how', true) = 'die' THEN
    PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
    RAISE EXCEPTION 'no Zed here'; END IF; RETURN NEW; END \$\$;
    CREATE TRIGGER test_fail BEFORE INSERT ON character FOR EACH ROW
    EXECUTE FUNCTION test_fail();
    ALTER DATABASE fail SET test.how = 'die'" || bad "the failing trigger"
# The rows, without a sequence's place (a rolled back transaction moves
# it on) or pg_dump's random \restrict line.
pgdump() {
	pg_dump --data-only -d fail | grep -v \
	    -e '^SELECT pg_catalog.setval(' -e '^\\\(un\)\{0,1\}restrict '
}
pgdump >"$work/fail.before"
sum=$(cksum <"$d/t1.db")
out=$(cd "$d" && "$bin/refkit" --db "$hub" merge t1.db 2>&1)
rc=$?
[ "$rc" -eq 1 ] && [ "$out" = "refkit: postgresql://$PGUSER@$PGHOST:5432/fail: \
the connection to the server was lost; nothing of this command was written" ] &&
    ok || bad "a merge that loses its connection: exit $rc, '$out'"
pgdump | cmp -s - "$work/fail.before" && ok ||
    bad "a merge that lost its connection changed the server"
[ "$(cksum <"$d/t1.db")" = "$sum" ] && ok ||
    bad "a merge that lost its connection changed the file merged"
psql -X -q -d fail -c "ALTER DATABASE fail SET test.how = 'raise'"
out=$(cd "$d" && "$bin/refkit" --db "$hub" merge t1.db 2>&1)
rc=$?
[ "$rc" -eq 1 ] && [ "$out" = "refkit: postgresql://$PGUSER@$PGHOST:5432/fail: \
no Zed here" ] && ok || bad "a merge the server refuses: exit $rc, '$out'"
pgdump | cmp -s - "$work/fail.before" && ok ||
    bad "a merge the server refused changed it"
[ "$(cksum <"$d/t1.db")" = "$sum" ] && ok ||
    bad "a merge the server refused changed the file merged"
psql -X -q -d fail -c "DROP TRIGGER test_fail ON character"
out=$(cd "$d" && "$bin/refkit" --db "$hub" merge t1.db 2>&1)
[ "$out" = "merged: 4 changes new here, 0 here already; 0 records the same \
at both; 0 conflicts settled" ] && ok || bad "the merge once allowed: '$out'"

finish
