# Hostile input: every refusal is one line that names what is wrong,
# exits 1 (2 for a bad argument), and leaves the database as it was.
# (db-hostile-file has a hostile environment for the database file.)
crs-stats add Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1 >/dev/null
crs-stats add John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2 >/dev/null
crs-combat start Fred John >/dev/null

# Strings: SQL and quotes are stored verbatim and shown as they are.
run crs-stats item add "Sword'; DROP TABLE item;--" 'notes=a "quoted" note; ok'
run crs-stats item list
run fb-duel sheet add "Robert');--" --side light --hand right
run bg-board team add "Red;DROP" 'A:III*:1,1,1,1,1,1'
snap
# Control characters and invalid UTF-8 never get in, and are shown
# escaped in the message.
run crs-stats add "$(printf 'Eve\033[2J')" OR=1
run crs-stats item add "$(printf 'Bad\rItem')"
run crs-stats add Eve "$(printf 'player=\377\376')"
run crs-stats add Eve "$(printf 'notes=bell\007')"
run d6-roll "$(printf '4D\n+2')"
run crs-draw pick --drawn "$(printf '10,\0337')"
run fb-duel sheet add "$(printf 'Ann\tB')" --side light --hand right
run bg-board team add Blue "$(printf 'A:III*:1,1,1,1,1,1:\033]0;x\007')"
# Long strings: 100 kB arguments, and a 1 MB field in a file.
long=$(head -c 100000 /dev/zero | tr '\0' a)
run crs-stats add "$long" OR=1
run crs-stats add Eve "notes=$long"
run crs-combat --gm "$long" start Fred John
{ echo name,OR; printf 'Big,'; head -c 1000000 /dev/zero | tr '\0' 7; echo; } >big.csv
run crs-stats import big.csv
{ echo name,notes; printf 'Big,'; head -c 1000000 /dev/zero | tr '\0' n; echo; } >big.csv
run crs-stats import big.csv
{ printf 'A:III*:1,1,1,1,1,1:'; head -c 1000000 /dev/zero | tr '\0' x; echo; } >big.team
run bg-board team add Big --file big.team
unchanged

# Numbers at and past every limit.
run crs-stats calc STR=2147483648
run crs-stats calc STR=-1 ENE=1000
run crs-stats calc STR=99999999999999999999999
run crs-draw pick --lb 2147483647 --seed 1
run crs-draw pick --cards 0 --seed 1
run crs-draw pick --base -2147483649 --seed 1
run crs-draw pick --seed 18446744073709551616
run crs-draw pick --seed 18446744073709551615 --cards 20 --lb 1000 --json
run crs-combat --combat 9223372036854775808 status
run crs-combat --combat 0 status
run crs-combat attack Fred John --use 2147483648
run crs-combat attack Fred John --mod -99999999999
run d6-roll 2147483647D --seed 1
run d6-roll 1000D+2 --seed 1 --json
run d6-roll 4D --vs 9223372036854775807 --seed 1
run d6-roll 4D+99999999999 --seed 1
run fb-duel sim Ann Bob --n 0
run fb-duel sim Ann Bob --n 1000000001
run bg-board --game -1 show
run bg-board --game 99999999999999999999 show
unchanged

# JSON's \u0000 would cut a name short and replace another character
# (Fred's player vanished); it is refused wherever it is.
printf '[{"name":"Fred\\u0000 impostor","STR":1}]' >nul-name.json
run crs-stats import --replace nul-name.json
printf '[{"name":"Eve","notes":"before\\u0000after"}]' >nul-notes.json
run crs-stats import nul-notes.json
printf '[{"name":"Eve","name\\u0000x":"Fred"}]' >nul-key.json
run crs-stats import nul-key.json
run crs-stats show Fred --csv
unchanged
# One number rule everywhere: no sign where a value cannot be negative,
# never on 0, no leading zero, nothing around the digits; the message
# quotes what was typed.
run crs-stats calc STR=-0
run crs-stats calc STR=+5
run crs-stats calc STR=010
run crs-stats add Eve "STR= 5"
run crs-stats item add Shield dr=-0
run crs-combat attack Fred John --mod 05 --card 5 --vs-card 3
printf 'name,STR\nEve, 5\n' >space.csv
run crs-stats import space.csv
printf 'name,STR\nEve,+5\n' >plus.csv
run crs-stats import plus.csv
for v in '"5"' -0 100.0 1e999 9223372036854775808; do
	printf '[{"name":"Eve","STR":%s}]' "$v" >num.json
	run crs-stats import num.json
done
unchanged
# A sign where a value may be negative is fine.
run crs-stats item add Shield dr=+3 or=-1
# A NUL byte in a board or team file is refused, not read as its end.
fb-duel board show >plain.board
{ cat plain.board; printf '# after\000a NUL\n'; } >nul.board
snap
run fb-duel board add Nul nul.board
{ printf 'A:III*:1,1,1,1,1,1\n'; printf 'B:I:1,1,1,1,1,1\000\n'; } >nul.team
run bg-board team add Nul --file nul.team
unchanged
