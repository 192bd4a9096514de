# Keys unique across stations (schema 11): every record a station makes
# is keyed by the station's tag times 2^31 plus its own count, shown to
# users as that count; another station's records as TAG-N.
export REFKIT_NOW=1795000000
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" .

# keyed: the logs' and events' keys, with the columns that name them.
keyed='combat:id event:id event:combat_id history_combat:combat_id
    d6_roll:id fb_duel:id fb_event:id fb_event:duel_id bg_game:id
    bg_event:id bg_event:game_id'
# named: the named records' keys, with the columns that name them.
named='character:id item:id power:id holds_item:character_id
    holds_item:item_id holds_power:character_id holds_power:power_id
    d6_character:id d6_trait:character_id fb_duelist:id bg_team:id
    bg_figure:team_id'

# in_range DB: how many keys of logs and events lie outside the station's
# own range, and how many named keys below 2^62, per table; and how many
# values were looked at in all.
in_range() {
	id=$(refkit --db "$1" --csv station | tail -1 | cut -d, -f2)
	tag=$(( 0x$(echo "$id" | cut -c1-8) | 0x80000000 ))
	lo=$((tag * 2147483648 + 1))
	hi=$((tag * 2147483648 + 2147483647))
	all=0
	bad=0
	# shellcheck disable=SC2086
	named1=$(echo $named)
	for tc in $keyed $named; do
		t=${tc%%:*}
		c=${tc#*:}
		case " $named1 " in
		*" $tc "*) w="$c < 4611686018427387904" ;;
		*) w="$c NOT BETWEEN $lo AND $hi" ;;
		esac
		out=$(sql_on "$1" "SELECT count(*) FROM $t WHERE $w")
		[ "$out" = 0 ] || echo "$t.$c: $out keys out of place"
		bad=$((bad + out))
		all=$((all + $(sql_on "$1" "SELECT count(*) FROM $t")))
	done
	echo "$all keys, $bad out of place"
}

# keys_of DB: each named record's key and name.
keys_of() {
	sql_on "$1" "SELECT 'character', id, name FROM character
	    UNION ALL SELECT 'item', id, name FROM item
	    UNION ALL SELECT 'power', id, name FROM power
	    UNION ALL SELECT 'd6', id, name FROM d6_character
	    UNION ALL SELECT 'duelist', id, name FROM fb_duelist
	    UNION ALL SELECT 'team', id, name FROM bg_team ORDER BY 1, 3"
}

echo '# A database of schema 10, migrated: its rows take keys.'
sqlite3 v10.db <"$TOP/tests/fixtures/schema-v10.sql"
run crs-stats --db v10.db show Ann
sqlite3 v10.db 'PRAGMA user_version'
in_range v10.db
echo '# Every event is still there; only steps 11 (the keys) and 15 (the
# hashes) were recorded.'
sqlite3 v10.db "SELECT (SELECT count(*) FROM event), (SELECT count(*) FROM
    fb_event), (SELECT count(*) FROM bg_event), (SELECT count(*) FROM
    change)"
echo '# The holdings still name their characters (step 13 rebuilt the'
echo '# character table under them): no foreign key is broken.'
sqlite3 v10.db "PRAGMA foreign_key_check; SELECT count(*) FROM holds_item
    JOIN character c ON c.id = character_id; SELECT count(*) FROM
    holds_power JOIN character c ON c.id = character_id"
echo '# A name taken is still refused.'
sqlite3 v10.db "INSERT INTO character (id, name, created, updated)
    VALUES (1, 'Ann', 0, 0)" 2>&1 | grep -o 'UNIQUE constraint failed: .*name'
echo '# The numbers people used stay the same.'
sqlite3 v10.db "SELECT 'combat', id % 2147483648 FROM combat UNION ALL
    SELECT 'duel', id % 2147483648 FROM fb_duel UNION ALL
    SELECT 'game', id % 2147483648 FROM bg_game"
run crs-combat --db v10.db --combat 1 log
run crs-combat --db v10.db replay
run crs-combat --db v10.db history --char Ann
run fb-duel --db v10.db --duel 1 status
run fb-duel --db v10.db replay
run bg-board --db v10.db --game 1 show --plain
run bg-board --db v10.db replay
run d6-roll --db v10.db --seed 4 Han blaster
echo '# New records count on from there.'
run crs-stats --db v10.db add Cy OR=5 DR=5 LIFE=6 IN=1
run crs-combat --db v10.db start Cy
run crs-combat --db v10.db --json status
run fb-duel --db v10.db start Luke Vader
run bg-board --db v10.db new Red Blue
in_range v10.db

