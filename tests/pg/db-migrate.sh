#!/bin/sh
# db-migrate.sh BUILD-DIR: a server database of an older schema is migrated
# as a file is (issue #22; refkit.db(5), "PostgreSQL").  For each version
# from the oldest a server migrates from (DBPG_SCHEMA_OLDEST) to the one
# before this build's, a database is made on a private server
# (tests/pg/server.sh) the way the build makes one: build/pgschema --at
# that version, then tools/pgcompat.sql and tools/pgstation.sql; it takes
# the rows of an SQLite station the tools filled (characters, items, a
# combat, a removal, D6 and Battle Grounds records, and the record of
# changes).  Then:
#   - the first command migrates it: its rows are as they were, the
#     tools show what they show on the SQLite station, gone holds the
#     removals the station's gone holds, and pg_dump --schema-only is
#     that of a new database, triggers, keys and collations included
#     (this one had lost the triggers of a table that travels: the
#     migration makes them again); a write after it is recorded;
#   - two commands at once on such a database both succeed, and only one
#     migrates (the server's log of its statements);
#   - a step that fails (a table of the step's name there already), and
#     a failure after every step (a trigger on refkit_meta), leave the
#     database as it was, to the dump, with one line and exit 1.
# And, once: a newer schema, one older than the oldest, and an old
# database on a read-only standby, each refused with one line, exit 1,
# and nothing changed.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"
pg_setup db-migrate
work=$PG_WORK
unset REFKIT_DB
export REFKIT_NOW=1795000000 REFKIT_STATION=hall LC_ALL=C

oldest=$(sed -n 's/^#define DBPG_SCHEMA_OLDEST[[:space:]]*\([0-9]*\).*/\1/p' \
    "$top/src/db/dbpg.h")
latest=$(sed -n 's/^#define DB_SCHEMA_VERSION[[:space:]]*\([0-9]*\).*/\1/p' \
    "$top/src/db/db_base.h")
url() { printf 'postgresql:///%s?host=%s&user=%s' "$1" "$PGHOST" "$PGUSER"; }
shown() { printf 'postgresql://%s@%s:5432/%s' "$PGUSER" "$PGHOST" "$1"; }

# --- the SQLite station whose rows the old databases take ---
src=$work/src.db
printf 'name,OR,DR,MIND,LIFE,IN,items\nAnn,8,5,4,12,3,Sword\nBob,6,6,7,9,2,\nCy,5,5,5,6,1,\n' \
    >"$work/roster.csv"
export REFKIT_DB="$src"
{ "$bin/crs-stats" item add Sword or=+2 &&
    "$bin/crs-stats" import "$work/roster.csv" &&
    "$bin/crs-stats" set Ann "notes=O'Brien's; ok" &&
    "$bin/crs-stats" rm Cy &&
    "$bin/crs-combat" start Ann Bob &&
    "$bin/crs-combat" init Ann=5 Bob=3 &&
    "$bin/crs-combat" attack Ann Bob --card 5 --vs-card 3 &&
    "$bin/d6-roll" char add Luke dexterity=3D+2 dexterity.blaster=5D &&
    "$bin/bg-board" team add Red --file "$top/tests/fixtures/bg/red.team"
    } >/dev/null || bad "filling the SQLite station"
unset REFKIT_DB
[ "$(sqlite3 "$src" 'SELECT count(*) FROM gone')" -ge 1 ] && ok ||
    bad "the SQLite station has no removal in gone"

