#!/bin/sh
# sync-merge.sh BUILD-DIR: a PostgreSQL database is a station (issue #22).
# Starts a private server (tests/pg/server.sh), then
#   - runs tests/pg/sync-merge-case.sh twice, with the hub an SQLite file and
#     with it a database on the server; both transcripts must be
#     tests/pg/sync-merge.out (REFKIT_UPDATE=1 rewrites it from the SQLite
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
pg_setup sync-merge
work=$PG_WORK

# case HUB DISPLAY: the case's transcript, the hub shown as <HUB>.
run_case() {
	d=$(mktemp -d "$work/case.XXXXXX")
	(cd "$d" && env -i PATH="$bin:/usr/local/bin:/usr/bin:/bin" HOME="$d" \
	    LC_ALL=C TZ=UTC T="$d" HUB="$1" PGHOST="$PGHOST" PGUSER="$PGUSER" \
	    sh -c '. "$0/tests/cli/lib.sh"; . "$0/tests/pg/sync-merge-case.sh"' \
	    "$top" 2>&1) | sed -e "s|'$1'|<HUB>|g" -e "s|$1|<HUB>|g" \
	    -e "s|'$2'|<HUB>|g" -e "s|$2|<HUB>|g"
}

want="$top/tests/pg/sync-merge.out"
run_case hub.db hub.db >"$work/sqlite.out"
if [ "${REFKIT_UPDATE:-0}" = 1 ]; then
	cp "$work/sqlite.out" "$want"
fi
if cmp -s "$work/sqlite.out" "$want"; then
	ok
else
	bad "the hub on SQLite differs from sync-merge.out:"
	diff "$want" "$work/sqlite.out" | head -30
fi
createdb hub
run_case "postgresql:///hub?host=$PGHOST" \
    "postgresql://$PGUSER@$PGHOST:5432/hub" >"$work/pg.out"
if cmp -s "$work/pg.out" "$want"; then
	ok
else
	bad "the hub on PostgreSQL differs from sync-merge.out:"
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
pg_dump_of fail -a >"$work/fail.before"
sum=$(cksum <"$d/t1.db")
out=$(cd "$d" && "$bin/refkit" --db "$hub" merge t1.db 2>&1)
rc=$?
[ "$rc" -eq 1 ] && [ "$out" = "refkit: postgresql://$PGUSER@$PGHOST:5432/fail: \
the connection to the server was lost; nothing of this command was written" ] &&
    ok || bad "a merge that loses its connection: exit $rc, '$out'"
pg_dump_of fail -a | cmp -s - "$work/fail.before" && ok ||
    bad "a merge that lost its connection changed the server"
[ "$(cksum <"$d/t1.db")" = "$sum" ] && ok ||
    bad "a merge that lost its connection changed the file merged"
psql -X -q -d fail -c "ALTER DATABASE fail SET test.how = 'raise'"
out=$(cd "$d" && "$bin/refkit" --db "$hub" merge t1.db 2>&1)
rc=$?
[ "$rc" -eq 1 ] && [ "$out" = "refkit: postgresql://$PGUSER@$PGHOST:5432/fail: \
no Zed here" ] && ok || bad "a merge the server refuses: exit $rc, '$out'"
pg_dump_of fail -a | cmp -s - "$work/fail.before" && ok ||
    bad "a merge the server refused changed it"
[ "$(cksum <"$d/t1.db")" = "$sum" ] && ok ||
    bad "a merge the server refused changed the file merged"
psql -X -q -d fail -c "DROP TRIGGER test_fail ON character"
out=$(cd "$d" && "$bin/refkit" --db "$hub" merge t1.db 2>&1)
[ "$out" = "merged: 4 changes new here, 0 here already; 0 records the same \
at both; 0 conflicts settled" ] && ok || bad "the merge once allowed: '$out'"

