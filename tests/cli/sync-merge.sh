# refkit changes export / apply and refkit merge: stations exchange what
# they recorded; the roster's conflicts are reported, never settled
# silently.
export REFKIT_NOW=1795000000
# Station ids and key tags are random: shown as <ID> and <TAG>.
mask() {
	sed -e 's/[0-9a-f]\{32\}/<ID>/g' -e 's/[0-9a-f]\{8\}-\([0-9]\)/<TAG>-\1/g' \
	    -e 's/[0-9a-f]\{8\}:\([0-9]\)/<TAG>:\1/g'
}
# state DB: a digest of every table that travels, to show "unchanged".
state() {
	sqlite3 "$1" "SELECT name FROM sqlite_schema WHERE type = 'table'
	    AND name NOT IN ('snapshot', 'history', 'history_combat',
	    'station_self') ORDER BY name" | while read -r t; do
		echo "$t"; sqlite3 "$1" "SELECT * FROM $t ORDER BY 1"
	done | cksum
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
run refkit --db hub.db --station hub merge t1.db
run refkit --db hub.db merge t2.db | mask
run crs-stats --db hub.db list
run refkit --db hub.db station list | mask
run crs-combat --db hub.db history
run crs-combat --db hub.db replay
echo '# Ann is in a combat at each table: merging says so.'
run refkit --db t1.db merge t2.db | mask
echo '# Another station'"'"'s combat is read here, never added to.'
k=$(sqlite3 hub.db "SELECT printf('%08x-%d', id >> 31, id % 2147483648)
    FROM combat WHERE rules = 'crs' ORDER BY id LIMIT 1")
crs-combat --db hub.db --combat "$k" log | mask | head -2
crs-combat --db hub.db --combat "$k" round 2>&1 | mask

echo '# Merging again, or applying what is here, changes nothing.'
before=$(state hub.db)
run refkit --db hub.db merge t1.db | mask
refkit --db t1.db changes export -o t1.changes | mask
run refkit --db hub.db changes apply t1.changes t1.changes
[ "$(state hub.db)" = "$before" ] && echo "hub unchanged"
echo '# --since: only what came after a mark.'
crs-stats --db t1.db set Dee IN=2 >/dev/null
mark=$(refkit --db t1.db changes export -o all.changes | sed 's/.*--since //')
crs-stats --db t1.db set Dee IN=3 >/dev/null
run refkit --db t1.db changes export --since "$mark" -o new.changes
run refkit --db hub.db changes apply new.changes | mask
run refkit --db hub.db changes apply all.changes
run refkit --db hub.db changes apply new.changes
run crs-stats --db hub.db show Dee

echo '# Conflicts: the same stats changed at both tables.'
crs-stats --db t1.db set Bob DR=9 >/dev/null
crs-stats --db t2.db set Bob DR=7 >/dev/null
refkit --db t1.db changes export -o t1.changes >/dev/null
before=$(state t2.db)
run refkit --db t2.db changes apply t1.changes | mask
[ "$(state t2.db)" = "$before" ] && echo "t2 unchanged"
run refkit --db t2.db --json changes apply t1.changes | mask
run refkit --db t2.db --prefer mine changes apply t1.changes | mask
crs-stats --db t2.db show Bob | grep '^DR'
echo '# theirs: the incoming version wins.'
cp t2.db t3.db
crs-stats --db t1.db set Bob DR=10 >/dev/null
refkit --db t1.db changes export -o t1.changes >/dev/null
run refkit --db t3.db --prefer theirs changes apply t1.changes | mask
crs-stats --db t3.db show Bob | grep '^DR'
echo '# Removed at one table, changed at the other.'
crs-stats --db t1.db set Cy DR=8 >/dev/null
crs-stats --db t2.db rm Cy
refkit --db t1.db changes export -o t1.changes >/dev/null
run refkit --db t2.db changes apply t1.changes | mask
echo '# The same name made at both with other stats.'
crs-stats --db t1.db add Eve OR=3 LIFE=4 >/dev/null
crs-stats --db t2.db add Eve OR=4 LIFE=4 >/dev/null
refkit --db t1.db changes export -o t1.changes >/dev/null
run refkit --db t2.db --prefer mine changes apply t1.changes | mask

echo '# Files that are not whole are refused, nothing written.'
before=$(state t2.db)
refkit --db t1.db changes export -o good.changes >/dev/null
head -c 200 good.changes >cut.changes
cp good.changes flip.changes
printf '\377' | dd of=flip.changes bs=1 seek=120 conv=notrunc 2>/dev/null
run refkit --db t2.db changes apply cut.changes
run refkit --db t2.db changes apply flip.changes
run refkit --db t2.db changes apply roster.csv
run refkit --db t2.db changes apply good.changes missing.changes
[ "$(state t2.db)" = "$before" ] && echo "t2 unchanged"
run refkit --db t2.db merge missing.db
echo '# A combat under way at another station, as a merge left it: a'
echo '# fighter in it may start a combat here, with a warning; at his own'
echo '# station he is refused until that combat ends.'
REFKIT_STATION=table-a crs-stats --db ta.db add Vic OR=5 DR=4 LIFE=20 \
    IN=1 >/dev/null
crs-stats --db ta.db add Wes OR=5 DR=4 LIFE=20 IN=1 >/dev/null
crs-stats --db ta.db add Xan OR=5 DR=4 LIFE=20 IN=1 >/dev/null
REFKIT_GM=gm-a crs-combat --db ta.db start Vic Wes >/dev/null
REFKIT_STATION=table-b refkit --db tb.db merge ta.db >/dev/null
run env REFKIT_GM=gm-b crs-combat --db tb.db start Vic Xan | mask
run env REFKIT_GM=gm-c crs-combat --db ta.db start Vic Xan | mask
echo '# Usage.'
run refkit changes export
run refkit --since 1 changes apply good.changes
run refkit --prefer both merge t1.db
run refkit -o x merge t1.db
run refkit --since -1 changes export -o x
