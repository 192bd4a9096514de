# A new GM's first commands (issue #39, item 5): on an empty database a
# name says how to load a roster; README's first command and the files of
# examples/ run as printed (gear.sh and melee.json give the items and
# powers that crs-combat(1)'s melee uses; red.team and blue.team are
# bg-board(1)'s example teams, whose example runs on them as printed); a
# mistyped difficulty is refused with the nearest one; status --csv.
export REFKIT_NOW=1795000000
cd "$T" || exit 1
# The examples as a GM who cloned the repository has them.
cp -R "$TOP/examples" .
echo '# An empty database.'
run crs-combat start Fred John
run crs-stats show Fred
run crs-stats give Fred Sword
run crs-stats item set Sword or=+1
run crs-stats power rm Fireball
run crs-draw versus Fred John

echo "# README's first command, after the build."
run crs-stats import --replace examples/roster.csv
run crs-stats list
# A name missing from a roster that has some is refused as before.
run crs-combat start Fred Jhon

echo "# README's tour of the examples, with items and powers."
run sh examples/gear.sh
run crs-stats import examples/melee.json
run crs-stats show Esk
run crs-combat start Aria Brann Corin Dax Esk
run crs-combat --seed 1 init Brann=9 Aria=7 Esk=4 Corin=3 Dax=2
run crs-combat --seed 2 attack Brann Dax --item Sword
run crs-combat --seed 3 power Aria Fireball Dax Brann --em 12
run crs-combat end --agreed
echo '# The melee of crs-combat(1).'
C='crs-combat --gm Morgan'
run $C start Aria Brann Corin Dax Esk
run $C range Brann Dax 5 Esk Aria 5 Aria Brann 15 Aria Corin 20 Brann Corin 25 Corin Dax 30 Corin Esk 25
run $C --seed 100 init Corin=9 Esk=7 Brann=8 Aria=6 Dax=5
run $C --seed 101 attack Corin Dax --long --item Longbow
run $C --seed 102 attack Esk Corin --long
run $C --seed 103 attack Brann Dax --item Sword
run $C --seed 104 power Aria Fireball Dax Brann --em 12
run $C --seed 105 attack Dax Brann --item 'Great Axe' --vs-item Shield
run $C --csv status
run $C --json status

echo '# bg-board(1)'"'"'s example, on the teams of examples/.'
cd examples || exit 1
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

echo '# A difficulty mistyped.'
run d6-roll 4D+2 --vs moderat --seed 1
run d6-roll 4D+2 --vs very --seed 1
run d6-roll 4D+2 --vs hard --seed 1
run d6-roll 4D+2 --vs 'very difficult' --seed 1

echo '# CSV where a command prints rows; refused where it has no CSV form.'
cd "$T" || exit 1
run refkit --csv head
run refkit --csv verify
run crs-combat --csv watch
