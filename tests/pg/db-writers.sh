#!/bin/sh
# db-writers.sh BUILD-DIR [EVENTS]: many GMs on one PostgreSQL server at once
# (issue #22).  A private server listening on 127.0.0.1 as well
# (tests/pg/server.sh), where the tools connect over TCP with a URI that
# carries the password (SCRAM-SHA-256), as a GM's laptop at a convention
# would.
#
# Sixteen GM processes append EVENTS events (default 10,000) to ten CRS
# combats: ten combats have a GM each, and two are shared by three GMs
# each.  Every GM runs one command per process until it has had EVENTS/16
# events accepted.  A lone GM cycles through init, attack, undo, attack, a
# two-target Intimidation (two events of one command), pass and round, an
# order the rules allow, so every one of its commands must be accepted.
# In a shared combat another GM may have moved first, and the rules
# refuse (exit 1 with a rule's line); its GMs cycle through range, init,
# attack, Intimidation, round and undo, and answer a refusal with what
# the rules ask for.  Each command names its GM as "wW.N.E": writer W,
# command N, E events, so that every event in the database can be traced
# to the command that wrote it.  Meanwhile four readers, over TCP too,
# read a combat's log and status and the history, pass after pass.
#
# Checked: every command is one line on stderr at most, and a refusal is
# a rule's (never "could not serialize", a lost connection or any other
# error of the database); the readers never fail and never see part of a
# command (every GM tag in a log has all its E events) nor a gap; the GM
# tags in the database are exactly those of the accepted commands, each
# with its E events, and their sum is EVENTS; each combat's seq runs 1..N
# without a gap (count, distinct count and max agree); replay agrees.
set -u
B=$1
events=${2:-10000}
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"
quota=$((events / 16))
combats='1 2 3 4 5 6 7 8 9 10 11 12'

pg_setup db-writers tcp
tmp=$PG_WORK
pg_tcp_db gm || { bad "CREATE DATABASE"; exit 1; }

for c in $combats; do
	"$bin/crs-stats" add "A$c" OR=8 DR=12 MIND=4 LIFE=100000 IN=4 \
	    LB=1 >/dev/null &&
	"$bin/crs-stats" add "B$c" OR=6 DR=6 MIND=7 LIFE=100000 IN=2 \
	    LB=2 >/dev/null &&
	"$bin/crs-stats" add "C$c" OR=5 DR=5 MIND=5 LIFE=100000 IN=1 \
	    >/dev/null &&
	"$bin/crs-combat" --gm setup start "A$c" "B$c" "C$c" >/dev/null ||
	    bad "setting up combat $c"
done
base=$(pg_q gm 'SELECT count(*) FROM event')

# hint: after a refusal in combat $c whose line is $l1, the command the
# rules ask for, as a GM at the table would answer it (k, and who is the
# one to join); false for a line that is not one of the rules' refusals
# that a shared combat meets.
hint() {
	# A refusal names its combat: "crs-combat: combat 11: ...".
	l1=${l1#"crs-combat: combat $c: "}
	l1="crs-combat: $l1"
	case $l1 in
	"crs-combat: no initiative yet"*) k=0 ;;
	"crs-combat: initiative is already drawn"*) k=1 ;;
	"crs-combat: 'A$c' has already acted"*) k=4 ;;
	"crs-combat: 'B$c' has already acted"*) k=5 ;;
	"crs-combat: 'C$c' has already acted"*) k=6 ;;
	*"'A$c' acts or passes first"*) k=1 ;;
	*"'B$c' acts or passes first"*) k=4 ;;
	*"'C$c' acts or passes first"*) k=5 ;;
	"crs-combat: 'A$c' is not in this combat"|\
	"crs-combat: 'A$c' draws no initiative"*) k=7 who=A ;;
	"crs-combat: 'B$c' is not in this combat"|\
	"crs-combat: 'B$c' draws no initiative"*) k=7 who=B ;;
	"crs-combat: 'C$c' is not in this combat"|\
	"crs-combat: 'C$c' draws no initiative"*) k=7 who=C ;;
	"crs-combat: '"*"' is "*" ft from '"*"': short range needs 5 ft"*) k=8 ;;
	"crs-combat: '"*"' is already in this combat"|\
	"crs-combat: distances are set at the start of a round"*|\
	"crs-combat: combat "*" has nothing left to undo"|\
	"crs-combat: event "*" which cannot be undone") k=6 ;;
	*) return 1 ;;
	esac
}

