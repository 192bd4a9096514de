# The database file: creation, migration, refusal of what is not ours.
run crs-stats list
sqlite3 "$REFKIT_DB" 'PRAGMA application_id; PRAGMA user_version; PRAGMA journal_mode;'
# A schema-1 database is migrated forward and keeps its data.
sqlite3 old.db <"$TOP/tests/fixtures/schema-v1.sql"
run crs-stats --db old.db show 'Old Tom'
sqlite3 old.db 'PRAGMA user_version; SELECT name FROM sqlite_schema WHERE type = '"'"'table'"'"' ORDER BY 1;'
run crs-stats --db old.db item add Sword or=+2
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
