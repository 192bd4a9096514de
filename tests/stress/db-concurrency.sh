#!/bin/sh
# db-concurrency.sh BUILD-DIR [EVENTS]: 20 writers and 4 readers on one
# database file at once, driving every kind of ledger write.
#
# Four CRS combats: one with a writer of its own, three shared by five
# writers each, as GMs' laptops at one table would; each of the 16 CRS
# writers runs EVENTS/16 commands cycling through join, init, attack,
# mental, pass, undo and round (one process per command); the lone writer
# of combat 1 has each of them accepted, whatever the interleaving.  Two writers
# share a Force Battles duel (round, undo) and three play Battle Grounds
# (pass, undo): two on one game, one alone on another.  Four readers
# meanwhile read history and every combat's log.  A command may be
# refused by the rules (another GM moved first: "has already acted"),
# which is exit 1 with a rule's message; anything else (a database
# error, "locked", a usage error, a crash) fails the test.  Checked:
# every accepted command is in its ledger exactly once (events = those
# there before + commands accepted); each log's seq runs 1..N without a
# gap (count, distinct count and max agree); every log a reader saw was
# whole; integrity_check; replay agrees; fb-duel and bg-board derive
# their state.
set -u
B=$1
events=${2:-10000}
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export REFKIT_DB="$tmp/shared.db"
per=$((events / 16))
. "$top/tests/lib/tally.sh"
tally stress/db-concurrency
q() { sqlite3 "$REFKIT_DB" "$1"; }

for c in 1 2 3 4; do
	"$bin/crs-stats" add "A$c" OR=8 DR=12 MIND=4 LIFE=100000 IN=4 \
	    LB=1 >/dev/null
	"$bin/crs-stats" add "B$c" OR=6 DR=6 MIND=7 LIFE=100000 IN=2 \
	    LB=2 >/dev/null
	"$bin/crs-stats" add "C$c" OR=5 DR=5 MIND=5 LIFE=100000 IN=1 \
	    >/dev/null
	"$bin/crs-combat" start "A$c" "B$c" >/dev/null
done
"$bin/fb-duel" sheet add Ann --side light --hand right >/dev/null
"$bin/fb-duel" sheet add Bob --side dark --hand left >/dev/null
"$bin/fb-duel" start Ann Bob >/dev/null
cp "$top/tests/fixtures/bg/red.team" "$top/tests/fixtures/bg/blue.team" "$tmp"
"$bin/bg-board" team add Red --file "$tmp/red.team" >/dev/null
"$bin/bg-board" team add Blue --file "$tmp/blue.team" >/dev/null
"$bin/bg-board" new Red Blue >/dev/null
"$bin/bg-board" new Red Blue >/dev/null

# What each log held before the writers started.
for c in 1 2 3 4; do
	echo "$(q "SELECT count(*) FROM event WHERE combat_id % 2147483648 = $c")" \
	    >"$tmp/base.crs$c"
done
q 'SELECT count(*) FROM fb_event WHERE duel_id % 2147483648 = 1' >"$tmp/base.fb1"
for g in 1 2; do
	q "SELECT count(*) FROM bg_event WHERE game_id % 2147483648 = $g" >"$tmp/base.bg$g"
done

# attempt W LOG CMD...: runs one command; an accepted one is counted for
# LOG, a refusal by the rules is allowed, anything else is kept as an
# error of writer W.
attempt() {
	w=$1
	log=$2
	shift 2
	"$@" >/dev/null 2>"$tmp/w$w.stderr"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		echo x >>"$tmp/ok.$log.$w"
		return
	fi
	if [ "$rc" -ne 1 ] || grep -qiE 'database|locked|busy|disk|damaged|cannot (start|commit|prepare|open|read)' \
	    "$tmp/w$w.stderr"; then
		echo "exit $rc: $(head -1 "$tmp/w$w.stderr")" >>"$tmp/writer$w.err"
	fi
}

crs_writer() {
	w=$1
	c=$2
	n=0
	while [ "$n" -lt "$per" ]; do
		n=$((n + 1))
		k=$(((n + w) % 7))
		# Writer 0, alone on combat 1, meets this cycle in order
		# (join, init, attack, mental, pass, undo, round) and has
		# every kind accepted; the shared combats get what the
		# interleaving allows.
		case $k in
		0) set -- round ;;
		1) set -- join "C$c" ;;
		2) set -- init "A$c=5" "B$c=3" "C$c=1" ;;
		3) set -- attack "A$c" "B$c" --card 5 --vs-card 3 ;;
		4) set -- mental "B$c" "A$c" --kind attack --card 4 --vs-card 2 ;;
		5) set -- pass "C$c" ;;
		6) set -- undo ;;
		esac
		attempt "$w" "crs$c" "$bin/crs-combat" --combat "$c" "$@"
	done
}

fb_writer() {
	w=$1
	n=0
	while [ "$n" -lt $((per / 2)) ]; do
		n=$((n + 1))
		if [ $((n % 3)) -eq 0 ]; then
			attempt "$w" fb1 "$bin/fb-duel" undo
		else
			attempt "$w" fb1 "$bin/fb-duel" round --seed "$w$n"
		fi
	done
}