# writer W C: GM W on combat C, until QUOTA events of its are accepted.
# A lone GM meets its cycle (init, attack, undo, attack, Intimidation,
# pass, round) in an order the rules allow.  The GMs of a shared combat
# cycle through range, init, attack, Intimidation, round and undo, and
# answer a refusal with what the rules ask for (after three refusals in a
# row, with a new round, which is always accepted).  The loop runs no
# program but the tool, so that the test's time is the tool's.
writer() {
	w=$1
	c=$2
	n=0
	got=0
	i=0
	next=
	who=C
	refused=0
	while [ "$got" -lt "$quota" ]; do
		n=$((n + 1))
		if [ "$n" -gt $((quota * 10)) ]; then
			echo "gave up after $n commands" >>"$tmp/writer$w.err"
			return
		fi
		if [ -n "$next" ]; then
			k=$next
		elif [ "$c" -le 10 ]; then
			k=$i
		else
			case $i in
			0) k=8 ;; 1) k=0 ;; 2) k=1 ;; 3) k=4 ;; 4) k=6 ;; 5) k=2 ;;
			esac
		fi
		[ "$refused" -lt 3 ] || k=6
		next=
		e=1
		case $k in
		0) set -- init "A$c=5" "B$c=3" "C$c=2" ;;
		1|3) set -- attack "A$c" "B$c" --card 5 --vs-card 3 ;;
		2) set -- undo ;;
		4) if [ $((quota - got)) -ge 2 ]; then
			set -- mental "B$c" "A$c" "C$c" --kind intimidation \
			    --card 2 --vs-card 9/9
			e=2
		   else
			set -- mental "B$c" "C$c" --kind intimidation \
			    --card 2 --vs-card 9
		   fi ;;
		5) set -- pass "C$c" ;;
		6) set -- round ;;
		# In a shared combat another GM's undo may take a join
		# away, and one who joins again is far from the others.
		7) set -- join "$who$c" ;;
		8) set -- range "A$c" "B$c" 5 ;;
		esac
		"$bin/crs-combat" --combat "$c" --gm "w$w.$n.$e" "$@" \
		    >/dev/null 2>"$tmp/w$w.stderr"
		rc=$?
		l1= l2=
		{ read -r l1; read -r l2; } <"$tmp/w$w.stderr"
		if [ "$rc" -eq 0 ] && [ ! -s "$tmp/w$w.stderr" ]; then
			echo "w$w.$n.$e" >>"$tmp/ok.$w"
			got=$((got + e))
			refused=0
			i=$(((i + 1) % (c <= 10 ? 7 : 6)))
		elif [ "$rc" -eq 1 ] && [ -z "$l2" ] && [ "$c" -gt 10 ] && hint
		then
			echo x >>"$tmp/refused.$w"
			refused=$((refused + 1))
			next=$k
		else
			echo "$1: exit $rc: $l1${l2:+ | $l2}" >>"$tmp/writer$w.err"
			i=$(((i + 1) % (c <= 10 ? 7 : 6)))
		fi
	done
}

# reader R: a combat's log, whole and gapless, its status and the history,
# pass after pass until the writers are done, every other pass on a
# shared combat; a pause after each leaves the processors to the writers.
reader() {
	r=$1
	p=0
	while [ ! -f "$tmp/done" ]; do
		p=$((p + 1))
		if [ $((p % 2)) -eq 1 ]; then
			c=$((11 + (p / 2 + r) % 2))
		else
			c=$(((p + r) % 10 + 1))
		fi
		"$bin/crs-combat" --combat "$c" log --csv \
		    >"$tmp/log$r" 2>>"$tmp/reader$r.err" ||
		    echo "log exit $?" >>"$tmp/reader$r.err"
		# seq (column 1) is 1, 2, ... k; a tag wW.N.E (column 20) is
		# there E times.
		awk -F, 'NR > 1 && $1 != NR - 1 { bad = "a gap" }
		    NR > 1 && $20 != "" && $20 != "setup" { n[$20]++ }
		    END {
			for (g in n) {
				split(g, p, ".")
				if (n[g] != p[3])
					bad = g " had " n[g] " events"
			}
			if (bad != "") { print bad; exit 1 }
		    }' "$tmp/log$r" >"$tmp/check$r" ||
		    echo "combat $c: $(cat "$tmp/check$r")" >>"$tmp/reader$r.err"
		"$bin/crs-combat" --combat "$c" status >/dev/null \
		    2>>"$tmp/reader$r.err" ||
		    echo "status exit $?" >>"$tmp/reader$r.err"
		"$bin/crs-combat" history >/dev/null 2>>"$tmp/reader$r.err" ||
		    echo "history exit $?" >>"$tmp/reader$r.err"
		echo x >>"$tmp/reads$r"
		sleep 5
	done
}

