#!/bin/sh
# crs-import.sh BUILD-DIR: "crs-stats import" on a PostgreSQL server against
# the same on SQLite (issue #22).  On a server the rows are checked at
# the commit, all at once, where SQLite checks each as it is read; the two
# must still agree on everything: each case below runs against a fresh
# SQLite file and a fresh server database, and its transcript (every
# command's output, errors and exit status, then the rows of character,
# holds_item and holds_power with their ids and times, then the same of
# a fresh station that merged the database, which its record of changes
# must bring whole) must be the same byte for byte.  The cases are those where the order of the checks
# shows: the first row at fault among names taken, names twice, unknown
# items and powers and the reader's own errors, wherever they fall.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"
pg_setup crs-import
work=$PG_WORK
cd "$work" || exit 1
export REFKIT_NOW=1700000000 LC_ALL=C TZ=UTC

# rk ARG...: crs-stats on the case's database, as a transcript.
rk() {
	printf '$ crs-stats %s\n' "$*"
	"$bin/crs-stats" --db "$DB" "$@" >out 2>err
	rc=$?
	cat out
	sed 's/^/2> /' err
	echo "? $rc"
}

# rows: what the database holds, in the same form on either.
rows() {
	q1="SELECT id, name, coalesce(player, '-'), coalesce(str, -1),
	    coalesce(notes, '-'), created, updated FROM character ORDER BY name"
	q2="SELECT c.name, i.name FROM holds_item h JOIN character c ON
	    c.id = h.character_id JOIN item i ON i.id = h.item_id ORDER BY 1, 2"
	q3="SELECT c.name, p.name FROM holds_power h JOIN character c ON
	    c.id = h.character_id JOIN power p ON p.id = h.power_id
	    ORDER BY 1, 2"
	for q in "$q1" "$q2" "$q3"; do
		case $DB in
		postgresql:*) psql -X -At -d "$DB" -c "$q" ;;
		*) sqlite3 "$DB" "$q" ;;
		esac
	done
}

# roster N [SED]: N characters whose names are in no order (7919 is a
# prime, so i * 7919 mod N, for N not its multiple, takes each number
# below N once), edited by the sed script SED.
roster() {
	awk -v n="$1" 'BEGIN {
		print "name,player,STR,notes"
		for (i = 1; i <= n; i++)
			printf "Name %07d,P%d,%d,\n", i * 7919 % n, i % 13, i % 100
	}' | sed "${2:-}"
}