# The same writes, of every tool, on a file and on the server, whose
# stations are given the same id (so the same keys), are recorded as the
# same changes: their exports, shown, are the same, but for the order
# of the rows within a change, which is each one's own.
d=$(mktemp -d "$work/rec.XXXXXX")
S=8123456789abcdef0123456789abcdef
createdb rec
pgrec="postgresql:///rec?host=$PGHOST"
cp "$top/tests/fixtures/bg/red.team" "$top/tests/fixtures/bg/blue.team" "$d"
"$bin/refkit" --db "$d/rec.db" --station rec station >/dev/null &&
    "$bin/refkit" --db "$pgrec" --station rec station >/dev/null &&
    sqlite3 "$d/rec.db" "UPDATE station SET id = '$S';
    UPDATE station_self SET id = '$S'" &&
    psql -X -q -d rec -c "BEGIN; SET CONSTRAINTS ALL DEFERRED;
    UPDATE station SET id = '$S'; UPDATE station_self SET id = '$S'; COMMIT" ||
    bad "two stations of one id"
while read -r cmd; do
	for db in "$d/rec.db" "$pgrec"; do
		(cd "$d" && eval "\"\$bin/${cmd%% *}\" --db \"\$db\" ${cmd#* }") \
		    >/dev/null 2>&1
		echo "$?"
	done | sort -u | [ "$(wc -l)" -eq 1 ] || bad "'$cmd' ends otherwise on the server"
done <<'EOF2'
crs-stats add Fred ENE=30 STR=12 INT=10 CUN=14 AGI=16 CON=10 CHA=12 LUC=12 LEVEL=2
crs-stats add Ann OR=8 DR=5 LIFE=12 IN=3 EM=10
crs-stats item add Sword or=+5 range=short
crs-stats item add 'Chain Mail' dr=+3 use=wearable
crs-stats power add Fireball em=10 picks=2 target=group defend=dr bonus=2
crs-stats give Fred Sword
crs-stats give Fred 'Chain Mail'
crs-stats give Fred Fireball
crs-stats take Fred Sword
crs-stats item set 'Chain Mail' dr=+4
crs-stats set Ann DR=6 notes='a note, with \\ and "quotes"'
crs-stats set Ann DR=6
crs-combat start Fred Ann
crs-combat init Fred=5 Ann=3
crs-combat attack Fred Ann --card 7 --vs-card 2
crs-combat undo
crs-combat attack Fred Ann --card 9 --vs-card 1
crs-combat end
crs-stats rm Fred
crs-stats item rm Sword
d6-roll char add Han dexterity=3D
d6-roll --seed 3 Han dexterity
fb-duel sheet add Ann --side light --hand right
fb-duel sheet add Bob --side dark --hand left att=4 lightning=1
fb-duel start Ann Bob
fb-duel round --init 5,2 --choose torso --pull Bob:center=2,left=1 --hit 2,2 --block 4,4
bg-board team add Red --file red.team
bg-board team add Blue --file blue.team
bg-board new Red Blue
bg-board move Rogue a3
crs-stats item add Shield dr=+1
crs-stats item add Ring or=+1
crs-stats item set Shield dr=+2
crs-stats set Ann LIFE=15
crs-stats set Ann notes='after the duel'
crs-stats item rm Ring
EOF2
# shown FILE: a changes file shown, each change's rows in one order.
shown() {
	"$bin/refkit" changes show "$1" | awk '
	    /^entry / { flush(); print; next }
	    /^      / { row = row $0; next }
	    /^  (insert|update|delete) / { if (row != "") rows[n++] = row;
		row = $0; next }
	    { flush(); print }
	    function flush() { if (row != "") rows[n++] = row; row = "";
		if (n > 0) { cmd = "sort"; for (i = 0; i < n; i++)
		print rows[i] | cmd; close(cmd) } n = 0 }
	    END { flush() }' | grep -v '^time \|^station '
}
"$bin/refkit" --db "$d/rec.db" changes export -o "$d/file.changes" \
    >/dev/null && "$bin/refkit" --db "$pgrec" changes export -o \
    "$d/pg.changes" >/dev/null || bad "the exports"
shown "$d/file.changes" >"$d/file.shown"
shown "$d/pg.changes" >"$d/pg.shown"
if cmp -s "$d/file.shown" "$d/pg.shown"; then
	ok
else
	bad "the server records other changes than SQLite:"
	diff "$d/file.shown" "$d/pg.shown" | head -20
