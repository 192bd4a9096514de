#!/bin/sh
# db-schema.sh BUILD-DIR: the PostgreSQL form of the schema (issue #22),
# loaded into a real PostgreSQL server, has the tables, columns, keys,
# indexes, CHECK constraints and first rows of the SQLite schema, and
# its CHECKs refuse what SQLite's refuse.
#
# The SQLite side is read from a new refkit database (what the tools
# make); the PostgreSQL side from the server's catalog after
# $B/schema-pg.sql was loaded into a new database.  Both are written as
# the same lines, sorted, and compared.  The server's tables of its own,
# named refkit_ (its version, and its record of changes: refkit.db(5)),
# are not SQLite's and are left out.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"
pg_setup db-schema
work=$PG_WORK

unset REFKIT_DB REFKIT_STATION
export REFKIT_NOW=1795000000
"$bin/crs-stats" --db "$work/r.db" list >/dev/null || bad "no SQLite database"
psql -q -X -v ON_ERROR_STOP=1 -c 'CREATE DATABASE refkit' >/dev/null ||
    bad "CREATE DATABASE"
export PGDATABASE=refkit
if psql -q -X -v ON_ERROR_STOP=1 -f "$bin/schema-pg.sql" \
    >"$work/load.out" 2>&1; then
	ok
else
	bad "schema-pg.sql does not load: $(grep ERROR "$work/load.out" | head -3)"
fi

# The type each SQLite type becomes.
pgtype() {
	sed -e 's/|INTEGER|/|bigint|/' -e 's/|TEXT|/|text|/' \
	    -e 's/|REAL|/|double precision|/' -e 's/|BLOB|/|bytea|/'
}

# Tables, and for each column: its type, NOT NULL, place in the key.
sqlite3 "$work/r.db" "SELECT t.name, c.name, c.type, c.\"notnull\" OR
    c.pk > 0 AND c.type <> 'INTEGER' OR (c.pk > 0 AND t.sql LIKE
    '%WITHOUT ROWID%'), c.pk FROM sqlite_schema t, pragma_table_info(t.name)
    c WHERE t.type = 'table' AND t.name NOT LIKE 'sqlite_%'" |
    sed 's/|\([A-Z]*\)|/|\1|/' | pgtype | sort >"$work/cols.sqlite"
# A column of an INTEGER PRIMARY KEY of a rowid table is NOT NULL in
# PostgreSQL (an identity), as SQLite's rowid is never NULL.
sqlite3 "$work/r.db" "SELECT t.name || '|' || c.name FROM sqlite_schema t,
    pragma_table_info(t.name) c WHERE t.type = 'table' AND c.pk = 1 AND
    c.type = 'INTEGER' AND t.sql NOT LIKE '%WITHOUT ROWID%' AND
    (SELECT count(*) FROM pragma_table_info(t.name) WHERE pk > 0) = 1" \
    >"$work/rowid"
while IFS='|' read -r t c; do
	sed -i "s/^$t|$c|bigint|0|1\$/$t|$c|bigint|1|1/" "$work/cols.sqlite"
done <"$work/rowid"
# Collated NOCASE: citext.
sqlite3 "$work/r.db" "SELECT name FROM sqlite_schema WHERE type = 'table'" |
while read -r t; do
	sqlite3 "$work/r.db" "SELECT sql FROM sqlite_schema WHERE name = '$t'" |
	    tr '\n' ' ' | grep -o '[a-z_]*[[:space:]]*TEXT[^,]*COLLATE NOCASE' |
	    awk '{ print $1 }' | while read -r c; do
		echo "$t|$c"
	done
done >"$work/nocase"
# ... and a column that names such a column (its foreign key must have
# the type of the key it names), to a fixed point.
sqlite3 "$work/r.db" "SELECT t.name, f.\"from\", f.\"table\",
    coalesce(f.\"to\", (SELECT name FROM pragma_table_info(f.\"table\")
    WHERE pk = 1)) FROM sqlite_schema t, pragma_foreign_key_list(t.name) f
    WHERE t.type = 'table'" >"$work/fkcols"
while :; do
	awk -F'|' 'NR == FNR { n[$1 "|" $2] = 1; print; next }
	    n[$3 "|" $4] && !n[$1 "|" $2] { n[$1 "|" $2] = 1; print $1 "|" $2 }' \
	    "$work/nocase" "$work/fkcols" >"$work/nocase.next"
	cmp -s "$work/nocase" "$work/nocase.next" && break
	mv "$work/nocase.next" "$work/nocase"
done
while IFS='|' read -r t c; do
	sed -i "s/^$t|$c|text|/$t|$c|citext|/" "$work/cols.sqlite"
