# refkit merge: the same record made at several stations ends the same at
# every hub, whatever order the stations come in (tests/stress/sync-stations.sh
# does this at length).
# The record made at three stations, each on a clock of its own: only the
# times differ.  Every hub keeps the earliest created and the latest
# updated of the three, and a station that then takes a hub's changes
# comes to the same.
for s in 1 2 3; do
	REFKIT_NOW=$((1795000000 + s * 3600)) REFKIT_STATION=table-$s \
	    crs-stats --db "s$s.db" add Ann OR=8 DR=10 LIFE=60 IN=3 >/dev/null
	REFKIT_NOW=$((1795000000 + s * 3600)) REFKIT_STATION=table-$s \
	    crs-stats --db "s$s.db" item add Sword or=+2 >/dev/null
done
# row DB: Ann as the database holds her.
row() {
	sqlite3 "$1" "SELECT name, given_life, notes, created, updated
	    FROM character"
}
for order in "1 2 3" "3 2 1" "2 3 1"; do
	hub=hub$(echo "$order" | tr -d ' ')
	for s in $order; do
		run refkit --db "$hub.db" merge "s$s.db"
	done
	echo "$hub: $(row "$hub.db")"
done
run refkit --db s2.db merge hub321.db
echo "s2: $(row s2.db)"
# Made alike at two stations, then changed at one: the other's making is
# older than what the first now holds, not a conflict, in either order.
for s in 4 5; do
	REFKIT_NOW=$((1795000000 + s * 3600)) REFKIT_STATION=table-$s \
	    crs-stats --db "s$s.db" add Bob OR=7 DR=9 LIFE=50 IN=1 >/dev/null
done
REFKIT_NOW=1795020000 crs-stats --db s4.db set Bob LIFE=45 notes=limps
REFKIT_NOW=1795020000 crs-stats --db s4.db item add Shield dr=+1
REFKIT_NOW=1795020000 crs-stats --db s5.db item add Shield dr=+1
REFKIT_NOW=1795020000 crs-stats --db s4.db item set Shield dr=+2
run refkit --db hub45.db merge s4.db
run refkit --db hub45.db merge s5.db
run refkit --db hub54.db merge s5.db
run refkit --db hub54.db merge s4.db
for h in hub45 hub54; do
	echo "$h: $(sqlite3 "$h.db" "SELECT name, given_life, notes, created,
	    updated FROM character WHERE name = 'Bob'") $(sqlite3 "$h.db" \
	    "SELECT name, mod_dr FROM item WHERE name = 'Shield'")"
done
# Made differently at two stations is still a conflict.
REFKIT_NOW=1795020000 REFKIT_STATION=table-6 crs-stats --db s6.db add Bob \
    OR=1 >/dev/null
# The station ids are random: the transcript shows them as <ID>.
run refkit --db hub45.db merge s6.db | sed 's/[0-9a-f]\{8\}:\([0-9]\)/<ID>:\1/g'
# A file of a combat's later changes, applied before the file of the
# changes that started it, names a combat not here: refused, with
# nothing written (it once crashed), and taken in the other order.
export REFKIT_NOW=1795020000 REFKIT_STATION=table-7
crs-stats --db s7.db add Zed OR=3 DR=3 LIFE=10 IN=1 >/dev/null
crs-stats --db s7.db add Yan OR=3 DR=3 LIFE=10 IN=1 >/dev/null
crs-combat --db s7.db start Zed Yan >/dev/null
run refkit --db s7.db changes export -o morning
crs-combat --db s7.db init Zed=5 Yan=3 >/dev/null
crs-combat --db s7.db pass Zed >/dev/null
run refkit --db s7.db changes export -o afternoon --since 3
run refkit --db hub7.db changes apply afternoon | sed 's/[0-9a-f]\{8\}:\([0-9]\)/<ID>:\1/g'
run refkit --db hub7.db changes apply afternoon morning | sed 's/[0-9a-f]\{8\}:\([0-9]\)/<ID>:\1/g'
sqlite3 hub7.db 'SELECT count(*) FROM change; SELECT count(*) FROM event'
run refkit --db hub7.db changes apply morning afternoon
run crs-combat --db hub7.db replay
# A record of changes that changes a station's own table (here its
# history, which each station adds up for itself) was not made by
# refkit: the merge refuses it and writes nothing.
REFKIT_STATION=evil refkit --db evil.db station >/dev/null
sqlite3 evil.db <<SQL
.session open main s
.session s attach history
INSERT INTO history VALUES ('Mallory', 1, 1, 1, 1, 1, 1);
.session s changeset evil.changeset
.session s close
INSERT INTO change (origin, oseq, time, data)
    SELECT id, 1, 0, readfile('evil.changeset') FROM station_self;
SQL
run refkit --db hub7.db merge evil.db | sed 's/[0-9a-f]\{8\}:\([0-9]\)/<ID>:\1/g'
sqlite3 hub7.db "SELECT count(*) FROM history WHERE name = 'Mallory'"
# A change that removes an event, which no tool makes but a hand-made
# record of changes can hold: the hub cannot tell which combat the event
# was in, so it adds up every combat's history again, and the histories
# agree with the events left.
REFKIT_STATION=table-8 crs-stats --db s8.db add Ann OR=8 DR=10 LIFE=60 \
    IN=3 >/dev/null
crs-stats --db s8.db add Bob OR=7 DR=9 LIFE=50 IN=1 >/dev/null
crs-combat --db s8.db start Ann Bob >/dev/null
crs-combat --db s8.db init Ann=5 Bob=3 >/dev/null
crs-combat --db s8.db attack Ann Bob --card 9 --vs-card 2 >/dev/null
crs-combat --db s8.db attack Bob Ann --card 8 --vs-card 3 >/dev/null
refkit --db hub8.db merge s8.db >/dev/null
run crs-combat --db hub8.db history
sqlite3 s8.db <<SQL
.session open main s
.session s attach event
DELETE FROM event WHERE id = (SELECT max(id) FROM event);
.session s changeset rm.changeset
.session s close
INSERT INTO change (origin, oseq, time, data)
    SELECT id, (SELECT max(oseq) FROM change) + 1, 0,
    readfile('rm.changeset') FROM station_self;
SQL
refkit --db hub8.db merge s8.db >/dev/null
run crs-combat --db hub8.db history
