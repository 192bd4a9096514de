# d6-roll characters: sheets in the database, rolls of their traits,
# Character and Force Points spent in the same transaction as the roll's
# record, the round rules, and refusals that leave the database as it was.
export REFKIT_NOW=1795300000
run d6-roll char add Luke dexterity=3D+2 dexterity.blaster=5D perception=3D perception.search=4D+1 strength=2D+2 cp=5 fp=1
run d6-roll char add Han dexterity=3D+1 dexterity.blaster=6D+1 'notes=smuggler; owes Jabba'
run d6-roll char show Luke --json
run d6-roll char list
run d6-roll char list --csv
run d6-roll Luke blaster --vs 15 --seed 9
run d6-roll Luke dexterity.dodge --seed 2
run d6-roll char roll Luke search --seed 3 --json
run d6-roll Luke blaster --cp 2 --round 1 --seed 9
run d6-roll char show Luke
snap
run d6-roll Luke blaster --fp --round 1
run d6-roll Luke blaster --cp 1 --round 1 --seed 1
run d6-roll Luke perception --fp --round 2 --seed 4
snap
run d6-roll Luke blaster --cp 1 --round 2
run d6-roll Luke blaster --fp --round 3
unchanged
run d6-roll Luke blaster --cp 4
run d6-roll Luke blaster --cp 3
run d6-roll Luke dodge
run d6-roll Luke force.sense
run d6-roll Nobody blaster
run d6-roll Luke blaster --times 3
unchanged
echo "$ sql" "SELECT id % 2147483648, character, round, trait, code, seed, total, cp, fp FROM d6_roll"; sql "SELECT id % 2147483648, character, round, trait, code, seed, total, cp, fp FROM d6_roll"
echo "$ sql" "SELECT CASE WHEN CAST(json_extract(detail, '$.total') AS INTEGER) = total THEN 1 ELSE 0 END FROM d6_roll"; sql "SELECT CASE WHEN CAST(json_extract(detail, '$.total') AS INTEGER) = total THEN 1 ELSE 0 END FROM d6_roll"
# Editing: set, remove a trait, refusals.
run d6-roll char set Luke dexterity.blaster=5D+2 strength=- dsp=1
snap
run d6-roll char set Luke dexterity=-
run d6-roll char add Leia dexterity.blaster=4D
run d6-roll char add Leia dexterity=3D blaster.x=2D
run d6-roll char add Leia dexterity=3D6
run d6-roll char add Leia dexterity=4X
run d6-roll char add Leia cp=-1
run d6-roll char add Leia cp=5.5
run d6-roll char add Leia 'bad.name.x=3D'
run d6-roll char add Leia dexterity
run d6-roll char add Luke
run d6-roll char set Nobody dexterity=3D
run d6-roll char rm Nobody
unchanged
run d6-roll char rm Han
run d6-roll char list
run d6-roll char show Han
echo "$ sql" "SELECT count(*) FROM d6_trait"; sql "SELECT count(*) FROM d6_trait"
