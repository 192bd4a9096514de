# Characters: add, show, set, list, rm; given stats; hostile names.
run crs-stats add Fred ENE=30 STR=12 INT=10 CUN=14 AGI=16 CON=10 CHA=12 LUC=12 LEVEL=2 player=Alice
run crs-stats add Mary OR=8 DR=12 MIND=6 LIFE=20 player=Beth notes='A healer; never fights first.'
run crs-stats add John STR=8 AGI=12 CUN=10 OR=20
run crs-stats show Fred
run crs-stats show Mary
run crs-stats show John --rounding per-term
run crs-stats list
run crs-stats list --rounding per-term
run crs-stats list --csv
run crs-stats list --json
run crs-stats show John --json
run crs-stats show Mary --csv
# set changes fields; an empty value clears one.
run crs-stats set John OR= STR=9
run crs-stats set John name=Johnny
run crs-stats show Johnny
# Failures leave the database as it was.
snap
run crs-stats add Fred STR=1
run crs-stats add Zed STR=-3
run crs-stats add Zed STR=3 SPEED=2
run crs-stats add ''
run crs-stats set Nobody STR=3
run crs-stats set Fred STR=12.5
run crs-stats set Fred name=Mary
run crs-stats set Fred
run crs-stats rm Nobody
run crs-stats show Nobody
run crs-stats add "$(printf 'Bad\nName')"
run crs-stats add Zed notes="$(printf 'bell \007 here')"
unchanged
# Names full of quotes, semicolons and SQL are stored and shown verbatim.
run crs-stats add "Robert'); DROP TABLE character;--" OR=3 player='O"Brien; x'
run crs-stats add '%s%n "quoted" \x'
run crs-stats show "Robert'); DROP TABLE character;--"
run crs-stats list
run crs-stats list --json
run crs-stats list --csv
run crs-stats rm "Robert'); DROP TABLE character;--"
run crs-stats rm '%s%n "quoted" \x'
run crs-stats rm Mary
run crs-stats list
run crs-stats -- show -dashing
