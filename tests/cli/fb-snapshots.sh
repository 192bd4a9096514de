# fb-duel snapshots: a duel's state is stored after every second event
# here (REFKIT_SNAPSHOT_EVERY), the commands derive from the newest, an
# undo drops those it reaches back past, and replay compares each with
# the state it reaches from the first event: it finds one edited with
# sqlite3, and the damaged one is passed over by the other commands.
export REFKIT_NOW=1795400000 REFKIT_SNAPSHOT_EVERY=2
snaps() {
	echo "$ sql 'SELECT kind, log, seq FROM snapshot'"
	sql "SELECT kind, log % 2147483648, seq FROM snapshot ORDER BY seq"
}
run fb-duel sheet add Ann --side light --hand right --colour blue
run fb-duel sheet add Bob --side dark --hand left
run fb-duel start Ann Bob
run fb-duel round --init 5,2 --choose torso --pull Bob:center=2,left=1 --pull Ann:right=1 --hit 3,3 --block 4,4
run fb-duel round --init 2,5 --pass
run fb-duel round --init 5,2 --pass
run fb-duel round --init 2,5 --pass
run fb-duel round --init 6,1 --target-die 1 --hit 1,1 --block 6,6 --damage 2
snaps
run fb-duel status
run fb-duel replay
# Two undos: the second reaches back past the snapshot after event 6.
run fb-duel undo
run fb-duel undo
snaps
run fb-duel status
run fb-duel replay 1
# Edit the snapshot after event 2: Ann becomes Anx in it.
echo "$ sql 'UPDATE snapshot ...'"
# (The state begins 02 04 'Ann': a version byte and the name's length.)
if on_pg; then
	sql "UPDATE snapshot SET state = overlay(state placing 'x' from 5) WHERE seq = 2"
else
	sql "UPDATE snapshot SET state = CAST(substr(state, 1, 4) || 'x' || substr(state, 6) AS BLOB) WHERE seq = 2"
fi
run fb-duel replay
run fb-duel --duel 1 replay
run fb-duel replay 2
run fb-duel replay 1 2
# A snapshot that does not read back is passed over.
echo "$ sql 'UPDATE snapshot SET state = substr(state, 1, 1)'"
sql "UPDATE snapshot SET state = substr(state, 1, 1)"
run fb-duel status
run fb-duel replay
run fb-duel log
