#!/bin/sh
# run.sh BUILD-DIR: the benchmarks, each against its named peer in the
# same run.  Prints both sides' wall time and peak memory and the ratio.
#
# (bench/combat.sh, bench/d6.sh, bench/fb.sh, bench/bg.sh,
# bench/merge.sh, bench/pg.sh, bench/pg-import.sh, bench/chain.sh,
# bench/sheets.sh and bench/serve.sh say what they measure.)
#
# import: "crs-stats import" of 1,000,000 characters against two floors
# of the sqlite3 shell in the same run.  The fair floor (issue #40) does
# the work refkit does, a changeset of the write included
# (bench/floor-import.sql: ".session", ".import" into a temporary table,
# one INSERT ... SELECT computing the seven secondary stats, ".session
# changeset"); target: refkit at most 1.0x it, refkit's peak memory
# not growing with the file.  The bare floor (bench/peer-import.sql, issue
# #20's peer) is the same without the session, reported beside it.  The
# keyed floor (bench/floor-import-keyed.sql) is the fair floor making the
# rows refkit makes: each character's id is its name's key, as refkit's
# are (so that stations never give two characters one id), where the
# fair floor numbers them 1, 2, ... in the file's order; the shell gets
# the key's function from bench/namekey.c, a loadable extension built of
# refkit's own db_name_key.  At 3,000,000 characters with
# BENCH_ROWS=3000000.
#
# Sizes and counts come from the environment, each script's named in its
# header; BENCH_RUNS, when set, is the number of timed runs of every
# median and mean (each script's own otherwise), BENCH_OUT the directory
# of their files (bench/out), and BENCH_PARTS the scripts run after the
# import (all of them: "combat d6 fb bg merge pg pg-import chain
# sheets serve convention").  tests/bench-smoke.sh runs each at a small
# size.
set -eu
B=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${BENCH_OUT:-$top/bench/out}
n=${BENCH_ROWS:-1000000}
mkdir -p "$out"
cc -O2 -o "$out/measure" "$top/bench/measure.c"
cc -O2 -fPIC -shared -std=c17 -D_GNU_SOURCE -I"$top/src" \
    -o "$out/namekey.so" "$top/bench/namekey.c" "$top/src/db/db_base.c" \
    "$top/src/base/util.c" "$top/src/base/strbuf.c" -lsodium
if [ ! -f "$out/roster-$n.csv" ]; then
	awk -v n="$n" -f "$top/bench/gen-roster.awk" >"$out/roster-$n.csv.tmp"
	mv "$out/roster-$n.csv.tmp" "$out/roster-$n.csv"
fi
cp "$out/roster-$n.csv" "$out/roster.csv"
small=$((n / 10))
head -n $((small + 1)) "$out/roster.csv" >"$out/roster-small.csv"

one_run() {
	rm -f "$out/refkit.db" "$out/refkit.db-wal" "$out/refkit.db-shm" \
	    "$out/peer.db" "$out/peer.db-journal" "$out/floor.db" \
	    "$out/floor.db-journal" "$out/floor.changeset" "$out/keyed.db" \
	    "$out/keyed.db-journal" "$out/keyed.changeset"
	r=$("$out/measure" sh -c "exec '$top/$B/crs-stats' --db \
	    '$out/refkit.db' import '$1' >/dev/null" </dev/null)
	f=$(cd "$out" && "$out/measure" sh -c \
	    "sed 's/roster.csv/$(basename "$1")/' '$top/bench/floor-import.sql' | sqlite3 floor.db")
	p=$(cd "$out" && "$out/measure" sh -c \
	    "sed 's/roster.csv/$(basename "$1")/' '$top/bench/peer-import.sql' | sqlite3 peer.db")
	k=$(cd "$out" && "$out/measure" sh -c \
	    "sed 's/roster.csv/$(basename "$1")/' '$top/bench/floor-import-keyed.sql' | sqlite3 -cmd '.load $out/namekey' keyed.db")
	echo "$r $f $p $k"
}