done <"$work/nocase"
psql -X -At -F'|' -c "SELECT c.table_name, c.column_name,
    CASE WHEN c.data_type = 'USER-DEFINED' THEN c.udt_name ELSE c.data_type
    END, (c.is_nullable = 'NO')::int, coalesce((SELECT k.ordinal_position
    FROM information_schema.key_column_usage k JOIN
    information_schema.table_constraints tc ON tc.constraint_name =
    k.constraint_name AND tc.table_name = k.table_name WHERE
    tc.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name AND
    k.column_name = c.column_name), 0) FROM information_schema.columns c
    WHERE c.table_schema = 'public' AND c.table_name NOT LIKE 'refkit\\_%'" |
    sort >"$work/cols.pg"
if cmp -s "$work/cols.sqlite" "$work/cols.pg"; then
	ok
else
	bad "columns differ: $(diff "$work/cols.sqlite" "$work/cols.pg" |
	    grep '^[<>]' | head -6)"
fi
n=$(wc -l <"$work/cols.pg")
[ "$n" -gt 200 ] && ok || bad "only $n columns in PostgreSQL"

# Foreign keys: table, columns, the table and columns they name, and what
# a removal does.
sqlite3 "$work/r.db" "SELECT t.name, f.\"from\", f.\"table\",
    coalesce(f.\"to\", ''), f.on_delete FROM sqlite_schema t,
    pragma_foreign_key_list(t.name) f WHERE t.type = 'table'" |
    sort >"$work/fk.sqlite"
psql -X -At -F'|' -c "SELECT cl.relname, a.attname, rf.relname,
    ra.attname, CASE con.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'a' THEN
    'NO ACTION' WHEN 'n' THEN 'SET NULL' WHEN 'r' THEN 'RESTRICT' ELSE 'SET
    DEFAULT' END FROM pg_constraint con JOIN pg_class cl ON cl.oid =
    con.conrelid JOIN pg_class rf ON rf.oid = con.confrelid CROSS JOIN
    LATERAL unnest(con.conkey, con.confkey) AS k(c, r) JOIN pg_attribute a ON
    a.attrelid = con.conrelid AND a.attnum = k.c JOIN pg_attribute ra ON
    ra.attrelid = con.confrelid AND ra.attnum = k.r WHERE con.contype =
    'f'" | sort >"$work/fk.pg"
# SQLite leaves "to" empty when the key named is the primary key.
awk -F'|' '$5 == 1 { print $1 "|" $2 }' "$work/cols.sqlite" \
    >"$work/pk1"
awk -F'|' -v OFS='|' 'NR == FNR { pk[$1] = $2; next }
    $4 == "" { $4 = pk[$3] } { print }' "$work/pk1" "$work/fk.sqlite" |
    sort >"$work/fk.sqlite2"
if cmp -s "$work/fk.sqlite2" "$work/fk.pg"; then
	ok
else
	bad "foreign keys differ: $(diff "$work/fk.sqlite2" "$work/fk.pg" |
	    grep '^[<>]' | head -6)"
fi
[ "$(wc -l <"$work/fk.pg")" -ge 10 ] && ok ||
    bad "only $(wc -l <"$work/fk.pg") foreign keys in PostgreSQL"

# Unique constraints and indexes (by table and columns), and the other
# indexes by name.
sqlite3 "$work/r.db" "SELECT t.name, i.\"unique\", group_concat(ii.name)
    FROM sqlite_schema t, pragma_index_list(t.name) i,
    pragma_index_info(i.name) ii WHERE t.type = 'table' AND i.origin <> 'pk'
    GROUP BY t.name, i.name" | sort >"$work/idx.sqlite"
psql -X -At -F'|' -c "SELECT t.relname, ix.indisunique::int,
    string_agg(a.attname, ',' ORDER BY k.o) FROM pg_index ix JOIN pg_class
    t ON t.oid = ix.indrelid JOIN pg_namespace ns ON ns.oid =
    t.relnamespace CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS
    k(c, o) JOIN
    pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.c WHERE
    ns.nspname = 'public' AND NOT ix.indisprimary AND t.relname NOT LIKE
    'refkit\\_%' GROUP BY t.relname,
    ix.indexrelid, ix.indisunique" | sort >"$work/idx.pg"
if cmp -s "$work/idx.sqlite" "$work/idx.pg"; then
	ok
else
	bad "indexes differ: $(diff "$work/idx.sqlite" "$work/idx.pg" |
	    grep '^[<>]' | head -6)"
fi

# CHECK constraints: as many in each table.
"$bin/pgschema" --checks | tr ' ' '|' | sort >"$work/chk.sqlite"
sqlite3 "$work/r.db" "SELECT name, (length(sql) - length(replace(sql,
    'CHECK (', ''))) / 7 FROM sqlite_schema WHERE type = 'table' AND name
    NOT LIKE 'sqlite_%'" | sort >"$work/chk.count"
