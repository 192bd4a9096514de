#!/bin/sh
# crs-import-lock.sh BUILD-DIR [ROWS:IMPORTS:LIMIT-MS ...]: combats go on
# while the roster is imported again and again (issues 18 and 37).
#
# Each round (by default 10000:3:250 and 200000:1:1000) starts a
# database of its own: a roster of ROWS characters is imported once;
# then IMPORTS "crs-stats import --replace" of a file that changes every
# character (two files, taken in turn, whose stats differ) run back to
# back while three GMs, each in a combat of his own, call "crs-combat
# round" in a loop on the same SQLite file.  An import takes the write
# lock only to write the rows it made beforehand (crs-stats(1)), so a
# combat action waits a fraction of a second at worst.  Checked: no
# combat action fails or prints anything on standard error; every import
# succeeds and says so; integrity_check; each combat's seq runs 1..N
# without a gap, one event per action; the roster exported at the end is
# the file last imported, byte for byte; and an action's wait, the time
# it took beyond the median action's (its own work, on this machine at
# this load), is under LIMIT-MS at worst.  The count, median, 99th
# percentile and maximum of the actions' wall times, the worst wait and
# the count of waits over LIMIT-MS and over a quarter of it go to
# standard error.
#
# First, on a small database: another program changes the roster while
# an import waits for the write lock (a name added, an item removed), so
# that only the import's check under the lock can see it.  The import
# must refuse with the message it gives when staging finds the same
# fault, the file's line or index included, and write nothing.
set -u
B=$1
shift
# Issue 37 asks for 250 ms at 10,000 and 1 s at 200,000: the worst waits
# measured here are about 0.1 s and 0.55 to 0.6 s (crs-stats(1)).  Under
# the lock one transaction writes the 19 MB of rows; the 35 MB of their
# changes were written before, in short transactions (refkit.db(5),
# change_rest).
[ $# -gt 0 ] || set -- 10000:3:250 200000:1:1000
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/lib/tally.sh"
tally stress/crs-import-lock

# late WANT SQL COMMAND...: the sqlite3 shell takes the write lock and
# runs SQL, uncommitted; only once it holds the lock does COMMAND start,
# stage its rows (its reads cannot see the change) and wait for the lock;
# the shell commits a second later.  Its standard error must be WANT,
# with exit 1 and the roster unchanged.  The outcome does not hang on
# timing: a COMMAND slow enough to read after the commit finds the same
# fault while staging and says the same (the unit test of roster_import
# covers the commit's check without any timing at all).
late() {
	want=$1
	sql=$2
	shift 2
	before=$(sqlite3 "$REFKIT_DB" 'SELECT count(*) FROM character')
	rm -f "$tmp/lock.in" "$tmp/lock.out"
	mkfifo "$tmp/lock.in"
	: >"$tmp/lock.out"
	sqlite3 "$REFKIT_DB" <"$tmp/lock.in" >>"$tmp/lock.out" 2>&1 &
	holder=$!
	exec 5>"$tmp/lock.in"
	printf "BEGIN IMMEDIATE;\n%s;\nSELECT 'held';\n" "$sql" >&5
	until grep -q held "$tmp/lock.out"; do sleep 0.05; done
	"$@" >"$tmp/late.out" 2>"$tmp/late.err" &
	cmd=$!
	sleep 1
	printf 'COMMIT;\n' >&5
	exec 5>&-
	wait "$holder"
	wait "$cmd"
	rc=$?
	after=$(sqlite3 "$REFKIT_DB" "SELECT count(*) - 1 FROM character")
	if [ "$rc" = 1 ] && [ "$(cat "$tmp/late.err")" = "$want" ] &&
	    [ ! -s "$tmp/late.out" ] && [ "$before" = "$after" ]; then
		ok
	else
		bad "late change: exit $rc, $before then $after characters + 1:
  $(cat "$tmp/late.err")
  want $want"
	fi
}

export REFKIT_DB="$tmp/late.db"
"$bin/crs-stats" item add Sword >/dev/null
"$bin/crs-stats" item add Mail >/dev/null
"$bin/crs-stats" add Old >/dev/null
# A quoted field over two lines and a blank line: Cid is on line 6.
printf 'name,notes\nAnn,"two\nlines"\n\nBob,\nCid,\n' >"$tmp/late.csv"
late "crs-stats: $tmp/late.csv: line 6: 'name' 'Cid' is already in the \
roster (use --replace to replace it)" \
    "INSERT INTO character (name, created, updated) VALUES ('Cid', 0, 0)" \
    "$bin/crs-stats" import "$tmp/late.csv"
late "crs-stats: <stdin>: line 6: 'name' 'Ced' is already in the roster \
(use --replace to replace it)" \
    "INSERT INTO character (name, created, updated) VALUES ('Ced', 0, 0)" \
    sh -c "sed s/Cid/Ced/ '$tmp/late.csv' | '$bin/crs-stats' import -"
printf 'name,items\nAnn,Sword\nBob,\nCie,Mail;Sword\n' >"$tmp/late2.csv"
late "crs-stats: $tmp/late2.csv: line 4: 'items': no item named 'Mail'" \
    "DELETE FROM item WHERE name = 'Mail';
    INSERT INTO character (name, created, updated) VALUES ('Eve', 0, 0)" \
    "$bin/crs-stats" import --replace "$tmp/late2.csv"
printf '[{"name": "Ann"},\n {"name": "Fay"}, {"name": "Dan"}]' \
    >"$tmp/late.json"
late "crs-stats: $tmp/late.json: index 2: 'name' 'Dan' is already in the \
roster (use --replace to replace it)" \
    "INSERT INTO character (name, created, updated) VALUES ('Dan', 0, 0)" \
    "$bin/crs-stats" import --format json "$tmp/late.json"

# roster ROWS VARIANT: the file in the form export writes, sorted by
# name, so that the roster exported at the end can be compared with it
# byte for byte: the six fighters with given stats, then ROWS characters
# with primary stats, every 1000th holding a Sword and knowing Heal.  A
# variant adds itself to every stat but LEVEL (each stays within 0..100):
# the files of variants 0 and 1 differ in every character.
roster() {
	awk -v n="$1" -v v="$2" 'BEGIN {
	print "name,player,notes,ENE,STR,INT,CUN,AGI,CON,CHA,LUC,LEVEL," \
	    "OR,DR,MIND,LIFE,IN,EM,LB,items,powers"
	for (c = 1; c <= 3; c++)
		print "A" c ",,,,,,,,,,,,8,12,4,20,4,,1,,"
	for (c = 1; c <= 3; c++)
		print "B" c ",,,,,,,,,,,,6,6,7,10,2,,2,,"
	x = 12345
	for (i = 1; i <= n; i++) {
		line = sprintf("Character %07d,Player %d,", i, i % 997)
		for (k = 0; k < 9; k++) {
			x = (x * 1103515245 + 12345) % 2147483648
			line = line "," (k == 8 ? int(x / 65536) % 21 : \
			    int(x / 65536) % 100 + v)
		}
		print line ",,,,,,,," (i % 1000 ? "," : "Sword,Heal")
	}
}'
}