# min A B and max A B, of times and of kilobytes.
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b < a) ? b : a }'; }
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > a) ? b : a }'; }

# Three rounds, the three sides alternating, keeping each side's best
# time and its highest peak.
best() {
	file=$1
	bt_r=999999 bt_f=999999 bt_p=999999 bt_k=999999 mr=0 mf=0 mp=0 mk=0
	for i in 1 2 3; do
		set -- $(one_run "$file")
		bt_r=$(min "$bt_r" "$1") mr=$(max "$mr" "$2")
		bt_f=$(min "$bt_f" "$3") mf=$(max "$mf" "$4")
		bt_p=$(min "$bt_p" "$5") mp=$(max "$mp" "$6")
		bt_k=$(min "$bt_k" "$7") mk=$(max "$mk" "$8")
	done
	echo "$bt_r $mr $bt_f $mf $bt_p $mp $bt_k $mk"
}

mb() { awk -v k="$1" 'BEGIN { print k / 1024 }'; }
set -- $(best "$out/roster-small.csv")
s_mr=$2
set -- $(best "$out/roster.csv")
rows_r=$(sqlite3 "$out/refkit.db" 'SELECT count(*) FROM character')
rows_f=$(sqlite3 "$out/floor.db" 'SELECT count(*) FROM character')
rows_p=$(sqlite3 "$out/peer.db" 'SELECT count(*) FROM sheet')
rows_k=$(sqlite3 "$out/keyed.db" 'SELECT count(*) FROM character')
echo "import of $n characters (best of 3, load average $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '  refkit  crs-stats import          %8.3f s  peak %6.1f MB  (%s rows)\n' \
    "$1" "$(mb "$2")" "$rows_r"
printf '  floor   sqlite3 session+.import   %8.3f s  peak %6.1f MB  (%s rows, changeset %s bytes)\n' \
    "$3" "$(mb "$4")" "$rows_f" "$(wc -c <"$out/floor.changeset")"
printf '  bare    sqlite3 .import+SQL       %8.3f s  peak %6.1f MB  (%s rows)\n' \
    "$5" "$(mb "$6")" "$rows_p"
printf '  keyed   the floor, refkit'"'"'s ids   %8.3f s  peak %6.1f MB  (%s rows, changeset %s bytes)\n' \
    "$7" "$(mb "$8")" "$rows_k" "$(wc -c <"$out/keyed.changeset")"
printf '  ratio refkit / floor              %8.3f (target <= 1.0)\n' \
    "$(awk -v a="$1" -v b="$3" 'BEGIN { print a / b }')"
printf '  ratio refkit / bare               %8.3f\n' \
    "$(awk -v a="$1" -v b="$5" 'BEGIN { print a / b }')"
printf '  ratio refkit / keyed floor        %8.3f\n' \
    "$(awk -v a="$1" -v b="$7" 'BEGIN { print a / b }')"
printf '  refkit peak at %d rows: %.1f MB; at %d rows: %.1f MB\n' \
    "$small" "$(mb "$s_mr")" "$n" "$(mb "$2")"
# Spot check: every side computed the same sheet for one character.
name=$(sed -n 2p "$out/roster.csv" | cut -d, -f1)
echo "  spot check '$name':"
echo "    refkit $("$top/$B/crs-stats" --db "$out/refkit.db" show "$name" --csv | tail -1 | cut -d, -f13-19)"
echo "    floor  $(sqlite3 -csv "$out/floor.db" "SELECT s_or, s_dr, s_mind, s_life, s_in, s_em, s_lb FROM character WHERE name = '$name'")"
echo "    bare   $(sqlite3 -csv "$out/peer.db" "SELECT s_or, s_dr, s_mind, s_life, s_in, s_em, s_lb FROM sheet WHERE name = '$name'")"
echo "    keyed  $(sqlite3 -csv "$out/keyed.db" "SELECT s_or, s_dr, s_mind, s_life, s_in, s_em, s_lb FROM character WHERE name = '$name'") (id the same as refkit's: $(
    [ "$(sqlite3 "$out/keyed.db" "SELECT id FROM character WHERE name = '$name'")" = \
    "$(sqlite3 "$out/refkit.db" "SELECT id FROM character WHERE name = '$name'")" ] && echo yes || echo NO))"

