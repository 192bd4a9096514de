# Sealed draws (refkit seal, reveal, verify --seed-file; refkit(7), "Trust"):
# a sealed event of some hundreds of virtual draws across crs-combat,
# fb-duel, bg-board and d6-roll verifies against the revealed seed; a
# changed card or die is named by its log and seq; a wrong seed is
# refused by the commitment; one combat's key verifies that combat
# alone.  The station's id and the seed are fixed (the seed through
# REFKIT_TEST_SEAL_SEED, which only the tests set), so every draw is.
export REFKIT_NOW=1795000000
cd "$T" || exit 1
ID=8123456789abcdef0123456789abcdef
SEED=00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
refkit station >/dev/null
if on_pg; then
	sql "BEGIN; SET CONSTRAINTS ALL DEFERRED; UPDATE station SET id = '$ID';
	    UPDATE station_self SET id = '$ID'; COMMIT"
else
	sql "UPDATE station SET id = '$ID'; UPDATE station_self SET id = '$ID'"
fi
REFKIT_TEST_SEAL_SEED=$SEED run refkit seal
# The commitment is SHA-256 of the seed's bytes and the station's id.
{ perl -e 'print pack("H*", $ARGV[0])' "$SEED"; printf %s "$ID"; } |
    sha256sum | cut -d' ' -f1
run refkit seal
sql "SELECT count(*) FROM seal_secret WHERE revealed IS NULL"
sql "SELECT commitment, station, revealed FROM seal"

# The roster, a combat, and --seed refused where it would bypass the seal.
crs-stats add Ann STR=12 AGI=16 CUN=14 INT=10 CHA=12 CON=10 >/dev/null
crs-stats add Bob STR=12 AGI=12 CUN=14 INT=10 CHA=12 CON=10 >/dev/null
run crs-combat start Ann Bob
run crs-combat init
run crs-combat attack Ann Bob --seed 5
run crs-combat attack Ann Bob
# A command that writes nothing keeps its --seed.
run crs-draw pick --seed 5
d6-roll char add Luke dexterity=3D+2 dexterity.blaster=5D perception=3D \
    strength=2D+2 cp=5 fp=1 >/dev/null
run d6-roll Luke blaster --seed 3
run d6-roll 3D+1 --seed 3
# Physical cards typed in are drawn from nobody's seed.
run crs-combat attack Bob Ann --card 8 --vs-card 3
crs-combat round >/dev/null
crs-combat end --agreed >/dev/null

# The event: combats, duels, a game and rolls, every draw from the seal.
# The bulk of it goes through play, one process for the lot (each line is
# still its one-shot command), so that it stays quick under valgrind; a
# line the rules refuse (the one of each pair of attacks that is out of
# turn, a round after someone is down) is refused and the next goes on.
c=0
while [ $c -lt 4 ]; do
	echo "start Ann Bob"
	n=0
	while [ $n -lt 15 ]; do
		printf 'init\nattack Ann Bob\nattack Bob Ann\nattack Ann Bob\n'
		echo round
		n=$((n + 1))
	done
	echo "end --agreed"
	c=$((c + 1))
done | crs-combat play >/dev/null 2>&1
fb-duel sheet add Ann --side light --hand right --colour blue >/dev/null
fb-duel sheet add Bob --side dark --hand left >/dev/null
fb-duel start Ann Bob >/dev/null
run fb-duel round --seed 4
d=0
while [ $d -lt 5 ]; do
	echo "start Ann Bob"
	n=0
	while [ $n -lt 20 ]; do
		echo round
		n=$((n + 1))
	done
	d=$((d + 1))
done | fb-duel play >/dev/null 2>&1
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" .
bg-board team add Red --file red.team >/dev/null
bg-board team add Blue --file blue.team >/dev/null
bg-board new Red Blue >/dev/null
for m in "place Rogue f2" "place Galactus d1" "place Thor d1" \
    "move Iceman a3" "move Toad a5" "move Iceman a4"; do
	bg-board $m >/dev/null
