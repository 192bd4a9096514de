#!/bin/sh
# db-crash.sh BUILD-DIR [CRASHES]: the PostgreSQL server killed under a
# stream of writes (issue #22).  A private server listening on 127.0.0.1
# as well (tests/pg/server.sh); four GMs connect over TCP with a password
# and each appends to a combat of its own, one command per process, over
# and over (init, attack, undo, attack, a two-target Intimidation, pass,
# round), each naming its GM "wW.N.E" (writer W, command N, E events) so
# that every event stored can be traced to its command.
#
# The server is stopped CRASHES times (default 4) with pg_ctl stop -m
# immediate: its processes killed at once, with no checkpoint, so that it
# starts again by recovery from its write-ahead log, as after a crash.
# (The kernel keeps what the server wrote; a lost disk cache is the
# server's own fsync to survive, which the test server skips, -F.)  Every
# other time, a psql session first locks the table history_combat, so
# that the GMs' attacks wait inside their write (the event inserted, not
# committed) and the crash is sure to find commands half-way; the other
# times it lands wherever the stream is.  Each stop lasts until every GM
# has seen a command fail, each start until every GM has had three
# accepted again.  A GM whose command lost the connection while
# committing does as its line says: it reads the log to see whether the
# command was written.
#
# Checked: every command that failed said so in one line, with exit 1,
# and one of the lines a GM can meet here (cannot connect: refused or the
# server starting up or shutting down; the connection lost, nothing
# written; the connection lost while committing); every command that
# succeeded (exit 0) has all its E events stored, and no command that
# failed has any (one whose connection was lost while committing may be
# either way: the line says so, and which way it went is counted); the
# crashes found commands inside their write; each combat's seq runs 1..N
# without a gap, and replay agrees.
set -u
B=$1
crashes=${2:-4}
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"
pg_setup db-crash tcp
tmp=$PG_WORK
pg_tcp_db gm || { bad "CREATE DATABASE"; exit 1; }
shown=$PG_SHOWN
for c in 1 2 3 4; do
	"$bin/crs-stats" add "A$c" OR=8 DR=12 MIND=4 LIFE=100000 IN=4 \
	    LB=1 >/dev/null &&
	"$bin/crs-stats" add "B$c" OR=6 DR=6 MIND=7 LIFE=100000 IN=2 \
	    LB=2 >/dev/null &&
	"$bin/crs-stats" add "C$c" OR=5 DR=5 MIND=5 LIFE=100000 IN=1 \
	    >/dev/null &&
	"$bin/crs-combat" start "A$c" "B$c" "C$c" >/dev/null ||
	    bad "setting up combat $c"
done

# writer W: GM W on combat W until told to stop.  Each command is a line
# of its log: its tag, its exit status, how many lines it wrote on
# stderr, and the first.
writer() {
	w=$1
	n=0
	k=0
	while [ ! -f "$tmp/stop" ]; do
		n=$((n + 1))
		e=1
		case $k in
		0) set -- init "A$w=5" "B$w=3" "C$w=2" ;;
		1|3) set -- attack "A$w" "B$w" --card 5 --vs-card 3 ;;
		2) set -- undo ;;
		4) set -- mental "B$w" "A$w" "C$w" --kind intimidation \
		    --card 2 --vs-card 9/9
		   e=2 ;;
		5) set -- pass "C$w" ;;
		6) set -- round ;;
		esac
		PGAPPNAME=writer "$bin/crs-combat" --combat "$w" \
		    --gm "w$w.$n.$e" "$@" >/dev/null 2>"$tmp/w$w.stderr"
		rc=$?
		# The whole of stderr on the line, lines joined by " | ".
		printf '%s\t%s\t%s\t%s\n' "w$w.$n.$e" "$rc" \
		    "$(wc -l <"$tmp/w$w.stderr")" \
		    "$(sed ':a;N;s/\n/ | /;ba' "$tmp/w$w.stderr")" >>"$tmp/log.$w"
		if [ "$rc" -ne 0 ] && grep -q 'while committing' "$tmp/w$w.stderr"
		then
			echo x >>"$tmp/failed.$w"
			# As the line says: whether it was written, the log
			# tells, once the server is back.
			until [ -f "$tmp/stop" ] ||
			    "$bin/crs-combat" --combat "$w" log --csv \
			    >"$tmp/w$w.log" 2>/dev/null; do
				sleep 0.1
			done
			if grep -q ",w$w\.$n\.$e," "$tmp/w$w.log"; then
				k=$(((k + 1) % 7))
			fi
		elif [ "$rc" -eq 0 ]; then
			echo x >>"$tmp/ok.$w"
			k=$(((k + 1) % 7))
		else
			echo x >>"$tmp/failed.$w"
			# The command goes again once the server is back:
			# the rules need it next.  A pause, not to spin while
			# the server is down.
			sleep 0.1
		fi
	done
}

# count FILE: its lines, 0 when there is none.
count() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }

# until_each KIND N WHAT: until every GM has N more lines of KIND (ok or
# failed) than at the mark; bounded, so that a stuck stream fails the
# test instead of hanging it.
mark() { for w in 1 2 3 4; do eval "mark$w=\$(count \"\$tmp/\$1.\$w\")"; done; }
until_each() {
	i=0
	while :; do
		short=0
		for w in 1 2 3 4; do
			eval "m=\$mark$w"
			[ "$(count "$tmp/$1.$w")" -ge $((m + $2)) ] || short=1
		done
		[ "$short" -eq 0 ] && return 0
		i=$((i + 1))
		if [ "$i" -gt 1200 ]; then
			bad "the GMs never $3"
			return 1
		fi
		sleep 0.1
	done
}

