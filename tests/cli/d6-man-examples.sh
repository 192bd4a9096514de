# d6-roll(1) EXAMPLES, each run as the page shows it (with a seed where
# the page leaves the dice to the tool).
run d6-roll 4D+2 --vs moderate --seed 1
run d6-roll 4D+2 --vs 15 --actions 2 --seed 1
run d6-roll 4D+2 --vs 15 --fp --seed 1
run d6-roll odds 4D+2 --vs 15 --exact --csv
run d6-roll damage 5D --resist 2D+2 --armor heavy --seed 1
run d6-roll damage 5D --resist 4D --chart vehicle --scale speeder:mecha --seed 1
run d6-roll char add Luke dexterity=3D+2 dexterity.blaster=5D
run d6-roll Luke blaster --vs 15 --cp 2 --round 3 --seed 1
run d6-roll Luke dexterity.dodge --seed 1
run d6-roll char sheets Luke --output luke.pdf
run d6-roll char verify-sheet 5ka7-843x-srf1-1dsz