done
# A battle: the roll-off typed in, the Battle Dice from the seal.
run bg-board move Toad a4 --stat-roll 4,2
run bg-board move Abomination a5 --seed 2
i=0
while [ $i -lt 20 ]; do
	d6-roll Luke blaster --opposed 4D >/dev/null
	i=$((i + 1))
done
sql "SELECT kind, count(*), min(first_seq), count(last_seq) FROM seal_log
    GROUP BY kind ORDER BY kind"

# One combat's key, revealed during the event: that combat alone.
run refkit reveal --combat 3
refkit reveal --combat 3 >c3.key
run refkit verify --combat 3 --seed-file c3.key

# After the event: the seed, and every draw checked against it.
run refkit reveal
refkit reveal 2>/dev/null
sql "SELECT seed FROM seal_secret" >seed.txt
run refkit verify --seed-file seed.txt
sql "SELECT kind, count(*), count(last_seq) FROM seal_log GROUP BY kind
    ORDER BY kind"
sql "SELECT count(*) FROM seal WHERE revealed IS NOT NULL"
# The station draws from the operating system again: --seed is back.
run d6-roll Luke blaster --seed 3

# A wrong seed is refused by the commitment, nothing checked.
echo 00112233445566778899aabbccddeeff00112233445566778899aabbccddeef0 >bad.txt
run refkit verify --seed-file bad.txt
# A combat's key given for another combat.
sed 's/-3 /-4 /' c3.key >c4.key
run refkit verify --seed-file c4.key
# The draws are checked by replaying them: not with --no-replay.
run refkit verify --seed-file seed.txt --no-replay

# A changed card, a changed die of each ledger: each named.  (The
# snapshots, a cache, go first: they would only repeat it, more of them
# with REFKIT_SNAPSHOT_EVERY.)
sql "DELETE FROM snapshot"
sql "UPDATE event SET cards = CASE WHEN cards = '2' THEN '3' ELSE '2' END
    WHERE id = (SELECT min(id) FROM event WHERE combat_id = (SELECT min(id)
    FROM combat) + 1 AND action = 'attack' AND virt = 1)"
sql "UPDATE fb_event SET input = replace(input, '--hit 5,', '--hit 6,')
    WHERE id = (SELECT min(id) FROM fb_event WHERE seed IS NOT NULL
    AND input LIKE '%--hit 5,%')"
sql "UPDATE bg_event SET input = replace(input, '--roll 3,', '--roll 4,')
    WHERE id = (SELECT min(id) FROM bg_event WHERE seed IS NOT NULL)"
sql "UPDATE d6_roll SET detail = replace(detail, '\"dice\":[', '\"dice\":[6,')
    WHERE id = (SELECT min(id) FROM d6_roll) + 9"
run refkit verify --seed-file seed.txt
# The combat revealed alone was not touched.
run refkit verify --combat 3 --seed-file c3.key

# A new seal for the next event.
REFKIT_TEST_SEAL_SEED=$(echo "$SEED" | tr 0 f) run refkit seal
run refkit --json reveal --duel 2
run refkit verify --seed-file seed.txt

# Usage.
run refkit seal --seed-file seed.txt
run refkit verify --rolls
run refkit station --seed-file seed.txt
run refkit reveal --combat 3 --duel 1
run refkit reveal --combat nothing
run refkit verify --seed-file nowhere

# A log's record of its seal removed: its draws still hold the seeds the
# seal gives their places, which names it.
sql "DELETE FROM seal_log WHERE kind = 'combat' AND log = (SELECT max(log)
    FROM seal_log WHERE kind = 'combat' AND commitment = (SELECT
    min(commitment) FROM seal WHERE revealed IS NOT NULL))"
sql "DELETE FROM seal_log WHERE kind IN ('game', 'rolls') OR (kind = 'duel'
    AND log = (SELECT min(log) FROM seal_log WHERE kind = 'duel'))"
run refkit verify --seed-file seed.txt
