# Every example of crs-draw(1).  An unseeded draw differs each time: check
# that it shows its seed, and that the seed replays it exactly.
crs-draw pick --lb 2 >first.txt; echo "unseeded pick: exit $?"
seed=$(sed -n 's/^seed *//p' first.txt)
crs-draw pick --lb 2 --seed "$seed" >again.txt
cmp -s first.txt again.txt && echo "its seed replays it exactly"
run crs-draw pick --lb 2 --seed 4242
run crs-draw pick --defensive --base 12 --drawn A --special 4
run crs-draw odds --exact
crs-stats add Fred STR=12 AGI=16 CUN=14 INT=10 CHA=12 CON=10 LUC=12
crs-stats add John STR=8 AGI=12 CUN=10 INT=6 CHA=6 CON=14 LUC=6
crs-stats item add 'Chain Mail' dr=+3 use=wearable
crs-stats give John 'Chain Mail'
run crs-draw versus Fred John
run crs-draw versus --offense 10 --defense 13 --offense-lb 2 --defense-lb 1
run crs-draw versus Fred John --full
