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

# snap [DB]: remembers the database's content; unchanged [DB] says
# whether it is still the same.
snap() {
	sqlite3 "${1:-$REFKIT_DB}" .dump >"$T/.snap"
}
unchanged() {
	if sqlite3 "${1:-$REFKIT_DB}" .dump | cmp -s - "$T/.snap"; then
		echo "(database unchanged)"
	else
		echo "(DATABASE CHANGED)"
		sqlite3 "${1:-$REFKIT_DB}" .dump | diff "$T/.snap" - | head -20
	fi
}

# filesum FILE: a checksum of the file's bytes, to show it was not touched.
filesum() {
	cksum <"$1" | cut -d' ' -f1
}
