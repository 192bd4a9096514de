#!/bin/sh
# sheets.sh BUILD-DIR OUT-DIR: the printed sheets' benchmark (run by
# run.sh; issue #25).
#
# "crs-stats sheets --all" of 1,000 characters (each holding two items
# and knowing one power) into one PDF, against the floor of writing the
# same sheets' text (crs-stats show of each, made beforehand and not
# timed) a page per sheet through cairo's own text calls, with no pango,
# no layout, no QR code and no boxes (bench/sheets-floor.c): what any PDF
# of these sheets costs.  Wall time and peak memory of each, best of
# three, alternating; refkit's peak memory at 100 and at 1,000 sheets,
# which must be the same (memory flat).  Target: under 10 s.
set -eu
B=$1
top=${top:?}
out=$2
n=${BENCH_SHEETS:-1000}
bin="$top/$B"
db="$out/sheets.db"
rm -f "$db" "$db-wal" "$db-shm"
export REFKIT_DB="$db"
cc -O2 -o "$out/measure" "$top/bench/measure.c"
# shellcheck disable=SC2046
cc -O2 -o "$out/sheets-floor" "$top/bench/sheets-floor.c" \
    $(pkg-config --cflags --libs cairo)
"$bin/crs-stats" item add 'Chain Mail' dr=+3 use=wearable >/dev/null
"$bin/crs-stats" item add Sword or=+5 range=short >/dev/null
"$bin/crs-stats" power add Fireball em=10 picks=2 target=group >/dev/null
awk -v n="$n" -f "$top/bench/gen-roster.awk" |
    awk 'NR == 1 { print $0 ",items,powers"; next }
	{ print $0 ",Chain Mail;Sword,Fireball" }' >"$out/sheets.csv"
"$bin/crs-stats" import "$out/sheets.csv" >/dev/null
"$bin/crs-stats" list --csv | tail -n +2 | cut -d, -f1 |
    while IFS= read -r name; do
	"$bin/crs-stats" show "$name"
	printf '\f\n'
done >"$out/sheets.txt"

# Three rounds, alternating, keeping each side's best time and its
# largest peak.
rt=999999 rk=0 pt=999999 pk=0
for i in 1 2 3; do
	set -- $("$out/measure" "$bin/crs-stats" sheets --all \
	    -o "$out/sheets.pdf")
	rt=$(awk -v a="$rt" -v b="$1" 'BEGIN { print (b < a) ? b : a }')
	[ "$2" -gt "$rk" ] && rk=$2
	set -- $("$out/measure" "$out/sheets-floor" "$out/sheets.txt" \
	    "$out/floor.pdf")
	pt=$(awk -v a="$pt" -v b="$1" 'BEGIN { print (b < a) ? b : a }')
	[ "$2" -gt "$pk" ] && pk=$2
done
"$bin/crs-stats" list --csv | tail -n +2 | head -100 | cut -d, -f1 |
    tr '\n' '\0' >"$out/names100"
r100=$(xargs -0 "$out/measure" "$bin/crs-stats" sheets \
    -o "$out/sheets100.pdf" <"$out/names100")
set -- $rt $rk $pt $pk $r100
pages=$(pdfinfo "$out/sheets.pdf" 2>/dev/null | sed -n 's/^Pages: *//p')
echo "printed sheets of $n characters, one PDF (best of 3; load $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '  refkit  crs-stats sheets --all  %7.3f s  peak %6.1f MB  (%s pages, %s KB)\n' \
    "$1" "$(awk -v k="$2" 'BEGIN { print k / 1024 }')" "${pages:-?}" \
    "$(($(wc -c <"$out/sheets.pdf") / 1024))"
printf '  floor   text only, cairo        %7.3f s  peak %6.1f MB  (%s KB)\n' \
    "$3" "$(awk -v k="$4" 'BEGIN { print k / 1024 }')" \
    "$(($(wc -c <"$out/floor.pdf") / 1024))"
printf '  ratio (refkit / floor)          %7.3f (target: under 10 s)\n' \
    "$(awk -v a="$1" -v b="$3" 'BEGIN { print a / b }')"
printf '  refkit peak at 100 sheets: %.1f MB; at %d: %.1f MB\n' \
    "$(awk -v k="$6" 'BEGIN { print k / 1024 }')" "$n" \
    "$(awk -v k="$2" 'BEGIN { print k / 1024 }')"
