# crs-stats calc: the formulas from the command line.
run crs-stats calc STR=3 AGI=4
run crs-stats calc --rounding per-term STR=3 AGI=4
run crs-stats calc ENE=30 STR=12 INT=10 CUN=14 AGI=16 CON=10 CHA=12 LUC=12 LEVEL=2
run crs-stats calc --rounding=per-term ene=30 str=12 int=10 cun=14 agi=16 con=10 cha=12 luc=12
run crs-stats --json calc STR=3 AGI=4 CUN=0
run crs-stats calc --csv CON=1000 LUC=1000 ENE=1000 LEVEL=1000
run crs-stats calc ENE=0
# Bad values: each names the field and the value.
run crs-stats calc STR=-3
run crs-stats calc AGI=7.5
run crs-stats calc CON=1001
run crs-stats calc LUC=99999999999999999999999
run crs-stats calc CHA=strong
run crs-stats calc CHA=
run crs-stats calc SPEED=3
run crs-stats calc OR=5
run crs-stats calc STR
run crs-stats calc
run crs-stats calc --rounding nearest STR=3
