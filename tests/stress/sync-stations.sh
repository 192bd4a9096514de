#!/bin/sh
# sync-stations.sh BUILD-DIR: four stations run a day each at once, then their
# records are merged in several orders (issue 21).
#
# Four stations (table-1 .. table-4), each its own database file, run a
# scripted day in parallel processes, each on a clock of its own
# (REFKIT_NOW) and with fixed seeds, so that every station's day is the
# same from run to run and the same record made at two stations differs
# in its times: the roster file every station imports and an item, sheets
# and teams made alike everywhere (the same records, by their names), and
# records of the station's own; CRS combats with physical and drawn cards,
# a mental attack, pass, undo, Clean Up and end; an Avatar combat; a
# Force Battles duel with rounds and an undo; a Battle Grounds game with
# moves, a pass and an undo; D6 rolls.  Table 2 also changes one shared
# character after making it, and table 3 removes another.
#
# Then fresh hubs take them in: merge 1, 2, 3, 4; merge 4, 3, 2, 1; two
# pairs merged first and the hub merging the pairs (so that some changes
# arrive relayed); the four stations' changes files applied at once in a
# shuffled order; a station's first half-day file applied before the
# rest.  Checked: every command of every day succeeded; no merge or
# apply reports a conflict, and the rest of a day applied before its
# morning is refused with nothing written; every hub holds the same rows in every table
# that travels, and the removals each notes (stations by id: a relayed
# station's name is not known),
# the same change rows, the same history and a replay of every combat,
# duel and game with no mismatch; a station that takes a hub's changes
# ends with the same rows as the hub; taking every station's changes
# again changes nothing; a log started at a station cannot be appended
# to at the hub.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset REFKIT_DB REFKIT_STATION REFKIT_NOW
export LC_ALL=C TZ=UTC
. "$top/tests/lib/tally.sh"
tally stress/sync-stations

cp "$top/tests/fixtures/bg/red.team" "$top/tests/fixtures/bg/blue.team" \
    "$tmp"
# The shared roster: the same file at every station.
cat >"$tmp/roster.csv" <<'EOF'
name,OR,DR,MIND,LIFE,IN,LB,items
Ann,8,10,6,80,3,1,Sword
Bob,7,9,5,80,1,2,
Cy,5,8,4,60,0,0,
Dee,4,6,3,50,0,0,Sword
Eve,6,6,6,40,2,1,
EOF

