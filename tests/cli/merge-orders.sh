# refkit merge: the same record made at several stations ends the same at
# every hub, whatever order the stations come in (tests/stress/stations.sh
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
