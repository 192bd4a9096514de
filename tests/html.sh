#!/bin/sh
# html.sh BUILD-DIR: the organiser's report (crs-combat report) in a real
# browser, headless Chromium (Debian's chromium package), over the
# combats of tests/fixtures/report-combats.sh (hostile names included):
#   - the page as the browser parsed it (--dump-dom): no element came
#     from a name (no <script>), every chart is there with a bar for each
#     figure, the characters' figures are those of 'history --json', the
#     matchups' exact P(hit) and the number of combats those of 'report
#     --json', and every combat's link leads to its story;
#   - the page laid out, measured by a page of the test's own that loads
#     it in a frame at two widths: it never needs a horizontal scroll
#     bar, and no name is wider than its cell's limit;
#   - a screenshot (PNG) of the size asked for, kept as
#     BUILD-DIR/html/report.png for a person to look at.
# Each Chromium runs in a process group of its own, with a profile in a
# temporary directory, under a time limit, and is killed with its group
# however the script ends.  Without chromium it FAILs (it must not pass
# unseen).  Ends with "N passed, N failed".
set -u
B=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
bin="$top/$B"
. "$top/tests/lib/tally.sh"
tally html
done_() {
	tally_done
	exit
}
# check WHAT WANT GOT: one check, equal or not.
check() {
	if [ "$2" = "$3" ]; then
		ok
	else
		bad "$1: want '$2', got '$3'"
	fi
}

if ! command -v chromium >/dev/null 2>&1; then
	bad "chromium is not installed (tools/install-deps.sh installs it)"
	done_
fi
tmp=$(mktemp -d)
group=
cleanup() {
	[ -n "$group" ] && kill -KILL -- "-$group" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT PIPE TERM

# browser ARG...: one headless Chromium run, its output on stdout, in a
# process group of its own (setsid), killed with all its children after
# 60 seconds or when the script ends.
browser() {
	setsid timeout -k 5 60 chromium --headless --no-sandbox --disable-gpu \
	    --user-data-dir="$tmp/profile" --no-first-run \
	    --hide-scrollbars "$@" >"$tmp/browser.out" 2>"$tmp/browser.err" &
	group=$!
	wait "$group"
	rc=$?
	kill -KILL -- "-$group" 2>/dev/null
	group=
	rm -rf "$tmp/profile"
	cat "$tmp/browser.out"
	return "$rc"
}

# The database and the page, as the golden case makes them.
export PATH="$bin:$PATH" REFKIT_DB="$tmp/refkit.db" LC_ALL=C TZ=UTC HOME="$tmp"
unset REFKIT_GM
(
	cd "$tmp" || exit 1
	crs-stats add Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1
	crs-stats add Mary OR=2 DR=6 MIND=12 LIFE=8 IN=3 LB=0
	crs-stats add John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2
	. "$top/tests/fixtures/report-combats.sh"
) >/dev/null 2>&1
crs-combat report -o "$tmp/report.html" && ok || bad "report -o failed"
crs-combat report --json >"$tmp/report.json" || bad "report --json failed"
crs-combat history --json >"$tmp/history.json" || bad "history failed"

# The page as parsed.
browser --dump-dom "file://$tmp/report.html" >"$tmp/dom.html" ||
    bad "chromium --dump-dom exited $rc: $(tail -3 "$tmp/browser.err")"
check "the page's end" 1 "$(grep -c '</html>' "$tmp/dom.html")"
check "<script> elements (a name made one?)" 0 \
    "$(grep -ci '<script' "$tmp/dom.html")"
check "the <script> name as text" 2 \
    "$(grep -c 'class="char"><td class="name"><bdi class="cut" title="&lt;script&gt;\|class="matchup"><td class="name"><bdi class="cut" title="Aurelian' "$tmp/dom.html")"

# sqlite3 reads the JSON (sqlite3 json_each); $1 the file, $2 a SELECT
# over it as j.
json() {
	sqlite3 :memory: "WITH j AS (SELECT value FROM json_each(readfile('$1')))
	    $2"
}
json_at() {
	sqlite3 :memory: "WITH j AS (SELECT value FROM
	    json_each(json_extract(readfile('$1'), '$2'))) $3"
}