# day S: station S's day, in its own database; a command that fails is
# written to day.S.err.
day() {
	s=$1
	export REFKIT_DB="$tmp/s$s.db" REFKIT_STATION="table-$s"
	export REFKIT_NOW=$((1795000000 + s * 3600))
	g="Guard $s"
	k="Scout $s"
	do_() {
		"$@" >/dev/null 2>"$tmp/day.$s.last" ||
		    echo "exit $?: $*: $(head -1 "$tmp/day.$s.last")" \
		    >>"$tmp/day.$s.err"
	}
	do_ "$bin/crs-stats" item add Sword or=+2
	do_ "$bin/crs-stats" import "$tmp/roster.csv"
	do_ "$bin/crs-stats" add "$g" OR=$((4 + s)) DR=6 MIND=4 LIFE=40 IN=2
	do_ "$bin/crs-stats" add "$k" OR=5 DR=5 MIND=5 LIFE=30 IN=3
	do_ "$bin/crs-stats" add "Runner $s" OR=1 DR=1 LIFE=5
	do_ "$bin/crs-stats" set "$g" notes="watch at table $s"
	do_ "$bin/crs-stats" give "$g" Sword
	do_ "$bin/crs-stats" rm "Runner $s"
	do_ "$bin/crs-combat" start Ann Bob "$g"
	do_ "$bin/crs-combat" --seed "1$s" init Ann=9 Bob=5 "$g=3"
	do_ "$bin/crs-combat" attack Ann Bob --card 7 --vs-card 3
	do_ "$bin/crs-combat" --seed "2$s" attack Bob Ann
	do_ "$bin/crs-combat" mental "$g" Ann --kind attack --card 4 \
	    --vs-card 2
	do_ "$bin/crs-combat" undo
	do_ "$bin/crs-combat" pass "$g"
	do_ "$bin/crs-combat" round
	# The morning's changes as a file, and the mark the rest starts
	# at: in the middle of a combat.
	"$bin/refkit" changes export -o "$tmp/half.$s" >"$tmp/half.$s.out" ||
	    echo "exit $?: the morning's export" >>"$tmp/day.$s.err"
	do_ "$bin/crs-combat" init "$g=9" Ann=5 Bob=2
	do_ "$bin/crs-combat" --seed "3$s" attack "$g" Bob
	do_ "$bin/crs-combat" attack Ann "$g" --card 2 --vs-card 8
	do_ "$bin/crs-combat" --seed "4$s" mental Bob "$g"
	do_ "$bin/crs-combat" round
	do_ "$bin/crs-combat" end --agreed
	do_ "$bin/crs-combat" start "$k" Cy --rules avatar
	do_ "$bin/crs-combat" range "$k" Cy 5
	do_ "$bin/crs-combat" --seed "5$s" init "$k=8" Cy=4
	do_ "$bin/crs-combat" --seed "6$s" attack "$k" Cy
	do_ "$bin/crs-combat" pass Cy
	do_ "$bin/crs-combat" round
	do_ "$bin/crs-combat" --seed "7$s" init
	do_ "$bin/crs-combat" end --agreed
	do_ "$bin/fb-duel" sheet add Luke --side light --hand right
	do_ "$bin/fb-duel" sheet add Vader --side dark --hand left
	do_ "$bin/fb-duel" sheet add "Knight$s" --side light --hand left
	do_ "$bin/fb-duel" start Luke Vader
	do_ "$bin/fb-duel" round --seed "7$s"
	do_ "$bin/fb-duel" undo
	do_ "$bin/fb-duel" round --seed "8$s"
	do_ "$bin/fb-duel" start "Knight$s" Vader
	do_ "$bin/fb-duel" round --init 5,2 --choose torso --hit 3,3 \
	    --block 4,4
	do_ "$bin/bg-board" team add Red --file "$tmp/red.team"
	do_ "$bin/bg-board" team add Blue --file "$tmp/blue.team"
	do_ "$bin/bg-board" new Red Blue
	do_ "$bin/bg-board" move Rogue a3
	do_ "$bin/bg-board" move Toad a5
	do_ "$bin/bg-board" undo
	do_ "$bin/bg-board" pass
	do_ "$bin/bg-board" move Rogue a4
	do_ "$bin/bg-board" --seed "9$s" move Toad a5
	do_ "$bin/d6-roll" char add Han dexterity=3D+1 dexterity.blaster=6D+1
	do_ "$bin/d6-roll" char add "Pilot$s" dexterity=2D+2
	do_ "$bin/d6-roll" --seed "1$s" Han blaster
	do_ "$bin/d6-roll" --seed "2$s" Han dexterity --round 1
	do_ "$bin/d6-roll" --seed "3$s" "Pilot$s" dexterity --vs 10
	# A shared character changed at one station after it was made,
	# and another removed at one station (refkit(7), "A record removed
	# at one station"): the copies the others made are passed over.
	[ "$s" -ne 2 ] || do_ "$bin/crs-stats" set Dee LIFE=45 notes=limps
	[ "$s" -ne 3 ] || do_ "$bin/crs-stats" rm Eve
}

pids=
for s in 1 2 3 4; do
	day "$s" &
	pids="$pids $!"
done
# shellcheck disable=SC2086
wait $pids
errs=$(cat "$tmp"/day.*.err 2>/dev/null | head -5)
[ -z "$errs" ] && ok || bad "a day's command failed: $errs"

r() { "$bin/refkit" "$@" 2>>"$tmp/refkit.err"; }
# take HUB HOW SOURCE...: merge each SOURCE database into HUB, or with
# HOW "apply", apply the SOURCE files at once; a failure or a conflict
# is a failure of the test.
take() {
	hub=$1
	how=$2
	shift 2
	if [ "$how" = apply ]; then
		r --db "$tmp/$hub.db" changes apply "$@" >"$tmp/take.out"
		rc=$?
	else
		rc=0
		: >"$tmp/take.out"
		for src in "$@"; do
			r --db "$tmp/$hub.db" merge "$tmp/$src.db" \
			    >>"$tmp/take.out" || rc=$?
		done
	fi
	c=$(grep -c '^\(merged\|applied\): .* settled$' "$tmp/take.out")
	n=$(grep -c ' 0 conflicts settled$' "$tmp/take.out")
	[ "$rc" -eq 0 ] && [ "$c" -gt 0 ] && [ "$c" -eq "$n" ] && ok ||
	    bad "$hub <- $how $*: exit $rc: $(grep -v ' settled$' \
	    "$tmp/take.out" | head -3) $(tail -2 "$tmp/refkit.err")"
}
# copy DB NEW: a copy of a closed database, through SQLite.
copy() { sqlite3 "$tmp/$1.db" "VACUUM INTO '$tmp/$2.db'"; }

