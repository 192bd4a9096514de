# lib.sh: helpers for the golden CLI cases, sourced before each case.
# A case is a shell script whose output (the transcript) is compared with
# tests/expected/NAME.out.  $T is the case's temporary directory, $TOP the
# source tree, $REFKIT_DB a fresh database path.

# Prints an argument list, quoting the arguments that need it.
show_args() {
	sep=''
	for a in "$@"; do
		case $a in
		*[!A-Za-z0-9_./=+:@%-]*|'') printf "%s'%s'" "$sep" "$a" ;;
		*) printf '%s%s' "$sep" "$a" ;;
		esac
		sep=' '
	done
}

# run CMD ARG...: the command line, its stdout, its stderr prefixed by
# "2> ", and its exit status as "? N".
run() {
	printf '$ '; show_args "$@"; printf '\n'
	"$@" >"$T/.stdout" 2>"$T/.stderr"
	rc=$?
	cat "$T/.stdout"
	sed 's/^/2> /' "$T/.stderr"
	printf '? %d\n' "$rc"
}

# run_in FILE CMD ARG...: like run, with FILE as standard input.
run_in() {
	f=$1
	shift
	printf '$ '; show_args "$@"; printf ' < %s\n' "$f"
	"$@" <"$f" >"$T/.stdout" 2>"$T/.stderr"
	rc=$?
	cat "$T/.stdout"
	sed 's/^/2> /' "$T/.stderr"
	printf '? %d\n' "$rc"
}

# run_full CMD ARG...: runs with standard output on /dev/full.
run_full() {
	printf '$ '; show_args "$@"; printf ' > /dev/full\n'
	"$@" >/dev/full 2>"$T/.stderr"
	rc=$?
	sed 's/^/2> /' "$T/.stderr"
	printf '? %d\n' "$rc"
}

# sql SQL: runs SQL on the case's database ($REFKIT_DB) with that database's own
# shell, sqlite3 for a file and psql for PostgreSQL (REFKIT_PG=1 in
# tests/run.sh), and prints the rows as sqlite3 does: the columns joined
# by '|', NULL as nothing.  The SQL must read alike on both: no blob
# literals, and a comparison shown as a value goes through CASE (psql
# would print t or f).  on_pg says whether the case runs on PostgreSQL.
on_pg() {
	case $REFKIT_DB in postgresql:*) return 0 ;; esac
	return 1
}
sql() {
	sql_on "$REFKIT_DB" "$1"
}
# sql_on DB SQL: the same on DB, a file or a PostgreSQL URI.
sql_on() {
	case $1 in
	postgresql:*) psql -X -q -A -t -F '|' -v ON_ERROR_STOP=1 -d "$1" \
	    -c "$2" ;;
	*) sqlite3 "$1" "$2" ;;
	esac
}

# integrity: "ok" when the database's structure checks out: SQLite's
# integrity_check, or on PostgreSQL amcheck's check of every B-tree
# index of the database against its table (bt_index_check with heapallindexed).
integrity() {
	if on_pg; then
		psql -X -q -A -t -v ON_ERROR_STOP=1 -d "$REFKIT_DB" \
		    -c 'CREATE EXTENSION IF NOT EXISTS amcheck' \
		    -c "SELECT count(bt_index_check(c.oid, true)) FROM pg_index i
		    JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON
		    a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace
		    WHERE a.amname = 'btree' AND n.nspname = current_schema()" \
		    >/dev/null && echo ok
	else
		sqlite3 "$REFKIT_DB" 'PRAGMA integrity_check'
	fi
}

# snap [DB]: remembers the database's content; unchanged [DB] says
# whether it is still the same.  A PostgreSQL database (REFKIT_PG=1 in
# tests/run.sh) is dumped by pg_dump.
dump() {
	case $1 in
	postgresql:*) pg_dump --data-only --no-owner "$1" |
	    grep -v '^\\\(un\)\{0,1\}restrict ' ;;
	*) sqlite3 "$1" .dump ;;
	esac
}
snap() {
	dump "${1:-$REFKIT_DB}" >"$T/.snap"
}
unchanged() {
	if dump "${1:-$REFKIT_DB}" | cmp -s - "$T/.snap"; then
		echo "(database unchanged)"
	else
		echo "(DATABASE CHANGED)"
		dump "${1:-$REFKIT_DB}" | diff "$T/.snap" - | head -20
	fi
}

# filesum FILE: a checksum of the file's bytes, to show it was not touched.
filesum() {
	cksum <"$1" | cut -d' ' -f1
}