# Reading the sheets back: refkit derives the secondary stats when it
# reads, so time the whole roster out as CSV against the peer's SELECT of
# its stored columns: three rounds, alternating, each side's best time
# and highest peak.  Target (issue #40): a ratio of at most 1.2.
bt_r=999999 bt_p=999999 mr=0 mp=0
for i in 1 2 3; do
	set -- $("$out/measure" sh -c "exec '$top/$B/crs-stats' --db '$out/refkit.db' list --csv >/dev/null") \
	    $("$out/measure" sh -c "exec sqlite3 -csv -header '$out/peer.db' 'SELECT * FROM sheet ORDER BY name' >/dev/null")
	bt_r=$(min "$bt_r" "$1") mr=$(max "$mr" "$2")
	bt_p=$(min "$bt_p" "$3") mp=$(max "$mp" "$4")
done
echo "all $n sheets out as CSV (best of 3, load average $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '  refkit  crs-stats list --csv %8.3f s  peak %6.1f MB\n' "$bt_r" "$(mb "$mr")"
printf '  peer    sqlite3 SELECT       %8.3f s  peak %6.1f MB\n' "$bt_p" "$(mb "$mp")"
printf '  ratio (refkit / peer)        %8.3f (target <= 1.2)\n' \
    "$(awk -v a="$bt_r" -v b="$bt_p" 'BEGIN { print a / b }')"

# crs-draw versus, exact, over the whole grid (in one process, so that
# only the evaluation is timed).  Target: under 50 microseconds each.
cc -O2 -std=c17 -D_DEFAULT_SOURCE -I"$top/src" -o "$out/versus" \
    "$top/bench/versus.c" "$top/$B/librefkit.a" $(pkg-config --libs sqlite3) \
    -lcsv -lm
set -- $("$out/versus")
echo "crs-draw versus, exact, offense 0..40 x defense 0..40 x LB 0..3 each side:"
printf '  %s evaluations in %.3f s: %.2f microseconds each (target < 50)\n' "$1" "$2" "$3"

# Per-invocation latency: crs-draw pick against rolldice 1d10, alternating
# three rounds of 500 runs each and keeping each side's best.
# Debian puts rolldice in /usr/games, which is not always on PATH.
rolldice=$(command -v rolldice || echo /usr/games/rolldice)
if [ -x "$rolldice" ]; then
	br=999999 bp=999999
	for i in 1 2 3; do
		r=$(sh "$top/bench/latency.sh" "$out" "$top/$B/crs-draw" pick)
		p=$(sh "$top/bench/latency.sh" "$out" "$rolldice" 1d10)
		br=$(awk -v a="$br" -v b="$r" 'BEGIN { print (b < a) ? b : a }')
		bp=$(awk -v a="$bp" -v b="$p" 'BEGIN { print (b < a) ? b : a }')
	done
	echo "one pick per process (best of 3 x 500 runs):"
	printf '  refkit  crs-draw pick   %.4f ms\n' "$br"
	printf '  peer    rolldice 1d10   %.4f ms\n' "$bp"
	printf '  ratio (refkit / peer)   %.3f (target <= 1.5)\n' \
	    "$(awk -v a="$br" -v b="$bp" 'BEGIN { print a / b }')"
else
	echo "rolldice is not installed (tools/install-deps.sh installs it)"
fi

for b in ${BENCH_PARTS-combat d6 fb bg merge pg pg-import chain sheets serve convention}; do
	top=$top sh "$top/bench/$b.sh" "$B" "$out"
done
