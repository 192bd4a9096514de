# A record made at several stations and removed at one (refkit(7), "A
# record removed at one station"): every hub ends without it, whatever
# the order it takes the stations in; a station that had seen the
# removal may make it again; a change to it made without knowing of the
# removal is a conflict.
export REFKIT_NOW=1795000000
mask() {
	sed -e 's/[0-9a-f]\{32\}/<ID>/g' -e 's/[0-9a-f]\{8\}-\([0-9]\)/<TAG>-\1/g' \
	    -e 's/[0-9a-f]\{8\}:\([0-9]\)/<TAG>:\1/g'
}
# rows DB: every row of the tables that travel but the stations and the
# record of changes, without their times (which differ by station).
rows() {
	sqlite3 "$1" "SELECT name, OR_given, DR_given FROM (SELECT name,
	    given_or AS OR_given, given_dr AS DR_given FROM character) ORDER BY
	    name; SELECT c.name, i.name FROM holds_item h JOIN character c ON
	    c.id = h.character_id JOIN item i ON i.id = h.item_id ORDER BY 1, 2"
}
printf 'name,OR,DR,MIND,LIFE,IN,items\nAnn,8,5,4,12,3,\nBob,6,6,7,9,2,\nCy,5,5,5,6,1,\nDee,4,4,4,5,1,Sword\n' \
    >roster.csv

echo '# Three tables import the same roster; table 1 removes Cy and Dee.'
for s in 1 2 3; do
	REFKIT_NOW=$((1795000000 + s * 60)) REFKIT_STATION=table-$s \
	    crs-stats --db t$s.db item add Sword or=+2 >/dev/null
	REFKIT_NOW=$((1795000000 + s * 60)) \
	    crs-stats --db t$s.db import roster.csv >/dev/null
done
run crs-stats --db t1.db rm Cy
run crs-stats --db t1.db rm Dee
crs-stats --db t2.db set Ann notes="table 2's" >/dev/null

echo '# Hubs take the three in three orders: Cy and Dee are gone at each.'
for order in "1 2 3" "3 2 1" "2 1 3"; do
	h=hub-$(echo $order | tr -d ' ').db
	for s in $order; do
		run refkit --db $h --station hub merge t$s.db
	done
	rows $h >rows.$(echo $order | tr -d ' ')
done
cat rows.123
cmp rows.123 rows.321 && cmp rows.123 rows.213 &&
    echo "the same rows in every order"
run refkit --db hub-123.db --json merge t3.db

echo '# Table 2 takes the hub in: its copies go too.'
run refkit --db t2.db merge hub-321.db
rows t2.db | cmp - rows.123 && echo "table 2 has the hub's rows"
echo '# ... and taking table 2 in again changes nothing at the hub.'
run refkit --db hub-321.db merge t2.db

echo '# Table 3, having seen the removal, makes Cy again: that one stays.'
run refkit --db t3.db merge hub-213.db
run crs-stats --db t3.db list
REFKIT_NOW=1795009000 crs-stats --db t3.db add Cy OR=9 DR=9 LIFE=9 >/dev/null
run refkit --db hub-123.db merge t3.db
run crs-stats --db hub-123.db show Cy
rm -f fresh.db
run refkit --db fresh.db --station fresh merge t3.db
run refkit --db fresh.db merge t1.db
run crs-stats --db fresh.db list

echo '# Table 4 changed Cy without knowing of the removal: a conflict.'
REFKIT_NOW=1795000240 REFKIT_STATION=table-4 \
    crs-stats --db t4.db item add Sword or=+2 >/dev/null
REFKIT_NOW=1795000240 crs-stats --db t4.db import roster.csv >/dev/null
crs-stats --db t4.db set Cy notes="still here" >/dev/null
cp hub-321.db before.db
run refkit --db hub-321.db merge t4.db | mask
cmp hub-321.db before.db && echo "the hub is unchanged"
run refkit --db hub-321.db merge t4.db --prefer mine | mask
run crs-stats --db hub-321.db list

echo '# Migration 14 notes the removals an older database holds.'
cp t1.db old.db
sqlite3 old.db "SELECT tbl, hex(key), oseq FROM gone ORDER BY 1, 2" >gone.now
sqlite3 old.db "DROP INDEX event_by_gm; DROP INDEX fb_event_by_gm;
    DROP INDEX bg_event_by_gm; ALTER TABLE fb_event DROP COLUMN gm;
    ALTER TABLE bg_event DROP COLUMN gm; ALTER TABLE bg_game DROP COLUMN gm;
    DROP TABLE seal_log; DROP TABLE seal; DROP TABLE seal_secret;
    DROP TABLE gone; ALTER TABLE change DROP COLUMN seen;
    DROP TABLE change_staged; DROP TABLE change_rest;
    ALTER TABLE change DROP COLUMN rest;
    DROP TABLE chain; ALTER TABLE event DROP COLUMN hash;
    ALTER TABLE fb_event DROP COLUMN hash;
    ALTER TABLE bg_event DROP COLUMN hash;
    ALTER TABLE d6_roll DROP COLUMN hash; PRAGMA user_version = 13"
crs-stats --db old.db list >/dev/null
sqlite3 old.db "SELECT tbl, hex(key), oseq FROM gone ORDER BY 1, 2" |
    cmp - gone.now && echo "the same removals noted: $(wc -l <gone.now)"
sqlite3 old.db "SELECT count(*) FROM change WHERE seen IS NULL"
