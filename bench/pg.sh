#!/bin/sh
# pg.sh BUILD-DIR OUT-DIR: the PostgreSQL benchmarks (issue #22), on a
# private server that tests/pg/server.sh starts (Unix socket only) and
# stops at the end.
#  1. One "crs-combat attack" (in a combat that grows by a round of four
#     events per attack, snapshots as usual): the median wall time of
#     ATTACKS (30) attacks, against the floor of psql -c inserting one row
#     into the same table, the combat ledger's event, timed alternately
#     in the same run.  Target: a ratio of at most 1.5.
#  2. 16 GMs at once, each playing a combat of its own in rounds of init,
#     attack, pass and Clean Up, GM_EVENTS (100) events each: events per
#     second over the whole run, the 99th percentile of one event's wall
#     time, and the CPU time per event of the GMs' processes and the
#     server's together, on the server and on one SQLite file, three
#     runs in turn (BENCH_RUNS), the median run (by events per second)
#     quoted; the floors run PGBENCH_SECONDS (5) each.  GMS (16) is the
#     number of GMs, and of pgbench's clients.  The
#     events in the database afterwards are counted: every one must be
#     there once.  Target: at least 2,000 events per second on the
#     server, none lost.  Two ways:
#      - one crs-combat process per event, as GMs type them (bench/gm.c
#        runs a GM's commands and times each one, so that the timing
#        costs no process inside the interval; part 1 times with it too);
#      - one crs-combat play per GM (issue #40), its commands read from
#        a file: one connection per GM, each command the tool's own;
#        target: at least 0.2 of pgbench with each client connected
#        once, and under 1 ms of the GMs' CPU per event; and against
#        the floor that does the same work on the server
#        (bench/gmfloor.awk: one play event's statements, round trips
#        and locks, by pgbench's clients each connected once);
#      - one connection per GM, each event a transaction that does what
#        the command does with the database (bench/gmlib.c): what the
#        database layer sustains when no process or connection is
#        started per event.
#     CPU is given twice: the GMs' and the server's together, and the
#     GMs' alone.
# 2b. The same 16 GMs, a crs-combat process per event, through PgBouncer
#     in transaction mode (tests/pg/server.sh's, BOUNCER_POOL server
#     connections, 8), against pgbench -C through the same PgBouncer:
#     what a new connection to the pooler costs at best.  Target: at
#     least 0.8 (issue #40).  And against psql -c inserting one row, a
#     process per event as the GMs' are (bench/gm.c runs both), through
#     the same PgBouncer: the floor that starts a process too.
#  3. One attack across a network (issue #40): bench/relay.c delays every
#     byte between the tools and the server (over TCP, with its password)
#     by half a round trip each way, for round trips of 0, 5 and 20 ms
#     (NET_TRIPS).  Timed: one crs-combat attack, a process of its own
#     (NET_ATTACKS, 10, the median), and the same commands typed into
#     one crs-combat play (a round of init, attack, pass and Clean Up,
#     NET_ROUNDS times, the mean a command).  Their time less the same at
#     0 ms, over the trip, is the round trips actually paid, connecting
#     included: what a GM waits for on Wi-Fi.
set -eu
B=$1
out=$2
top=${top:?}
bin="$top/$B"
. "$top/tests/pg/server.sh"
# A convention's server waits for its disk at each commit: so does this one.
PG_FSYNC=on
if ! pg_start tcp; then
	echo "PostgreSQL benchmarks skipped: no server could be started"
	exit 0
fi
# Debian's /usr/bin/psql is a Perl script that picks a cluster, then runs
# the real client: the floor is the real client.
psql="$pg_bin/psql"
"$psql" -qX -c 'CREATE DATABASE bench'
# The machine may be shared: its load says how far to trust the figures.
echo "PostgreSQL benchmarks (load average at the start:" \
    "$(cut -d' ' -f1-3 /proc/loadavg))"
pgdb="host=$PGHOST dbname=bench"
cc -O2 -std=c17 -D_DEFAULT_SOURCE -o "$out/gm" "$top/bench/gm.c"