for s in 1 2 3 4; do
	r --db "$tmp/s$s.db" changes export -o "$tmp/f$s" >/dev/null ||
	    bad "station $s: export failed"
	r --db "$tmp/s$s.db" changes export -o "$tmp/rest.$s" --since \
	    "$(sed -n 's/.*next time: --since //p' "$tmp/half.$s.out")" \
	    >/dev/null || bad "station $s: export --since failed"
done
take hub1 merge s1 s2 s3 s4
take hub2 merge s4 s3 s2 s1
copy s1 p12
copy s3 p34
take p12 merge s2
take p34 merge s4
take hub3 merge p34 p12
take hub4 apply "$tmp/f3" "$tmp/f1" "$tmp/f4" "$tmp/f2"
# Relayed: table 2 takes table 1's file, table 4 takes that station's
# merge; the hub hears of tables 1 and 2 only through them.
copy s2 q2
take q2 apply "$tmp/f1"
copy s4 q4
take q4 merge q2 s3
take hub5 merge q4
# Halves: each station's file of its morning first, the rest after.
take hub6 apply "$tmp/half.2" "$tmp/half.4" "$tmp/half.1" "$tmp/half.3"
take hub6 apply "$tmp/rest.3" "$tmp/rest.1" "$tmp/rest.4" "$tmp/rest.2"
# The rest before its morning builds on changes not here: refused, with
# nothing written.
"$bin/refkit" --db "$tmp/hub7.db" changes apply "$tmp/rest.1" \
    >"$tmp/rest.out" 2>&1
rc=$?
n=$(sqlite3 "$tmp/hub7.db" 'SELECT count(*) FROM change')
[ "$rc" -eq 1 ] && [ "$n" -eq 0 ] &&
    grep -q 'which is not here' "$tmp/rest.out" && ok ||
    bad "the rest before the morning: exit $rc, $n changes taken: $(head -2 \
    "$tmp/rest.out")"
# A station that takes a hub's changes ends where the hub is.
copy s3 full3
take full3 merge hub2
hubs="hub1 hub2 hub3 hub4 hub5 hub6 full3"

# dump DB: every table that travels, each row a line of SQL literals in
# a sorted order; of the stations, the ids of those that made changes
# (a hub and the databases it merged made none; a station's name is
# known only where it came itself).
dump() {
	for t in $(sqlite3 "$1" "SELECT name FROM sqlite_schema WHERE
	    type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN
	    ('change', 'station_self', 'snapshot', 'history',
	    'history_combat') ORDER BY name"); do
		echo "== $t"
		if [ "$t" = station ]; then
			sqlite3 "$1" "SELECT id FROM station WHERE id IN
			    (SELECT origin FROM change) ORDER BY id"
		else
			sqlite3 -cmd '.mode quote' "$1" "SELECT * FROM $t" |
			    sort
		fi
	done
}
# changes DB: every change row that came from elsewhere, in a fixed order.
changes() {
	sqlite3 "$1" "SELECT origin, oseq, time, hex(data) FROM change WHERE
	    origin NOT IN (SELECT id FROM station_self) ORDER BY origin, oseq"
}

dump "$tmp/hub1.db" >"$tmp/hub1.dump"
changes "$tmp/hub1.db" >"$tmp/hub1.changes"
"$bin/crs-combat" --db "$tmp/hub1.db" history >"$tmp/hub1.history"
nch=$(wc -l <"$tmp/hub1.changes")
want=0
for s in 1 2 3 4; do
	want=$((want + $(sqlite3 "$tmp/s$s.db" 'SELECT count(*) FROM change')))
done
[ "$nch" -eq "$want" ] && ok ||
    bad "hub1 holds $nch changes from elsewhere, the stations made $want"
for h in $hubs; do
	db="$tmp/$h.db"
	if [ "$h" != hub1 ]; then
		dump "$db" >"$tmp/$h.dump"
		cmp -s "$tmp/hub1.dump" "$tmp/$h.dump" && ok ||
		    bad "$h differs from hub1: $(diff "$tmp/hub1.dump" \
		    "$tmp/$h.dump" | grep '^[<>]' | head -4)"
		"$bin/crs-combat" --db "$db" history >"$tmp/$h.history"
		cmp -s "$tmp/hub1.history" "$tmp/$h.history" && ok ||
		    bad "$h: its history differs from hub1's"
	fi
	if [ "$h" != full3 ]; then
		changes "$db" | cmp -s "$tmp/hub1.changes" - && ok ||
		    bad "$h: its change rows differ from hub1's"
	fi
	ic=$(sqlite3 "$db" 'PRAGMA integrity_check; PRAGMA foreign_key_check')
	[ "$ic" = ok ] && ok || bad "$h: integrity: $ic"
	out=$("$bin/refkit" --db "$db" verify 2>&1) && ok ||
	    bad "$h: refkit verify: $(printf '%s\n' "$out" | tail -3)"
	for tool in crs-combat fb-duel bg-board; do
		out=$("$bin/$tool" --db "$db" replay 2>&1)
		case $out in
		*" of 8 combats: 0 mismatches" | *" of 8 duels: 0 mismatches" | \
		    *" of 4 games: 0 mismatches") ok ;;
		*) bad "$h: $tool replay: $out" ;;
		esac
	done