# bars ID: the number of bars in the chart with that id.
bars() {
	sed -n "/<div class=\"chart\" id=\"$1\">/,/<\/div>/p" "$tmp/dom.html" |
	    grep -c '<rect class="bar"'
}
nchars=$(json "$tmp/history.json" "SELECT count(*) FROM j")
nhours=$(json_at "$tmp/report.json" '$.hours' "SELECT count(*) FROM j")
ncombats=$(json_at "$tmp/report.json" '$.combats' "SELECT count(*) FROM j")
check "characters in history" 8 "$nchars"
check "bars per hour" "$nhours" "$(bars chart-hours)"
check "bars of damage" "$((2 * nchars))" "$(bars chart-damage)"
check "bars of downs and fumbles" "$((2 * nchars))" "$(bars chart-downs)"
check "bars of the combats" "$((2 * ncombats))" "$(bars chart-combats)"
check "svg charts" 4 "$(grep -c '<svg ' "$tmp/dom.html")"

# The characters' table, row by row, as report --json has it (history's
# rows less the combat nobody struck in, which Fred and John fought): the name
# as the browser serializes text (& < > escaped) and the five figures.
json_at "$tmp/report.json" '$.characters' "SELECT replace(replace(replace(
    json_extract(value, '\$.name'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;')
    || '|' || json_extract(value, '\$.combats') || ' ' ||
    json_extract(value, '\$.damage_dealt') || ' ' ||
    json_extract(value, '\$.damage_taken') || ' ' ||
    json_extract(value, '\$.downed') || ' ' ||
    json_extract(value, '\$.fumbles') FROM j" >"$tmp/want.rows"
grep '<tr class="char">' "$tmp/dom.html" |
    sed 's/.*">\(.*\)<\/bdi><\/td><td>\(.*\)<\/td><\/tr>.*/\1|\2/;
    s/<\/td><td>/ /g' >"$tmp/got.rows"
if [ -s "$tmp/want.rows" ] && diff "$tmp/want.rows" "$tmp/got.rows" \
    >"$tmp/rows.diff"; then
	ok
else
	bad "the characters' table is not report --json's:"
	cat "$tmp/rows.diff"
fi
check "combats" "$(json "$tmp/report.json" "SELECT 1" >/dev/null;
    sqlite3 :memory: "SELECT json_extract(readfile('$tmp/report.json'),
    '\$.combats_total')")" \
    "$(sed -n 's/.*<span id="total">\([0-9]*\)<.*/\1/p' "$tmp/dom.html")"
check "history's combats of Fred and John, less the one without a strike" \
    "3 2 2 1" "$(json "$tmp/history.json" "SELECT json_extract(value,
    '\$.combats') FROM j WHERE json_extract(value, '\$.name') IN ('Fred',
    'John') ORDER BY 1 DESC" | tr '\n' ' ')$(json_at "$tmp/report.json" \
    '$.characters' "SELECT json_extract(value, '\$.combats') FROM j WHERE
    json_extract(value, '\$.name') IN ('Fred', 'John') ORDER BY 1 DESC" |
    tr '\n' ' ' | sed 's/ $//')"
check "the matchups' P(hit) in percent" \
    "$(json_at "$tmp/report.json" '$.matchups' "SELECT
    CASE WHEN json_extract(value, '\$.p_hit') IS NULL THEN '-' ELSE
    printf('%.1f%%', 100 * json_extract(value, '\$.p_hit')) END
    FROM j" | tr '\n' ' ')" \
    "$(grep '<tr class="matchup">' "$tmp/dom.html" |
    sed 's/.*<td[^>]*>\([^<]*\)<\/td><\/tr>$/\1/' | tr '\n' ' ')"
check "exact fractions on the page (they are in the JSON)" 0 \
    "$(grep -c '935897/3920400' "$tmp/dom.html")"