# The cases.  Each is a function of the database ($DB).
case_shuffled() {
	# More than one run of the sort (8 MB of rows) before the COPY.
	roster 100000 >r.csv
	rk import r.csv
	rk list --csv | tail -2
}
case_twice_far() {
	# Row 15000 takes the name of row 7: refused at line 15001.
	roster 20000 >r.csv
	name=$(sed -n 8p r.csv | cut -d, -f1)
	roster 20000 "15001s/^[^,]*/$name/" >r.csv
	rk import r.csv
	rk import --replace r.csv
}
case_twice_thrice() {
	printf 'name\nB\nA\nC\nA\nD\nA\n' >t.csv
	rk import t.csv
	rk import --replace t.csv
}
case_sorted_then_not() {
	# Names in order, then out of it: a name of the ordered part again.
	printf 'name\nA\nB\nC\nD\nB\nE\n' >t.csv
	rk import t.csv
	printf 'name\nA\nB\nC\nA0\nA\n' >t.csv
	rk import --replace t.csv
}
case_twice_then_bad() {
	# A name twice, then a bad field: the earlier row wins ...
	printf 'name,STR\nA,1\nB,2\nA,3\nC,-1\n' >t.csv
	rk import t.csv
	# ... and a bad field, then a name twice.
	printf 'name,STR\nA,1\nB,-2\nA,3\n' >t.csv
	rk import t.csv
	printf 'name,STR\nA,1\nB,2\nA,3\n"C,4\n' >t.csv
	rk import --replace t.csv
	printf '[{"name":"A"},{"name":"B"},{"name":"A"},{"name":"C","STR":-1}]' >t.json
	rk import t.json
	printf '[{"name":"A"},{"name":"B"},{"name":"A"},{"STR":1}]' >t.json
	rk import --replace t.json
}
case_taken() {
	rk add Fred STR=5
	rk item add Sword
	rk power add Heal
	printf 'name,STR,items,powers\nAnn,1,,\nFred,2,,\nBob,3,Axe,\n' >t.csv
	rk import t.csv
	printf 'name,STR,items,powers\nAnn,1,,\nBob,3,Sword;Axe,\nFred,2,,\n' >t.csv
	rk import t.csv
	printf 'name,STR,items,powers\nAnn,1,Sword,Heal;Fly\nFred,2,Axe,Fly\n' >t.csv
	rk import t.csv
	rk import --replace t.csv
	printf 'name,STR,items\nFred,2,Axe\n' >t.csv
	rk import --replace t.csv
	printf 'name,STR\nAnn,1\nFred,2\nZed,x\n' >t.csv
	rk import t.csv
	rk import --replace t.csv
}
case_places() {
	# Quoted fields over several lines break the runs of places.
	printf 'name,notes\nA,"one\ntwo"\nB,x\nC,"\ny"\nD,"\n\n"\nE,z\nB,w\n' >t.csv
	rk import t.csv
	printf 'name,notes\nA,"one\ntwo"\nB,x\nC,"\n"\nD,z\n' >t.csv
	rk import t.csv
	printf '\n\nname\r\nQ\r\n\r\nR\r\nQ\r\n' >t.csv
	rk import t.csv
}
case_replace() {
	rk item add Sword
	rk item add Mail
	rk power add Heal
	printf 'name,STR,items,powers\nFred,1,Sword;Mail,Heal\nMary,2,Mail,\nTom,3,,\n' >t.csv
	rk import t.csv
	printf 'name,STR,items\nTom,30,Sword\nMary,20,\nNed,40,Mail\n' >t.csv
	rk import --replace t.csv
	printf '[{"name":"Fred","STR":9,"notes":"a\\tb\\\\c\\nd"},{"name":"Zoe","powers":["Heal"]}]' >t.json
	rk import --replace t.json
	rk export
}
case_empty() {
	: >t.csv
	rk import t.csv
	printf 'name,STR\n' >t.csv
	rk import t.csv
	printf '[]' >t.json
	rk import t.json
	rk import --replace t.json
}

# merged: the rows a fresh station holds once it has merged the case's
# database, whose record of changes must carry every row imported.
merged() {
	m="$work/merged.db"
	rm -f "$m"
	if ! "$bin/refkit" --db "$m" merge "$DB" >/dev/null 2>merge.err; then
		echo "merge failed: $(cat merge.err)"
	fi
	(DB=$m; rows)
}

n=0
for c in shuffled twice_far twice_thrice sorted_then_not twice_then_bad \
    taken places replace empty; do
	n=$((n + 1))
	DB="$work/c$n.db"
	(case_$c; rows; echo "merged:"; merged) >"$c.sqlite" 2>&1
	createdb "rk_import_$n" || exit 1
	DB="postgresql:///rk_import_$n?host=$PGHOST&user=$PGUSER"
	(case_$c; rows; echo "merged:"; merged) >"$c.pg" 2>&1
	dropdb "rk_import_$n"
	if diff -u "$c.sqlite" "$c.pg" >"$c.diff" &&
	    [ "$(grep -c '^? ' "$c.sqlite")" -gt 0 ]; then
		ok
	else
		bad "$c: the server differs from SQLite"
		head -30 "$c.diff"
	fi
	[ -n "${REFKIT_KEEP:-}" ] && cp "$c.sqlite" "$c.pg" "$REFKIT_KEEP/"
done

# The roster changes while the import waits for the writers' lock: psql
# holds it (as a refkit writer does) and runs SQL; only once the import
# is seen waiting for the lock, its rows loaded, does psql commit.  The
# import must then refuse at the first row at fault, as it would have
# had the change come first, and write nothing.  (The wait for the
# import is bounded only so that a broken build cannot hang the suite.)
createdb rk_import_late || exit 1
DB="postgresql:///rk_import_late?host=$PGHOST&user=$PGUSER"
"$bin/crs-stats" --db "$DB" item add Sword >/dev/null
"$bin/crs-stats" --db "$DB" add Old >/dev/null
printf 'name,items\nAnn,\n\nBob,\nCid,Sword\nDee,\n' >late.csv
# until_waits DB WHERE: waits (at most two minutes) until a lock of
# pg_locks WHERE is waited for; waited is then 0, or 1 if it never was.
until_waits() {
	pg_until "$1" "SELECT count(*) FROM pg_locks WHERE $2 AND NOT granted" \
	    1 1200
	waited=$?
}

