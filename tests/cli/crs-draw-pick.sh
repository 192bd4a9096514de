# crs-draw pick: virtual draws replay by seed; physical cards are checked.
run crs-draw pick --seed 1
run crs-draw pick --seed 1
run crs-draw pick --seed 7 --json
run crs-draw pick --seed 3 --lb 3 --cards 3 --base 5 --json
run crs-draw pick --seed 11 --defensive --base 12 --json
run crs-draw pick --seed 5 --out 2,3,4,5,6,7,8,9 --lb 1
run crs-draw pick --seed 2 --initiative --base 6
# Find a seed whose draw is a defensive fumble, and show it.
s=0
while [ "$(crs-draw pick --seed $s --defensive --base 9 --json | grep -c '"fumble":true')" = 0 ]; do s=$((s + 1)); done
echo "first defensive fumble at seed $s"
run crs-draw pick --seed $s --defensive --base 9
# Physical cards typed by the GM.
run crs-draw pick --drawn 10,7
run crs-draw pick --drawn 10,7 --json
run crs-draw pick --drawn 10,10,3 --lb 1 --base 4
run crs-draw pick --cards 2 --drawn 2,10,9
run crs-draw pick --drawn A --base 8
run crs-draw pick --drawn A --defensive --base 12 --special 4
run crs-draw pick --drawn A --defensive --base 12 --special 10 --json
run crs-draw pick --drawn A --defensive --base 3 --special 9
run crs-draw pick --drawn A --defensive --base 12 --out 2,3,4,5,6,7,8,9,10
run crs-draw pick --drawn 4 --initiative --base 5
# CSV: the fields of the JSON, a header and a row; 1 and 0 for yes and
# no, an absent value empty, the cards joined with ';'.
run crs-draw pick --seed 1 --csv
run crs-draw pick --seed 3 --lb 3 --cards 3 --base 5 --csv
run crs-draw pick --drawn 10,7 --csv
run crs-draw pick --drawn A --defensive --base 12 --special 4 -c
run crs-draw pick --drawn A --defensive --base 12 --out 2,3,4,5,6,7,8,9,10 --csv
run crs-draw pick --drawn A --base 8 --csv
# Refusals, each with its reason.
run crs-draw pick --drawn 10
run crs-draw pick --drawn A,5
run crs-draw pick --drawn 7 --out 7
run crs-draw pick --drawn 10,10,4
run crs-draw pick --drawn 10,10,10,4 --lb 1
run crs-draw pick --drawn 3,4
run crs-draw pick --cards 2 --drawn 3
run crs-draw pick --drawn 3,3 --cards 2
run crs-draw pick --drawn A --defensive --base 12
run crs-draw pick --drawn A --defensive --base 12 --special A
run crs-draw pick --drawn A --defensive --base 12 --special 4 --out 4
run crs-draw pick --drawn 5 --special 4
run crs-draw pick --drawn ''
# Bad input.
run crs-draw pick --drawn 11
run crs-draw pick --drawn K
run crs-draw pick --drawn 3,,4
run crs-draw pick --out A
run crs-draw pick --out 10,10
run crs-draw pick --lb -1
run crs-draw pick --lb 1001
run crs-draw pick --lb 1e3
run crs-draw pick --cards 0
run crs-draw pick --cards 21
run crs-draw pick --seed -5
run crs-draw pick --seed 18446744073709551616
run crs-draw pick --seed 1 --drawn 3
run crs-draw pick --defensive
run crs-draw pick --special 3
run crs-draw pick extra
run crs-draw
run crs-draw shuffle
run crs-draw --version
run_full crs-draw pick --seed 1
