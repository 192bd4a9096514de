#!/bin/sh
# pg-import.sh BUILD-DIR OUT-DIR: "crs-stats import" of the roster in
# OUT-DIR/roster.csv (bench/run.sh writes it) into a PostgreSQL server,
# against psql's \copy of the same file plus one INSERT ... SELECT
# computing the seven secondary stats (bench/peer-import-pg.sql), timed
# alternately in the same run on the same private server
# (tests/pg/server.sh), each side into a database of its own made anew
# every round.  refkit's database is given its schema before the clock
# starts, as a convention's is before anything is imported; the peer
# makes its one table within its time.  The peer is the real psql
# (Debian's /usr/bin/psql is a Perl script that starts it).  refkit's
# import also records its changes, as a station must (refkit.db(5)); the
# peer records nothing.  refkit's character table keeps both its unique
# indexes, its key's and its name's, as it writes (dropping one to build
# it again would lock every reader of the roster out until the commit);
# a key is a hash of the name, so that the rows come to one of the two
# in no order, where the peer's rows come to both in theirs.  The server
# writes to the disk as a convention's would (fsync on, PG_FSYNC in
# tests/pg/server.sh), for both sides.  Prints both sides' best wall time of three and
# the ratio (issue #22's target: at most 1.0), and a spot check that both
# computed the same sheet.
set -eu
B=$1
out=$2
top=${top:-$(cd "$(dirname "$0")/.." && pwd)}
bin="$top/$B"
csv="$out/roster.csv"
[ -x "$out/measure" ] || cc -O2 -o "$out/measure" "$top/bench/measure.c"
. "$top/tests/pg/server.sh"
PG_FSYNC=on
if ! pg_start; then
	echo "import into PostgreSQL: no server (tools/install-deps.sh installs postgresql)"
	exit 0
fi
uri() { echo "postgresql:///$1?host=$PGHOST&user=$PGUSER"; }

one_run() {
	dropdb --if-exists rk_bench 2>/dev/null
	dropdb --if-exists peer_bench 2>/dev/null
	createdb rk_bench
	createdb peer_bench
	"$bin/crs-stats" --db "$(uri rk_bench)" list >/dev/null
	r=$("$out/measure" sh -c "exec '$bin/crs-stats' --db '$(uri rk_bench)' \
	    import '$csv' >/dev/null" </dev/null)
	p=$(cd "$out" && "$out/measure" "$pg_bin/psql" -X -q \
	    -v ON_ERROR_STOP=1 -d peer_bench \
	    -f "$top/bench/peer-import-pg.sql" </dev/null)
	echo "$r $p"
}

bt_r=999999 bt_p=999999 mr=0 mp=0
for i in 1 2 3; do
	set -- $(one_run)
	bt_r=$(awk -v a="$bt_r" -v b="$1" 'BEGIN { print (b < a) ? b : a }')
	bt_p=$(awk -v a="$bt_p" -v b="$3" 'BEGIN { print (b < a) ? b : a }')
	[ "$2" -gt "$mr" ] && mr=$2
	[ "$4" -gt "$mp" ] && mp=$4
done
rows_r=$(psql -X -At -d rk_bench -c 'SELECT count(*) FROM character')
rows_p=$(psql -X -At -d peer_bench -c 'SELECT count(*) FROM sheet')
n=$(($(wc -l <"$csv") - 1))
echo "import of $n characters into PostgreSQL (best of 3):"
printf '  refkit  crs-stats import     %8.3f s  peak %6.1f MB  (%s rows)\n' \
    "$bt_r" "$(awk -v k="$mr" 'BEGIN { print k / 1024 }')" "$rows_r"
printf '  peer    psql \\copy+SQL       %8.3f s  peak %6.1f MB  (%s rows)\n' \
    "$bt_p" "$(awk -v k="$mp" 'BEGIN { print k / 1024 }')" "$rows_p"
printf '  ratio (refkit / peer)        %8.3f (target <= 1.0)\n' \
    "$(awk -v a="$bt_r" -v b="$bt_p" 'BEGIN { print a / b }')"
name=$(sed -n 2p "$csv" | cut -d, -f1)
echo "  spot check '$name':"
echo "    refkit $("$bin/crs-stats" --db "$(uri rk_bench)" show "$name" --csv | tail -1 | cut -d, -f13-19)"
echo "    peer   $(psql -X -At -F, -d peer_bench -c "SELECT s_or, s_dr, s_mind, s_life, s_in, s_em, s_lb FROM sheet WHERE name = '$name'")"
