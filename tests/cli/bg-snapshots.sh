# bg-board snapshots: with one after every second event, the state comes
# from the newest snapshot; an undo drops those from the event it takes
# back; replay compares every snapshot with the state it reaches, and
# finds one edited with sqlite3, and one whose bytes do not read back,
# which commands pass over.  The interval is set here, so that the
# output is the same whatever REFKIT_SNAPSHOT_EVERY the suite runs with.
export REFKIT_NOW=1795400000 REFKIT_SNAPSHOT_EVERY=2
cd "$T" || exit 1
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" .
bg-board team add Red --file red.team >/dev/null
bg-board team add Blue --file blue.team >/dev/null
run bg-board new Red Blue
run bg-board move Rogue a3
run bg-board move Toad a5
run bg-board move Rogue a4
run bg-board move Toad a4 --stat-roll 5,2 --roll 1 --vs-roll 6
run bg-board die Blue 2
run bg-board pass
run sql "SELECT log % 2147483648, seq, length(state) FROM snapshot ORDER BY log, seq"
run bg-board replay
# The undo takes back the pass (event 6) from the snapshot after 4.
run bg-board undo
run sql "SELECT seq FROM snapshot ORDER BY log, seq"
run bg-board move Rogue a5
run bg-board show --plain
run sql "SELECT seq FROM snapshot ORDER BY log, seq"
run bg-board new Blue Red
run bg-board move Toad a3
run bg-board pass
run bg-board replay
run bg-board replay 1
# Event 4's snapshot edited into event 2's state: commands would trust
# it, replay finds it.
sql "UPDATE snapshot SET state = (SELECT state FROM snapshot WHERE kind = 'game' AND log % 2147483648 = 1 AND seq = 2) WHERE kind = 'game' AND log % 2147483648 = 1 AND seq = 4"
run bg-board replay
# Bytes that do not read back: the game is derived from every event.
sql "UPDATE snapshot SET state = substr(state, 1, 1) WHERE kind = 'game' AND log % 2147483648 = 1 AND seq = 8"
run bg-board --game 1 show --plain
run bg-board replay 1
run bg-board replay 99
run bg-board replay 1 2
