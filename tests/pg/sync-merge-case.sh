# sync-merge-case.sh: stations exchange their changes with a hub, $HUB, in
# both directions (refkit merge, refkit changes export and apply), with
# every kind of conflict, a record removed at the hub, a reference to a
# record not there, and merges that fail half way.  Sourced by
# tests/pg/sync-merge.sh after tests/cli/lib.sh, in a new directory, once with
# $HUB an SQLite file and once a PostgreSQL database: the transcripts
# must both be tests/pg/sync-merge.out.  Nothing here says which it is.
export REFKIT_NOW=1795000000
# Station ids and key tags are random: shown as <ID> and <TAG>.
mask() {
	sed -e 's/[0-9a-f]\{32\}/<ID>/g' -e 's/[0-9a-f]\{8\}-\([0-9]\)/<TAG>-\1/g' \
	    -e 's/[0-9a-f]\{8\}:\([0-9]\)/<TAG>:\1/g'
}
# hub_sql SQL: runs SQL on the hub, as another program would.
# A blob is written x'..' as SQLite has it, and given to PostgreSQL as
# its bytea.
hub_sql() {
	case $HUB in
	postgresql:*) psql -X -q -At -v ON_ERROR_STOP=1 -d "$HUB" -c \
	    "$(printf '%s' "$1" | sed "s/x'\([0-9a-f]*\)'/'\\\\x\1'::bytea/g")" ;;
	*) sqlite3 "$HUB" "$1" ;;
	esac
}
# hub_snap and hub_same: "(hub unchanged)" when the hub holds what it
# held at hub_snap.  A sequence that numbers rows (change.no) is not
# what it holds: PostgreSQL moves it on in a transaction rolled back.
hub_dump() {
	dump "$HUB" | grep -v '^SELECT pg_catalog.setval('
}
hub_snap() {
	hub_dump >"$T/.hub"
}
hub_same() {
	if hub_dump | cmp -s - "$T/.hub"; then
		echo "(hub unchanged)"
	else
		echo "(HUB CHANGED)"
		hub_dump | diff "$T/.hub" - | head -20
	fi
}
# file_same FILE SUM: whether FILE's checksum is still SUM.
file_same() {
	[ "$(filesum "$1")" = "$2" ] && echo "($1 unchanged)" ||
	    echo "($1 CHANGED)"
}
printf 'name,OR,DR,MIND,LIFE,IN\nAnn,8,5,4,12,3\nBob,6,6,7,9,2\nCy,5,5,5,6,1\n' \
    >roster.csv

echo '# Two tables import the same roster and fight.'
for s in 1 2; do
	REFKIT_STATION=table-$s crs-stats --db t$s.db import roster.csv
done
crs-stats --db t1.db add Dee OR=4 DR=4 LIFE=5 IN=1 >/dev/null
crs-combat --db t1.db start Ann Bob >/dev/null
crs-combat --db t1.db init Ann=5 Bob=3 >/dev/null
crs-combat --db t1.db attack Ann Bob --card 7 --vs-card 2 >/dev/null
crs-combat --db t2.db start Cy Ann >/dev/null
crs-combat --db t2.db --seed 5 init >/dev/null
crs-combat --db t2.db --seed 6 attack Ann Cy >/dev/null
crs-combat --db t2.db undo >/dev/null
d6-roll --db t2.db char add Han dexterity=3D >/dev/null
d6-roll --db t2.db --seed 3 Han dexterity >/dev/null

echo '# The hub takes both in; the roster is one roster.'
run refkit --db "$HUB" --station hub merge t1.db
run refkit --db "$HUB" merge t2.db | mask
run crs-stats --db "$HUB" list
run refkit --db "$HUB" station list | mask
run crs-combat --db "$HUB" history
run crs-combat --db "$HUB" replay
echo '# Merging again changes nothing.'
hub_snap
run refkit --db "$HUB" merge t1.db | mask
run refkit --db "$HUB" merge t2.db | mask
hub_same

