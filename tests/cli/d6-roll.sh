# d6-roll: rolls replay by seed; the Wild Die, its treatments of a 1,
# penalties and points; exact odds; every refusal with its reason.
run d6-roll 4D+2 --vs 15 --seed 42
run d6-roll 4D+2 --vs moderate --seed 42 --json
run d6-roll 3d6+1 --seed 42 --json
run d6-roll D6 --seed 1
run d6-roll 3D --opposed 3D+1 --seed 3
run d6-roll 3D --opposed 3D+1 --seed 3 --json
# Find a seed whose Wild Die shows a 1 on 4D, then roll it three ways.
s=0
while [ "$(d6-roll 4D --seed $s --json | grep -c '"wild":\[1\]')" = 0 ]; do s=$((s + 1)); done
echo "first Wild Die 1 at seed $s"
run d6-roll 4D --seed $s
run d6-roll 4D --seed $s --wild-one drop
run d6-roll 4D --seed $s --wild-one drop --json
run d6-roll 4D --seed $s --wild-one none
run d6-roll 4D --seed $s --no-wild
# A chain of sixes.
s=0
while [ "$(d6-roll 1D --seed $s --json | grep -c '"wild":\[6,6')" = 0 ]; do s=$((s + 1)); done
echo "first double six at seed $s"
run d6-roll 1D --seed $s
# Penalties and points.
run d6-roll 4D+2 --actions 3 --vs 10 --seed 5
run d6-roll 4D+2 --fp --seed 5 --json
run d6-roll 4D+2 --actions 2 --fp --seed 5
run d6-roll 3D --cp 2 --seed 8
run d6-roll 3D --cp 5 --reaction --seed 8 --json
run d6-roll 4D --times 5 --vs 14 --seed 2
run d6-roll 4D --times 3 --seed 2 --csv
run d6-roll 2D --times 2 --seed 2 --json
# Refusals.
run d6-roll 4D+2 --actions 5
run d6-roll 4D --cp 3
run d6-roll 4D --cp 6 --reaction
run d6-roll 4D --cp 1 --fp
run d6-roll 0D
run d6-roll 4D+
run d6-roll D
run d6-roll 4X
run d6-roll -- -2D
run d6-roll 99999999D
run d6-roll 4D8
run d6-roll 4D --vs hard
run d6-roll 4D --vs 15 --opposed 3D
run d6-roll 4D --wild-one sometimes
run d6-roll 4D --times 0
run d6-roll 4D --seed x
run d6-roll 4D 3D
run d6-roll 100D+100 --fp --fp --seed 1 --json
run d6-roll 100D --fp --times 1 --seed 1 --csv
# Exact odds: the issue's fractions and a far target.
run d6-roll odds 3D --vs 10 --exact --json
run d6-roll odds 4D+2 --vs 15 --exact --json
run d6-roll odds 3D --vs 10 --wild-one drop --exact --json
run d6-roll odds 1D --vs 601 --exact --json
run d6-roll odds 3D --vs 10
run d6-roll odds 2D6 --csv
run d6-roll odds 1D --opposed 1D6 --wild-one none --exact --json
run d6-roll odds 4D --opposed 4D
run d6-roll odds 2D --cp 2 --opposed 3D
run d6-roll odds 2D --cp 2 --opposed 3D --exact
run d6-roll odds 4D --actions 5
run d6-roll odds 4D --seed 3
run d6-roll 4D --exact
