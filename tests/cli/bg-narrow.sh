# Boards for any screen (issue #39), bg-board: show's board at 80, 60, 50
# and 40 columns (COLUMNS) gives way by its parts, the first to go first:
# the brackets around the cells (a space between them instead), the
# ranks' numbers on the right, then the figures' names cut to two
# letters; the legend and the zones under it fold.  watch draws the same
# board for its terminal's width (tests/watch.sh at 40 columns).
export REFKIT_NOW=1795400000
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" "$T"
bg-board team add Red --file "$T/red.team" >/dev/null
bg-board team add Blue --file "$T/blue.team" >/dev/null
bg-board new Red Blue >/dev/null
bg-board move Rogue a3 >/dev/null
for c in 80 59 52 50 40; do
	COLUMNS=$c run bg-board show
done