check "dashes in the matchups, and their legend" "3 1" \
    "$(grep '<tr class="matchup">' "$tmp/dom.html" | grep -o '<td>-</td>' |
    wc -l) $(grep -c '<p class="legend" id="legend-matchups">.*: no strike of the matchup' \
    "$tmp/dom.html")"
# The combat nobody struck in: listed apart, in no figure.
check "combats without a strike, listed apart" \
    "1 combat 3 (<bdi>Fred</bdi>, <bdi>John</bdi>)" \
    "$(sed -n 's/.*<span id="idle-total">\([0-9]*\)<.*/\1/p' \
    "$tmp/dom.html") $(grep -o '<li class="idle">[^,]*, <bdi>John</bdi>)' \
    "$tmp/dom.html" | sed 's/<li class="idle">//')"
check "the idle combat in the combats' table" 0 \
    "$(grep -c 'href="#combat-3"' "$tmp/dom.html")"
# Names whole in the charts: every label is whole but the one of 200
# characters (cut at 60 in both characters' charts).
check "chart labels cut" 2 "$(grep -c '<text class="label"[^>]*>[^<]*…</text>' \
    "$tmp/dom.html")"
check "a name of 17 characters whole in the chart" 2 \
    "$(grep -c '<text class="label"[^>]*>O'"'"'Brien &amp; "Sons"</text>' \
    "$tmp/dom.html")"
check "charts across the page" 4 "$(grep -c '<svg [^>]*width="100%"' \
    "$tmp/dom.html")"
# Every combat's link has its story.
links=$(grep -o 'href="#combat-[^"]*"' "$tmp/dom.html" | sed 's/href="#//;
    s/"$//')
check "links to stories" "$ncombats" "$(printf '%s\n' "$links" | grep -c .)"
for id in $links; do
	grep -q "<section class=\"story\" id=\"$id\">" "$tmp/dom.html" ||
	    bad "no story for the link to #$id"
done

# The layout, measured: a page of the test's own loads the report in a
# frame (file:// pages may read each other with
# --allow-file-access-from-files) at 1100 and 480 pixels, and writes
# what it measured into its own DOM.
cat >"$tmp/measure.html" <<'EOM'
<!DOCTYPE html><html><body><p id="out">waiting</p>
<iframe id="a" src="report.html" style="width:1100px;height:600px"></iframe>
<iframe id="b" src="report.html" style="width:480px;height:600px"></iframe>
<script>
function measure(f) {
	var d = f.contentDocument, el = d.documentElement, wide = 0;
	d.querySelectorAll('.cut').forEach(function (c) {
		if (c.getBoundingClientRect().width > 24 * 16 + 1) wide++;
	});
	return (el.scrollWidth > el.clientWidth ? 'scrolls' : 'fits') +
	    ' ' + wide;
}
var n = 0;
function loaded() {
	if (++n < 2) return;
	document.getElementById('out').textContent = 'measured: ' +
	    measure(document.getElementById('a')) + ', ' +
	    measure(document.getElementById('b'));
}
document.getElementById('a').onload = loaded;
document.getElementById('b').onload = loaded;
</script></body></html>
EOM
browser --allow-file-access-from-files --virtual-time-budget=10000 \
    --dump-dom "file://$tmp/measure.html" >"$tmp/measure.dom"
check "the layout at 1100 and 480 pixels" "measured: fits 0, fits 0" \
    "$(sed -n 's/.*<p id="out">\([^<]*\)<.*/\1/p' "$tmp/measure.dom")"

# A screenshot, kept for a person to look at.
browser --window-size=1100,2600 --screenshot="$tmp/report.png" \
    "file://$tmp/report.html" >/dev/null
size=$(od -An -tu1 -j16 -N8 "$tmp/report.png" 2>/dev/null |
    awk '{ print $1*16777216 + $2*65536 + $3*256 + $4 "x" \
    $5*16777216 + $6*65536 + $7*256 + $8 }')
check "the screenshot's size" 1100x2600 "$size"
mkdir -p "$bin/html"
cp "$tmp/report.png" "$tmp/report.html" "$bin/html/" 2>/dev/null &&
    echo "html: screenshot kept as $B/html/report.png"
done_
