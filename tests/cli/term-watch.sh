# The live boards without a terminal (issue #23): watch prints one frame
# as plain text, as a terminal of 80 columns and 24 lines would show it,
# and exits 0; nothing to show yet exits 1, and so does a key that names
# nothing.  The full-screen board is tests/watch.sh's, under tmux.
export REFKIT_NOW=1795400000
run crs-combat watch
crs-stats add Fred OR=8 DR=6 LIFE=20 IN=5 EM=12 >/dev/null
crs-stats add John OR=6 DR=6 LIFE=10 IN=3 >/dev/null
crs-stats add 'Grim, the Unbowed' OR=9 DR=7 LIFE=25 IN=4 >/dev/null
crs-stats add Esk OR=5 DR=5 LIFE=8 IN=6 >/dev/null
run crs-combat start Fred John Grim Esk
run crs-combat watch
crs-combat stance John >/dev/null
crs-combat init Fred=6 Grim=5 Esk=2 >/dev/null
crs-combat attack Fred John --card 8 --vs-card 6 >/dev/null
run crs-combat watch
crs-combat attack Grim John --card 10,4 --vs-card 2 >/dev/null
crs-combat flee Esk --card 10,9 --catch Fred=2 --catch Grim=3 --catch John=4 \
    >/dev/null
# Mid-combat: John in a stance and nearly down, Esk fled, cards aside.
run crs-combat watch
crs-combat round >/dev/null
crs-combat init Fred=6 Grim=3 John=2 >/dev/null
crs-combat attack Fred John --card 5 --vs-card 2 >/dev/null
crs-combat attack Grim Fred --card 9 --vs-card 2 >/dev/null
crs-combat dead John >/dev/null
run crs-combat end --agreed
run crs-combat watch 1
# Ten minutes after the end LIFE and EM are back, but not the dead's.
REFKIT_NOW=1795400700 run crs-combat watch
run crs-combat watch 7
run crs-combat watch 1 2
run crs-combat --json watch
run_full crs-combat watch

run fb-duel watch
fb-duel sheet add Ann --side light --hand right >/dev/null
fb-duel sheet add Bob --side dark --hand left att=4 lightning=1 >/dev/null
fb-duel start Ann Bob >/dev/null
fb-duel round --init 5,2 --choose torso --pull Bob:center=2,left=1 \
    --hit 2,2 --block 4,4 >/dev/null
fb-duel init --seed 4 >/dev/null
run fb-duel watch
run fb-duel watch 1
run fb-duel watch 2
run fb-duel watch --json
run fb-duel watch --hit 2,2

run bg-board watch
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" "$T"
bg-board team add Red --file "$T/red.team" >/dev/null
bg-board team add Blue --file "$T/blue.team" >/dev/null
bg-board new Red Blue >/dev/null
bg-board move Rogue a3 >/dev/null
bg-board move Toad a5 >/dev/null
run bg-board watch
run bg-board watch 3
run bg-board watch 1 2
run bg-board --json watch
