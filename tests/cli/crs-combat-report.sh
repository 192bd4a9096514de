# The organiser's report (crs-combat report): its figures as JSON, and
# the HTML page itself, byte for byte, over three combats in three of
# four hours (the fourth quiet), one with hostile names (markup, quotes,
# right-to-left text, an emoji, 200 characters without a space), a down,
# a fumble and an undo, one still under way.  tests/html.sh renders the
# same page in a browser.
export REFKIT_NOW=1795000000
run crs-combat report --json
run crs-combat report -o empty.html
cat empty.html
crs-stats add Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1
crs-stats add Mary OR=2 DR=6 MIND=12 LIFE=8 IN=3 LB=0
crs-stats add John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2
. "$TOP/tests/fixtures/report-combats.sh" >/dev/null
run crs-combat history --json
run crs-combat report --json
run crs-combat report --since 2026-11-18T12:00:00Z --json
run crs-combat report -o report.html
cat report.html
# The example of crs-combat(1): nothing since then, a page that says so.
run crs-combat report --since 2026-11-22T12:00:00Z -o example.html
grep -o 'nothing to report' example.html
# Usage: one of -o and --json; no CSV; options only; -o and --since
# with report alone.
run crs-combat report
run crs-combat report --json -o x.html
run crs-combat report --csv
run crs-combat report --json 3
run crs-combat history -o x.html
run crs-combat report --since tomorrow --json
# A file that cannot be written, and a standard output that cannot.
run crs-combat report -o nowhere/report.html
run_full crs-combat report --json
ls *.html
