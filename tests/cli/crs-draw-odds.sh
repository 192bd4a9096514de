# crs-draw odds and versus: exact numbers.
run crs-draw odds
run crs-draw odds --exact --json
run crs-draw odds --lb 1 --exact
run crs-draw odds --out 2,3,4 --exact --csv
run crs-draw odds --cards 2 --lb 2 --json
run crs-draw odds --defensive --base 5 --exact
run crs-draw odds --out 2,3,4,5,6,7,8,9 --lb 2 --exact
run crs-draw odds --lb 20 --cards 3 --json
run crs-draw odds --lb 1000 --json
run crs-draw odds --lb 1000 --cards 20 --exact
run crs-draw versus --offense 10 --defense 10
run crs-draw versus --offense 10 --defense 10 --exact --full
run crs-draw versus --offense 10 --defense 10 --full
# A chance that would round to 0%, none at all, and no fraction in 128 bits.
run crs-draw versus --offense 0 --defense 26
run crs-draw versus --offense 0 --defense 30
run crs-draw versus --offense 10 --defense 10 --offense-lb 1000 --defense-lb 1000
# --full is versus's alone.
run crs-draw odds --full
run crs-draw pick --full --seed 1
run crs-draw versus --offense 10 --defense 10 --json
run crs-draw versus --offense 12 --defense 20 --offense-lb 2 --defense-lb 1 --json --exact
run crs-draw versus --offense 0 --defense 40 --json
run crs-draw versus --offense 40 --defense 0 --offense-out 2,3 --defense-out 9,10 --csv
run crs-draw versus --offense 10
run crs-draw versus --offense 10 --defense 10 --long
run crs-draw odds --seed 3
# From the database.
crs-stats add Fred STR=12 AGI=16 CUN=14 INT=10 CHA=12 CON=10 LUC=12
crs-stats add John STR=8 AGI=12 CUN=10 INT=6 CHA=6 CON=14 LUC=6
crs-stats add Zombie OR=6 DR=4 MIND=0 LIFE=10
crs-stats item add 'Chain Mail' dr=+3 use=wearable
crs-stats item add 'Lucky Charm' pick=+1 use=continuous
crs-stats give John 'Chain Mail'
crs-stats give Fred 'Lucky Charm'
run crs-draw versus Fred John
run crs-draw versus Fred John --long --json
run crs-draw versus Fred John --mental --json
run crs-draw versus Fred John --use 4 --json
run crs-draw versus Fred John --use 11
run crs-draw versus Fred Zombie --mental
run crs-draw versus Zombie Fred --mental --json
run crs-draw versus Fred Nobody
run crs-draw versus Fred John --offense 3
run crs-draw versus Fred John --mental --use 5 --json
