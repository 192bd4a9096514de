# crs-draw --svg: the distribution odds and versus print, as an SVG bar
# chart (paper/svg.c, which crs-combat report draws with too): a bar for
# each value of probability above 0.  The man page's example is the
# versus here.
run crs-draw odds --lb 1 --svg odds.svg
cat odds.svg
run crs-draw versus --offense 10 --defense 13 --offense-lb 2 \
    --defense-lb 1 --svg damage.svg
cat damage.svg
# The same chart with CSV or JSON on standard output; a bar a value.
crs-draw versus --offense 10 --defense 13 --offense-lb 2 \
    --defense-lb 1 --csv --svg again.svg >/dev/null
cmp damage.svg again.svg && echo "the same chart with --csv"
crs-draw versus --offense 10 --defense 13 --offense-lb 2 \
    --defense-lb 1 --json --exact --svg again.svg >/dev/null
cmp damage.svg again.svg && echo "the same chart with --json --exact"
echo "bars: $(grep -c 'class="bar"' damage.svg)"
# pick prints no distribution; a file that cannot be written.
run crs-draw pick --seed 1 --svg pick.svg
run crs-draw odds --svg nowhere/odds.svg
ls *.svg