echo '# The hub makes records of its own, which the tables take in.'
crs-stats --db "$HUB" add Gus OR=7 DR=3 LIFE=8 IN=2 >/dev/null
crs-stats --db "$HUB" set Ann notes="at the hub" >/dev/null
crs-stats --db "$HUB" item add Rope or=+1 >/dev/null
crs-stats --db "$HUB" give Gus Rope >/dev/null
crs-combat --db "$HUB" start Gus Dee >/dev/null
crs-combat --db "$HUB" init Gus=6 Dee=2 >/dev/null
crs-combat --db "$HUB" attack Gus Dee --card 9 --vs-card 3 >/dev/null
d6-roll --db "$HUB" char add Leia perception=4D >/dev/null
run refkit --db t1.db merge "$HUB" | mask
run crs-stats --db t1.db list
run crs-stats --db t1.db show Gus
run crs-combat --db t1.db history
sum=$(filesum t1.db)
run refkit --db t1.db merge "$HUB" | mask
file_same t1.db "$sum"
hub_snap
run refkit --db "$HUB" merge t1.db | mask
hub_same
echo '# What the hub made, as the table holds it: the rows each change'
echo '# made, of which table (a changeset has them in an order of its own).'
refkit --db t1.db changes export -o t1all.changes >/dev/null
refkit changes show t1all.changes | sed -n '/^entry 1[3-9]:/,$p' |
    sed -n 's/^entry \([0-9]*\):.*/\1/p
    s/^  \(insert\|update\|delete\) \([a-z0-9_]*\).*/\1 \2/p' |
    awk '/^[0-9]/ { if (e != "") print e ":" l; e = $0; l = ""; next }
    { l = l " " $0 } END { print e ":" l }' | while IFS=: read -r e l; do
	printf 'entry %s:%s\n' "$e" "$(printf '%s\n' $l | paste -d' ' - - |
	    sort | uniq -c | tr -s ' ' | tr '\n' ';')"
done

echo '# The hub exports; a new station applies that, then again.'
run refkit --db "$HUB" changes export -o hub.changes
run refkit --db t3.db --station table-3 changes apply hub.changes | mask
run crs-stats --db t3.db list
run crs-combat --db t3.db history
run refkit --db t3.db changes apply hub.changes | mask
echo '# --since: only what came after a mark.'
mark=$(refkit --db "$HUB" changes export -o all.changes | sed 's/.*--since //')
crs-stats --db "$HUB" set Gus IN=3 >/dev/null
run refkit --db "$HUB" changes export --since "$mark" -o new.changes
run refkit --db t3.db changes apply new.changes | mask
run crs-stats --db t3.db show Gus
echo '# The hub applies a table'"'"'s export.'
crs-stats --db t2.db set Cy notes="from table 2" >/dev/null
refkit --db t2.db changes export -o t2.changes >/dev/null
run refkit --db "$HUB" changes apply t2.changes | mask
run crs-stats --db "$HUB" show Cy

echo '# Conflicts: the same stats changed at a table and at the hub.'
refkit --db t1.db merge "$HUB" 2>&1 >/dev/null | mask
crs-stats --db t1.db set Bob DR=9 >/dev/null
crs-stats --db "$HUB" set Bob DR=7 >/dev/null
hub_snap
run refkit --db "$HUB" merge t1.db | mask
hub_same
run refkit --db "$HUB" --json merge t1.db | mask
echo '# ... and at the table, the same conflict the other way round.'
cp t1.db t1-copy.db
run refkit --db t1-copy.db merge "$HUB" | mask
run refkit --db "$HUB" --prefer mine merge t1.db | mask
run crs-stats --db "$HUB" show Bob
echo '# theirs: the incoming version wins.'
crs-stats --db t1.db set Bob DR=10 >/dev/null
run refkit --db "$HUB" --prefer theirs merge t1.db | mask
crs-stats --db "$HUB" show Bob | grep '^DR'

echo '# Every other kind, settled record by record from a file.'
crs-stats --db t1.db set Cy DR=8 >/dev/null		# removed here
crs-stats --db "$HUB" rm Cy
crs-stats --db t1.db rm Ann				# removed there
crs-stats --db "$HUB" set Ann LIFE=13 >/dev/null
crs-stats --db t1.db add Eve OR=3 LIFE=4 >/dev/null	# made at both
crs-stats --db "$HUB" add Eve OR=4 LIFE=4 >/dev/null
crs-stats --db t1.db add Fay OR=2 >/dev/null		# refused here:
# the hub has a Fay under another key, put there by another program.
hub_sql "INSERT INTO character (id, name, given_or, created, updated)
    VALUES (3, 'Fay', 5, 1795000000, 1795000000)"
hub_snap
run refkit --db "$HUB" --resolutions-out res.txt merge t1.db | mask
hub_same
mask <res.txt
sed -e '/"name":"Eve"/s/ ask$/ mine/' -e '/"name":"Ann"/s/ ask$/ theirs/' \
    -e '/"name":"Cy"/s/ ask$/ mine/' -e '/"name":"Fay"/s/ ask$/ mine/' \
    res.txt >choices.txt
