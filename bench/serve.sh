#!/bin/sh
# serve.sh BUILD-DIR OUT-DIR: refkit serve, the player view (issue #41).
#  1. 500 viewers (SERVE_VIEWERS) of one combat's stream of events, one
#     connection each (bench/viewers.py, one thread over epoll); a GM's
#     attack; the time from the command's end until the first and until
#     the last viewer has the new board.  Target: the last under 250 ms.
#     And the server's resident memory before the viewers and with them:
#     what a viewer costs (round 1's; in the later rounds the streams of
#     the round before, closed by their viewers, are still parked until
#     the next change or keep-alive wakes them and they are found closed,
#     and count too).  Three rounds, each quoted.
#  2. Requests a second for a board page, against the floor of a static
#     file (the page's style sheet) served by the same server, the same
#     library, in the same run: ApacheBench (Debian's apache2-utils),
#     SERVE_CLIENTS (8) connections kept alive, SERVE_SECONDS (5) each,
#     alternating, best of three.  Target: the board at least 0.5 of the
#     static file.  The board is drawn once per change of the database
#     and kept: what a page costs while nothing changes.
set -eu
B=$1
out=$2
top=${top:?}
bin="$top/$B"
n=${SERVE_VIEWERS:-500}
clients=${SERVE_CLIENTS:-8}
secs=${SERVE_SECONDS:-5}
db="$out/serve.db"
rm -f "$db" "$db-wal" "$db-shm"
export REFKIT_DB="$db" REFKIT_GM=Ref
"$bin/crs-stats" add Ann OR=8 DR=10 MIND=6 LIFE=100000 IN=3 LB=2 >/dev/null
"$bin/crs-stats" add Bob OR=7 DR=9 MIND=5 LIFE=100000 IN=1 LB=2 >/dev/null
"$bin/crs-combat" start Ann Bob >/dev/null
"$bin/crs-combat" init Ann=9 Bob=2 >/dev/null
key=$("$bin/crs-combat" --json list | sed -n 's/.*"combat":"*\([0-9a-f-]*\)"*,.*/\1/p')

"$bin/refkit" serve --listen 127.0.0.1:0 >"$out/serve.out" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null' EXIT
i=0
until grep -q '^serving on ' "$out/serve.out" 2>/dev/null || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
url=$(sed -n 's/^serving on \(http:[^ ]*\).*/\1/p' "$out/serve.out")
port=${url##*:}
port=${port%%/*}
rss0=$(awk '/^VmRSS:/ { print $2 }' "/proc/$server/status")

echo "refkit serve: $n viewers of one combat's stream, a GM's attack (load average $(cut -d' ' -f1-3 /proc/loadavg)):"
for round in 1 2 3; do
	# The attack and the round after it, so that the next attack is one.
	/usr/bin/python3 "$top/bench/viewers.py" 127.0.0.1 "$port" \
	    "/events/combat/$key" "$n" "$server" -- \
	    "$bin/crs-combat" attack Ann Bob >"$out/viewers" 2>&1 || {
		echo "  the viewers failed: $(tail -3 "$out/viewers")"
		exit 0
	}
	rss=$(sed -n 's/^rss //p' "$out/viewers")
	set -- $(sed -n 's/^first \([0-9.]*\) last \([0-9.]*\) of \([0-9]*\)$/\1 \2 \3/p' "$out/viewers")
	printf '  round %d: the first viewer after %7.1f ms, the last after %7.1f ms (%d of %d; target: under 250 ms)\n' \
	    "$round" "$1" "$2" "$3" "$n"
	printf '           the server %.1f MB alone, %.1f MB with them: %.1f KB a viewer\n' \
	    "$(awk -v k="$rss0" 'BEGIN { print k / 1024 }')" \
	    "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" \
	    "$(awk -v a="$rss0" -v b="$rss" -v n="$n" 'BEGIN { print (b - a) / n }')"
	"$bin/crs-combat" pass Bob >/dev/null
	"$bin/crs-combat" round >/dev/null
	"$bin/crs-combat" init Ann=9 Bob=2 >/dev/null
done

# rps URL: ApacheBench's requests a second, keep-alive.
rps() {
	ab -q -k -c "$clients" -t "$secs" -n 10000000 "$1" 2>/dev/null |
	    sed -n 's/^Requests per second: *\([0-9.]*\).*/\1/p'
}
bb=0 bs=0
for i in 1 2 3; do
	b=$(rps "${url}combat/$key")
	s=$(rps "${url}style.css")
	bb=$(awk -v a="$bb" -v b="$b" 'BEGIN { print (b > a) ? b : a }')
	bs=$(awk -v a="$bs" -v b="$s" 'BEGIN { print (b > a) ? b : a }')
done
echo "requests a second, $clients connections kept alive, ${secs} s each, best of 3 (load average $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '  refkit  a combat'"'"'s board   %10.0f/s (%d bytes)\n' "$bb" \
    "$(curl -s "${url}combat/$key" | wc -c)"
printf '  floor   the style sheet    %10.0f/s (%d bytes), the same server\n' "$bs" \
    "$(curl -s "${url}style.css" | wc -c)"
printf '  ratio (board / static)     %10.3f (target >= 0.5)\n' \
    "$(awk -v a="$bb" -v b="$bs" 'BEGIN { print a / b }')"
kill "$server"
wait "$server" 2>/dev/null || true
trap - EXIT
