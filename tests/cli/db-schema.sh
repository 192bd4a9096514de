# The database file: creation, migration, refusal of what is not ours.
# A file's case, whatever database the suite is given (REFKIT_PG=1 in
# tests/run.sh); tests/pg/db-schema.sh checks the server's schema and
# tests/pg/db-cli.sh its refusals.
export REFKIT_DB="$T/refkit.db"
run crs-stats list
sqlite3 "$REFKIT_DB" 'PRAGMA application_id; PRAGMA user_version; PRAGMA journal_mode;'
# A schema-1 database is migrated forward and keeps its data.
sqlite3 old.db <"$TOP/tests/fixtures/schema-v1.sql"
run crs-stats --db old.db show 'Old Tom'
sqlite3 old.db 'PRAGMA user_version; SELECT name FROM sqlite_schema WHERE type = '"'"'table'"'"' ORDER BY 1;'
run crs-stats --db old.db item add Sword or=+2
# The migrated database has the schema of a new one: every step is cut
# from schema.sql, so even the CREATE statements' text is the same.
# These checks print only when they fail, which the transcript shows.
schema_of() {
	sqlite3 "$1" 'SELECT type, name, tbl_name, sql FROM sqlite_schema
	    ORDER BY name'
}
# The layout without the text: columns, indexes, foreign keys.
layout_of() {
	sqlite3 "$1" "SELECT name FROM sqlite_schema WHERE type = 'table'
	    ORDER BY 1" | while read -r t; do
		echo "table $t"
		sqlite3 "$1" "PRAGMA table_xinfo('$t'); PRAGMA index_list('$t');
		    PRAGMA foreign_key_list('$t');"
		sqlite3 "$1" "SELECT name FROM pragma_index_list('$t')
		    ORDER BY 1" | while read -r i; do
			sqlite3 "$1" "PRAGMA index_xinfo('$i')"
		done
	done
	sqlite3 "$1" 'PRAGMA user_version; PRAGMA application_id;
	    SELECT type, name, tbl_name FROM sqlite_schema ORDER BY name'
}
[ "$(schema_of old.db)" = "$(schema_of "$REFKIT_DB")" ] ||
	echo "old.db: the migrated schema differs from a new database's"
# A schema-3 database (the first event table, which schema 4 rebuilt):
# the same layout as a new one, its event table as schema.sql has it, and
# its combat events kept.
sqlite3 v3.db <"$TOP/tests/fixtures/schema-v3.sql"
crs-stats --db v3.db list >/dev/null ||
	echo "v3.db: crs-stats list failed"
[ "$(layout_of v3.db)" = "$(layout_of "$REFKIT_DB")" ] ||
	echo "v3.db: the migrated layout differs from a new database's"
event_sql="SELECT sql FROM sqlite_schema WHERE tbl_name = 'event'
    ORDER BY name"
[ "$(sqlite3 v3.db "$event_sql")" = "$(sqlite3 "$REFKIT_DB" "$event_sql")" ] ||
	echo "v3.db: its event table differs from a new database's"
[ "$(sqlite3 v3.db 'SELECT group_concat(seq || actor, ",") FROM event
    WHERE actor IS NOT NULL; SELECT count(*) FROM event;
    SELECT name FROM item')" = "$(printf '2Old Tom\n2\nSword')" ] ||
	echo "v3.db: its events or items were not kept"
# A newer schema is refused and the file left alone.
sqlite3 newer.db <"$TOP/tests/fixtures/schema-v1.sql"
sqlite3 newer.db 'PRAGMA user_version = 99'
before=$(filesum newer.db)
run crs-stats --db newer.db list
run crs-stats --db newer.db add X STR=1
[ "$(filesum newer.db)" = "$before" ] && echo "newer.db unchanged"
# Another program's SQLite file.
sqlite3 other.db 'CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES (1);'
before=$(filesum other.db)
run crs-stats --db other.db list
[ "$(filesum other.db)" = "$before" ] && echo "other.db unchanged"
# Not a database at all.
printf 'this is not a database, just some text that goes on for a while.....................................................................\n' >junk.db
before=$(filesum junk.db)
run crs-stats --db junk.db list
[ "$(filesum junk.db)" = "$before" ] && echo "junk.db unchanged"
# Where the database goes by default.
unset REFKIT_DB
run crs-stats add Homer STR=1
[ -f "$HOME/.local/share/refkit/refkit.db" ] && echo "created under HOME/.local/share/refkit"
XDG_DATA_HOME="$T/xdg" crs-stats add Xena STR=2
[ -f "$T/xdg/refkit/refkit.db" ] && echo "created under XDG_DATA_HOME/refkit"
run crs-stats --db no/such/dir/r.db list