cmp -s "$work/chk.sqlite" "$work/chk.count" && ok ||
    bad "pgschema counts the CHECKs otherwise: $(diff "$work/chk.count" \
    "$work/chk.sqlite" | grep '^[<>]' | head -4)"
psql -X -At -F'|' -c "SELECT t.relname, count(con.oid) FROM pg_class t JOIN
    pg_namespace ns ON ns.oid = t.relnamespace LEFT JOIN pg_constraint con
    ON con.conrelid = t.oid AND con.contype = 'c' WHERE ns.nspname =
    'public' AND t.relkind = 'r' AND t.relname NOT LIKE 'refkit\\_%' GROUP BY
    t.relname" | sort >"$work/chk.pg"
if cmp -s "$work/chk.count" "$work/chk.pg"; then
	ok
else
	bad "CHECKs differ: $(diff "$work/chk.count" "$work/chk.pg" |
	    grep '^[<>]' | head -6)"
fi
total=$(awk -F'|' '{ s += $2 } END { print s }' "$work/chk.pg")
[ "$total" -ge 100 ] && ok || bad "only $total CHECKs in PostgreSQL"

# The rows a new database holds, but the station's own, are the same;
# refkit_meta says what SQLite's application_id and user_version say.
for t in $(sqlite3 "$work/r.db" "SELECT name FROM sqlite_schema WHERE type =
    'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('station',
    'station_self') ORDER BY name"); do
	sqlite3 "$work/r.db" "SELECT * FROM $t" | sort
done >"$work/rows.sqlite"
for t in $(psql -X -At -c "SELECT tablename FROM pg_tables WHERE schemaname =
    'public' AND tablename NOT IN ('station', 'station_self') AND tablename
    NOT LIKE 'refkit\\_%' ORDER BY tablename"); do
	psql -X -At -F'|' -c "SELECT * FROM $t" | sort
done >"$work/rows.pg"
n=$(wc -l <"$work/rows.sqlite")
cmp -s "$work/rows.sqlite" "$work/rows.pg" && [ "$n" -gt 20 ] && ok ||
    bad "the rows of a new database differ ($n in SQLite): $(diff \
    "$work/rows.sqlite" "$work/rows.pg" | grep '^[<>]' | head -4)"
a=$(sqlite3 "$work/r.db" "SELECT application_id || '|' || user_version FROM
    pragma_application_id, pragma_user_version")
b=$(psql -X -At -F'|' -c "SELECT application_id, version FROM refkit_meta")
[ -n "$a" ] && [ "$a" = "$b" ] && ok ||
    bad "refkit_meta '$b', SQLite's '$a'"

# The translated CHECKs judge alike: each value below is refused by both
# or taken by both (the rows are otherwise valid).
# try TABLE COLUMNS VALUES: one line, "ok" or "refused", from each side.
# The other errors (a column missing, a key) are shown as they are.
try() {
	a=$(sqlite3 "$work/r.db" "PRAGMA foreign_keys = OFF; BEGIN;
	    INSERT INTO $1 ($2) VALUES ($3); ROLLBACK" 2>&1)
	case $a in
	'') a=ok ;;
	*'CHECK constraint failed'*) a=refused ;;
	esac
	b=$(psql -X -q -v ON_ERROR_STOP=1 -c "BEGIN" -c "SET
	    session_replication_role = replica" -c "INSERT INTO $1 ($2)
	    VALUES ($3)" -c "ROLLBACK" 2>&1)
	case $b in
	'') b=ok ;;
	*'violates check constraint'*) b=refused ;;
	esac
	if [ "$a" = "$b" ] && [ "$a" = "$4" ]; then
		ok
	else
		bad "$1 ($3): SQLite $a, PostgreSQL $b, want $4"
	fi
}
S=0123456789abcdef0123456789abcdef
try station "id, name, created" "'$S', 'x', 1" ok
try station "id, name, created" "'0123456789ABCDEF0123456789abcdef', 'x', 1" refused
try station "id, name, created" "'0123456789abcdef0123456789abcdeg', 'x', 1" refused
try station "id, name, created" "'0123', 'x', 1" refused
try fb_board name "'Plain.board-2'" ok
try fb_board name "'no space'" refused
try item "id, name" "1, 'Sword'" ok
try item "id, name" "1, 'Sw;ord'" refused
try character "id, name, str, created, updated" "1, 'Ann', 1000, 1, 1" ok
try character "id, name, str, created, updated" "1, 'Ann', 1001, 1, 1" refused
try d6_roll "id, character, trait, code, seed, total, detail, time" \
    "1, 'Han', 'x', '3D', '1', 9, '{\"a\":1}', 1" ok
try d6_roll "id, character, trait, code, seed, total, detail, time" \
    "1, 'Han', 'x', '3D', '1', 9, '{a:1}', 1" refused

tally_done