done

# Histories are added up at the hub from the events that came: a
# station's own character has there the history it has at home.
for s in 1 2 3 4; do
	a=$("$bin/crs-combat" --db "$tmp/s$s.db" history --char "Guard $s")
	b=$("$bin/crs-combat" --db "$tmp/hub1.db" history --char "Guard $s")
	[ -n "$a" ] && [ "$a" = "$b" ] && ok ||
	    bad "Guard $s: history at home '$a', at the hub '$b'"
done
# The shared roster came as one record each, the change made at table 2
# kept, the one removed at table 3 gone (every hub holds what hub1 does).
n=$(sqlite3 "$tmp/hub1.db" "SELECT count(*) FROM character WHERE name IN
    ('Ann', 'Bob', 'Cy', 'Dee')")
[ "$n" -eq 4 ] && ok || bad "hub1 holds $n of the 4 shared characters"
n=$(sqlite3 "$tmp/hub1.db" "SELECT count(*) FROM character WHERE
    name = 'Eve'")
[ "$n" -eq 0 ] && ok || bad "hub1 holds Eve, removed at table 3"
d=$(sqlite3 "$tmp/hub1.db" "SELECT given_life, notes FROM character
    WHERE name = 'Dee'")
[ "$d" = "45|limps" ] && ok || bad "Dee at hub1: '$d', want '45|limps'"

# Taking it all again changes nothing.
r --db "$tmp/hub1.db" changes apply "$tmp/f2" "$tmp/f4" "$tmp/f1" \
    "$tmp/f3" >"$tmp/again.out"
r --db "$tmp/hub1.db" merge "$tmp/hub3.db" >>"$tmp/again.out"
n=$(grep -c ': 0 changes new here, [1-9][0-9]* here already; 0 records the same at both; 0 conflicts settled$' \
    "$tmp/again.out")
[ "$n" -eq 2 ] && ok || bad "taking it again: $(cat "$tmp/again.out")"
dump "$tmp/hub1.db" | cmp -s "$tmp/hub1.dump" - && ok ||
    bad "hub1 changed when it took everything again"
changes "$tmp/hub1.db" | cmp -s "$tmp/hub1.changes" - && ok ||
    bad "hub1's change rows changed when it took everything again"

# A log is appended to only at the station that started it.
tag=$("$bin/refkit" --db "$tmp/s1.db" --csv station | tail -1 |
    cut -d, -f2 | cut -c1-8)
refused() {
	"$@" >"$tmp/refused.out" 2>&1
	rc=$?
	[ "$rc" -eq 1 ] && grep -q 'was started at another station' \
	    "$tmp/refused.out" && ok ||
	    bad "$*: exit $rc: $(head -2 "$tmp/refused.out")"
}
refused "$bin/crs-combat" --db "$tmp/hub1.db" --combat "$tag-1" undo
refused "$bin/fb-duel" --db "$tmp/hub1.db" --duel "$tag-1" undo
refused "$bin/bg-board" --db "$tmp/hub1.db" --game "$tag-1" pass
dump "$tmp/hub1.db" | cmp -s "$tmp/hub1.dump" - && ok ||
    bad "hub1 changed when a command was refused"

echo "stress/sync-stations: 4 days of $(($(wc -l <"$tmp/hub1.dump"))) rows, $nch changes, merged in 7 orders" >&2
tally_done