fi
n=$(grep -c '^entry ' "$d/pg.shown")
[ "$n" -ge 25 ] && ok || bad "only $n changes recorded"
# A change of one row is the same bytes on both.  (Of more, the order
# differs: SQLite has a table's rows in the order of a hash of their
# keys, and the tables in the order it wrote them, a foreign key's
# removals in an order of its own, which it marks indirect.)
same=0
for k in $(awk '/^entry / { e = $2 } /^  (insert|update|delete) / { n[e]++ }
    END { for (e in n) if (n[e] == 1) print e }' "$d/pg.shown" | tr -d : |
    sort -n); do
	a=$(sqlite3 "$d/rec.db" "SELECT hex(data) FROM change WHERE oseq = $k")
	b=$(psql -X -At -d rec -c "SELECT upper(encode(data, 'hex')) FROM
	    change WHERE oseq = $k")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		same=$((same + 1))
	else
		bad "change $k: other bytes on the server: $a, $b"
	fi
done
[ "$same" -ge 20 ] && ok || bad "only $same changes compared byte by byte"
# ... and a second database on the server takes them from the first.
createdb rec2
# (As a new file takes in the file's.)
out=$("$bin/refkit" --db "postgresql:///rec2?host=$PGHOST" merge "$pgrec" 2>&1)
want=$("$bin/refkit" --db "$d/rec2.db" merge "$d/rec.db" 2>&1)
[ "$out" = "$want" ] && case $out in "merged: $n changes new here"*) ;;
    *) false ;; esac && ok || bad "server to server: '$out', want '$want'"
"$bin/refkit" --db "postgresql:///rec2?host=$PGHOST" changes export \
    -o "$d/pg2.changes" >/dev/null
shown "$d/pg2.changes" | grep -v '^station\|^entries' >"$d/pg2.shown"
grep -v '^station\|^entries' "$d/pg.shown" | cmp -s - "$d/pg2.shown" && ok ||
    bad "server to server: other changes"

# A file and the server take in the same file: they end with the same
# rows in every table that travels, and the same removals noted.
createdb rec3
tables=$(psql -X -At -d rec3 -c "SELECT 1" >/dev/null &&
    "$bin/refkit" --db "postgresql:///rec3?host=$PGHOST" merge "$d/rec.db" \
    >/dev/null && psql -X -At -d rec3 -c "SELECT tbl FROM refkit_travel
    WHERE tbl <> 'station' ORDER BY ord")
"$bin/refkit" --db "$d/rec3.db" merge "$d/rec.db" >/dev/null ||
    bad "a file takes in the file"
{
	for t in $tables; do
		sqlite3 "$d/rec3.db" "SELECT * FROM $t" | sort | sed "s/^/$t|/"
	done
	sqlite3 "$d/rec3.db" "SELECT tbl, lower(hex(key)), origin, oseq FROM
	    gone" | sort
} >"$d/rows.file"
{
	for t in $tables; do
		psql -X -At -F'|' -d rec3 -c "SELECT * FROM $t" | sort |
		    sed "s/^/$t|/"
	done
	psql -X -At -F'|' -d rec3 -c "SELECT tbl, encode(key, 'hex'), origin,
	    oseq FROM gone" | sort
} >"$d/rows.pg"
if [ "$(wc -l <"$d/rows.file")" -gt 40 ] &&
    cmp -s "$d/rows.file" "$d/rows.pg"; then
	ok
else
	bad "a file and the server took in other rows:"
	diff "$d/rows.file" "$d/rows.pg" | head -10
fi

# A database made before a server kept its record of changes is refused,
# untouched.
createdb early
"$bin/crs-stats" --db "postgresql:///early?host=$PGHOST" list >/dev/null &&
    psql -X -q -d early -c "SET client_min_messages = warning;
    DROP TABLE refkit_rowlog CASCADE;
    DROP FUNCTION refkit_record() CASCADE" || bad "an early database"
out=$("$bin/crs-stats" --db "postgresql:///early?host=$PGHOST" add Ann 2>&1)
[ "$?" -eq 1 ] && [ "$out" = "crs-stats: 'postgresql://$PGUSER@$PGHOST:5432\
/early': made by an earlier refkit, which kept no record of changes on \
PostgreSQL; not changed (make it anew)" ] && ok ||
    bad "an early database: '$out'"
[ "$(psql -X -At -d early -c 'SELECT count(*) FROM character')" = 0 ] &&
    ok || bad "an early database was changed"

tally_done
