#!/bin/sh
# concurrency.sh BUILD-DIR [EVENTS]: 16 writers and 4 readers on one
# database file at once.
#
# Four combats; four writer processes per combat each append EVENTS/16
# events (a new round: Clean Up and the next round) with crs-combat, one
# process per event, as four GMs' laptops would; four readers meanwhile
# read history and every combat's log.  Checked: no command fails or
# prints anything on standard error (a busy database is waited for
# within the busy timeout, never shown); every event is there exactly
# once; each combat's seq runs 1..N without a gap; every log a reader saw
# was whole (its seqs 1..k, no gap); integrity_check; replay agrees.
set -u
B=$1
events=${2:-10000}
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export REFKIT_DB="$tmp/shared.db"
per=$((events / 16))
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); printf 'FAIL: concurrency: %s\n' "$1"; }

for c in 1 2 3 4; do
	"$bin/crs-stats" add "A$c" OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1 >/dev/null
	"$bin/crs-stats" add "B$c" OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2 >/dev/null
	"$bin/crs-combat" start "A$c" "B$c" >/dev/null
done

# Events a combat starts with (its start, and each fighter joining).
base=$(sqlite3 "$REFKIT_DB" 'SELECT count(*) FROM event WHERE combat_id = 1')

writer() {
	w=$1
	c=$((w % 4 + 1))
	n=0
	while [ "$n" -lt "$per" ]; do
		n=$((n + 1))
		"$bin/crs-combat" --combat "$c" round >/dev/null \
		    2>>"$tmp/writer$w.err" || echo "exit $?" >>"$tmp/writer$w.err"
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
	writer "$w" &
	pids="$pids $!"
	w=$((w + 1))
done
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

want=$((4 * per + base))
for c in 1 2 3 4; do
	got=$(sqlite3 "$REFKIT_DB" "SELECT count(*), count(DISTINCT seq),
	    min(seq), max(seq) FROM event WHERE combat_id = $c")
	[ "$got" = "$want|$want|1|$want" ] && ok ||
	    bad "combat $c: count|distinct|min|max = $got, want $want each"
done
ic=$(sqlite3 "$REFKIT_DB" 'PRAGMA integrity_check')
[ "$ic" = ok ] && ok || bad "integrity_check: $ic"
for c in 1 2 3 4; do
	"$bin/crs-combat" replay "$c" 2>&1 | grep -q ' 0 mismatches$' && ok ||
	    bad "combat $c: replay disagrees"
done
echo "concurrency: $((16 * per)) events by 16 writers, $reads reader passes" >&2
echo "$pass passed, $fail failed"
