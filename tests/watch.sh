#!/bin/sh
# watch.sh BUILD-DIR [pg]: the live boards in a real terminal (issue #23).
# Each board runs in a detached tmux session of a fixed size, on its own
# tmux server (killed however the script ends), while commands from
# outside change the database; tmux capture-pane reads the screen.
#   - crs-combat watch: waits for a combat, then shows it; an attack, a
#     new round and the last event are on the screen within 2 seconds
#     (WATCH_CAPTURE=FILE keeps the screen mid-combat, escapes and all);
#     a smaller window is drawn again for its size; q leaves with the
#     terminal as it was (its modes, the main screen) and exit 0; in
#     colour on a terminal of colours, and with NO_COLOR set none at
#     all, Ctrl-C leaving as cleanly;
#   - fb-duel watch and bg-board watch: the board, a change shown, q.
# With "pg" the same runs on a database of a private PostgreSQL server
# (tests/pg/server.sh), where the boards listen for the server's notice
# of each change, and a listener is told of a write.  Without tmux it
# says SKIP.  Ends with "N passed, N failed".
set -u
B=${1:-build}
mode=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
bin="$top/$B"
. "$top/tests/lib/tally.sh"
tally "watch$([ "$mode" = pg ] && echo ' (pg)')"
done_() {
	tally_done
	exit
}