median() {
	sort -n | awk '{ v[NR] = $1 } END { printf "%.3f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# timed FILE WORD...: runs one command (words given one an argument, none
# with a tab or a newline), its wall time in milliseconds added to FILE.
timed() {
	f=$1
	shift
	printf '%s\t' "$@" | sed 's/\t$//' | "$out/gm" "$out/one.us" 1 >/dev/null
	awk '{ printf "%.3f\n", $1 / 1000 }' "$out/one.us" >>"$f"
}

# ---- 1. one attack against psql's one-row insert ----
c="$bin/crs-combat"
"$bin/crs-stats" --db "$pgdb" add Ann OR=8 DR=10 MIND=6 LIFE=100000 IN=3 \
    LB=2 >/dev/null
"$bin/crs-stats" --db "$pgdb" add Bob OR=7 DR=9 MIND=5 LIFE=100000 IN=1 \
    LB=2 >/dev/null
# The floor's rows go into a combat of their own (of another fighter: a
# fighter is in one open combat at a time).
"$bin/crs-stats" --db "$pgdb" add Cy OR=5 DR=5 LIFE=10 IN=1 >/dev/null
"$c" --db "$pgdb" start Cy >/dev/null
floor=$("$psql" -qAtX -d bench -c 'SELECT max(id) FROM combat')
"$c" --db "$pgdb" start Ann Bob >/dev/null
rm -f "$out/pg.attack" "$out/pg.floor"
cols='(combat_id, seq, round, action, time)'
n=${ATTACKS:-30}
k=0
while [ $k -lt "$n" ]; do
	"$c" --db "$pgdb" init Ann=9 Bob=2 >/dev/null
	timed "$out/pg.attack" "$c" --db "$pgdb" attack Ann Bob
	timed "$out/pg.floor" "$psql" -qX -d bench -c "INSERT INTO event $cols VALUES ($floor, $((k + 100)), 1, 'pass', 0)"
	"$c" --db "$pgdb" pass Bob >/dev/null
	"$c" --db "$pgdb" round >/dev/null
	k=$((k + 1))
done
a=$(median <"$out/pg.attack")
f=$(median <"$out/pg.floor")
rows=$("$psql" -qAtX -d bench -c "SELECT count(*) FROM event WHERE
    combat_id = $floor AND seq >= 100")
echo "crs-combat attack on PostgreSQL (Unix socket), median of $n:"
printf '  refkit  crs-combat attack            %8.3f ms\n' "$a"
printf '  floor   psql -c "INSERT INTO event"  %8.3f ms  (%s rows)\n' "$f" \
    "$rows"
printf '  ratio (refkit / floor)             %8.3f (target <= 1.5)\n' \
    "$(awk -v a="$a" -v b="$f" 'BEGIN { print a / b }')"

# ---- 2. 16 GMs at once ----
per=${GM_EVENTS:-100}
ngm=${GMS:-16}
cc -O2 -std=c17 -D_DEFAULT_SOURCE -DSQLITE_ENABLE_SESSION -I"$top/src" \
    -o "$out/gmlib" "$top/bench/gmlib.c" "$top/$B/schema-pg.o" \
    "$top/$B/librefkit.a" $(pkg-config --libs sqlite3) -lcsv -lgmp -lsodium \
    -lnettle \
    -lm -ldl -pthread
tck=$(getconf CLK_TCK)
pm=$(head -1 "$pg_dir/data/postmaster.pid")
# The CPU seconds of this shell's children that have ended (times, run
# in this shell, not in a subshell of its own), and of the server's
# processes that have ended (each connection's backend).
cpu_here() {
	times >"$out/times"
	sed -n 2p "$out/times" | tr 'ms' '  ' |
	    awk '{ print $1 * 60 + $2 + $3 * 60 + $4 }'
}
cpu_server() { awk -v t="$tck" '{ print ($16 + $17) / t }' "/proc/$pm/stat"; }

# setup DB: 2 x GMS characters and GMS combats, combat g for GM g.
setup() {
	g=1
	while [ $g -le "$ngm" ]; do
		"$bin/crs-stats" --db "$1" add "A$g" OR=8 DR=10 MIND=6 \
		    LIFE=100000 IN=3 LB=2 >/dev/null
		"$bin/crs-stats" --db "$1" add "B$g" OR=7 DR=9 MIND=5 \
		    LIFE=100000 IN=1 LB=2 >/dev/null
		"$c" --db "$1" start "A$g" "B$g" >/dev/null
		g=$((g + 1))
	done
}
# gms HOW DB COUNT KEYS: the GMS GMs on DB, a fresh database whose
# combats are numbered 1 to GMS (KEYS lists their keys in that order);
# HOW is "tool" (a crs-combat per command), "play" (a crs-combat play
# per GM, whose commands are not timed one by one: no p99) or "lib"
# (bench/gmlib.c); COUNT counts the events.  Prints "EVENTS/S P99-MS
# EVENTS LOST CPU-MS-PER-EVENT GM-CPU-MS-PER-EVENT", the CPU of the GMs'
# processes and the server's, then the GMs' alone.
gms() {
	before=$($3)
	$4 >"$out/gm.keys"
	rm -f "$out"/gm.*.us "$out/gm.err"
	cpu_here >"$out/cpu.0"
	s0=$(cpu_server)
	t0=$(date +%s%N)
	g=1
	while [ $g -le "$ngm" ]; do
		if [ "$1" = tool ]; then
			printf '%s\t--db\t%s\t--combat\t%s\t%s\n' \
			    "$c" "$2" $g "init	A$g=9	B$g=2" \
			    "$c" "$2" $g "attack	A$g	B$g" \
			    "$c" "$2" $g "pass	B$g" \
			    "$c" "$2" $g "round" |
			    "$out/gm" "$out/gm.$g.us" "$per" >/dev/null \
			    2>>"$out/gm.err" &
		elif [ "$1" = play ]; then
			k=0
			: >"$out/gm.$g.play"
			while [ $k -lt "$per" ]; do
				printf 'init A%s=9 B%s=2\nattack A%s B%s\npass B%s\nround\n' \
				    $g $g $g $g $g >>"$out/gm.$g.play"
				k=$((k + 4))
			done
			"$c" --db "$2" play $g <"$out/gm.$g.play" >/dev/null \
			    2>>"$out/gm.err" &
		else
			"$out/gmlib" "$2" "$(sed -n ${g}p "$out/gm.keys")" \
			    "A$g" "B$g" "$per" "$out/gm.$g.us" \
			    2>>"$out/gm.err" &
		fi
		g=$((g + 1))
	done
	wait
	t1=$(date +%s%N)
	cpu_here >"$out/cpu.1"
	s1=$(cpu_server)
	c0=$(cat "$out/cpu.0")
	c1=$(cat "$out/cpu.1")
	after=$($3)
	if [ -s "$out/gm.err" ]; then
		echo "a GM's command failed:" >&2
		head -5 "$out/gm.err" >&2
		exit 1
	fi
	[ "$1" = play ] && echo 0 >"$out/gm.1.us"
	cat "$out"/gm.*.us | sort -n | awk -v t0="$t0" -v t1="$t1" \
	    -v ev=$((after - before)) -v want=$((ngm * per)) \
	    -v cpu="$(awk -v a="$c0" -v b="$c1" -v c="$s0" -v d="$s1" \
	    'BEGIN { print b - a + d - c }')" \
	    -v gcpu="$(awk -v a="$c0" -v b="$c1" 'BEGIN { print b - a }')" '
	    { v[NR] = $1 }
	    END { i = int(NR * 0.99 + 0.999999);
		printf "%.1f %.3f %d %d %.2f %.3f\n",
		ev / ((t1 - t0) / 1e9), v[i] / 1000, ev, want - ev,
		ev ? cpu * 1000 / ev : 0, ev ? gcpu * 1000 / ev : 0 }'
}
sqlite="$out/gm.db"
pg_count() { "$psql" -qAtX -d gm -c 'SELECT count(*) FROM event'; }
pg_keys() { "$psql" -qAtX -d gm -c 'SELECT id FROM combat ORDER BY id'; }
sq_count() { sqlite3 "$sqlite" 'SELECT count(*) FROM event'; }
sq_keys() { sqlite3 "$sqlite" 'SELECT id FROM combat ORDER BY id'; }
# The median of the runs by events per second (the upper of two).
mid() { sort -n | awk '{ v[NR] = $0 } END { print v[int(NR / 2) + 1] }'; }
rm -f "$out"/gm.tool.* "$out"/gm.lib.*
runs=${BENCH_RUNS:-3}
for i in $(seq "$runs"); do
	for how in tool play lib; do
		"$psql" -qX -c 'SET client_min_messages = warning' \
		    -c 'DROP DATABASE IF EXISTS gm WITH (FORCE)' -c 'CREATE DATABASE gm'
		setup "host=$PGHOST dbname=gm"
		gms $how "host=$PGHOST dbname=gm" pg_count pg_keys \
		    >>"$out/gm.$how.pg"
		rm -f "$sqlite" "$sqlite-wal" "$sqlite-shm"
		setup "$sqlite"
		gms $how "$sqlite" sq_count sq_keys >>"$out/gm.$how.sq"
	done
done
echo "$ngm GMs at once, $per events each, each GM a combat of its own" \
    "(median of $runs runs):"
printf '  %-34s %9s %9s %7s %5s %9s %9s\n' "" events/s "p99 ms" events lost \
    "CPU ms/ev" "GMs' CPU"
row() {
	label=$1
	set -- $(mid <"$2")
	if [ "$2" = 0.000 ]; then
		printf '  %-34s %9.1f %9s %7d %5d %9.2f %9.3f\n' "$label" "$1" \
		    - "$3" "$4" "$5" "$6"
	else
		printf '  %-34s %9.1f %9.3f %7d %5d %9.2f %9.3f\n' "$label" "$@"
	fi
}
echo "  one crs-combat process per event, as a GM types them:"
row "  PostgreSQL (Unix socket)" "$out/gm.tool.pg"
row "  SQLite file" "$out/gm.tool.sq"
echo "  one crs-combat play per GM (one connection, the tool's commands):"
row "  PostgreSQL (Unix socket)" "$out/gm.play.pg"
row "  SQLite file" "$out/gm.play.sq"
echo "  one connection per GM (bench/gmlib.c, through the library):"
row "  PostgreSQL (Unix socket)" "$out/gm.lib.pg"
row "  SQLite file" "$out/gm.lib.sq"
set -- $(mid <"$out/gm.tool.pg")
tp=$1
set -- $(mid <"$out/gm.tool.sq")
printf '  PostgreSQL / SQLite, one process per event: %.3f (target: %s)\n' \
    "$(awk -v a="$tp" -v b="$1" 'BEGIN { print a / b }')" \
    "PostgreSQL >= 2000 events/s, none lost"
# The floors of the two ways, the server's own: pgbench's 16 clients,
# each transaction one row inserted into a table of the events' width,
# first with a new connection per transaction (-C: what one process per
# event can reach at best, before any process is started), then each
# client connected once.
"$psql" -qX -d gm -c 'CREATE TABLE floor16 (g int, k int, v text)'
echo "INSERT INTO floor16 VALUES (1, 1, 'pass');" >"$out/floor16.sql"
floor_tps() {
	"$pg_bin/pgbench" -n -c "$ngm" -j 2 -T "${PGBENCH_SECONDS:-5}" "$@" \
	    -f "$out/floor16.sql" gm \
	    2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p'
}
echo "  the floors: pgbench, $ngm clients, one INSERT per transaction, ${PGBENCH_SECONDS:-5} s:"
printf '  %-34s %9.1f\n' "  a new connection per transaction" \
    "$(floor_tps -C)"
connected=$(floor_tps)
printf '  %-34s %9.1f\n' "  each client connected once" "$connected"
set -- $(mid <"$out/gm.play.pg")
printf '  play sessions / pgbench connected: %.1f / %.1f = %.4f;' "$1" \
    "$connected" "$(awk -v a="$1" -v b="$connected" 'BEGIN { print a / b }')"
printf ' GMs'"'"' CPU %.3f ms an event (targets: >= 0.2, < 1 ms)\n' "$6"
# The floor that does the same work (bench/gmfloor.awk): the server's
# side of one play event, statement for statement, in the same round
# trips and under the same locks, taken from a traced play session and
# run by pgbench's clients, each connected once and appending to a combat
# of its own; what is left between it and play is the tools' own time.
"$psql" -qX -c 'SET client_min_messages = warning' \
    -c 'DROP DATABASE IF EXISTS gm WITH (FORCE)' -c 'CREATE DATABASE gm'
setup "host=$PGHOST dbname=gm"
first=$(pg_keys | head -1)
if [ "$("$psql" -qAtX -d gm -c 'SELECT max(id) - min(id) FROM combat')" \
    != $((ngm - 1)) ]; then
	echo "the combats' keys do not follow each other: no same-work floor" >&2
	exit 1
fi
rm -f "$out/play.trace"
printf 'init A1=9 B1=2\nattack A1 B1\npass B1\nround\n' |
    REFKIT_PG_TRACE="$out/play.trace" "$c" --db "host=$PGHOST dbname=gm" \
    --combat 1 play >/dev/null
aseq=$("$psql" -qAtX -d gm -c "SELECT seq FROM event WHERE combat_id = $first
    AND action = 'attack'")
LC_ALL=C awk -v seq="$aseq" -v combat="$first" -f "$top/bench/gmfloor.awk" \
    "$out/play.trace" >"$out/gmfloor.sql"
same=$("$pg_bin/pgbench" -n -M prepared -c "$ngm" -j 2 \
    -T "${PGBENCH_SECONDS:-5}" -D base="$first" -f "$out/gmfloor.sql" gm 2>&1 |
    sed -n 's/^tps = \([0-9.]*\).*/\1/p')
printf '  %-34s %9.1f\n' "  the same work (bench/gmfloor.awk)" "$same"
printf '  play sessions / the same work: %.1f / %.1f = %.4f\n' "$1" "$same" \
    "$(awk -v a="$1" -v b="$same" 'BEGIN { print a / b }')"
echo "  (load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"

# ---- 2b. the same GMs through PgBouncer ----
if PG_BOUNCER_POOL=${BOUNCER_POOL:-8} pg_bouncer; then
	bdb="host=$PG_BOUNCER_HOST port=$PG_BOUNCER_PORT dbname=gm"
	rm -f "$out/gm.bouncer.pg"
	for i in $(seq "$runs"); do
		"$psql" -qX -c 'SET client_min_messages = warning' \
		    -c 'DROP DATABASE IF EXISTS gm WITH (FORCE)' -c 'CREATE DATABASE gm'
		setup "$bdb"
		gms tool "$bdb" pg_count pg_keys >>"$out/gm.bouncer.pg"
	done
	"$psql" -qX -d gm -c 'CREATE TABLE floor16 (g int, k int, v text)'
	echo "$ngm GMs through PgBouncer (transaction mode, a pool of" \
	    "${BOUNCER_POOL:-8} server connections; median of $runs runs):"
	row "  a crs-combat process per event" "$out/gm.bouncer.pg"
	bfloor=$("$pg_bin/pgbench" -n -c "$ngm" -j 2 -T "${PGBENCH_SECONDS:-5}" \
	    -C -h "$PG_BOUNCER_HOST" -p "$PG_BOUNCER_PORT" \
	    -f "$out/floor16.sql" gm 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
	printf '  %-34s %9.1f\n' "  floor: pgbench -C through it" "$bfloor"
	# The floor that also starts a process per event, as a GM's
	# command does: psql -c, one row inserted, each GM's run by
	# bench/gm.c as the tools are, through the same PgBouncer.
	rm -f "$out"/psql.*.us
	t0=$(date +%s%N)
	g=1
	while [ $g -le "$ngm" ]; do
		printf '%s\t-qX\t-h\t%s\t-p\t%s\t-d\tgm\t-c\t%s\n' "$psql" \
		    "$PG_BOUNCER_HOST" "$PG_BOUNCER_PORT" \
		    "INSERT INTO floor16 VALUES ($g, 1, 'pass')" |
		    "$out/gm" "$out/psql.$g.us" "$per" >/dev/null &
		g=$((g + 1))
	done
	wait
	t1=$(date +%s%N)
	pfloor=$(awk -v n=$((ngm * per)) -v a="$t0" -v b="$t1" \
	    'BEGIN { printf "%.1f", n / ((b - a) / 1e9) }')
	printf '  %-34s %9.1f\n' "  floor: psql -c per event" \
	    "$pfloor"
	set -- $(mid <"$out/gm.bouncer.pg")
	printf '  ratio (refkit / floor) %.1f / %.1f = %.4f (target >= 0.8)\n' \
	    "$1" "$bfloor" "$(awk -v a="$1" -v b="$bfloor" 'BEGIN { print a / b }')"
	printf '  ratio (refkit / psql -c per event) %.1f / %.1f = %.4f\n' \
	    "$1" "$pfloor" "$(awk -v a="$1" -v b="$pfloor" 'BEGIN { print a / b }')"
else
	echo "PgBouncer did not start: no figure through it"
fi

# ---- 3. one attack across a network ----
cc -O2 -std=c17 -D_DEFAULT_SOURCE -o "$out/relay" "$top/bench/relay.c"
"$psql" -qX -c 'CREATE DATABASE net'
netdb="host=$PGHOST dbname=net"
"$bin/crs-stats" --db "$netdb" add Ann OR=8 DR=10 MIND=6 LIFE=100000 \
    IN=3 LB=2 >/dev/null
"$bin/crs-stats" --db "$netdb" add Bob OR=7 DR=9 MIND=5 LIFE=100000 \
    IN=1 LB=2 >/dev/null
"$c" --db "$netdb" start Ann Bob >/dev/null
nk=${NET_ATTACKS:-10}
nr=${NET_ROUNDS:-5}
rport=$((PG_TCP_PORT + 1))
echo "one attack across a network (bench/relay.c; TCP, password):"
printf '  %-8s %12s %12s %14s %14s\n' "trip" "attack" "paid trips" \
    "play, a cmd" "paid trips"
for d in ${NET_TRIPS:-0 5 20}; do
	"$out/relay" "$rport" "$PG_TCP_PORT" \
	    "$(awk -v d="$d" 'BEGIN { print d / 2 }')" &
	relay=$!
	sleep 0.2
	url="postgresql://$PGUSER:$PG_PASSWORD@127.0.0.1:$rport/net"
	rm -f "$out/net.attack"
	k=0
	while [ $k -lt "$nk" ]; do
		"$c" --db "$netdb" init Ann=9 Bob=2 >/dev/null
		timed "$out/net.attack" "$c" --db "$url" attack Ann Bob
		"$c" --db "$netdb" pass Bob >/dev/null
		"$c" --db "$netdb" round >/dev/null
		k=$((k + 1))
	done
	a=$(median <"$out/net.attack")
	k=0
	: >"$out/net.play"
	while [ $k -lt "$nr" ]; do
		printf 'init Ann=9 Bob=2\nattack Ann Bob\npass Bob\nround\n' \
		    >>"$out/net.play"
		k=$((k + 1))
	done
	t0=$(date +%s%N)
	"$c" --db "$url" play <"$out/net.play" >/dev/null
	t1=$(date +%s%N)
	kill "$relay" 2>/dev/null || :
	wait "$relay" 2>/dev/null || :
	p=$(awk -v a="$t0" -v b="$t1" -v n="$((4 * nr))" \
	    'BEGIN { printf "%.3f", (b - a) / n / 1e6 }')
	if [ "$d" = 0 ]; then
		a0=$a
		p0=$p
	fi
	printf '  %5s ms %9.3f ms %12s %11.3f ms %14s\n' "$d" "$a" \
	    "$(awk -v a="$a" -v z="${a0:-$a}" -v d="$d" \
	    'BEGIN { if (d > 0) printf "%.1f", (a - z) / d; else print "-" }')" \
	    "$p" "$(awk -v a="$p" -v z="${p0:-$p}" -v d="$d" \
	    'BEGIN { if (d > 0) printf "%.1f", (a - z) / d; else print "-" }')"
done
echo "  (paid trips: connecting (TCP, startup, password: about 4) and the"
echo "  command's own; tests/pg/db-trips.sh counts the command's alone)"

