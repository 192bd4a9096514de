#!/bin/sh
# gms.sh BUILD-DIR [pg]: two GMs at two tables, each with crs-combat play
# on a real terminal (tmux), on one database (issue #37): each starts a
# combat and plays it with the short forms, neither naming a combat, and
# each session's commands land in its own GM's combat, whoever wrote
# last.  With "pg" the same on a database of a private PostgreSQL server
# (tests/pg/server.sh).  Ends with "N passed, N failed".
set -u
B=${1:-build}
mode=${2:-file}
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/lib/tally.sh"
tally "tty/gms$([ "$mode" = pg ] && echo ' (pg)')"
done_() { tally_done; exit 0; }
if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: tty/gms: no tmux (tools/install-deps.sh installs it)"
	done_
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/refkit-gms.XXXXXX")
chmod 755 "$dir"
sock="$dir/tmux"
t() { tmux -S "$sock" -f /dev/null "$@"; }
cleanup() {
	t kill-server 2>/dev/null
	[ "$mode" = pg ] && pg_stop
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
if [ "$mode" = pg ]; then
	. "$top/tests/pg/server.sh"
	if ! pg_start; then
		bad "no PostgreSQL server"
		done_
	fi
	trap cleanup EXIT
	trap 'cleanup; exit 130' INT
	trap 'cleanup; exit 143' TERM
	createdb gms || { bad "createdb"; done_; }
	REFKIT_DB="postgresql:///gms?host=$PGHOST&user=$PGUSER"
	q() { pg_q gms "$1"; }
else
	REFKIT_DB="$dir/refkit.db"
	q() { sqlite3 "$REFKIT_DB" "$1"; }
fi
export REFKIT_DB HOME="$dir" LC_ALL=C.UTF-8 TERM=xterm-256color
unset NO_COLOR XDG_STATE_HOME REFKIT_GM
for c in 'Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1' \
    'John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2' \
    'Mary OR=2 DR=6 MIND=12 LIFE=8 IN=3 LB=0' \
    'Ysolde OR=5 DR=7 MIND=6 LIFE=12 IN=3 LB=1'; do
	# shellcheck disable=SC2086
	"$bin/crs-stats" add $c >/dev/null || bad "crs-stats add $c"
done

screen() { t capture-pane -p -t "$1" -S -200; }
# wait_for SESSION TEXT: until its screen shows TEXT, 10 s at most.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		screen "$1" | grep -qF -- "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
check() {
	if wait_for "$1" "$3"; then ok; else
		bad "$2: no '$3' on $1's screen"
		screen "$1" | tail -12
	fi
}
# type SESSION LINE: types the line and Enter, then waits for the board
# that every command is followed by to be drawn again.
type_line() {
	before=$(screen "$1" | grep -c '^crs-combat>')
	t send-keys -t "$1" -l "$2"
	t send-keys -t "$1" Enter
	i=0
	while [ $i -lt 100 ]; do
		[ "$(screen "$1" | grep -c '^crs-combat>')" -gt "$before" ] &&
		    return 0
		sleep 0.1
		i=$((i + 1))
	done
	bad "$1: no prompt after '$2'"
}
for gm in Anna Ben; do
	t new-session -d -s "$gm" -x 120 -y 40 -e REFKIT_DB="$REFKIT_DB" \
	    -e REFKIT_GM="$gm" -e HOME="$HOME" -e LC_ALL="$LC_ALL" \
	    "$bin/crs-combat play"
	check "$gm" "the session starts" "crs-combat>"
done
# Interleaved, as at a convention: each GM's commands between the other's.
type_line Anna "start Fred John"
check Anna "Anna's start" "(GM Anna)"
type_line Ben "start Mary Ysolde"
check Ben "Ben's start" "(GM Ben)"
type_line Anna "i Fred=6 John=3"
type_line Ben "i Mary=5 Ysolde=2"
type_line Anna "a fred john 8 6"
check Anna "Anna's attack" "Fred attacks John: 8 + OR 8 = 16 against 6 + DR 6 = 12"
type_line Ben "a mary ysolde 7 3"
check Ben "Ben's attack" "Mary attacks Ysolde: 7 + OR 2 = 9 against 3 + DR 7 = 10"
type_line Anna "p john"
check Anna "Anna's pass" "John passes"
type_line Ben "u"
check Ben "Ben's undo" "undid:"
type_line Anna "s"
if screen Anna | grep -q "Mary\|Ysolde"; then
	bad "Anna's board shows Ben's fighters"
else
	ok
fi
# The ledger: each combat's events are its own GM's, and nothing of
# either table reached the other.
got=$(q "SELECT combat_id % 2147483648, gm, count(*) FROM event
    GROUP BY 1, 2 ORDER BY 1, 2" | tr '\n' ' ')
want="1|Anna|6 2|Ben|6 "
if [ "$got" = "$want" ]; then ok; else bad "the events: '$got', not '$want'"; fi
got=$(q "SELECT count(*) FROM event e JOIN event s ON s.combat_id =
    e.combat_id AND s.seq = 1 WHERE e.gm <> s.gm")
if [ "$got" = 0 ]; then ok; else bad "$got events in another GM's combat"; fi
for gm in Anna Ben; do
	t send-keys -t "$gm" C-d
done
sleep 0.5
"$bin/crs-combat" replay >"$dir/replay" 2>&1 &&
    grep -q "0 mismatches" "$dir/replay" && ok ||
    { bad "replay"; cat "$dir/replay"; }
done_