echo '# A new database: every kind of record is keyed.'
crs-stats item add Sword or=+2 >/dev/null
crs-stats power add Blast em=2 >/dev/null
crs-stats add Ann OR=8 DR=5 MIND=4 LIFE=12 IN=3 EM=6 items=Sword \
    powers=Blast >/dev/null
crs-stats add Bob OR=6 DR=6 MIND=7 LIFE=9 IN=2 >/dev/null
printf 'name,OR,DR,LIFE,IN,items\nDee,3,3,5,1,Sword\nEd,4,4,6,2,\n' >more.csv
crs-stats import more.csv >/dev/null
crs-combat start Ann Bob >/dev/null
crs-combat init Ann=5 Bob=3 >/dev/null
crs-combat attack Ann Bob --card 7 --vs-card 2 >/dev/null
fb-duel sheet add Luke --side light --hand right >/dev/null
fb-duel sheet add Vader --side dark --hand left >/dev/null
fb-duel start Luke Vader >/dev/null
fb-duel round --seed 5 >/dev/null
bg-board team add Red --file red.team >/dev/null
bg-board team add Blue --file blue.team >/dev/null
bg-board new Red Blue >/dev/null
bg-board pass >/dev/null
d6-roll char add Han dexterity=3D+1 dexterity.blaster=6D+1 >/dev/null
d6-roll --seed 3 Han blaster >/dev/null
in_range "$REFKIT_DB"
echo '# A named record has the same key wherever it is made, and a'
echo '# migrated one the key a new one gets.'
keys_of v10.db | grep -v "Cy$" >v10.keys
keys_of "$REFKIT_DB" | grep -v "|Dee$\||Ed$" >new.keys
diff v10.keys new.keys && echo "the same $(wc -l <new.keys) keys"
echo '# A rename gives the record its new name'"'"'s key, holdings and all.'
run crs-stats set Ann name=Anna
run crs-stats show Anna
sql "SELECT count(*) FROM holds_item h JOIN character c
    ON c.id = h.character_id WHERE c.name = 'Anna'"
run crs-stats add Ann OR=1
keys_of "$REFKIT_DB" | grep '|Ann$' | cut -d'|' -f2 >ann.now
grep '|Ann$' new.keys | cut -d'|' -f2 | diff - ann.now && echo "Ann's key again"
run crs-stats item set Sword name=Blade
run crs-stats show Anna
in_range "$REFKIT_DB"

echo '# Another station'"'"'s combat, as a merge would bring it: its key,'
echo '# tag 89abcdef and number 1, is how it is shown and named.'
f=$((0x89abcdef * 2147483648 + 1))
sql "
    INSERT INTO station VALUES ('89abcdef0123456789abcdef01234567',
	'table-9', 1795000000);
    CREATE TEMP TABLE e AS SELECT * FROM event
	WHERE combat_id = (SELECT min(id) FROM combat) AND seq <= 3;
    UPDATE e SET id = $f - 1 + seq, combat_id = $f;
    INSERT INTO combat (id, rules, created)
	SELECT $f, rules, created FROM combat ORDER BY id LIMIT 1;
    INSERT INTO event SELECT * FROM e;"
sql "SELECT count(*) FROM event WHERE combat_id = $f"
run crs-combat --combat 89abcdef-1 log
run crs-combat --combat 89ABCDEF-1 --json status
run crs-combat --combat 89abcdef-1 attack Ann Bob --card 3 --vs-card 3
run fb-duel --duel 89abcdef-1 status
run crs-combat --combat 89abcdef-2 log
run crs-combat --combat 1 status
run crs-combat status
run crs-combat replay
echo '# Keys as typed: a number, or TAG-N; nothing else.'
run crs-combat --combat 0 status
run crs-combat --combat 2147483648 status
run crs-combat --combat 1234567-1 status
run crs-combat --combat 01abcdef-1 status
run crs-combat --combat 89abcdef-0 status
run crs-combat --combat 89abcdef- status
run fb-duel --duel x1 status
run bg-board --game 89abcdef-01 show
