#!/bin/sh
# merge.sh BUILD-DIR OUT-DIR: the refkit merge benchmark (run by run.sh).
#
# A station holding CHARS characters and about EVENTS combat events is
# merged into a new hub: "refkit --db hub.db merge station.db", timed
# with its peak memory by measure, against the floor of the sqlite3
# shell attaching the station to another new hub and copying the same
# rows (every table that travels and holds rows: character, combat,
# event) with INSERT ... SELECT in one transaction, in the same run,
# alternating, best time of three each.  The merge does more than the
# floor: it reads the station's record of changes (a changeset per write
# transaction) rather than its tables, applies each through SQLite's
# session extension, keeps the changes as rows of its own for them to
# travel on, and adds up the combats' histories; the floor copies rows.
# Target (issue #21): a ratio of at most 3, and peak memory flat in the
# size of the changeset: the same at 50,000 events and 5,000 characters
# as at 100,000 and 10,000 (MERGE_SIZES, "CHARS:EVENTS ..." pairs).
#
# The fair floor (issue #40) does the part of that work SQLite does: the
# same changesets, read from the station's change table, applied by
# sqlite3changeset_apply_v2 to a hub in the same starting state
# (bench/merge-floor.c), timed in the same rounds.  Target: refkit merge
# at most 1.15x it.  The INSERT ... SELECT is kept as a second column.
#
# Measured on the two-core machine this was written on (best of 3):
# at 50,000, 100,000 and 200,000 events, 0.522, 1.031 and 2.034 s
# against the floor's 0.093, 0.179 and 0.343 s: ratios 5.6, 5.8 and 5.9,
# so the target ratio is not met (they were 7.9, 8.4 and 8.6 before
# schema 12); peaks 7.8, 8.3 and 9.3 MB against the floor's 8.4 to 8.7.
# Where the time goes (callgrind): the session extension reading each
# row of a changeset into one value per column (the event table has
# 50), binding them and running its one-row INSERT, which checks every
# CHECK and the foreign key; the floor's INSERT ... SELECT copies whole
# records without looking inside them.  With no session at all, the
# same rows inserted one by one (the shell's INSERT ... SELECT with
# foreign keys on, which turns the copy off) take about 0.41 s at
# 100,000 events.  What schema 12 and this version removed: the IN
# lists SQLite built again for every row (a quarter), the savepoint of
# each apply, and a preupdate hook that unpacked every row to learn its
# combat (the update hook's rowid does).
# How the station is made, all through refkit so that its change table
# holds what a real one would: "crs-stats import" of a generated roster
# (bench/gen-roster.awk; a changeset per 8,192 rows), then combats of
# 10,000 events each, each started with "crs-combat start" and written
# by bench/longcombat.c, which appends rounds of initiative, attack, pass
# and Clean Up through the ledger in transactions of 1,000 events (each
# transaction recorded as one changeset, as db_begin and db_commit do for
# every tool), and ended with "crs-combat end".
set -eu
B=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
bin="$top/$B"
[ -x "$out/measure" ] || cc -O2 -o "$out/measure" "$top/bench/measure.c"
cc -O2 -std=c17 -D_DEFAULT_SOURCE -DSQLITE_ENABLE_SESSION -I"$top/src" \
    -o "$out/longcombat" "$top/bench/longcombat.c" "$top/$B/librefkit.a" \
    $(pkg-config --libs sqlite3) -lcsv -lgmp -lsodium -lnettle -lm -pthread
# SQLite linked in, as the tools link it (Makefile).
cc -O2 -std=c17 -D_DEFAULT_SOURCE -DSQLITE_ENABLE_SESSION \
    -DSQLITE_ENABLE_PREUPDATE_HOOK -o "$out/merge-floor" \
    "$top/bench/merge-floor.c" -Wl,-Bstatic $(pkg-config --libs sqlite3) \
    -Wl,-Bdynamic -lm -lpthread -ldl
st="$out/merge-station.db"
hub="$out/merge-hub.db"
apply="$out/merge-apply.db"
peer="$out/merge-peer.db"

# station CHARS EVENTS: a new station with that many characters and
# combats of 10,000 events up to EVENTS.
station() {
	rm -f "$st" "$st-wal" "$st-shm"
	awk -v n="$1" -f "$top/bench/gen-roster.awk" >"$out/merge-roster.csv"
	REFKIT_STATION=table-1 "$bin/crs-stats" --db "$st" import \
	    "$out/merge-roster.csv" >/dev/null
	"$bin/crs-stats" --db "$st" add Ann OR=8 DR=10 MIND=6 LIFE=100000 \
	    IN=3 LB=2 >/dev/null
	"$bin/crs-stats" --db "$st" add Bob OR=7 DR=9 MIND=5 LIFE=100000 \
	    IN=1 LB=2 >/dev/null
	k=0
	while [ $k -lt $(($2 / 10000)) ]; do
		"$bin/crs-combat" --db "$st" start Ann Bob >/dev/null
		id=$(sqlite3 "$st" 'SELECT max(id) FROM combat')
		"$out/longcombat" "$st" "$id" 9999
		"$bin/crs-combat" --db "$st" end --agreed >/dev/null
		k=$((k + 1))
	done
}

