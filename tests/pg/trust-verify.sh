#!/bin/sh
# trust-verify.sh BUILD-DIR: the hash chains (issue #24) on a PostgreSQL server.
# A private server (tests/pg/server.sh) and an SQLite station:
#   - every ledger written on the server verifies, and each log's head is
#     the one the same events give on SQLite (a row hashes to the same
#     bytes on both backends);
#   - an event changed, one removed and a head changed with psql are each
#     named by log and seq, verify exits 1 and changes nothing;
#   - merged both ways between the file and the server, every chain still
#     holds at both ends, and the heads agree.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"
pg_setup trust-verify
work=$PG_WORK
psql -qc 'CREATE DATABASE gm' || { bad "CREATE DATABASE"; tally_done; exit 1; }
pg="postgresql:///gm?host=$PGHOST"
file="$work/station.db"
export REFKIT_NOW=1795400000

# play DB: the same events of every kind at DB.
play() {
	export REFKIT_DB=$1
	"$bin/crs-stats" add Fred OR=8 DR=12 MIND=4 LIFE=90 IN=4 LB=1 &&
	"$bin/crs-stats" add John OR=6 DR=6 MIND=7 LIFE=90 IN=2 LB=2 &&
	"$bin/crs-combat" start Fred John &&
	"$bin/crs-combat" init Fred=5 John=3 &&
	"$bin/crs-combat" --seed 1 attack Fred John &&
	"$bin/crs-combat" attack John Fred --card 4 --vs-card 7 &&
	"$bin/crs-combat" round &&
	"$bin/fb-duel" sheet add Ann --side light --hand right --colour blue &&
	"$bin/fb-duel" sheet add Bob --side dark --hand left &&
	"$bin/fb-duel" start Ann Bob &&
	"$bin/fb-duel" --seed 7 round &&
	"$bin/d6-roll" char add Luke dexterity=3D+2 perception=3D cp=5 fp=1 &&
	"$bin/d6-roll" char roll Luke perception --seed 3
}
if play "$pg" >"$work/play.pg" 2>&1; then ok; else
	bad "the events on the server: $(tail -1 "$work/play.pg")"
fi
if play "$file" >"$work/play.file" 2>&1; then ok; else
	bad "the events on the file: $(tail -1 "$work/play.file")"
fi

# verify DB WANT-EXIT [TEXT]: verify's exit and, when given, a line.
check() {
	out=$("$bin/refkit" --db "$1" verify 2>&1)
	rc=$?
	if [ "$rc" -ne "$2" ]; then
		bad "verify $3: exit $rc, want $2: $out"
		return
	fi
	if [ -n "${4:-}" ] && ! printf '%s\n' "$out" | grep -qF "$4"; then
		bad "verify $3: no line '$4' in: $out"
		return
	fi
	ok
}
check "$pg" 0 "on the server"
check "$file" 0 "on the file"

# The heads of the same events, less the keys (each station's own tag
# is in them): their seqs agree; the hashes do not, the keys being in
# what is hashed, so the heads are compared after a merge below.
heads() {
	"$bin/refkit" --db "$1" --json head |
	    sed 's/"hash":"[0-9a-f]*"/"hash":H/g; s/"log":[^,]*/"log":L/g;
	    s/"all":"[0-9a-f]*"/"all":A/'
}
[ "$(heads "$pg")" = "$(heads "$file")" ] && ok ||
    bad "the heads' logs and seqs differ: $(heads "$pg") / $(heads "$file")"

# tamper SQL WANT: the change on the server is named, and verify changes
# nothing; the change is then undone from the dump.
tamper() {
	psql -X -q -d gm -c "$1" >/dev/null || { bad "psql: $1"; return; }
	pg_dump_of gm -a >"$work/mid" 2>&1
	check "$pg" 1 "after '$1'" "$2"
	pg_dump_of gm -a >"$work/after" 2>&1
	cmp -s "$work/mid" "$work/after" && ok ||
	    bad "verify changed the database after '$1'"
}
tamper "UPDATE event SET damage = damage + 1 WHERE seq = 5" \
    "combat 1, event 5: changed since it was written"
psql -X -q -d gm -c "UPDATE event SET damage = damage - 1 WHERE seq = 5"
check "$pg" 0 "put back"
tamper "UPDATE chain SET seq = seq + 1 WHERE kind = 'duel'" \
    "removed: the chain's head is at event"
psql -X -q -d gm -c "UPDATE chain SET seq = seq - 1 WHERE kind = 'duel'"
check "$pg" 0 "put back"
tamper "DELETE FROM d6_roll" "removed: the chain's head is at event 1"

# Merged both ways: every chain holds at both ends, heads alike.
psql -qc 'CREATE DATABASE hub' || bad "CREATE DATABASE hub"
hub="postgresql:///hub?host=$PGHOST"
"$bin/refkit" --db "$hub" merge "$file" >/dev/null 2>&1 ||
    bad "merge of the file into the server"
"$bin/refkit" --db "$file" merge "$hub" >/dev/null 2>&1 ||
    bad "merge of the server into the file"
check "$hub" 0 "the server after the merges"
check "$file" 0 "the file after the merges"
# The hash over all heads (the logs' names differ: keys are shown as
# each station sees them).
allheads() {
	"$bin/refkit" --db "$1" head | sed -n 's/^all heads *([0-9]* logs) *//p'
}
[ -n "$(allheads "$hub")" ] &&
    [ "$(allheads "$hub")" = "$(allheads "$file")" ] && ok ||
    bad "the heads differ after the merges"
"$bin/crs-combat" --db "$file" init Fred=5 John=3 >/dev/null 2>&1 &&
"$bin/refkit" --db "$hub" merge "$file" >/dev/null 2>&1 &&
    check "$hub" 0 "the server after a later event merged" ||
    bad "a later event merged"
tally_done
