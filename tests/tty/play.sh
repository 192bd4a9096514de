#!/bin/sh
# play.sh BUILD-DIR: crs-combat play on a real terminal (issue #23): tmux
# runs it in a detached session; send-keys types as a GM would, and
# capture-pane reads the screen.  Checks the line editing (a word fixed
# in the middle of the line), the history (Up recalls a command), tab
# completion of commands and of names with a space in them, the short
# attack in at most 15 keystrokes recorded with the full names and the
# typed cards, undo saying once what it reversed, a refusal pointing to
# help COMMAND without the board again, help and help attack (issue #39),
# and Ctrl-D leaving with the ledger whole.  Ends with "N passed, N failed"; without tmux, SKIP.
set -u
B=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/lib/tally.sh"
tally tty/play
if ! command -v tmux >/dev/null 2>&1; then
	echo "SKIP: tty/play: no tmux (tools/install-deps.sh installs it)"
	tally_done
	exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/refkit-tty.XXXXXX")
sock="$dir/tmux"
t() { tmux -S "$sock" "$@"; }
cleanup() { t kill-server 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
export REFKIT_DB="$dir/refkit.db" HOME="$dir" LC_ALL=C.UTF-8 TERM=xterm-256color
unset NO_COLOR XDG_STATE_HOME
"$bin/crs-stats" add 'Grim, the Unbowed' OR=8 DR=10 MIND=6 LIFE=30 IN=3 \
    LB=1 >/dev/null
"$bin/crs-stats" add John OR=7 DR=9 MIND=5 LIFE=25 IN=2 >/dev/null
"$bin/crs-stats" add Mary OR=6 DR=8 MIND=5 LIFE=20 IN=1 >/dev/null

screen() { t capture-pane -p -t play -S -200; }
# wait_for TEXT: until the screen shows TEXT (fixed string), 10 s at most.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		screen | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# check WHAT TEXT: a check that the screen shows TEXT.
check() {
	if wait_for "$2"; then ok; else bad "$1: no '$2' on the screen"; screen | tail -15; fi
}
# capture-pane drops the blanks at the end of a line: no pattern ends in one.
tool=crs-combat
prompts() { screen | grep -c "^$tool>"; }
# after_prompt: waits for one more prompt than there were ($1).
after_prompt() {
	i=0
	while [ $i -lt 100 ]; do
		[ "$(prompts)" -gt "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	bad "no prompt came back"
}

t -f /dev/null new-session -d -s play -x 150 -y 50 \
    "$bin/crs-combat play; echo \"play left: \$?\"; sleep 600"
check "the prompt" "crs-combat>"

# Tab completes a command, then names from the roster (quoted).
n=$(prompts)
t send-keys -t play 'sta' Tab
check "the commands a word begins" "stance   start   status"
t send-keys -t play 'r' Tab
check "a command completed" "crs-combat> start"
t send-keys -t play 'gr' Tab 'jo' Tab 'ma' Tab
check "names completed" "start 'Grim, the Unbowed' John Mary"
t send-keys -t play Enter
check "the combat started" "starts: Grim, the Unbowed (LIFE 30)"
after_prompt "$n"

# Line editing: a typo fixed at the start of the line.
n=$(prompts)
t send-keys -t play 'xi grim=9 jo=4 mary=2' C-a C-d Enter
check "initiative after an edit" "initiative: Grim, the Unbowed 9 + IN 3 = 12"
after_prompt "$n"

# The typical attack with typed cards, counted in keystrokes.
keys='a grim jo 8 6'
count=$((${#keys} + 1))
if [ "$count" -le 15 ]; then ok; else bad "the attack takes $count keys"; fi
n=$(prompts)
t send-keys -t play "$keys" Enter
check "the attack" "Grim, the Unbowed attacks John: 8 + OR 8 = 16 against 6 + DR 9 = 15; hit for 1"
after_prompt "$n"
check "the board after it" "next to act: John"
row=$(sqlite3 "$REFKIT_DB" "SELECT actor, target, cards, virt, vs_cards, vs_virt FROM event WHERE action = 'attack'")
if [ "$row" = "Grim, the Unbowed|John|8|0|6|0" ]; then ok; else bad "the ledger holds '$row'"; fi

# History: Up recalls the last command, Ctrl-U drops it.
t send-keys -t play Up
check "history" "crs-combat> a grim jo 8 6"
t send-keys -t play C-u
# Tab lists several names.
t send-keys -t play 'p j' Tab
check "a unique fighter completed" "crs-combat> p John"
n=$(prompts)
t send-keys -t play Enter
after_prompt "$n"
# Undo, in one key, says what it reversed, once (issue #39).
n=$(prompts)
t send-keys -t play 'u' Enter
check "undo" "undid: "
after_prompt "$n"
undid=$(screen | grep -c "undid: ")
if [ "$undid" -eq 1 ] && ! screen | grep -q "undo would reverse"; then ok
else bad "u printed what it undid $undid times"; screen | tail -15; fi
# A refusal ends that command only; it points to help for the command
# and does not show the board again (issue #39).
boards=$(screen | grep -c "^NAME ")
n=$(prompts)
t send-keys -t play 'a grim zed 8 6' Enter
check "a refusal" "'zed' is not in this combat (in it: 'Grim, the Unbowed', 'John' and 'Mary')"
after_prompt "$n"
n=$(prompts)
t send-keys -t play 'a grim' Enter
check "a usage refusal points to play's help" "Type 'help attack' for its short form and options."
after_prompt "$n"
if [ "$(screen | grep -c "^NAME ")" -eq "$boards" ]; then ok
else bad "the board was shown again after a refusal"; screen | tail -15; fi
if screen | grep -q "Try 'crs-combat --help'"; then
	bad "a refusal in play points to --help"; else ok; fi
# help: the short forms with an example each, not the command line's
# usage; help attack: its options, short form and example; neither shows
# the board again.
boards=$(screen | grep -c "^NAME ")
n=$(prompts)
t send-keys -t play 'help' Enter
check "help" "Short forms, each with an example (help COMMAND for its options):"
check "help's attack" "a ATTACKER TARGET [CARD [VS-CARD]]  attack  a Fred John 10,6 9"
check "help's undo" "u [EVENT]                           undo    u"
after_prompt "$n"
if screen | grep -q -- "--db PATH"; then bad "help shows the command line's usage"
else ok; fi
n=$(prompts)
t send-keys -t play 'help attack' Enter
check "help attack: options" "[--vs-card LIST [--vs-special CARD]] [--mod N] [--vs-mod N]"
check "help attack: the short form" "short form: a ATTACKER TARGET [CARD [VS-CARD]]"
check "help attack: what it stands for" "is: attack Fred John --card 10,6 --vs-card 9"
after_prompt "$n"
if [ "$(screen | grep -c "^NAME ")" -eq "$boards" ]; then ok
else bad "the board was shown after help"; screen | tail -15; fi
# Ctrl-D leaves.
n=$(prompts)
t send-keys -t play C-d
check "Ctrl-D leaves" "play left: 0"
events=$(sqlite3 "$REFKIT_DB" "SELECT count(*) FROM event")
if [ "$events" -eq 8 ]; then ok; else bad "$events events, want 8"; screen | tail -30; fi
if "$bin/crs-combat" replay >/dev/null 2>&1; then ok; else bad "replay"; fi
if [ -s "$dir/.local/state/refkit/crs-combat.history" ]; then ok; else
	bad "no history file"; fi

# fb-duel play and bg-board play: the same prompt over their commands.
"$bin/fb-duel" sheet add Ann --side light --hand right >/dev/null
"$bin/fb-duel" sheet add Bob --side dark --hand left att=4 lightning=1 \
    >/dev/null
cp "$top/tests/fixtures/bg/red.team" "$top/tests/fixtures/bg/blue.team" "$dir"
"$bin/bg-board" team add Red --file "$dir/red.team" >/dev/null
"$bin/bg-board" team add Blue --file "$dir/blue.team" >/dev/null
for tool in fb-duel bg-board; do
	t kill-session -t play
	t new-session -d -s play -x 150 -y 50 \
	    "$bin/$tool play; echo \"play left: \$?\"; sleep 600"
	check "$tool's prompt" "$tool>"
	if [ $tool = fb-duel ]; then
		t send-keys -t play 'sta' Tab 'r' Tab 'an' Tab 'bo' Tab
		check "$tool: completed" "$tool> start Ann Bob"
		t send-keys -t play Enter
		check "$tool: the duel" "duel 1: Ann and Bob take their stances"
		check "$tool: the board after it" "before initiative"
		t send-keys -t play 'r --init 5,2 --choose torso --seed 7' Enter
		check "$tool: a round" "Initiative 5-2 (roll): Ann attacks."
	else
		t send-keys -t play 'new re' Tab 'bl' Tab Enter
		check "$tool: completed" "$tool> new Red Blue"
		check "$tool: the game" "game 1: Red against Blue"
		t send-keys -t play 'm rog' Tab 'a3' Enter
		check "$tool: a move" "Red moves Rogue from a2 to a3."
		check "$tool: the board after it" "turn 2: Blue to move."
	fi
	n=$(prompts)
	t send-keys -t play 'u' Enter
	check "$tool: undo" "undid event"
	if [ "$(screen | grep -c "undid event")" -eq 1 ] &&
	    ! screen | grep -q "undo would reverse"; then ok
	else bad "$tool: u did not say once what it undid"; fi
	after_prompt "$n"
	t send-keys -t play C-d
	check "$tool: Ctrl-D leaves" "play left: 0"
done

# Any screen (issue #39): the board play shows on a terminal 40, 60, 80
# and 120 columns wide drops columns, the least useful first, and wraps
# nothing; the melee is one line, a group.
tool=crs-combat
for w in 40 60 80 120; do
	# One session, resized and its command started again: a server
	# left without a session would exit under the next command.
	t resize-window -t play -x "$w" -y 50
	t respawn-pane -k -t play \
	    "$bin/crs-combat play; echo \"play left: \$?\"; sleep 600"
	t clear-history -t play
	check "$w columns: the prompt" "crs-combat>"
	check "$w columns: the melee as a group" "melee: Grim, the Unbowed, John"
	head=$(screen | grep '^NAME')
	case $w in
	40) want='NAME              LIFE      EM' ;;
	60) want='NAME              LIFE      EM          DR  STANCE DOWN' ;;
	80) want='NAME              LIFE      EM          DR  STANCE DOWN  INIT SET ASIDE' ;;
	*) want='NAME              LIFE      EM          DR  STANCE DOWN  INIT SET ASIDE      RESTORES' ;;
	esac
	if [ "$head" = "$want" ]; then ok; else
		bad "$w columns: the heading is '$head', want '$want'"; fi
	if [ "$(screen | wc -l)" = "$(t capture-pane -p -J -t play -S -200 |
	    wc -l)" ]; then ok; else
		bad "$w columns: a line wrapped"; screen | grep -v "^$" | sed "s/^/  | /"; fi
	t send-keys -t play C-d
	check "$w columns: Ctrl-D leaves" "play left: 0"
done
tally_done