if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: watch: tmux is not installed (tools/install-deps.sh)"
	done_
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/refkit-watch.XXXXXX")
sock="refkit-watch-$$"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() {
	tm kill-server 2>/dev/null
	[ "$mode" = pg ] && pg_stop
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'cleanup; exit 129' HUP
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 141' PIPE
trap 'cleanup; exit 143' TERM

if [ "$mode" = pg ]; then
	. "$top/tests/pg/server.sh"
	# pg_start sets its own traps: ours, which stop the server too, again.
	if ! pg_start; then
		bad "no PostgreSQL server"
		done_
	fi
	trap cleanup EXIT
	trap 'cleanup; exit 129' HUP
	trap 'cleanup; exit 130' INT
	trap 'cleanup; exit 141' PIPE
	trap 'cleanup; exit 143' TERM
	createdb watch || { bad "createdb"; done_; }
	# Its statements in the server's log: the boards' LISTEN is seen.
	psql -qX -d watch -c "ALTER DATABASE watch SET log_statement = 'all'" ||
	    bad "log_statement"
	REFKIT_DB="postgresql:///watch?host=$PGHOST&user=$PGUSER"
else
	REFKIT_DB="$tmp/refkit.db"
fi
export REFKIT_DB
# One GM for every command and board here (the boards name him).
REFKIT_GM=Ref
export REFKIT_GM
echo "database: $REFKIT_DB"
PATH="$bin:$PATH"
export PATH
cd "$tmp" || exit 1

# The command a session runs: the tool, then its exit status and whether
# the terminal's modes came back as they were, in files for the test.
cat >"$tmp/run" <<'EOF'
#!/bin/sh
out=$1
shift
# A handler, not an ignore, which the tool would inherit: Ctrl-C is the
# tool's to handle, and this script goes on to report it.
trap 'echo interrupted' INT
before=$(stty -g)
"$@"
rc=$?
after=$(stty -g)
[ "$before" = "$after" ] && echo same >"$out.stty" || echo differs >"$out.stty"
echo "$rc" >"$out.rc"
echo "exited $rc"
exec sleep 600
EOF
chmod +x "$tmp/run"

# session NAME [VAR=VALUE...] -- CMD...: starts CMD in a 100x30 session.
session() {
	name=$1
	shift
	envs=
	while [ "$1" != -- ]; do
		envs="$envs -e $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	tm new-session -d -s "$name" -x 100 -y 30 -e TERM=tmux-256color \
	    -e REFKIT_DB="$REFKIT_DB" -e REFKIT_GM="$REFKIT_GM" \
	    -e PATH="$PATH" $envs \
	    "$tmp/run $tmp/$name $*"
}
screen() { tm capture-pane -p -t "$1"; }
escapes() { tm capture-pane -p -e -t "$1"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# wait_for NAME PATTERN MS: the screen of NAME shows PATTERN (grep -E)
# within MS milliseconds; waited is how long it took.
wait_for() {
	t0=$(now_ms)
	while :; do
		if screen "$1" | grep -Eq -- "$2"; then
			waited=$(($(now_ms) - t0))
			return 0
		fi
		[ $(($(now_ms) - t0)) -ge "$3" ] && return 1
		sleep 0.05
	done
}
# check NAME PATTERN MS WHAT: wait_for as a check, its time said.
check() {
	if wait_for "$1" "$2" "$3"; then
		ok
		printf '%s: %s after %d ms\n' "$1" "$4" "$waited"
	else
		bad "$1: $4 not on the screen within $3 ms"
		screen "$1" | sed 's/^/  | /'
	fi
}
# leaves NAME: the session's tool exited 0 with the terminal as it was.
leaves() {
	t0=$(now_ms)
	while [ ! -f "$tmp/$1.rc" ] && [ $(($(now_ms) - t0)) -lt 3000 ]; do
		sleep 0.05
	done
	if [ "$(cat "$tmp/$1.rc" 2>/dev/null)" = 0 ]; then
		ok
	else
		bad "$1: did not exit 0 ($(cat "$tmp/$1.rc" 2>/dev/null))"
	fi
	if [ "$(cat "$tmp/$1.stty" 2>/dev/null)" = same ]; then
		ok
	else
		bad "$1: the terminal's modes were not restored"
	fi
	if [ "$(tm display-message -p -t "$1" '#{alternate_on}')" = 0 ] &&
	    screen "$1" | grep -q '^exited 0'; then
		ok
	else
		bad "$1: the main screen did not come back"
		screen "$1" | sed 's/^/  | /'
	fi
}
# colours NAME: the screen has a colour (SGR 30-49, 90-107 but the
# defaults 39 and 49).
colours() {
	escapes "$1" | grep -o "$(printf '\033')\[[0-9;]*m" | tr -d '\033[m' |
	    tr ';' '\n' | grep -Eq '^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$'
}
# bar NAME FIGHTER: the length of the LIFE bar on FIGHTER's row.
bar() {
	screen "$1" | grep -E "^[> ] +[-0-9]+ $2" | sed 's/^[^#.]*//; s/ .*//' |
	    tr -d '\n' | wc -c
}

crs-stats add Fred OR=8 DR=6 LIFE=20 IN=5 EM=12 >/dev/null
crs-stats add John OR=6 DR=6 LIFE=10 IN=3 >/dev/null
crs-stats add 'Grim, the Unbowed' OR=9 DR=7 LIFE=25 IN=4 >/dev/null

# The board before there is a combat, and as one starts.
session crs -- crs-combat watch
check crs 'no combat yet' 5000 "'no combat yet'"
crs-combat start Fred John Grim >/dev/null
crs-combat init Fred=6 John=3 Grim=5 >/dev/null
check crs 'round 1; next to act: Fred' 2000 "the new combat"
check crs '^> +11 Fred ' 2000 "Fred marked next"
if colours crs; then ok; else bad "crs: no colour on tmux-256color"; fi
crs-combat attack Fred John --card 8 --vs-card 2 >/dev/null
check crs 'John +[#.]+ +2/10' 2000 "John's LIFE 2/10 as a bar"
check crs 'Fred attacks John: 8 \+ OR 8 = 16 against 2 \+ DR 6 = 8; hit for 8' \
    2000 "the attack as the log says it"
check crs 'next to act: Grim' 2000 "Grim next"
crs-combat attack Grim Fred --card 9 --vs-card 3 >/dev/null
check crs 'Fred +[#.]+ +11/20' 2000 "Grim's attack"
# Any screen (issue #39): at 40, 60, 80 and 120 columns the attack's
# line gives way at its start, never its outcome, and nothing wraps.
for w in 40 60 80 120; do
	tm resize-window -t crs -x "$w" -y 30
	check crs 'hit for 9; Fred LIFE 20 -> 11$' 2000 \
	    "the outcome whole at $w columns"
	if [ "$(screen crs | wc -l)" = "$(tm capture-pane -p -J -t crs |
	    wc -l)" ]; then
		ok
	else
		bad "crs: a line wrapped at $w columns"
	fi
	# Who acted stays from 60 columns on (the totals give way first).
	[ "$w" -ge 60 ] && check crs 'Gri.* attacks Fred.*hit for 9' 2000 \
	    "who attacked, at $w columns"
	# The table drops columns rather than lose its edge: NAME and LIFE
	# always, no row wider than the window.
	check crs '^  ( +[-0-9]+ )?Fred +([#.]+ +)?11/20' 2000 \
	    "Fred's row with his LIFE at $w columns"
	if [ "$(screen crs | sed 's/…/~/g' | awk -v w="$w" \
	    '{ if (length($0) > w) n++ } END { print n + 0 }')" = 0 ]; then
		ok
	else
		bad "crs: a line wider than $w columns"
		screen crs | sed "s/^/  | /"
	fi
done
check crs 'Grim, the Unbowed attacks Fred: 9 \+ OR 9 = 18 against 3 \+' \
    2000 "the whole line at 120 columns"
tm resize-window -t crs -x 100 -y 30
# The board mid-combat, with its colours, for a person to look at.
[ -n "${WATCH_CAPTURE:-}" ] && escapes crs >"$WATCH_CAPTURE"
crs-combat pass John >/dev/null
crs-combat round >/dev/null
check crs 'round 2; initiative not drawn yet' 2000 "round 2"
check crs 'Clean Up: cards back, DR restored; round 2 begins' 2000 \
    "the round's last event"
# A smaller window: drawn again, the bars shorter, the lines fitted.
# At 100 columns first: the redraw for the resize above may come a
# moment after the one for the round (on a server the notice is quick).
i=0
while [ $i -lt 20 ] && [ "$(bar crs Grim)" -ne 16 ]; do
	sleep 0.1
	i=$((i + 1))
done
w100=$(bar crs Grim)
tm resize-window -t crs -x 60 -y 20
check crs '^ combat 1 \(GM Ref, crs rules\), round 2; initiative' 2000 \
    "the title cut at 60 columns"
w60=$(bar crs Grim)
# At 60 the EM bar shrinks to 3 and LIFE's gives the rest: 8 (the
# table's columns then fit whole, not cut at the edge).
if [ "$w100" -eq 16 ] && [ "$w60" -eq 8 ]; then
	ok
else
	bad "crs: a LIFE bar $w100 wide at 100 columns, $w60 at 60 (want 16, 8)"
fi
if [ "$(screen crs | sed 's/…/~/g' |
    awk '{ if (length($0) > 60) n++ } END { print n + 0 }')" \
    = 0 ]; then
	ok
else
	bad "crs: a line wider than the window"
	screen crs | sed "s/^/  | /"
fi
tm resize-window -t crs -x 100 -y 30
check crs '^ combat 1 \(GM Ref, crs rules\), round 2; initiative not drawn' \
    2000 "drawn again at 100 columns"
tm send-keys -t crs q
leaves crs

# NO_COLOR (any value, even empty): not one colour; Ctrl-C leaves.
session plain NO_COLOR= -- crs-combat watch
check plain 'round 2; initiative not drawn yet' 5000 "the board with NO_COLOR"
if colours plain; then
	bad "plain: colour escapes with NO_COLOR set"
	escapes plain | head -5 | cat -v | sed 's/^/  | /'
else
	ok
fi
tm send-keys -t plain C-c
leaves plain

# Force Battles: both boards, whose initiative, the change seen.
fb-duel sheet add Ann --side light --hand right >/dev/null
fb-duel sheet add Bob --side dark --hand left att=4 lightning=1 >/dev/null
fb-duel start Ann Bob >/dev/null
session fb -- fb-duel watch
check fb 'duel 1 on board default, round 1, before initiative' 5000 \
    "the duel"
check fb '^upper-left +#{3}\. 3 +#{3}\. 3 ' 2000 "both boards"
fb-duel round --init 5,2 --choose torso --pull Bob:center=2,left=1 \
    --hit 2,2 --block 4,4 >/dev/null
check fb 'round 2, before initiative' 2000 "round 2"
check fb 'Ann attacks torso: Hit Die 5 rolls' 2000 "the round's event"
# At 40 columns the table narrows and drops the touches, not its edge.
tm resize-window -t fb -x 40 -y 30
check fb '^center +#{3}\. 3 +#{3}\. 3$' 2000 "the boards at 40 columns"
if [ "$(screen fb | sed 's/…/~/g' | awk '{ if (length($0) > 40) n++ }
    END { print n + 0 }')" = 0 ]; then
	ok
else
	bad "fb: a line wider than 40 columns"
	screen fb | sed "s/^/  | /"
fi
tm send-keys -t fb q
leaves fb

# Battle Grounds: the board in its colours, the turn, the move seen.
cp "$top/tests/fixtures/bg/red.team" "$top/tests/fixtures/bg/blue.team" .
bg-board team add Red --file red.team >/dev/null
bg-board team add Blue --file blue.team >/dev/null
bg-board new Red Blue >/dev/null
session bg -- bg-board watch
check bg 'turn 1: Red to move' 5000 "the game"
if escapes bg | grep -q '48;5;196'; then
	ok
else
	bad "bg: no red square on a terminal of 256 colours"
fi
bg-board move Rogue a3 >/dev/null
check bg 'turn 2: Blue to move' 2000 "Blue's turn"
check bg 'Red moves Rogue from a2 to a3' 2000 "the move"
# At 40 columns the board narrows (names of two letters), no line wider.
tm resize-window -t bg -x 40 -y 40
check bg '^ 3 Ro1' 2000 "the board at 40 columns"
if [ "$(screen bg | sed 's/…/~/g' | awk '{ if (length($0) > 40) n++ }
    END { print n + 0 }')" = 0 ]; then
	ok
else
	bad "bg: a line wider than 40 columns"
	screen bg | sed "s/^/  | /"
fi
tm send-keys -t bg q
leaves bg

# On a server the boards listen for the notice every commit of a change
# sends (tools/pgstation.sql), rather than polling: each board's
# connection said LISTEN, and a listener gets a notice when a tool
# writes.
if [ "$mode" = pg ]; then
	n=$(grep -c 'statement: LISTEN refkit_change' "$pg_dir/log")
	[ "$n" -ge 3 ] && ok || bad "$n boards listened on the server, want 3 or more"
	{ echo 'LISTEN refkit_change;'; sleep 2; echo 'SELECT 1;'; } |
	    psql -X -d watch >"$tmp/listen.out" 2>&1 &
	listener=$!
	sleep 0.5
	crs-stats add Zed OR=1 DR=1 MIND=1 LIFE=1 IN=1 >/dev/null
	wait "$listener"
	grep -q 'Asynchronous notification "refkit_change"' "$tmp/listen.out" &&
	    ok || bad "no notice after a write: $(cat "$tmp/listen.out")"
fi

done_
