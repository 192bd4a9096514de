# refkit verify and refkit head (issue #24): every ledger's hash chain.
# An untouched database verifies clean; then, one at a time on a copy of
# it, an event of each ledger is changed, removed, added and moved with
# the database's own shell, and verify names each by log and seq, exits 1
# and changes nothing.  A head written down before still verifies after
# more events, and not after a change.
# On SQLite only: the database is put back after each change by copying
# its file (tests/pg/trust-verify.sh runs verify on a server).
export REFKIT_NOW=1795400000
cd "$T" || exit 1
if on_pg; then
	echo "skip: puts the database back by copying its file"
	exit 0
fi
# The heads' hashes hold the logs' keys, which hold the station's tag:
# masked, as is the hash over all heads.
mask() {
	sed -e 's/rolls [0-9a-f]\{8\}/rolls <TAG>/' \
	    -e 's/^head [0-9a-f]\{16\}/head <DIGITS>/' \
	    -e 's/--head [0-9a-f]\{16\}/--head <DIGITS>/' \
	    -e 's/\(event\|roll \) *\([0-9]*\) *\([0-9a-f]\{4\} \)\{7\}[0-9a-f]\{4\}/\1 \2 <HASH>/' \
	    -e 's/\(all heads *([0-9]* logs\{0,1\}) *\)\([0-9a-f]\{4\} \)\{7\}[0-9a-f]\{4\}/\1<HASH>/'
}
crs-stats add Fred OR=8 DR=12 MIND=4 LIFE=90 IN=4 LB=1 >/dev/null
crs-stats add John OR=6 DR=6 MIND=7 LIFE=90 IN=2 LB=2 >/dev/null
crs-combat start Fred John >/dev/null
for i in 1 2 3; do
	crs-combat init Fred=5 John=3 >/dev/null
	crs-combat --seed $i attack Fred John >/dev/null
	crs-combat attack John Fred --card $((i + 3)) --vs-card 7 >/dev/null
	crs-combat round >/dev/null
done
fb-duel sheet add Ann --side light --hand right --colour blue >/dev/null
fb-duel sheet add Bob --side dark --hand left >/dev/null
fb-duel start Ann Bob >/dev/null
fb-duel round --init 5,2 --choose torso --hit 3,3 --block 4,4 >/dev/null
fb-duel --seed 7 round >/dev/null
fb-duel --seed 8 round >/dev/null
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" .
bg-board team add Red --file red.team >/dev/null
bg-board team add Blue --file blue.team >/dev/null
bg-board new Red Blue >/dev/null
bg-board place Galactus d1 >/dev/null
bg-board place Thor c1 >/dev/null
d6-roll char add Luke dexterity=3D+2 perception=3D cp=5 fp=1 >/dev/null
for i in 1 2 3 4; do
	d6-roll char roll Luke perception --seed $i >/dev/null
done

echo '# Untouched: every chain holds and every log replays.'
run refkit verify
run refkit --json verify --combat 1
run refkit head | mask
head=$(refkit head | awk '/^combat 1 /{ print $5 $6 $7 $8 }')
all=$(refkit head | awk '/^all heads/{ print $5 $6 $7 $8 }')
run refkit verify --head "$head" | mask
run refkit verify --head "$all" | mask
run refkit head --duel 1 | mask

# tamper SQL...: runs the statements, verify, and puts the database back.
# Each statement is printed first.  The snapshots go first: a cache, whose
# disagreements with a tampered log would only repeat what the chain
# says, and which REFKIT_SNAPSHOT_EVERY (make check-full) multiplies.
tamper() {
	set -- "DELETE FROM snapshot" "$@"
	for s in "$@"; do
		echo "$ sql $s"
		sql "$s"
	done
	snap
	run refkit verify | mask
	unchanged
	restore
}
cp "$REFKIT_DB" saved.db
restore() { cp saved.db "$REFKIT_DB"; }

echo '# A drawn hit rewritten as a physical miss, cards and outcome alike.'
tamper "UPDATE event SET virt = 0, vs_virt = 0, cards = '5', hit = 0,
    damage = 0, life_after = life_before WHERE seq = 5"
echo '# An event removed from the middle, and the last one.'
tamper "DELETE FROM event WHERE seq = 6"
tamper "DELETE FROM fb_event WHERE seq = (SELECT max(seq) FROM fb_event)"
echo '# Two events swapped.'
tamper "UPDATE event SET seq = 100 WHERE seq = 5" \
    "UPDATE event SET seq = 5 WHERE seq = 6" \
    "UPDATE event SET seq = 6 WHERE seq = 100"
echo '# An event added by hand, and a hash taken away.'
tamper "INSERT INTO bg_event (id, game_id, seq, turn, action, actor, input,
    detail, time) SELECT id + 1000, game_id, 3, turn, action, actor, input,
    detail, time FROM bg_event WHERE seq = 1"
tamper "UPDATE bg_event SET hash = NULL WHERE seq = 1"
echo '# A D6 roll rewritten; the rolls of a station are one chain.'
tamper "UPDATE d6_roll SET total = total + 10 WHERE id % 2147483648 = 2"
tamper "DELETE FROM d6_roll WHERE id % 2147483648 = 4"
echo '# A whole combat removed: its head remains.'
tamper "DELETE FROM history_combat" "DELETE FROM history" \
    "DELETE FROM snapshot" "DELETE FROM event" "DELETE FROM combat"
echo '# And its head with it: only a head written down shows it.'
tamper "DELETE FROM history_combat" "DELETE FROM history" \
    "DELETE FROM snapshot" "DELETE FROM event" "DELETE FROM combat" \
    "DELETE FROM chain WHERE kind = 'combat'"
sql "DELETE FROM history_combat; DELETE FROM history; DELETE FROM snapshot;
    DELETE FROM event; DELETE FROM combat; DELETE FROM chain WHERE kind =
    'combat'"
run refkit verify --head "$all" | mask
restore

echo '# New events after the head was written down: it still verifies.'
crs-combat init Fred=5 John=3 >/dev/null
crs-combat attack Fred John --card 9 --vs-card 2 >/dev/null
run refkit verify --head "$head" | mask
run refkit verify --head "$all" | mask
echo '# The options refused.'
run refkit verify --combat 1 --all
run refkit verify --combat 1 --duel 1
run refkit verify --head xyz
run refkit verify --head 12ab
run refkit verify extra
run refkit head --all
