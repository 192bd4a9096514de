# play's help (issue #39): help lists the short forms, each with an
# example, and the other commands; help COMMAND (or its short form, or a
# unique prefix) gives that command's usage and short form.  Every
# command the tool completes has its help: a command without one makes
# help exit 1 with "no help for" (the loop below asks for each).  A
# refusal points to "help COMMAND", not to --help.  The one-shot command
# takes what play takes: the short forms, and attack's cards after the
# names; a word too many beside the option it would stand for is refused.
export REFKIT_NOW=1795000000
crs-stats add Fred OR=9 DR=14 MIND=5 LIFE=20 IN=5
crs-stats add John OR=11 DR=11 MIND=6 LIFE=32 IN=4
crs-stats add Mary OR=6 DR=8 MIND=7 LIFE=18 IN=4
printf 'help\nhelp a\nhelp m\nhelp st\nhelp stan\nhelp zz\nhelp a b\n' >"$T/help"
run_in help crs-combat play
for tool in crs-combat fb-duel bg-board; do
	"$tool" --complete 1 -- "$tool" '' | sed 's/^/help /' >"$T/each-$tool"
done
run_in each-crs-combat crs-combat play
cat >"$T/fight" <<'END'
start Fred John Mary
i Fred=9 John=4 Mary=2
attack Fred John 10,6 9
a Jo
p
m Mary John 8 4 --card 3
END
run_in fight crs-combat play
run crs-combat undo
run crs-combat attack Fred John 3 4 --mod 1
run crs-combat --seed 3 a John Fred 5
run crs-combat attack Mary Fred John --card 7
run crs-combat attack Mary Fred 1 2 3
run crs-combat u --dry-run
# fb-duel and bg-board: their short forms and commands, from their tables.
printf 'help\nhelp i\n' >"$T/fbhelp"
run_in fbhelp fb-duel play
run_in each-fb-duel fb-duel play
printf 'help\nhelp m\nhelp team\n' >"$T/bghelp"
run_in bghelp bg-board play
run_in each-bg-board bg-board play
# Their short forms on the command line too.
fb-duel sheet add Ann --side light --hand right >/dev/null
fb-duel sheet add Bob --side dark --hand left >/dev/null
fb-duel start Ann Bob >/dev/null
run fb-duel --seed 7 i 5,2
run fb-duel t torso
run fb-duel -o x.pdf i 5,2
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" "$T"
bg-board team add Red --file "$T/red.team" >/dev/null
bg-board team add Blue --file "$T/blue.team" >/dev/null
bg-board new Red Blue >/dev/null
run bg-board m Rogue a3
run bg-board u