for w in 1 2 3 4; do writer "$w" & done
half_way=0
r=0
while [ "$r" -lt "$crashes" ]; do
	r=$((r + 1))
	mark ok
	until_each ok 3 "had three commands accepted" || break
	if [ $((r % 2)) -eq 1 ]; then
		# (A psql session holds the lock until the crash ends it.)
		pg_hold gm "LOCK TABLE history_combat IN EXCLUSIVE MODE"
		# A GM's attack has inserted its event and waits for the
		# table.
		pg_wait_for "no GM waited inside its write" gm "SELECT
		    count(*) > 0 FROM pg_stat_activity a
		    JOIN pg_locks l ON l.pid = a.pid
		    JOIN pg_class c ON c.oid = l.relation
		    WHERE a.application_name = 'writer'
		    AND a.wait_event_type = 'Lock' AND c.relname = 'event'
		    AND l.mode = 'RowExclusiveLock' AND l.granted"
		half_way=$((half_way + 1))
	fi
	mark failed
	pg_crash || bad "pg_ctl stop -m immediate failed"
	if [ $((r % 2)) -eq 1 ]; then
		pg_release ''
	fi
	until_each failed 1 "saw the server down"
	pg_resume || break
done
mark ok
until_each ok 3 "had three commands accepted after the last start"
touch "$tmp/stop"
wait

cat "$tmp"/log.* >"$tmp/all"
# Every failure: exit 1, one line, one of these.
lines="^crs-combat: (cannot connect to '$shown': (Connection refused|\
the database system is (starting up|shutting down|not yet accepting \
connections|in recovery mode)|server closed the connection unexpectedly)|\
(cannot [a-z ]+|$shown): the connection to the server was lost; nothing \
of this command was written|cannot commit: the connection to the server \
was lost while committing; whether this command was written, its log \
tells)$"
awk -F'\t' '$2 != 0' "$tmp/all" >"$tmp/failed"
odd=$(awk -F'\t' '$2 != 1 || $3 != 1' "$tmp/failed" | head -3)
[ -z "$odd" ] && ok || bad "failed otherwise than one line and exit 1: $odd"
odd=$(cut -f4 "$tmp/failed" | grep -Ev "$lines" | sort | uniq -c | head -3)
[ -z "$odd" ] && ok || bad "failed with: $odd"

# What is stored, against what the GMs were told.
pg_q gm "SELECT gm || ' ' || count(*) FROM event WHERE gm IS NOT NULL
    GROUP BY gm" | sort >"$tmp/stored"
awk -F'\t' '$2 == 0 { split($1, p, "."); print $1 " " p[3] }' "$tmp/all" |
    sort >"$tmp/succeeded"
missing=$(comm -23 "$tmp/succeeded" "$tmp/stored" | head -3)
[ -z "$missing" ] && ok || bad "succeeded, not stored as such: $missing"
grep 'while committing' "$tmp/failed" | cut -f1 | sort >"$tmp/unsure"
awk -F'\t' '$2 != 0 { print $1 }' "$tmp/all" | sort >"$tmp/failed.tags"
cut -d' ' -f1 "$tmp/stored" | sort >"$tmp/stored.tags"
written=$(comm -12 "$tmp/failed.tags" "$tmp/stored.tags" |
    comm -23 - "$tmp/unsure" | head -3)
[ -z "$written" ] && ok || bad "failed, yet stored: $written"
unsure_in=$(comm -12 "$tmp/unsure" "$tmp/stored.tags" | wc -l)
# Each lost-while-committing command that was stored has all its events.
partial=$(comm -12 "$tmp/unsure" "$tmp/stored.tags" | while read -r t; do
	grep "^$t " "$tmp/stored" | awk '{ split($1, p, "."); if ($2 != p[3]) print }'
done)
[ -z "$partial" ] && ok || bad "stored in part: $partial"

# The crashes found commands inside their write, and each said so.
lost=$(grep -c 'was lost; nothing of this command was written' "$tmp/failed")
[ "$lost" -ge "$half_way" ] && [ "$half_way" -ge 1 ] && ok ||
    bad "$lost commands lost the connection mid-command, want $half_way or more"
for c in 1 2 3 4; do
	got=$(pg_q gm "SELECT count(*) = max(seq) AND count(DISTINCT seq) = count(*)
	    AND min(seq) = 1 FROM event WHERE combat_id % 2147483648 = $c")
	[ "$got" = t ] && ok || bad "combat $c: seq is not 1..N"
	"$bin/crs-combat" replay "$c" 2>&1 | grep -q ' 0 mismatches$' && ok ||
	    bad "combat $c: replay disagrees"
done
# The hash chains hold across the crashes.
out=$("$bin/refkit" verify --no-replay 2>&1) && ok ||
    bad "refkit verify: $(printf '%s\n' "$out" | tail -3)"
echo "pg/db-crash: $r crashes, $(wc -l <"$tmp/succeeded") commands succeeded," \
    "$(wc -l <"$tmp/failed") failed ($lost mid-command;" \
    "$(wc -l <"$tmp/unsure") while committing, $unsure_in of them stored)" >&2
tally_done