# fresh DB: a new, empty refkit database (a station of its own).
fresh() {
	rm -f "$1" "$1-wal" "$1-shm"
	REFKIT_STATION=hub "$bin/refkit" --db "$1" station >/dev/null
}

one_run() {
	fresh "$hub"
	r=$("$out/measure" sh -c "exec '$bin/refkit' --db '$hub' merge \
	    '$st' >/dev/null")
	fresh "$apply"
	f=$("$out/measure" "$out/merge-floor" "$apply" "$st")
	fresh "$peer"
	p=$("$out/measure" sqlite3 "$peer" "ATTACH '$st' AS s; BEGIN;
	    INSERT INTO character SELECT * FROM s.character;
	    INSERT INTO combat SELECT * FROM s.combat;
	    INSERT INTO event SELECT * FROM s.event; COMMIT;")
	echo "$r $f $p"
}

min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b < a) ? b : a }'; }
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > a) ? b : a }'; }

# best: three rounds, the three sides alternating; each side's best
# time, largest peak.
best() {
	bt_r=999999 bt_f=999999 bt_p=999999 mr=0 mf=0 mp=0
	for i in 1 2 3; do
		set -- $(one_run)
		bt_r=$(min "$bt_r" "$1") mr=$(max "$mr" "$2")
		bt_f=$(min "$bt_f" "$3") mf=$(max "$mf" "$4")
		bt_p=$(min "$bt_p" "$5") mp=$(max "$mp" "$6")
	done
	echo "$bt_r $mr $bt_f $mf $bt_p $mp"
}

echo "refkit merge of a station into a new hub (best of 3, load average $(cut -d' ' -f1-3 /proc/loadavg)):"
first_mr=
for size in ${MERGE_SIZES:-5000:50000 10000:100000}; do
	station "${size%%:*}" "${size#*:}"
	q() { sqlite3 "$st" "$1"; }
	n_ch=$(q 'SELECT count(*) FROM character')
	n_ev=$(q 'SELECT count(*) FROM event')
	n_cs=$(q 'SELECT count(*) FROM change')
	kb_cs=$(q 'SELECT sum(length(data)) / 1024 FROM change')
	set -- $(best)
	# Both hubs hold the same rows.
	for t in character combat event; do
		a=$(sqlite3 "$hub" "SELECT count(*), total(id) FROM $t")
		b=$(sqlite3 "$peer" "SELECT count(*), total(id) FROM $t")
		c=$(sqlite3 "$apply" "SELECT count(*), total(id) FROM $t")
		[ "$a" = "$b" ] || echo "  the hubs differ in $t: $a vs $b"
		[ "$a" = "$c" ] || echo "  the hubs differ in $t: $a vs $c (apply)"
	done
	printf '  %d characters, %d events (%d changesets, %d KB):\n' \
	    "$n_ch" "$n_ev" "$n_cs" "$kb_cs"
	printf '    refkit  refkit merge          %8.3f s  peak %6.1f MB\n' \
	    "$1" "$(awk -v k="$2" 'BEGIN { print k / 1024 }')"
	printf '    floor   changeset_apply_v2    %8.3f s  peak %6.1f MB\n' \
	    "$3" "$(awk -v k="$4" 'BEGIN { print k / 1024 }')"
	printf '    copy    sqlite3 INSERT SELECT %8.3f s  peak %6.1f MB\n' \
	    "$5" "$(awk -v k="$6" 'BEGIN { print k / 1024 }')"
	printf '    ratio refkit / floor          %8.3f (target <= 1.15)\n' \
	    "$(awk -v a="$1" -v b="$3" 'BEGIN { print a / b }')"
	printf '    ratio refkit / copy           %8.3f (target <= 3)\n' \
	    "$(awk -v a="$1" -v b="$5" 'BEGIN { print a / b }')"
	printf '    ratio floor / copy            %8.3f\n' \
	    "$(awk -v a="$3" -v b="$5" 'BEGIN { print a / b }')"
	if [ -z "$first_mr" ]; then
		first_mr=$2
		first_ev=$n_ev
	else
		printf '  refkit peak memory at %d events against %d: %.3f (flat: about 1)\n' \
		    "$n_ev" "$first_ev" \
		    "$(awk -v a="$2" -v b="$first_mr" 'BEGIN { print a / b }')"
	fi
done
rm -f "$st" "$st-wal" "$st-shm" "$hub" "$hub-wal" "$hub-shm" "$peer" \
    "$peer-wal" "$peer-shm" "$apply" "$apply-wal" "$apply-shm" \
    "$out/merge-roster.csv"