# late WANT SQL ROSTER: the import refuses with WANT, and the roster's
# names are then ROSTER, the change's and no more.
late() {
	want=$1 sql=$2 roster=$3
	pg_hold "$DB" "SELECT pg_advisory_xact_lock(1380338516); $sql"
	"$bin/crs-stats" --db "$DB" import late.csv >late.out 2>late.err &
	cmd=$!
	until_waits "$DB" "locktype = 'advisory'"
	pg_release
	wait "$cmd"
	rc=$?
	names=$(psql -X -At -d "$DB" -c "SELECT string_agg(name, ','
	    ORDER BY name) FROM character")
	if [ "$rc" = 1 ] && [ "$(cat late.err)" = "$want" ] &&
	    [ ! -s late.out ] && [ "$names" = "$roster" ] && [ "$waited" = 0 ]
	then
		ok
	else
		bad "a change while the import waits: exit $rc,
  $(cat late.err)
  want $want; roster $names, want $roster"
	fi
}
late "crs-stats: late.csv: line 5: 'items': no item named 'Sword'" \
    "DELETE FROM item WHERE name = 'Sword'" Old
late "crs-stats: late.csv: line 4: 'name' 'Bob' is already in the roster (use --replace to replace it)" \
    "INSERT INTO character (id, name, created, updated) VALUES (1, 'Bob', 0, 0)" \
    Bob,Old

# A reader of the roster never waits for an import, into an empty roster
# (whose rows go straight into character) or into one that has
# characters: an import held inside its write (the table change locked
# against it, so that it stops at its first change, its rows written)
# leaves the roster readable as it was.  Dropping the index of names, as
# a large import does on SQLite, would lock every reader out until the
# commit.
reader_goes_on() {
	db="postgresql:///$1?host=$PGHOST&user=$PGUSER" before=$2
	pg_hold "$db" "LOCK TABLE change IN SHARE MODE"
	"$bin/crs-stats" --db "$db" import r.csv >/dev/null 2>reader.err &
	cmd=$!
	until_waits "$db" "relation = 'change'::regclass"
	seen=$(psql -X -q -At -d "$db" -c "SET lock_timeout = '5s'" \
	    -c "SELECT count(*) FROM character WHERE name <> ''" 2>&1)
	pg_release
	wait "$cmd"
	rc=$?
	after=$(psql -X -At -d "$db" -c "SELECT count(*) FROM character")
	if [ "$seen" = "$before" ] && [ "$rc" = 0 ] && [ "$waited" = 0 ] &&
	    [ "$after" = $((before + 20000)) ]; then
		ok
	else
		bad "a reader while an import writes ($1):
  saw '$seen', want $before; import exit $rc, $after rows
  $(cat reader.err)"
	fi
}
roster 20000 >r.csv
createdb rk_import_reader1 || exit 1
"$bin/crs-stats" --db "postgresql:///rk_import_reader1?host=$PGHOST&user=$PGUSER" \
    list >/dev/null || exit 1
reader_goes_on rk_import_reader1 0
createdb rk_import_reader2 || exit 1
"$bin/crs-stats" --db "postgresql:///rk_import_reader2?host=$PGHOST&user=$PGUSER" \
    add Zed >/dev/null || exit 1
reader_goes_on rk_import_reader2 1

# The sort's temporary file cannot be made: one line, exit 1, nothing
# written.
roster 100000 >r.csv
got=$(TMPDIR="$work/none" "$bin/crs-stats" --db "$DB" import r.csv 2>&1)
rc=$?
want="crs-stats: cannot create a temporary file in '$work/none': No such file or directory"
names=$(psql -X -At -d "$DB" -c "SELECT string_agg(name, ',' ORDER BY name) FROM character")
if [ "$rc" = 1 ] && [ "$got" = "$want" ] && [ "$names" = Bob,Old ]; then
	ok
else
	bad "no temporary file: exit $rc, got '$got'
  want '$want'; roster $names, want Bob,Old"
fi

tally_done
