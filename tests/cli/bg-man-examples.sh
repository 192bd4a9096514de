# The EXAMPLES section of bg-board(1), as written there, with the two
# team files it reads.
export REFKIT_NOW=1795400000
cd "$T" || exit 1
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" .
run bg-board team add Red --file red.team
run bg-board team add Blue --file blue.team
run bg-board new Red Blue
run bg-board move Rogue a3
run bg-board move Toad a5
run bg-board move Rogue a4
run bg-board moves Toad
run bg-board move Toad a4 --stat-roll 5,2 --roll 1,2 --vs-roll 1,6
run bg-board die Blue 2
run bg-board show --plain