# A GM: a new round of his combat, over and over until the imports are
# done, each timed in microseconds and logged with its exit status.
gm() {
	c=$1
	while [ ! -f "$tmp/done" ]; do
		t0=$(date +%s%N)
		"$bin/crs-combat" --combat "$c" round >/dev/null \
		    2>>"$tmp/gm$c.err"
		rc=$?
		t1=$(date +%s%N)
		[ "$rc" = 0 ] || echo "exit $rc" >>"$tmp/gm$c.err"
		echo "$(((t1 - t0) / 1000)) $rc" >>"$tmp/gm$c.log"
	done
}

# round ROWS IMPORTS LIMIT-MS: a round on a database of its own.
round() {
	rows=$1
	imports=$2
	limit=$3
	export REFKIT_DB="$tmp/shared$rows.db"
	rm -f "$tmp/done" "$tmp"/gm*.err "$tmp"/gm*.log "$tmp"/import* \
	    "$tmp"/roster*.csv
	roster "$rows" 0 >"$tmp/roster0.csv"
	roster "$rows" 1 >"$tmp/roster1.csv"
	"$bin/crs-stats" item add Sword or=+5 >/dev/null
	"$bin/crs-stats" power add Heal em=4 >/dev/null
	"$bin/crs-stats" import "$tmp/roster0.csv" >/dev/null
	for c in 1 2 3; do
		"$bin/crs-combat" start "A$c" "B$c" >/dev/null
	done
	# Events a combat starts with (its start, and each fighter joining).
	base=$(sqlite3 "$REFKIT_DB" 'SELECT count(*) FROM event
	    WHERE combat_id % 2147483648 = 1')

	for c in 1 2 3; do gm "$c" & done
	# Let the GMs get going before the first import.
	sleep 1
	i=0
	while [ "$i" -lt "$imports" ]; do
		i=$((i + 1))
		t0=$(date +%s%N)
		"$bin/crs-stats" import --replace "$tmp/roster$((i % 2)).csv" \
		    >"$tmp/import$i.out" 2>"$tmp/import$i.err"
		echo "$?" >"$tmp/import$i.rc"
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000000)) >>"$tmp/import.ms"
	done
	sleep 1
	touch "$tmp/done"
	wait

	errs=$(cat "$tmp"/gm*.err 2>/dev/null | sort | uniq -c | head -5)
	[ -z "$errs" ] && ok || bad "$rows: combat actions said: $errs"
	want="imported $((rows + 6)) characters (0 new, $((rows + 6)) replaced)"
	i=0
	while [ "$i" -lt "$imports" ]; do
		i=$((i + 1))
		if [ "$(cat "$tmp/import$i.rc")" = 0 ] &&
		    [ "$(cat "$tmp/import$i.out")" = "$want" ] &&
		    [ ! -s "$tmp/import$i.err" ]; then
			ok
		else
			bad "$rows: import $i: exit $(cat "$tmp/import$i.rc"):
  $(cat "$tmp/import$i.out" "$tmp/import$i.err" | head -3)"
		fi
	done
	ic=$(sqlite3 "$REFKIT_DB" 'PRAGMA integrity_check')
	[ "$ic" = ok ] && ok || bad "$rows: integrity_check: $ic"
	for c in 1 2 3; do
		# One event for each action that succeeded.
		want=$(($(awk '$2 == 0' "$tmp/gm$c.log" | wc -l) + base))
		got=$(sqlite3 "$REFKIT_DB" "SELECT count(*),
		    count(DISTINCT seq), min(seq), max(seq) FROM event
		    WHERE combat_id % 2147483648 = $c")
		[ "$got" = "$want|$want|1|$want" ] && ok ||
		    bad "$rows: combat $c: count|distinct|min|max = $got," \
		    "want $want each"
	done
	"$bin/crs-stats" export >"$tmp/export.csv" 2>"$tmp/export.err"
	cmp -s "$tmp/export.csv" "$tmp/roster$((imports % 2)).csv" &&
	    [ ! -s "$tmp/export.err" ] && ok ||
	    bad "$rows: the roster exported is not the file last imported"

	ims=$(paste -sd, "$tmp/import.ms" | sed 's/,/, /g')
	stats=$(sort -n "$tmp"/gm*.log | awk -v n="$imports" \
	    -v rows="$((rows + 6))" -v ims="$ims" -v limit="$limit" '
		{ t[NR] = $1; failed += $2 != 0 }
		END {
			p99 = NR * 0.99
			p99 = t[p99 == int(p99) ? p99 : int(p99) + 1]
			med = t[int((NR + 1) / 2)]
			for (i = 1; i <= NR; i++) {
				over += t[i] - med > limit * 1000
				quarter += t[i] - med > limit * 250
			}
			printf "stress/crs-import-lock: %d imports of %d characters" \
			    " took %s ms; %d combat actions meanwhile," \
			    " %d failed: median %.1f ms, 99th percentile" \
			    " %.1f ms, max %.1f ms; worst wait %.1f ms," \
			    " %d over %d ms, %d over %d ms\n", n, rows, ims,
			    NR, failed, med / 1000, p99 / 1000, t[NR] / 1000,
			    (t[NR] - med) / 1000, over, limit, quarter,
			    limit / 4
		}')
	echo "$stats" >&2
	rm -f "$tmp/import.ms"
	# The worst wait is under the limit.
	case $stats in
	*", 0 over $limit ms,"*) ok ;;
	*) bad "$rows: a combat action waited over $limit ms" ;;
	esac
}

for r in "$@"; do
	IFS=: read -r rows imports limit <<EOF
$r
EOF
	round "$rows" "$imports" "$limit"
done
tally_done