for r in 1 2 3 4; do reader "$r" & done
pids=
w=0
while [ "$w" -lt 16 ]; do
	# Combats 1 to 10 have a GM each; 11 and 12 three GMs each.
	writer "$w" $((w < 10 ? w + 1 : (w - 10) / 3 + 11)) &
	pids="$pids $!"
	w=$((w + 1))
done
# shellcheck disable=SC2086
wait $pids
touch "$tmp/done"
wait

errs=$(cat "$tmp"/writer*.err 2>/dev/null | sort | uniq -c | sort -rn | head -5)
[ -z "$errs" ] && ok || bad "writers said: $errs"
errs=$(cat "$tmp"/reader*.err 2>/dev/null | sort | uniq -c | sort -rn | head -5)
[ -z "$errs" ] && ok || bad "readers said: $errs"
reads=$(cat "$tmp"/reads* 2>/dev/null | wc -l)
[ "$reads" -gt 0 ] && ok || bad "the readers never finished a pass"

# What the writers say they wrote, against what the database holds.
cat "$tmp"/ok.* 2>/dev/null | sort >"$tmp/said"
said=$(awk -F. '{ s += $3 } END { print s + 0 }' "$tmp/said")
[ "$said" -eq $((quota * 16)) ] && ok ||
    bad "the writers had $said events accepted, want $((quota * 16))"
pg_q gm "SELECT gm || ' ' || count(*) FROM event WHERE gm <> 'setup'
    GROUP BY gm ORDER BY gm" | sort >"$tmp/stored"
awk -F. '{ print $0 " " $3 }' "$tmp/said" | sort >"$tmp/want"
if cmp -s "$tmp/want" "$tmp/stored"; then
	ok
else
	bad "the events stored are not those accepted: $(diff "$tmp/want" \
	    "$tmp/stored" | grep '^[<>]' | head -3 | tr '\n' ' ')"
fi
total=$(pg_q gm 'SELECT count(*) FROM event')
[ "$total" -eq $((base + said)) ] && ok ||
    bad "$total events, want $base before plus $said"
for c in $combats; do
	got=$(pg_q gm "SELECT count(*) = max(seq) AND count(DISTINCT seq) = count(*)
	    AND min(seq) = 1 FROM event WHERE combat_id % 2147483648 = $c")
	[ "$got" = t ] && ok || bad "combat $c: seq is not 1..N"
	"$bin/crs-combat" replay "$c" 2>&1 | grep -q ' 0 mismatches$' && ok ||
	    bad "combat $c: replay disagrees"
done
# Every ledger's hash chain holds, however the GMs took turns.
out=$("$bin/refkit" verify --no-replay 2>&1) && ok ||
    bad "refkit verify: $(printf '%s\n' "$out" | tail -3)"
# The lone GMs' cycle meets every kind of write.
for a in initiative attack undo mental pass round; do
	n=$(pg_q gm "SELECT count(*) FROM event WHERE combat_id % 2147483648 = 1
	    AND action = '$a'")
	[ "$n" -gt 0 ] && ok || bad "no '$a' event was written"
done
shared=$(awk -F. '{ w = substr($1, 2) + 0 } w >= 10 { s += $3 }
    END { print s + 0 }' "$tmp/said")
echo "pg/db-writers: $said events from 16 GMs over TCP ($shared in shared" \
    "combats), $(cat "$tmp"/refused.* 2>/dev/null | wc -l) refused by the rules," \
    "$reads reader passes" >&2
tally_done