# What the tools show of a database.
shows() {
	for c in "crs-stats list" "crs-stats show Ann" "crs-combat log" \
	    "d6-roll char list" "bg-board team list"; do
		# shellcheck disable=SC2086
		"$bin/${c%% *}" --db "$1" ${c#* } 2>&1
	done
}
shows "$src" >"$work/shows.sqlite"

# old DB VERSION: a new database DB of schema VERSION, as the build makes
# one, holding the SQLite station's rows; the columns of each table,
# and its rows, in $work/DB.cols and $work/DB.rows.
old() {
	createdb "$1" || { bad "createdb $1"; return 1; }
	if ! "$bin/pgschema" --at "$2" >"$work/schema.sql"; then
		bad "pgschema --at $2 failed"
		return 1
	fi
	if ! cat "$work/schema.sql" "$top/tools/pgcompat.sql" \
	    "$top/tools/pgstation.sql" | psql -q -X -v ON_ERROR_STOP=1 \
	    -d "$1" >"$work/load.out" 2>&1; then
		bad "schema $2 does not load: $(grep ERROR "$work/load.out" |
		    head -2)"
		return 1
	fi
	pg_q "$1" "SELECT table_name, string_agg(column_name, ',' ORDER BY
	    ordinal_position) FROM information_schema.columns WHERE
	    table_schema = 'public' AND table_name NOT LIKE 'refkit\\_%'
	    GROUP BY table_name ORDER BY 1" >"$work/$1.cols"
	# Each table's columns are the first of the station's (a later step
	# only adds some at the end); blobs as PostgreSQL's hex.
	{
		echo "BEGIN; SET CONSTRAINTS ALL DEFERRED;"
		while IFS='|' read -r t cols; do
			n=$(echo "$cols" | tr ',' '\n' | wc -l)
			have=$(sqlite3 "$src" "SELECT group_concat(name, ',')
			    FROM (SELECT name FROM pragma_table_info('$t')
			    ORDER BY cid LIMIT $n)")
			[ "$have" = "$cols" ] ||
			    bad "$t: the station's columns '$have', schema $2's '$cols'"
			vals=$(sqlite3 "$src" "SELECT group_concat('CASE
			    typeof(\"' || name || '\") WHEN ''blob'' THEN
			    ''''''\\x'' || hex(\"' || name || '\") || '''''''' ELSE
			    quote(\"' || name || '\") END', ' || '', '' || ')
			    FROM (SELECT name FROM pragma_table_info('$t') ORDER
			    BY cid LIMIT $n)")
			echo "DELETE FROM $t;"
			sqlite3 "$src" "SELECT 'INSERT INTO $t ($cols) VALUES (' ||
			    $vals || ');' FROM \"$t\""
		done <"$work/$1.cols"
		echo "COMMIT;"
	} >"$work/$1.load"
	if ! psql -q -X -v ON_ERROR_STOP=1 -d "$1" -f "$work/$1.load" \
	    >"$work/load.out" 2>&1; then
		bad "the station's rows do not load into schema $2: $(grep \
		    ERROR "$work/load.out" | head -2)"
		return 1
	fi
	rows "$1" >"$work/$1.rows"
}

# rows DB: every row of the tables DB had when old made it, in those
# columns only; of change, those the station's rows gave it (the
# migration to 15 adds one of its own).
rows() {
	while IFS='|' read -r t cols; do
		echo "$t"
		where=
		[ "$t" = change ] && where="WHERE no <= $(sqlite3 "$src" \
		    'SELECT max(no) FROM change')"
		pg_q "$1" "SELECT $cols FROM $t $where ORDER BY $cols"
	done <"$work/$1.cols"
}

# version_is DB N WHAT: DB is of schema N, else WHAT fails.
version_is() {
	[ "$(pg_q "$1" "SELECT version FROM refkit_meta")" = "$2" ] && ok ||
	    bad "$3"
}

# rows_kept DB WHAT: DB's rows are those old gave it, else WHAT changed
# them.
rows_kept() {
	rows "$1" >"$work/$1.after"
	cmp -s "$work/$1.rows" "$work/$1.after" && ok ||
	    bad "$2 changed rows: $(diff "$work/$1.rows" "$work/$1.after" |
	    head -4)"
}

# schema_is_new DB WHAT: DB's schema is a new database's.
schema_is_new() {
	pg_dump_of "$1" -s >"$work/$1.schema"
	cmp -s "$work/fresh.schema" "$work/$1.schema" && ok ||
	    bad "$2: the schema differs from a new database's: $(diff \
	    "$work/fresh.schema" "$work/$1.schema" | head -8)"
}

# run_tool WHAT DB CMD...: CMD on DB exits 0.
run_tool() {
	what=$1 db=$2 cmd=$3
	shift 3
	if "$bin/$cmd" --db "$(url "$db")" "$@" >"$work/out" 2>"$work/err"; then
		ok
	else
		bad "$what: $cmd $*: exit $?: $(cat "$work/err")"
	fi
}

# refused WHAT DB WANT CMD...: CMD on DB exits 1 with the one line WANT,
# and DB's dump is as it was.
refused() {
	what=$1 db=$2 want=$3 cmd=$4
	shift 4
	pg_dump_of "$db" >"$work/before"
	got=$("$bin/$cmd" --db "$(url "$db")" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$got" = "$want" ]; then
		ok
	else
		bad "$what: exit $rc, got '$got', want '$want'"
	fi
	pg_dump_of "$db" >"$work/after"
	cmp -s "$work/before" "$work/after" && ok ||
	    bad "$what: the database changed: $(diff "$work/before" \
	    "$work/after" | head -4)"
}

createdb fresh && "$bin/crs-stats" --db "$(url fresh)" list >/dev/null ||
    bad "a new database"
pg_dump_of fresh -s >"$work/fresh.schema"
pg_q fresh "SELECT * FROM refkit_travel ORDER BY ord; SELECT * FROM
    refkit_meta" >"$work/fresh.meta"
grep -q 'CREATE TRIGGER refkit_record_insert' "$work/fresh.schema" && ok ||
    bad "a new database's schema has no record triggers"

from=$oldest
while [ "$from" -lt "$latest" ]; do
	what="from $from"
	want_fail="crs-stats: cannot migrate the schema from version $from to $latest"

	# --- migrated by the first command, rows and all ---
	db=old$from
	old "$db" "$from" || { from=$((from + 1)); continue; }
	version_is "$db" "$from" "$what: the database made is not of schema $from"
	# Lost, to be made again: the triggers of a table that travels.
	pg_q "$db" "DROP TRIGGER refkit_record_insert ON item; DROP TRIGGER
	    refkit_record_update ON item; DROP TRIGGER refkit_record_delete
	    ON item" >/dev/null
	run_tool "$what" "$db" crs-stats list
	version_is "$db" "$latest" "$what: not migrated to $latest"
	rows_kept "$db" "$what: the migration"
	shows "$(url "$db")" >"$work/shows.pg"
	cmp -s "$work/shows.sqlite" "$work/shows.pg" && ok ||
	    bad "$what: the tools show otherwise: $(diff \
	    "$work/shows.sqlite" "$work/shows.pg" | head -4)"
	sqlite3 "$src" "SELECT tbl, hex(key), origin, oseq FROM gone" |
	    tr '|' ' ' | sort >"$work/gone.sqlite"
	pg_q "$db" "SELECT tbl, upper(encode(key, 'hex')), origin, oseq FROM
	    gone" | tr '|' ' ' | sort >"$work/gone.pg"
	cmp -s "$work/gone.sqlite" "$work/gone.pg" && ok ||
	    bad "$what: gone differs from the station's: $(diff \
	    "$work/gone.sqlite" "$work/gone.pg" | head -4)"
	schema_is_new "$db" "$what"
	pg_q "$db" "SELECT * FROM refkit_travel ORDER BY ord; SELECT * FROM
	    refkit_meta" >"$work/$db.meta"
	cmp -s "$work/fresh.meta" "$work/$db.meta" && ok ||
	    bad "$what: refkit_travel or refkit_meta differ from a new database's"
	[ "$(pg_q "$db" "SELECT count(*) FROM refkit_rowlog")" = 0 ] && ok ||
	    bad "$what: the migration left notes in refkit_rowlog"
	# The migration recorded no change but, from before 15, the hashes
	# it gave the events (a change of event and chain rows, as on
	# SQLite); the next write is recorded.
	n=$(pg_q "$db" "SELECT count(*) FROM change")
	want=$(sqlite3 "$src" 'SELECT count(*) FROM change')
	[ "$from" -lt 15 ] && want=$((want + 1))
	[ "$n" = "$want" ] && ok ||
	    bad "$what: the migration recorded $n changes, want $want"
	if [ "$from" -lt 15 ]; then
		# Its last change: the events' hashes, and their logs' heads.
		"$bin/refkit" --db "$(url "$db")" changes export -o \
		    "$work/m.changes" >/dev/null 2>"$work/err" &&
		    "$bin/refkit" changes show "$work/m.changes" \
		    >"$work/m.show" 2>>"$work/err" ||
		    bad "$what: the migration's change: $(cat "$work/err")"
		awk '/^entry /{ last = "" } { last = last $0 "\n" }
		    END { printf "%s", last }' "$work/m.show" >"$work/m.last"
		grep -q '^  update event ' "$work/m.last" &&
		    grep -q '^  insert chain: ' "$work/m.last" && ok ||
		    bad "$what: the migration's change is not the hashes: $(head -4 "$work/m.last")"
	fi
	run_tool "$what" "$db" refkit verify
	run_tool "$what" "$db" crs-stats item add Shield dr=+2
	[ "$(pg_q "$db" "SELECT count(*) FROM change")" = $((n + 1)) ] && ok ||
	    bad "$what: a write after the migration was not recorded"

	# --- two commands at once: both succeed, one migrates ---
	db=race$from
	old "$db" "$from" || { from=$((from + 1)); continue; }
	pg_q "$db" "ALTER DATABASE $db SET log_statement = 'mod'" >/dev/null
	logged=$(wc -l <"$pg_dir/log")
	pg_hold "$db" "SELECT pg_advisory_xact_lock(1380338516)"
	PGAPPNAME=racer "$bin/crs-stats" --db "$(url "$db")" set Bob \
	    notes=first >"$work/r1.out" 2>&1 &
	r1=$!
	PGAPPNAME=racer "$bin/crs-combat" --db "$(url "$db")" log \
	    >"$work/r2.out" 2>&1 &
	r2=$!
	pg_wait_for "$what: the racers never waited for the lock" "$db" "SELECT
	    count(*) FROM pg_stat_activity WHERE application_name = 'racer'
	    AND wait_event = 'advisory'" 2
	pg_release
	wait "$r1" && ok || bad "$what: the first racer failed: $(cat "$work/r1.out")"
	wait "$r2" && ok || bad "$what: the second racer failed: $(cat "$work/r2.out")"
	n=$(tail -n +$((logged + 1)) "$pg_dir/log" |
	    grep -c "statement: UPDATE refkit_meta SET version = $latest")
	[ "$n" = 1 ] && ok || bad "$what: $n migrations, want 1"
	schema_is_new "$db" "$what, after the race"
	[ "$(pg_q "$db" "SELECT notes FROM character WHERE name = 'Bob'")" = first ] &&
	    ok || bad "$what: the racer's write is not there"

	# --- a step that fails, and a failure after every step ---
	db=fail$from
	old "$db" "$from" || { from=$((from + 1)); continue; }
	# The first table the steps make, made by another program first.
	tables() {
		pg_q "$1" "SELECT tablename FROM pg_tables WHERE schemaname =
		    'public' ORDER BY 1"
	}
	tables fresh >"$work/tables.new"
	tables "$db" >"$work/tables.old"
	t=$(comm -23 "$work/tables.new" "$work/tables.old" | head -1)
	if [ -n "$t" ]; then
		pg_q "$db" "CREATE TABLE $t (x int)" >/dev/null
		refused "$what, $t there already" "$db" \
		    "$want_fail: relation \"$t\" already exists" crs-stats list
		pg_q "$db" "DROP TABLE $t" >/dev/null
	fi
	pg_q "$db" "CREATE FUNCTION held() RETURNS trigger LANGUAGE plpgsql AS
	    \$\$ BEGIN RAISE EXCEPTION 'refkit_meta is held'; END \$\$;
	    CREATE TRIGGER held BEFORE UPDATE ON refkit_meta FOR EACH ROW
	    EXECUTE FUNCTION held()" >/dev/null
	refused "$what, the version not set" "$db" \
	    "$want_fail: refkit_meta is held" crs-stats list
	version_is "$db" "$from" "$what: the failed migrations changed the version"
	rows_kept "$db" "$what: the failed migrations"
	from=$((from + 1))
done

# --- refused untouched: newer, older than the oldest ---
createdb newer && "$bin/crs-stats" --db "$(url newer)" list >/dev/null &&
    pg_q newer "UPDATE refkit_meta SET version = $((latest + 1))" >/dev/null ||
    bad "making a newer database"
refused "newer" newer \
    "crs-stats: '$(shown newer)': written by a newer refkit (schema $((latest + 1)); this one knows up to $latest); not changed" \
    crs-stats add Zed OR=1 DR=1 MIND=1 LIFE=1 IN=1
old older "$oldest" &&
    pg_q older "UPDATE refkit_meta SET version = $((oldest - 1))" >/dev/null
refused "older than the oldest" older \
    "crs-stats: '$(shown older)': schema $((oldest - 1)), older than any this refkit migrates on PostgreSQL ($oldest and later); not changed" \
    crs-stats list

# --- a database of this version whose functions are another build's
# (made by it): the first command replaces them with this build's, and
# works, the server's record of its changes included ---
createdb otherbuild
odb="postgresql:///otherbuild?host=$PGHOST"
"$bin/crs-stats" --db "$odb" add Ann OR=8 DR=5 LIFE=12 IN=3 >/dev/null &&
    "$bin/crs-stats" --db "$odb" add Bob OR=6 DR=6 LIFE=9 IN=2 >/dev/null &&
    "$bin/crs-combat" --db "$odb" start Ann Bob >/dev/null ||
    bad "the database of another build's functions"
ours=$(pg_q otherbuild "SELECT refkit_functions()")
pg_q otherbuild "DROP FUNCTION refkit_store(bigint);
    CREATE OR REPLACE FUNCTION refkit_functions() RETURNS text
    LANGUAGE sql IMMUTABLE AS \$\$ SELECT 'another build' \$\$" >/dev/null
"$bin/crs-combat" --db "$odb" init Ann=9 Bob=2 >"$work/other.out" 2>&1 &&
    [ "$(pg_q otherbuild "SELECT refkit_functions()")" = "$ours" ] &&
    [ "$(pg_q otherbuild "SELECT count(*) FROM pg_proc
    WHERE proname = 'refkit_store'")" = 1 ] && ok ||
    bad "another build's functions: $(head -1 "$work/other.out")"
[ "$(pg_q otherbuild "SELECT count(*) FROM change")" = 4 ] && ok ||
    bad "another build's functions: the changes recorded are" \
    "$(pg_q otherbuild "SELECT count(*) FROM change")"

# --- an old database on a read-only standby ---
old standby "$oldest" || true
if pg_standby; then
	pg_dump_of standby >"$work/before"
	got=$(PGHOST=$PG_STANDBY_HOST "$bin/crs-stats" --db \
	    "postgresql:///standby?host=$PG_STANDBY_HOST&user=$PGUSER" list \
	    2>&1 >/dev/null)
	rc=$?
	want="crs-stats: cannot use 'postgresql://$PGUSER@$PG_STANDBY_HOST:5432/standby': its schema needs updating to version $latest, and the server is read-only (a standby?)"
	[ "$rc" -eq 1 ] && [ "$got" = "$want" ] && ok ||
	    bad "standby: exit $rc, got '$got', want '$want'"
	pg_dump_of standby >"$work/after"
	cmp -s "$work/before" "$work/after" && ok ||
	    bad "standby: the database changed"
else
	bad "no standby"
fi

tally_done