bg_writer() {
	w=$1
	g=$2
	n=0
	while [ "$n" -lt $((per / 2)) ]; do
		n=$((n + 1))
		if [ $((n % 3)) -eq 0 ]; then
			attempt "$w" "bg$g" "$bin/bg-board" --game "$g" undo
		else
			attempt "$w" "bg$g" "$bin/bg-board" --game "$g" pass
		fi
	done
}

reader() {
	r=$1
	while [ ! -f "$tmp/done" ]; do
		"$bin/crs-combat" history >/dev/null 2>>"$tmp/reader$r.err" ||
		    echo "history exit $?" >>"$tmp/reader$r.err"
		for c in 1 2 3 4; do
			"$bin/crs-combat" --combat "$c" log --csv \
			    >"$tmp/log$r" 2>>"$tmp/reader$r.err" ||
			    echo "log exit $?" >>"$tmp/reader$r.err"
			# Whole: seq (the first column) is 1, 2, ... k.
			awk -F, 'NR > 1 && $1 != NR - 1 { bad = 1 }
			    END { exit bad }' "$tmp/log$r" ||
			    echo "combat $c: a log with a gap" >>"$tmp/reader$r.err"
		done
		echo x >>"$tmp/reads$r"
	done
}

for r in 1 2 3 4; do reader "$r" & done
pids=
w=0
while [ "$w" -lt 16 ]; do
	# Combat 1 has writer 0 alone; 2, 3 and 4 have five writers each.
	crs_writer "$w" $((w == 0 ? 1 : (w - 1) / 5 + 2)) &
	pids="$pids $!"
	w=$((w + 1))
done
fb_writer 16 & pids="$pids $!"
fb_writer 17 & pids="$pids $!"
bg_writer 18 1 & pids="$pids $!"
bg_writer 19 1 & pids="$pids $!"
bg_writer 20 2 & pids="$pids $!"
# shellcheck disable=SC2086
wait $pids
touch "$tmp/done"
wait

errs=$(cat "$tmp"/writer*.err 2>/dev/null | sort | uniq -c | head -5)
[ -z "$errs" ] && ok || bad "writers said: $errs"
errs=$(cat "$tmp"/reader*.err 2>/dev/null | sort | uniq -c | head -5)
[ -z "$errs" ] && ok || bad "readers said: $errs"
reads=$(cat "$tmp"/reads* 2>/dev/null | wc -l)
[ "$reads" -gt 0 ] && ok || bad "the readers never finished a pass"

# accepted LOG: how many commands were accepted for LOG.
accepted() { cat "$tmp"/ok."$1".* 2>/dev/null | wc -l; }
# gapless LOG TABLE KEY ID: every accepted command once, seq 1..N.
gapless() {
	want=$(($(cat "$tmp/base.$1") + $(accepted "$1")))
	got=$(q "SELECT count(*), count(DISTINCT seq), min(seq), max(seq)
	    FROM $2 WHERE $3 % 2147483648 = $4")
	[ "$got" = "$want|$want|1|$want" ] && ok ||
	    bad "$1: count|distinct|min|max = $got, want $want each"
}
total=0
for c in 1 2 3 4; do
	gapless "crs$c" event combat_id "$c"
	total=$((total + $(accepted "crs$c")))
done
gapless fb1 fb_event duel_id 1
gapless bg1 bg_event game_id 1
gapless bg2 bg_event game_id 2
# Each kind of write was accepted in combat 1, whose lone writer meets
# them in an order the rules allow (the shared combats may refuse any).
for a in join initiative attack mental pass undo round; do
	n=$(q "SELECT count(*) FROM event
	    WHERE combat_id % 2147483648 = 1 AND action = '$a' AND seq > 3")
	[ "$n" -gt 0 ] && ok || bad "no '$a' event was written"
done
for t in fb_event bg_event; do
	n=$(q "SELECT count(DISTINCT action) FROM $t")
	[ "$n" -ge 2 ] && ok || bad "$t holds only $n kinds of event"
done
ic=$(q 'PRAGMA integrity_check')
[ "$ic" = ok ] && ok || bad "integrity_check: $ic"
for c in 1 2 3 4; do
	"$bin/crs-combat" replay "$c" 2>&1 | grep -q ' 0 mismatches$' && ok ||
	    bad "combat $c: replay disagrees"
done
# Every ledger's hash chain holds, however the writers took turns.
out=$("$bin/refkit" verify --no-replay 2>&1) && ok ||
    bad "refkit verify: $(printf '%s\n' "$out" | tail -3)"
"$bin/fb-duel" status >/dev/null 2>&1 && ok || bad "fb-duel status failed"
for g in 1 2; do
	"$bin/bg-board" --game "$g" show --plain >/dev/null 2>&1 && ok ||
	    bad "bg-board game $g: show failed"
done
all=$((total + $(accepted fb1) + $(accepted bg1) + $(accepted bg2)))
echo "stress/db-concurrency: $all events accepted from 21 writers ($total CRS), $reads reader passes" >&2
tally_done
