# refkit changes show: what a changes file holds, read without a
# database.  The fixtures (tests/fixtures/changes, written by
# "unit-sync-changes --fixtures") carry changesets of the test's own tables t
# and u, which are not refkit's: their columns show as c1, c2 ...  The
# files of refkit's tables are written below by mkchanges, a second
# writer of the format as changes.h lays it out, from changesets that
# the sqlite3 shell's sessions record.
export REFKIT_NOW=1795000000
F="$TOP/tests/fixtures/changes"
cp "$F"/*.changes .

# Nothing here opens a database: none is created, and a path that is no
# database at all does not matter.
run refkit changes show empty.changes
run refkit --json changes show empty.changes
run refkit changes show one.changes
run refkit changes show one.changes --json
echo '# TZ=CET-1CEST,M3.5.0,M10.5.0/3: local time for people, UTC in JSON.'
TZ=CET-1CEST,M3.5.0,M10.5.0/3 refkit changes show one.changes | grep -n 'time\|entry'
TZ=CET-1CEST,M3.5.0,M10.5.0/3 refkit changes show one.changes --json | grep -o '"time":"[^"]*"'
run refkit changes show three.changes
run refkit --json changes show three.changes
# Format 2 (schema 14 on): each entry says what its station had seen of
# the others, or that this is not known (a change made before).
run refkit changes show seen.changes
run refkit --json changes show seen.changes
[ -e "$REFKIT_DB" ] || echo "no database created"
run refkit --db /dev/null changes show one.changes
# The JSON is valid JSON.
refkit --json changes show three.changes >three.json
sqlite3 :memory: "SELECT 'valid JSON: ' || json_valid(readfile('three.json'))"

# Standard input, from a file and from a pipe (copied aside to be read).
run_in one.changes refkit changes show -
echo '$ cat three.changes | refkit --json changes show -'
cat three.changes | refkit --json changes show - | cmp - three.json &&
    echo "(the same as from the file)"

# Files that are not changes files, or are damaged: one line naming the
# file, exit 1, nothing on standard output.
head -c 200 three.changes >cut.changes
run refkit changes show cut.changes
head -c 10 three.changes >short.changes
run refkit changes show short.changes
cp three.changes flip.changes
# One bit flipped.
b=$(od -An -tu1 -j 200 -N 1 flip.changes | tr -d ' ')
env printf "\\$(printf '%03o' $((b ^ 4)))" |
    dd of=flip.changes bs=1 seek=200 conv=notrunc 2>/dev/null
run refkit changes show flip.changes
run refkit --json changes show flip.changes
: >empty-file
run refkit changes show empty-file
printf 'name,STR\nAnn,3\n' >roster.csv
run refkit changes show roster.csv
run_in roster.csv refkit changes show -
cp "$TOP/tests/fixtures/schema-v1.sql" .
run refkit changes show schema-v1.sql
run refkit changes show nonexistent.changes
run refkit changes show .

# mkchanges OUT SCHEMA FROM TO TIME [ORIGIN OSEQ TIME CHANGESET]...: a
# changes file of station $ID_A ('Table 1'), format $FORMAT (default 1),
# entries of the changesets in the files named.
ID_A=0123456789abcdef0123456789abcdef
ID_B=fedcba9876543210fedcba9876543210
hexof() { od -An -v -tx1 | tr -d ' \n'; }
unhex() { env printf "$(sed 's/../\\x&/g')"; }
mkchanges() {
	out=$1
	{
		printf 'RFKTCHGS' | hexof
		printf '%08x%08x' "${FORMAT:-1}" "$2"
		printf '%s' "$ID_A" | hexof
		printf '07'
		printf 'Table 1' | hexof
		printf '%016x%016x%016x' "$3" "$4" "$5"
		shift 5
		while [ $# -gt 0 ]; do
			printf '45'
			printf '%s' "$1" | hexof
			printf '%016x%016x%08x' "$2" "$3" "$(wc -c <"$4")"
			hexof <"$4"
			shift 4
		done
		printf '5a'
	} | unhex >"$out"
	sha256sum "$out" | cut -c1-64 | unhex >>"$out"
}

# mkchanges writes what the writer of src/sync/changes.c writes: the
# changeset of one.changes (after its header of 80 bytes and its entry's
# 53), written again, is the same file.
n=$(($(wc -c <one.changes) - 80 - 53 - 1 - 32))
tail -c +134 one.changes | head -c $n >cs0
mkchanges again.changes 10 0 1 1764000000 $ID_A 1 1763999901 cs0
cmp again.changes one.changes && echo "mkchanges writes as refkit does"

# Changesets of refkit's own tables, one session each, as a station's
# writes would make them: a station arrives, a character with a key past
# 2^53, a quote in its name, a long note, NULLs; a rename; a deletion.
# They are recorded in a refkit file of their own, gm1.db, whatever
# database the case is given: the sessions are the sqlite3 shell's.
refkit --db gm1.db --station gm1 station >/dev/null
v=$(sqlite3 gm1.db 'PRAGMA user_version')
w=$((v + 1))
session() {
	{ echo '.session open main s'; echo '.session s attach *'; cat
	  echo ".session s changeset $1"; } | sqlite3 gm1.db
}
session cs1 <<'SQL'
INSERT INTO station VALUES ('fedcba9876543210fedcba9876543210', 'table 2',
    1795000000);
INSERT INTO character (id, name, player, notes, str, agi, created, updated)
VALUES (9007199254740993, 'O''Brien', 'Ann', 'Met the party at the gate; ' ||
    'carries a letter for the duke, sealed, and a map of the old mine.',
    12, 16, 1795000000, 1795000000);
INSERT INTO snapshot VALUES ('combat', 1, 3, 7,
    x'000102030405060708090a0b0c0d0e0f1011');
SQL
session cs2 <<'SQL'
UPDATE station SET name = 'Table Two' WHERE id =
    'fedcba9876543210fedcba9876543210';
UPDATE character SET str = 13, notes = NULL WHERE id =
    9007199254740993;
SQL
session cs3 <<'SQL'
DELETE FROM character WHERE id = 9007199254740993;
SQL
# The file is at this refkit's schema ($v, shown as <V>): the columns
# have their names.
hide_v() {
	sed "s/^schema   $v\$/schema   <V>/; s/\"schema\":$v,/\"schema\":<V>,/
	    s/^schema   $((v - 1))\$/schema   <V-1>/
	    s/schema $w, this one has $v)/schema <V+1>, this one has <V>)/"
}
run_v() {
	printf '$ '; show_args "$@"; printf '\n'
	"$@" >"$T/.stdout" 2>"$T/.stderr"
	rc=$?
	hide_v <"$T/.stdout"
	sed 's/^/2> /' "$T/.stderr" | hide_v
	printf '? %d\n' "$rc"
}
mkchanges refkit.changes "$v" 4 7 1795000600 $ID_A 5 1795000100 cs1 \
    $ID_B 1 1795000200 cs2 $ID_A 6 1795000300 cs3
run_v refkit changes show refkit.changes
run_v refkit --json changes show refkit.changes
refkit --json changes show refkit.changes >refkit.json
sqlite3 :memory: "SELECT 'valid JSON: ' || json_valid(readfile('refkit.json'))"
# At an older schema, the same changesets show their columns by number.
mkchanges old.changes $((v - 1)) 0 1 1795000600 $ID_A 1 1795000100 cs2
run_v refkit changes show old.changes
# A table the schema has with other columns, or does not have.
sqlite3 other.db "CREATE TABLE station (id TEXT PRIMARY KEY, name TEXT);
    CREATE TABLE extra (a INTEGER, b TEXT, PRIMARY KEY (b, a))"
{ echo '.session open main s'; echo '.session s attach *'
  echo "INSERT INTO station VALUES ('$ID_B', 'two columns');"
  echo "INSERT INTO extra VALUES (1, 'x');"
  echo '.session s changeset cs4'; } | sqlite3 other.db
mkchanges other.changes "$v" 0 1 1795000600 $ID_A 1 1795000100 cs4
run_v refkit changes show other.changes

# Values no refkit table holds, which a file may still carry: a NUL in
# text, bytes that are not UTF-8, control characters, infinities, the
# extreme integers, an empty blob; and a time past gmtime's years.
sqlite3 odd.db "CREATE TABLE t (k INTEGER PRIMARY KEY, v)"
{ echo '.session open main s'; echo '.session s attach *'
  echo "INSERT INTO t VALUES (1, CAST(x'61006227' AS TEXT)),"
  echo "  (2, CAST(x'ff41c3' AS TEXT)),"
  echo "  (3, 'tab' || char(9) || 'esc' || char(27)),"
  echo "  (4, 1e999), (5, -1e999), (6, 9223372036854775807),"
  echo "  (7, -9223372036854775808), (8, x''), (9, 0.1), (10, 100.0),"
  echo "  (11, 1e300);"
  echo '.session s changeset cs5'; } | sqlite3 odd.db
mkchanges odd.changes 1 0 1 9223372036854775807 $ID_A 1 -1 cs5
run refkit changes show odd.changes
refkit --json changes show odd.changes >odd.json
cat odd.json
sqlite3 :memory: "SELECT 'valid JSON: ' || json_valid(readfile('odd.json'))"

# A file whose checksum is right but whose second entry is no changeset:
# refused whole, the first entry not shown.
printf 'not a changeset' >bad.cs
mkchanges badentry.changes "$v" 0 2 1795000600 $ID_A 1 1795000100 cs3 \
    $ID_A 2 1795000200 bad.cs
run refkit changes show badentry.changes
# Newer formats and schemas are refused.
FORMAT=3
mkchanges newer.changes 1 0 0 1795000600
FORMAT=1
run refkit changes show newer.changes
mkchanges newer.changes $w 0 0 1795000600
run_v refkit changes show newer.changes

# Usage errors, and a full disk.
run refkit changes
run refkit changes show
run refkit changes show a b
run refkit changes list
run refkit --csv changes show one.changes
# export and apply have no CSV form either: refused, nothing written.
run refkit --csv changes export -o csv.changes
ls csv.changes* 2>/dev/null
run refkit -c changes apply one.changes
run refkit --csv changes apply --prefer mine one.changes
run_full refkit changes show three.changes
