#!/bin/sh
# db-migrate-big.sh BUILD-DIR [EVENTS [UNKEYED]]: version-7 databases of
# many combat events migrated to this version in flat memory (issue #37).
#
# A database is made as a version-7 refkit left one: the tables and
# columns of later versions (histories, snapshots, stations, the record
# of changes, removals, chains, seals, the events' hashes) are dropped
# from a new database, and N / 100 combats of 100 attacks among 2,000
# characters written straight into it by the sqlite3 shell.  Two such
# databases are migrated by one command each:
#   - EVENTS (1,000,000) events whose ids are keys already, as
#     bench/combat.sh makes them: the migration adds up the histories (8)
#     and chains every event (15), recorded as the station's changes;
#   - UNKEYED (100,000) events with the small ids of a time before keys,
#     which step 11 gives keys, recorded too (a delete and an insert of
#     every event: three times the bytes of the chains a row; kept
#     smaller so that the part ends in about three minutes with the
#     first on two cores, most of it the disk's).
# Checked for each: the command exits 0 with a peak resident memory under
# 64 MB (MIGRATE_PEAK_KB, 65536; /usr/bin/time's %M), every event has its
# key and its hash, the changes are recorded in several parts each under
# 16 MB, and refkit verify --no-replay finds every chain whole (the
# generated attacks are not a game that replays).  Prints the wall times
# and peaks.
set -u
B=$1
n_keyed=${2:-1000000}
n_unkeyed=${3:-100000}
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset REFKIT_DB REFKIT_NOW
export LC_ALL=C TZ=UTC REFKIT_STATION=hall
limit=${MIGRATE_PEAK_KB:-65536}
. "$top/tests/lib/tally.sh"
tally stress/db-migrate-big
q() { sqlite3 "$db" "$1"; }
latest=$(sed -n 's/^#define DB_SCHEMA_VERSION[[:space:]]*\([0-9]*\).*/\1/p' \
    "$top/src/db/db_base.h")

# migrate N BASE WHAT: makes the version-7 database of N events whose ids
# start at BASE + 1, migrates it and checks it.
migrate() {
n=$1
K=$2
what=$3
db=$tmp/v7.db
rm -f "$db" "$db-wal" "$db-shm"

"$bin/crs-stats" --db "$db" list >/dev/null || bad "cannot make a database"
sqlite3 "$db" <<SQL
DROP TABLE history; DROP TABLE history_combat; DROP TABLE snapshot;
DROP TABLE station_self; DROP TABLE gone; DROP TABLE change_staged;
DROP TABLE change_rest; DROP TABLE change;
DROP TABLE seal_log; DROP TABLE seal; DROP TABLE seal_secret;
DROP TABLE station; DROP TABLE chain;
DROP INDEX event_by_gm; DROP INDEX fb_event_by_gm; DROP INDEX bg_event_by_gm;
ALTER TABLE fb_event DROP COLUMN gm; ALTER TABLE bg_event DROP COLUMN gm;
ALTER TABLE bg_game DROP COLUMN gm;
ALTER TABLE event DROP COLUMN hash; ALTER TABLE fb_event DROP COLUMN hash;
ALTER TABLE bg_event DROP COLUMN hash; ALTER TABLE d6_roll DROP COLUMN hash;
PRAGMA user_version = 7;
BEGIN;
INSERT INTO combat (id, rules, created)
  WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c
    WHERE i < $n / 100)
  SELECT $K + i, 'crs', 1790000000 + i FROM c;
INSERT INTO event (id, combat_id, seq, round, action, actor, target, range,
  cards, vs_cards, base, vs_base, offense, defense, hit, damage,
  life_before, life_after, fumble, vs_fumble, time)
  WITH RECURSIVE e(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM e
    WHERE i < $n - 1)
  SELECT $K + 1 + i, $K + 1 + i / 100, 1 + i % 100, 1 + (i % 100) / 4, 'attack',
    'Fighter ' || ((i * 7919) % 2000),
    'Fighter ' || ((i * 104729 + 1) % 2000),
    'short', '7', '5', 8, 9, 15, 14, 1, 1, 50, 49, (i % 9 = 0), 0,
    1790000000 + i
  FROM e;
COMMIT;
SQL
[ "$(q 'SELECT count(*) FROM event')" = "$n" ] &&
    [ "$(q 'PRAGMA user_version')" = 7 ] && ok ||
    bad "the version-7 database was not made"

/usr/bin/time -f '%M %e' -o "$tmp/time" "$bin/crs-combat" --db "$db" \
    history --char 'Fighter 1234' >/dev/null 2>"$tmp/err"
rc=$?
set -- $(tail -1 "$tmp/time")
kb=${1:-0}
secs=${2:-?}
printf 'stress/db-migrate-big: %d events (%s) from version 7: %s s, peak %d KB\n' \
    "$n" "$what" "$secs" "$kb"
[ "$rc" -eq 0 ] && ok || bad "the migration exited $rc: $(head -3 "$tmp/err")"
[ "$kb" -gt 0 ] && [ "$kb" -lt "$limit" ] && ok ||
    bad "peak memory $kb KB, not under $limit KB"
[ "$(q 'PRAGMA user_version')" = "$latest" ] && ok ||
    bad "not at the current version"
[ "$(q 'SELECT count(*) FROM event WHERE id >= 4611686018427387904 AND
    combat_id >= 4611686018427387904 AND hash IS NOT NULL')" = "$n" ] &&
    ok || bad "not every event has its key and its hash"
# The record: several parts, each well under what one changeset holds.
set -- $(q "SELECT count(*), max(length(data)) FROM change" | tr '|' ' ')
[ "${1:-0}" -gt 1 ] && [ "${2:-0}" -lt 16777216 ] && ok ||
    bad "the changes are not in parts under 16 MB (${1:-0}, largest ${2:-?})"
printf 'stress/db-migrate-big: the changes in %s parts, the largest %s bytes\n' \
    "${1:-?}" "${2:-?}"
if "$bin/refkit" --db "$db" verify --no-replay >"$tmp/verify" 2>&1; then
	ok
else
	bad "refkit verify: $(tail -2 "$tmp/verify")"
fi
}

migrate "$n_keyed" 4611686018427387904 "ids that are keys"
migrate "$n_unkeyed" 0 "ids before keys"
tally_done
