#!/bin/sh
# db-appenders.sh BUILD-DIR: who waits for whom among writers on a server
# (issue #22; refkit.db(5), "PostgreSQL").  On a private server
# (tests/pg/server.sh), a psql session of its own holds one of refkit's
# advisory locks in an open transaction, and the tools are run against
# it; whether a command waits is read from the server (pg_locks: a
# backend waiting for an advisory lock), never from a clock.
#   - The writers' lock held shared, as an appender holds it: an attack in
#     a combat goes through; a new character (crs-stats add, which takes
#     the lock alone) waits until the holder ends, then is written.
#   - The writers' lock held alone, as a join holds it: an attack waits.
#   - The lock of new keys and of changes held, as an appender holds it
#     from its first new row: an attack reads its combat, then waits; a
#     reading command (status) does not.
#   - Two attacks in two combats, each held at that last lock, are both
#     waiting at once (neither waits for the other's combat), and both are
#     written, gapless, once the lock is let go.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"
pg_setup db-appenders
work=$PG_WORK
chmod 777 "$work"
psql="$pg_bin/psql"
"$psql" -qX -c 'CREATE DATABASE app'
db="host=$PGHOST dbname=app"
export LC_ALL=C
writers=1380338516
keys=1380338499

c() { "$bin/crs-combat" --db "$db" "$@"; }

for n in A B C D; do
	"$bin/crs-stats" --db "$db" add "$n" OR=8 DR=10 MIND=6 LIFE=1000 \
	    IN=3 LB=2 >/dev/null
done
c start A B >/dev/null
c start C D >/dev/null
# A station numbers its own combats 1, 2 ...
key1=1
key2=2
one=$(pg_q app 'SELECT id FROM combat ORDER BY id LIMIT 1')
two=$(pg_q app 'SELECT id FROM combat ORDER BY id DESC LIMIT 1')
[ "$(pg_q app 'SELECT count(*) FROM combat')" = 2 ] && ok || bad "two combats"
c --combat "$key1" init A=9 B=2 >/dev/null
c --combat "$key2" init C=9 D=2 >/dev/null

# holding: true while the holder's session holds its lock.
holding() {
	[ "$(pg_q app "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a
	    USING (pid) WHERE a.application_name = 'holder' AND
	    l.locktype = 'advisory' AND l.granted")" = 1 ]
}
# hold FN KEY: a session (pg_hold) that holds advisory lock KEY (FN
# pg_advisory_xact_lock or its _shared form) until pg_release.
hold() { pg_hold app "SELECT $1($2)"; }
# waiting N: true once N backends (not the holder's) wait for an
# advisory lock; false if that is not so within ten seconds.
waiting() {
	pg_until app "SELECT count(*) FROM pg_locks WHERE locktype =
	    'advisory' AND NOT granted" "$1" 100
}
events() { pg_q app "SELECT count(*) FROM event WHERE combat_id = $1"; }

# ---- the writers' lock held shared ----
hold pg_advisory_xact_lock_shared $writers
before=$(events "$one")
if c --combat "$key1" attack A B --card 5 --vs-card 3 >"$work/a.out" \
    2>&1 && [ "$(events "$one")" -eq $((before + 1)) ] && holding; then
	ok
else
	bad "an attack waited for a shared writers' lock: $(cat "$work/a.out")"
fi
"$bin/crs-stats" --db "$db" add E OR=8 DR=10 MIND=6 LIFE=10 IN=3 LB=2 \
    >"$work/add.out" 2>&1 &
adder=$!
waiting 1 && ok || bad "crs-stats add did not wait for the shared lock"
[ "$(pg_q app "SELECT count(*) FROM character WHERE name = 'E'")" = 0 ] && ok ||
    bad "crs-stats add wrote under a shared lock"
pg_release
wait "$adder" && [ "$(pg_q app "SELECT count(*) FROM character WHERE
    name = 'E'")" = 1 ] && ok || bad "crs-stats add: $(cat "$work/add.out")"

# ---- the writers' lock held alone ----
hold pg_advisory_xact_lock $writers
c --combat "$key1" pass B >"$work/p.out" 2>&1 &
passer=$!
waiting 1 && ok || bad "a pass did not wait for the writers' lock held alone"
pg_release
wait "$passer" && ok || bad "the pass: $(cat "$work/p.out")"

# ---- the lock of new keys and changes ----
hold pg_advisory_xact_lock $keys
b1=$(events "$one")
b2=$(events "$two")
c --combat "$key1" round >"$work/r1.out" 2>&1 &
r1=$!
c --combat "$key2" attack C D --card 7 --vs-card 2 >"$work/r2.out" 2>&1 &
r2=$!
waiting 2 && ok || bad "two appenders in two combats were not both waiting"
if c --combat "$key1" status >/dev/null 2>"$work/s.out"; then ok; else
	bad "status waited or failed: $(cat "$work/s.out")"
fi
[ "$(events "$one")" = "$b1" ] && [ "$(events "$two")" = "$b2" ] && ok ||
    bad "an appender wrote while the lock of changes was held"
pg_release
wait "$r1" && wait "$r2" && ok ||
    bad "the appenders: $(cat "$work/r1.out" "$work/r2.out")"
for id in "$one" "$two"; do
	[ "$(pg_q app "SELECT count(*) = max(seq) AND count(DISTINCT seq) = count(*)
	    FROM event WHERE combat_id = $id")" = t ] && ok ||
	    bad "combat $id: its events are not 1..N"
done
[ "$(pg_q app 'SELECT count(*) = max(no) FROM change')" = t ] && ok ||
    bad "the changes are not numbered 1..N"
c --combat "$key1" replay >/dev/null && c --combat "$key2" replay \
    >/dev/null && ok || bad "replay"
tally_done
