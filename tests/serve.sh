#!/bin/sh
# serve.sh BUILD-DIR [pg]: refkit serve, the player view (issue #41),
# with the built tools on a database of the test's own, and with "pg" on
# a private PostgreSQL server's (tests/pg/server.sh), where the server's
# notice (LISTEN) wakes the pages rather than SQLite's data_version.
#   - the server starts on a free port of 127.0.0.1 and says where;
#     listening for other machines (on every address, or on the
#     machine's own on its network), a page from another machine needs
#     the access code the server printed (403 without it or with another),
#     once in the address, which sets a cookie; --public boards needs
#     none; this machine needs none; a character's page opens to the
#     code of its sheet as printed now (the QR code on the sheet holds
#     the page's address with it), and to nothing else, not with
#     --public boards either; the page says whether a code given is
#     its sheet's now;
#   - with curl: a character's page (its sheet, its history this event,
#     the combat it is in with its LIFE there now, its own stream), 404
#     for a name that is none, has a control or is not UTF-8;
#   - with curl: the convention's page lists the open combat, duel and game,
#     each a link to its board, and the day's figures (the organiser's
#     report's), which its stream sends again once due after a change; a board is the one watch draws, with the
#     chain head refkit head prints; every answer carries a strict
#     Content-Security-Policy; names are escaped; an unknown log is 404,
#     another path 404, a method but GET and HEAD 405, an over-long URL
#     414 and an over-long header 431; HEAD has no body; the server never
#     writes (the database's every row is the same after the requests);
#   - beside 1,000 silent connections, 100 slowloris clients and a
#     stream of garbage (tests/lib/hostile.py), an honest client has its
#     board in under a second, and the silent ones are closed after ten;
#   - a stream of events (curl): the board comes at once, and again
#     within a second of a GM's attack, with the attack in it;
#   - a real browser, headless Chromium driven through the DevTools
#     protocol (tests/lib/cdp.py, Debian's python3-websocket): the board
#     page loads, goes live, and shows a GM's next event within a second
#     of the command, without a reload; its screenshot is kept as
#     BUILD-DIR/html/serve-board.png (serve-board-pg.png) to look at;
#     so do the convention's page and a character's on a phone's screen
#     (serve-convention-phone.png, serve-character-phone.png) and the
#     duel's and the game's boards (serve-duel.png, serve-game.png);
#   - a failure of the database (a record damaged behind refkit's back;
#     the PostgreSQL server killed and started again) is a page saying
#     so (503), not the server's end, and the pages and their streams
#     are right again once the database is;
#   - SIGTERM stops the server at once, a stream still open, exit 0.
# Each server and browser is killed however the script ends.  Ends with
# "N passed, N failed".
set -u
B=${1:-build}
mode=${2:-file}
top=$(cd "$(dirname "$0")/.." && pwd)
bin="$top/$B"
. "$top/tests/lib/tally.sh"
tally "serve$([ "$mode" = pg ] && echo ' (pg)')"
done_() {
	tally_done
	exit
}
check() {
	if [ "$2" = "$3" ]; then
		ok
	else
		bad "$1: want '$2', got '$3'"
	fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/refkit-serve.XXXXXX")
server=
group=
cleanup() {
	[ -n "$server" ] && kill -KILL "$server" 2>/dev/null
	[ -n "$group" ] && kill -KILL -- "-$group" 2>/dev/null
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
	if ! pg_start; then
		bad "no PostgreSQL server"
		done_
	fi
	trap cleanup EXIT
	trap 'cleanup; exit 129' HUP
	trap 'cleanup; exit 130' INT
	trap 'cleanup; exit 141' PIPE
	trap 'cleanup; exit 143' TERM
	createdb serve || { bad "createdb"; done_; }
	REFKIT_DB="postgresql:///serve?host=$PGHOST&user=$PGUSER"
else
	REFKIT_DB="$tmp/refkit.db"
fi
export REFKIT_DB
REFKIT_GM=Ref
export REFKIT_GM
PATH="$bin:$PATH"
export PATH

crs-stats add '<b>Ann</b>' OR=8 DR=5 MIND=4 LIFE=40 IN=3 >/dev/null &&
    crs-stats add 'Bob & "Co"' OR=6 DR=5 MIND=4 LIFE=40 IN=1 >/dev/null &&
    crs-combat start '<b>Ann</b>' 'Bob & "Co"' >/dev/null &&
    crs-combat init '<b>Ann</b>=9' 'Bob & "Co"=2' >/dev/null &&
    fb-duel sheet add Luke --side light --hand right >/dev/null &&
    fb-duel sheet add Vader --side dark --hand left >/dev/null &&
    fb-duel start Luke Vader >/dev/null &&
    bg-board team add Red --file "$top/tests/fixtures/bg/red.team" >/dev/null &&
    bg-board team add Blue --file "$top/tests/fixtures/bg/blue.team" \
    >/dev/null &&
    bg-board new Red Blue >/dev/null || { bad "the setup"; done_; }
combat=$(crs-combat --json list | sed -n 's/.*"combat":"*\([0-9a-f-]*\)"*,.*/\1/p')
duel=$(fb-duel --json list | sed -n 's/.*"duel":"*\([0-9a-f-]*\)"*,.*/\1/p')
game=$(bg-board --json list | sed -n 's/.*"game":"*\([0-9a-f-]*\)"*,.*/\1/p')
[ -n "$combat" ] && [ -n "$duel" ] && [ -n "$game" ] ||
    { bad "no combat, duel or game listed"; done_; }

# wait_for FILE PATTERN TENTHS: until a line of FILE matches PATTERN,
# every tenth of a second, at most TENTHS times.
wait_for() {
	i=0
	until grep -q "$2" "$1" 2>/dev/null || [ $i -ge "$3" ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# state: every row of every table, to show that serving writes nothing.
state() {
	if [ "$mode" = pg ]; then
		pg_dump_of serve -a | cksum
	else
		sqlite3 "$REFKIT_DB" .dump | cksum
	fi
}

# An address that is none, and a word --public does not take.
refkit serve --listen 1.2.3:80 >/dev/null 2>"$tmp/err"
check "--listen 1.2.3:80 exit" 2 $?
refkit serve --public all >/dev/null 2>"$tmp/err"
check "--public all exit" 2 $?

# start_server VAR ARG...: refkit serve ARG... in the background, its
# pid in VAR and the address it says in $started ("" if none in 10 s).
start_server() {
	var=$1
	shift
	refkit serve "$@" >"$tmp/$var.out" 2>"$tmp/$var.err" &
	eval "$var=\$!"
	wait_for "$tmp/$var.out" '^serving on ' 100
	started=$(sed -n 's/^serving on \(http:[^ ]*\).*/\1/p' "$tmp/$var.out")
}

# From another machine, a page needs the access code, once: in the
# address, which sets a cookie, then the cookie.  The machine's own
# address on its network stands for another machine's.
lan=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -v '^127\.' |
    grep '^[0-9.]*$' | head -1)
if [ -z "$lan" ]; then
	echo "SKIP: serve: no network address here: the access code unchecked"
else
	start_server coded --listen 0.0.0.0:0
	port=${started##*:}
	port=${port%%/*}
	code=${started##*code=}
	case $started in
	http://$lan:*/\?code=????????????) ok ;;
	*)	bad "the address with its code: $started" ;;
	esac
	grep -q "needs the address with its code once (the access code $code)" \
	    "$tmp/coded.out" && ok || bad "the code not said: $(cat "$tmp/coded.out")"
	c() { curl -s -o /dev/null -D "$tmp/h" -w '%{http_code}' "$@"; }
	# sheet_code: Bob's sheet printed for the server on $port, its code
	# (nothing if it could not be printed).
	sheet_code() {
		REFKIT_SERVE_URL="http://$lan:$port/" crs-stats sheets \
		    'Bob & "Co"' -o "$tmp/bob.pdf" &&
		    pdftotext -f 1 -l 1 "$tmp/bob.pdf" - |
		    grep -o 'Code [0-9A-Z-]*' | cut -c6- | head -1
	}
	cb() { curl -s -o "$tmp/b" -D "$tmp/h" -w '%{http_code}' "$@"; }
	check "another machine, no code" 403 "$(c "http://$lan:$port/combat/$combat")"
	check "another machine, its events, no code" 403 \
	    "$(c "http://$lan:$port/events/combat/$combat")"
	check "this machine, no code" 200 "$(c "http://127.0.0.1:$port/")"
	check "another machine, the code" 200 "$(c "http://$lan:$port/?code=$code")"
	grep -qi "^set-cookie: refkit_code=$code; Path=/; HttpOnly; SameSite=Strict" \
	    "$tmp/h" && ok || bad "no cookie: $(cat "$tmp/h")"
	check "another machine, the cookie" 200 \
	    "$(c -H "Cookie: refkit_code=$code" "http://$lan:$port/combat/$combat")"
	check "another machine, another code" 403 \
	    "$(c -H "Cookie: refkit_code=aaaaaaaaaaaa" "http://$lan:$port/combat/$combat")"
	check "another machine, a code too short" 403 \
	    "$(c "http://$lan:$port/?code=${code%?}")"
	# A character's page, from another machine, opens to the code of its
	# sheet as printed now (its QR code has the page's address with it),
	# and to nothing else: not another code, not another character, not
	# a board; after a change of the character, not the old sheet's.
	sheet=$(sheet_code)
	[ -n "$sheet" ] || bad "Bob's sheet and its code"
	bob="http://$lan:$port/character/Bob%20%26%20%22Co%22"
	check "another machine, a character's page, its sheet's code" 200 \
	    "$(cb "$bob?sheet=$sheet")"
	grep -q "<p class=\"sheet-ok\">The sheet with the code <code>$sheet</code> is this character's as it is now." \
	    "$tmp/b" && ok || bad "the sheet not said: $(head -c 900 "$tmp/b")"
	grep -q "data-events=\"/events/character/Bob%20%26%20%22Co%22?sheet=$sheet\"" \
	    "$tmp/b" && ok || bad "the stream without the sheet's code"
	grep -qi '^set-cookie' "$tmp/h" && bad "a sheet's code set the cookie" || ok
	check "another machine, its stream, its sheet's code" 200 \
	    "$(c -N --max-time 1 "http://$lan:$port/events/character/Bob%20%26%20%22Co%22?sheet=$sheet")"
	check "another machine, the code typed loosely" 200 \
	    "$(c "$bob?sheet=$(printf '%s' "$sheet" | tr -d - | tr 'A-Z' 'a-z')")"
	check "another machine, a character's page, no code" 403 "$(c "$bob")"
	check "another machine, another sheet's code" 403 \
	    "$(c "$bob?sheet=AAAA-AAAA-AAAA-AAAA")"
	check "another machine, a code that is none" 403 "$(c "$bob?sheet=x")"
	check "another machine, another character, this sheet's code" 403 \
	    "$(c "http://$lan:$port/character/%3Cb%3EAnn%3C%2Fb%3E?sheet=$sheet")"
	check "another machine, no such character, a sheet's code" 403 \
	    "$(c "http://$lan:$port/character/Nobody?sheet=$sheet")"
	check "another machine, a board, a sheet's code" 403 \
	    "$(c "http://$lan:$port/combat/$combat?sheet=$sheet")"
	check "this machine, another sheet's code" 200 \
	    "$(cb "http://127.0.0.1:$port/character/Bob%20%26%20%22Co%22?sheet=AAAA-AAAA-AAAA-AAAA")"
	grep -q 'The sheet with the code <code>AAAA-AAAA-AAAA-AAAA</code> is not this character' \
	    "$tmp/b" && ok || bad "another sheet's code not said: $(head -c 900 "$tmp/b")"
	crs-stats set 'Bob & "Co"' player=Zoe >/dev/null || bad "the change"
	sleep 0.5	# the server sees the change within a tenth of a second
	check "another machine, the sheet printed before a change" 403 \
	    "$(c "$bob?sheet=$sheet")"
	kill -TERM "$coded"
	wait "$coded"
	check "the coded server's exit" 0 $?
	start_server open --listen "$lan:0" --public boards
	port=${started##*:}
	port=${port%%/*}
	grep -q 'every board is public' "$tmp/open.out" && ok ||
	    bad "--public boards not said: $(cat "$tmp/open.out")"
	check "--public boards, no code" 200 "$(c "http://$lan:$port/combat/$combat")"
	check "--public boards, a character's page, no code" 403 \
	    "$(c "http://$lan:$port/character/Bob%20%26%20%22Co%22")"
	sheet=$(sheet_code)
	[ -n "$sheet" ] || bad "Bob's sheet and its code"
	check "--public boards, a character's page, its sheet's code" 200 \
	    "$(c "http://$lan:$port/character/Bob%20%26%20%22Co%22?sheet=$sheet")"
	kill -TERM "$open"
	wait "$open"
fi

start_server server --listen 127.0.0.1:0
url=$started
case $url in
http://127.0.0.1:[1-9]*/) ok ;;
*)	bad "no address said: $(cat "$tmp/server.out" "$tmp/server.err")"
	done_ ;;
esac

# get PATH [CURL-OPTION...]: the status, the headers in $tmp/h, the body
# in $tmp/b.
get() {
	p=$1
	shift
	curl -s -o "$tmp/b" -D "$tmp/h" -w '%{http_code}' "$@" "$url${p#/}"
}

# What the database holds now that the server has opened it.
before=$(state)
check "the convention page" 200 "$(get /)"
grep -q "<a href=\"/combat/$combat\">$combat</a>" "$tmp/b" && ok ||
    bad "no link to combat $combat: $(cat "$tmp/b")"
grep -q "<a href=\"/duel/$duel\">$duel</a>" "$tmp/b" && ok ||
    bad "no link to duel $duel"
grep -q "<a href=\"/game/$game\">$game</a>" "$tmp/b" && ok ||
    bad "no link to game $game"
grep -q '&lt;b&gt;Ann&lt;/b&gt;, Bob &amp; &quot;Co&quot;' "$tmp/b" && ok ||
    bad "the sides not escaped: $(cat "$tmp/b")"
grep -q '<b>Ann' "$tmp/b" && bad "a name as markup" || ok
grep -qi "^content-security-policy: default-src 'none'; style-src 'self'; script-src 'self'" "$tmp/h" &&
    ok || bad "no strict CSP: $(cat "$tmp/h")"
grep -qi '^x-content-type-options: nosniff' "$tmp/h" && ok || bad "no nosniff"

check "the combat's board" 200 "$(get "/combat/$combat")"
grep -q '<pre class="board" dir="ltr">' "$tmp/b" && ok || bad "no board"
grep -q 'initiative: &lt;b&gt;Ann&lt;/b&gt; 12, Bob &amp; &quot;Co&quot; 3' "$tmp/b" && ok ||
    bad "the board's events: $(cat "$tmp/b")"
head=$(refkit head --combat "$combat" |
    awk '{ for (i = 5; i <= NF; i++) printf "%s", $i }')
grep -q "Chain head after event [0-9]*: <code>$head" "$tmp/b" && ok ||
    bad "the chain head is not refkit head's $head"
check "the duel's board" 200 "$(get "/duel/$duel")"
grep -q 'Luke' "$tmp/b" && ok || bad "the duel's board: $(cat "$tmp/b")"
check "the game's board" 200 "$(get "/game/$game")"
grep -q 'Red' "$tmp/b" && grep -q '<pre class="board"' "$tmp/b" && ok ||
    bad "the game's board: $(cat "$tmp/b")"

# A character's page: its sheet, its event, the combats it is in now.
check "a character's page" 200 "$(get '/character/Bob%20%26%20%22Co%22')"
grep -q '<title>Bob &amp; &quot;Co&quot;</title>' "$tmp/b" && ok ||
    bad "the character's title: $(head -c 600 "$tmp/b")"
grep -q '^LIFE     40  given            40$' "$tmp/b" && ok ||
    bad "the character's sheet: $(cat "$tmp/b")"
grep -q "<a href=\"/combat/$combat\">combat $combat</a>" "$tmp/b" && ok ||
    bad "the character's combat not linked"
grep -q 'data-events="/events/character/Bob%20%26%20%22Co%22"' "$tmp/b" &&
    ok || bad "the character's stream not named: $(head -c 900 "$tmp/b")"
check "no such character" 404 "$(get /character/Nobody)"
check "a character's name with a control" 404 "$(get /character/A%01B)"
check "a name that is not UTF-8" 404 "$(get /character/A%FFB)"

check "no such combat" 404 "$(get /combat/99999)"
check "no such page" 404 "$(get /nothing/1)"
check "a path with .." 404 "$(get /combat/../../etc/passwd --path-as-is)"
check "a key that is none" 404 "$(get /combat/zz)"
check "POST" 405 "$(get / -X POST -d x=1)"
grep -qi '^allow: GET, HEAD' "$tmp/h" && ok || bad "405 without Allow"
check "an over-long URL" 414 "$(get "/$(printf '%0300d' 0)")"
check "a name of 200 bytes" 404 "$(get "/character/$(printf '%0200d' 0)")"
check "an over-long header" 431 \
    "$(get / -H "X-Big: $(printf '%040000d' 0)")"
check "HEAD" 200 "$(get / -I)"
check "the database after serving those pages" "$before" "$(state)"

# A stream of events: the board at once, and again after an attack.
curl -s -N --max-time 8 "${url}events/combat/$combat" >"$tmp/sse" &
sse=$!
wait_for "$tmp/sse" '^event: board' 50
check "the stream's first event" 1 "$(grep -c '^event: board' "$tmp/sse")"
crs-combat attack '<b>Ann</b>' 'Bob & "Co"' --card 9 --vs-card 3 >/dev/null ||
    bad "the attack"
t0=$(date +%s%N)
until [ "$(grep -c '^event: board' "$tmp/sse")" -ge 2 ] ||
    [ $(($(date +%s%N) - t0)) -gt 3000000000 ]; do
	sleep 0.02
done
ms=$((($(date +%s%N) - t0) / 1000000))
grep -q '^data: .* attacks Bob.*LIFE 40 -&gt; ' "$tmp/sse" && ok ||
    bad "the attack not streamed within 3 s: $(tail -5 "$tmp/sse")"
[ "$ms" -lt 1000 ] && ok || bad "the attack streamed after $ms ms"
echo "  the attack reached the stream in $ms ms"
# The character's page has its LIFE in the combat now.
get '/character/Bob%20%26%20%22Co%22' >/dev/null
grep -q "combat $combat</a>: LIFE <b class=\"k6\">31</b>/40</li>" "$tmp/b" &&
    ok || bad "the character's LIFE now: $(grep -o '<li>.*</li>' "$tmp/b")"

# The day's figures on the convention's page, the organiser's report's
# (crs-combat report --json has the same), added up again at most every
# five seconds, and sent to the page's stream once due.
curl -s -N --max-time 12 "${url}events/" >"$tmp/sse-day" &
sseday=$!
wait_for "$tmp/sse-day" '<b>9</b> points of damage' 110
grep -q '^data: .*<b>1</b> combat with a strike (0 ended): <b>1</b> strike in <b>1</b> round, <b>9</b> points of damage, <b>0</b> downs, <b>0</b> fumbles, <b>0</b> GM rulings' \
    "$tmp/sse-day" && ok || bad "the day's figures: $(grep -o 'day-combats.*' "$tmp/sse-day" | tail -1)"
grep -q 'The most damage dealt: <bdi>&lt;b&gt;Ann&lt;/b&gt;</bdi>, 9\.' "$tmp/sse-day" &&
    ok || bad "the day's most damage: $(tail -c 600 "$tmp/sse-day")"
grep -q 'The most frequent matchup: <bdi>&lt;b&gt;Ann&lt;/b&gt;</bdi> on <bdi>Bob &amp; &quot;Co&quot;</bdi>, short range, <b>1</b> time, P(hit) 66\.6%\.' \
    "$tmp/sse-day" && ok || bad "the day's matchup: $(tail -c 600 "$tmp/sse-day")"
crs-combat --json report | grep -q '"damage":9,"downs":0,"fumbles":0' && ok ||
    bad "the report's figures differ: $(crs-combat --json report | head -c 900)"
kill "$sseday" 2>/dev/null
wait "$sseday" 2>/dev/null

# Hostile clients: 1,000 connections that say nothing, 100 that send a
# header line every half second and never end (slowloris), and garbage
# meanwhile: an honest client still has its board in under a second, and
# the silent ones are closed after the server's ten seconds.
port=${url##*:}
port=${port%%/*}
/usr/bin/python3 "$top/tests/lib/hostile.py" 127.0.0.1 "$port" 1000 100 11 \
    >"$tmp/hostile" 2>&1 &
hostile=$!
wait_for "$tmp/hostile" '^holding' 200
grep -q '^holding 1000 100' "$tmp/hostile" && ok ||
    bad "the hostile clients: $(cat "$tmp/hostile")"
worst=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	t=$(curl -s -o "$tmp/b" -w '%{http_code} %{time_total}' \
	    "${url}combat/$combat")
	[ "${t% *}" = 200 ] && grep -q '<pre class="board"' "$tmp/b" ||
	    bad "the honest client, beside them: $t"
	worst=$(awk -v a="$worst" -v b="${t#* }" 'BEGIN { print (b > a) ? b : a }')
	sleep 0.5
done
awk -v w="$worst" 'BEGIN { exit !(w < 1) }' && ok ||
    bad "the honest client waited $worst s"
echo "  beside 1,100 hostile connections, the board in $worst s at worst"
wait "$hostile"
grep -q 'idle closed 1000$' "$tmp/hostile" && ok ||
    bad "the silent connections not closed: $(tail -1 "$tmp/hostile")"
grep '^garbage' "$tmp/hostile" | sed 's/^/  /'

# The board in a browser, live.
if ! command -v chromium >/dev/null 2>&1; then
	bad "chromium is not installed (tools/install-deps.sh installs it)"
elif ! /usr/bin/python3 -c 'import websocket' 2>/dev/null; then
	bad "python3-websocket is not installed (tools/install-deps.sh)"
else
	mkdir -p "$bin/html"
	setsid timeout -k 5 60 chromium --headless --no-sandbox --disable-gpu \
	    --user-data-dir="$tmp/profile" --remote-debugging-port=0 \
	    --window-size=800,900 about:blank >"$tmp/chrome.out" \
	    2>"$tmp/chrome.err" &
	group=$!
	wait_for "$tmp/chrome.err" 'DevTools listening on' 200
	port=$(sed -n 's/.*ws:\/\/127.0.0.1:\([0-9]*\)\/.*/\1/p' \
	    "$tmp/chrome.err" | head -1)
	png="$bin/html/serve-board$([ "$mode" = pg ] && echo -pg).png"
	if /usr/bin/python3 "$top/tests/lib/cdp.py" "$port" \
	    "${url}combat/$combat" 'Bob & "Co" passes' 20 \
	    "$png" -- crs-combat pass 'Bob & "Co"' >"$tmp/cdp" 2>&1; then
		ms=$(sed -n 's/^shown after \([0-9]*\) ms$/\1/p' "$tmp/cdp")
		echo "  Chromium showed the next event $ms ms after the command"
		[ -n "$ms" ] && [ "$ms" -lt 1000 ] && ok ||
		    bad "Chromium showed it after $ms ms"
	else
		bad "Chromium: $(cat "$tmp/cdp")"
	fi
	# The convention's page and a character's, on a phone's screen,
	# live: the GM's next action, and the character's LIFE after it;
	# the duel's board and the game's, live, on a wider one.
	# live WHAT SCREEN PATH TEXT PNG CMD...: cdp.py on a SCREEN of
	# WIDTHxHEIGHT ("" for the window's), CMD the GM's, TEXT what the
	# page shows after it.
	live() {
		what=$1 screen=$2 path=$3 text=$4 shot=$5
		shift 5
		if CDP_PHONE=$screen /usr/bin/python3 "$top/tests/lib/cdp.py" \
		    "$port" "$url$path" "$text" 20 "$bin/html/$shot" -- "$@" \
		    >"$tmp/cdp" 2>&1; then
			ms=$(sed -n 's/^shown after \([0-9]*\) ms$/\1/p' "$tmp/cdp")
			echo "  Chromium showed $what $ms ms after the command"
			[ -n "$ms" ] && [ "$ms" -lt 1000 ] && ok ||
			    bad "Chromium showed $what after $ms ms"
		else
			bad "Chromium, $what: $(cat "$tmp/cdp")"
		fi
	}
	sfx=$([ "$mode" = pg ] && echo -pg)
	live "the convention's next action (a phone)" 390x844 '' \
	    'adjust Bob & "Co"' "serve-convention-phone$sfx.png" \
	    crs-combat adjust 'Bob & "Co"' LIFE=+1 --reason 'a cure'
	live "the character's LIFE (a phone)" 390x844 \
	    'character/Bob%20%26%20%22Co%22' 'LIFE 33/40' \
	    "serve-character-phone$sfx.png" \
	    crs-combat adjust 'Bob & "Co"' LIFE=+1 --reason 'a cure'
	live "the duel's next event" '' "duel/$duel" 'adjusts Luke' \
	    "serve-duel$sfx.png" fb-duel adjust Luke POOL=+1 --reason 'a gift'
	live "the game's next event" '' "game/$game" 'adjusts Red' \
	    "serve-game$sfx.png" bg-board adjust Red DICE=+1 --reason 'a gift'
	kill -KILL -- "-$group" 2>/dev/null
	group=
fi

# A database that fails does not stop the server: the page says so (503)
# and is right again once the database is.  On SQLite, a record damaged
# behind refkit's back (a NUL in a text); on a server, the server gone
# (killed, as in a crash) and back, the stream's watch reconnected.
if [ "$mode" = pg ]; then
	pg_crash
	check "a board with the server down" 503 "$(get "/combat/$combat")"
	grep -q '<p class="failure">The database cannot be read now: ' \
	    "$tmp/b" && ok || bad "the failure not said: $(cat "$tmp/b")"
	pg_resume || bad "the server's restart"
	i=0
	until [ "$(get "/combat/$combat")" = 200 ] || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	check "the board with the server back" 200 "$(get "/combat/$combat")"
	curl -s -N --max-time 8 "${url}events/combat/$combat" >"$tmp/sse2" &
	sse2=$!
	wait_for "$tmp/sse2" '^event: board' 50
	sleep 1.5
	crs-combat adjust '<b>Ann</b>' LIFE=-1 --reason 'after the restart' \
	    >/dev/null || bad "the ruling"
	wait_for "$tmp/sse2" "the GM adjusts &lt;b&gt;Ann" 30
	grep -q "the GM adjusts &lt;b&gt;Ann" "$tmp/sse2" && ok ||
	    bad "the watch not back after the server's restart: $(tail -3 "$tmp/sse2")"
	kill "$sse2" 2>/dev/null
	wait "$sse2" 2>/dev/null
	failed='serve: .*the connection to the server was lost|serve: the database can be read again|serve: cannot connect to'
else
	sqlite3 "$REFKIT_DB" "UPDATE character SET player = 'a' || char(0) || 'b'
	    WHERE name = 'Bob & \"Co\"'"
	sleep 0.5	# the server sees the change within a tenth of a second
	check "a character with a damaged record" 503 \
	    "$(get '/character/Bob%20%26%20%22Co%22')"
	grep -q "The database cannot be read now: damaged record: its &#39;player&#39; holds a NUL character" \
	    "$tmp/b" && ok || bad "the failure not said: $(cat "$tmp/b")"
	check "a board at once after it" 200 "$(get "/combat/$combat")"
	sqlite3 "$REFKIT_DB" "UPDATE character SET player = NULL
	    WHERE name = 'Bob & \"Co\"'"
	sleep 0.5
	check "the character mended" 200 "$(get '/character/Bob%20%26%20%22Co%22')"
	failed="serve: damaged record: its 'player' holds a NUL character|serve: the database can be read again"
fi

# SIGTERM, a stream still open: the server stops at once.
kill -TERM "$server"
i=0
while kill -0 "$server" 2>/dev/null && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if kill -0 "$server" 2>/dev/null; then
	bad "the server still runs 5 s after SIGTERM"
else
	wait "$server"
	check "the server's exit status" 0 $?
	server=
fi
wait "$sse" 2>/dev/null
grep -Evq "^refkit: ($failed)" "$tmp/server.err" &&
    bad "the server said: $(cat "$tmp/server.err")" || ok
done_