run refkit --db "$HUB" --resolve choices.txt merge t1.db | mask
run crs-stats --db "$HUB" list
run refkit --db t1.db merge "$HUB" | mask
run crs-stats --db t1.db list

echo '# A table that had not seen the removal of Cy does not bring it back.'
REFKIT_STATION=table-4 crs-stats --db t4.db import roster.csv
run refkit --db "$HUB" merge t4.db | mask
run crs-stats --db "$HUB" list
run refkit --db t4.db merge "$HUB" | mask
run crs-stats --db t4.db list

echo '# The hub'"'"'s record of changes counts on without gaps, whatever was'
echo '# refused on the way: the marks --since takes are the same.'
run refkit --db "$HUB" changes export -o end.changes
run refkit --db "$HUB" changes export --since 30 -o end.changes

echo '# A merge that fails half way writes nothing, at either side.'
crs-stats --db t2.db add Ida OR=1 >/dev/null
crs-stats --db t2.db add Jo OR=2 >/dev/null
crs-stats --db t2.db add Kim OR=3 >/dev/null
cp t2.db t5.db
n=$(sqlite3 t5.db "SELECT max(oseq) FROM change WHERE origin = (SELECT id
    FROM station_self)")
sqlite3 t5.db "UPDATE change SET data = x'00' WHERE oseq = $n AND origin =
    (SELECT id FROM station_self)"
sum=$(filesum t5.db)
hub_snap
run refkit --db "$HUB" merge t5.db | mask
hub_same
file_same t5.db "$sum"
run crs-stats --db "$HUB" show Ida
echo '# A value the hub put back, which a table'"'"'s change had not seen: a'
echo '# conflict at the hub, whose settlement both tables come to.'
crs-stats --db "$HUB" add Ola OR=3 LIFE=9 >/dev/null
for s in 8 9; do
	REFKIT_STATION=table-$s refkit --db t$s.db merge "$HUB" >/dev/null 2>&1
done
crs-stats --db t8.db set Ola notes=eight >/dev/null
refkit --db "$HUB" --prefer theirs merge t8.db >/dev/null 2>&1
crs-stats --db t9.db set Ola notes=nine >/dev/null
crs-stats --db "$HUB" set Ola notes= >/dev/null
run refkit --db "$HUB" --prefer theirs merge t9.db | mask
for s in 9 8; do
	run refkit --db t$s.db --prefer theirs merge "$HUB" | mask
done
for db in "$HUB" t8.db t9.db; do
	printf '%s\n' "$(crs-stats --db "$db" show Ola | sed -n 's/^notes *//p')"
done

echo '# ... and the other way: a damaged change in the hub'"'"'s record.'
run refkit --db "$HUB" merge t2.db | mask
crs-stats --db "$HUB" add Lou OR=4 >/dev/null
crs-stats --db "$HUB" add Max OR=5 >/dev/null
hub_sql "UPDATE change SET data = x'00' WHERE oseq = (SELECT max(oseq)
    FROM change WHERE origin = (SELECT id FROM station_self)) AND origin =
    (SELECT id FROM station_self)"
sum=$(filesum t2.db)
hub_snap
run refkit --db t2.db merge "$HUB" | mask
file_same t2.db "$sum"
hub_same
run crs-stats --db t2.db show Lou

echo '# A change that names a record not at the hub: Bob, removed there.'
crs-stats --db "$HUB" rm Bob
mark=$(refkit --db t2.db changes export -o x.changes | sed 's/.*--since //')
crs-stats --db t2.db item add Lamp >/dev/null
crs-stats --db t2.db give Bob Lamp >/dev/null
refkit --db t2.db changes export --since "$mark" -o lamp.changes >/dev/null
hub_snap
run refkit --db "$HUB" changes apply lamp.changes | mask
hub_same
echo '# ... or one that builds on a change not there.'
refkit --db t2.db changes export --since $((mark + 1)) -o give.changes \
    >/dev/null
run refkit --db "$HUB" changes apply give.changes | mask
hub_same

echo '# The same record made at two tables at other times: one record, made'
echo '# when the earliest was and changed when the latest was.'
REFKIT_NOW=1795000500 REFKIT_STATION=table-6 crs-stats --db t6.db add Nia \
    OR=1 >/dev/null
REFKIT_NOW=1795000100 REFKIT_STATION=table-7 crs-stats --db t7.db add Nia \
    OR=1 >/dev/null
run refkit --db "$HUB" merge t6.db | mask
run refkit --db "$HUB" merge t7.db | mask
hub_sql "SELECT name, created, updated FROM character WHERE name = 'Nia'"

