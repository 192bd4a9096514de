# Many GMs, one record (issue #37): without --combat, each command reaches
# the combat its own GM started or acted in last, never another GM's; a
# GM with none is refused with the open combats listed; a fighter in an
# open combat cannot start another; every refusal names its combat.  The
# same for fb-duel's duels and bg-board's games.
export REFKIT_NOW=1795000000
crs-stats add Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1 >/dev/null
crs-stats add John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2 >/dev/null
crs-stats add Mary OR=2 DR=6 MIND=12 LIFE=8 IN=3 LB=0 >/dev/null
crs-stats add Ysolde OR=5 DR=7 MIND=6 LIFE=12 IN=3 LB=1 >/dev/null
crs-stats add Kestrel OR=4 DR=5 MIND=5 LIFE=9 IN=2 LB=0 >/dev/null
echo '# The case of the issue: Anna and Ben on one database.'
run env REFKIT_GM=Anna crs-combat start Fred John
run env REFKIT_GM=Ben crs-combat start Mary Ysolde
run env REFKIT_GM=Anna crs-combat init Fred=6 John=3
run env REFKIT_GM=Anna crs-combat attack fred john --card 8 --vs-card 6
run env REFKIT_GM=Ben crs-combat init Mary=5 Ysolde=2
run env REFKIT_GM=Ben crs-combat attack fred john --card 8 --vs-card 6
run env REFKIT_GM=Ben crs-combat status
echo '# --gm wins over REFKIT_GM; a GM with no combat sees them all.'
run env REFKIT_GM=Ben crs-combat --gm Anna status --json
run env REFKIT_GM=Cleo crs-combat init
run env REFKIT_GM=Cleo crs-combat status
run crs-combat list
run crs-combat list --json
run crs-combat list --csv
echo '# A fighter in an open combat cannot start another; --combat is no'
echo '# part of start.'
run env REFKIT_GM=Cleo crs-combat start Kestrel Fred
run env REFKIT_GM=Cleo crs-combat --combat 1 start Kestrel
echo '# Another GM can act in a combat by naming it; then it is his too.'
run env REFKIT_GM=Cleo crs-combat --combat 1 join Kestrel
run env REFKIT_GM=Cleo crs-combat status
echo '# Anna ends hers: an action is refused, a reading shows it still.'
run env REFKIT_GM=Anna crs-combat end --agreed
run env REFKIT_GM=Anna crs-combat attack Fred John
run env REFKIT_GM=Anna crs-combat log
echo '# Her new combat is hers from now on; Ben is still in his.'
run env REFKIT_GM=Anna crs-combat start Fred John
run env REFKIT_GM=Anna crs-combat status
run env REFKIT_GM=Ben crs-combat undo --dry-run
run crs-combat list
echo '# The login name, without --gm and REFKIT_GM.'
me=$(id -un)
(unset REFKIT_GM; crs-combat start Kestrel >/dev/null &&
    crs-combat status --json | sed "s/\"$me\"/\"LOGIN\"/")
echo '# fb-duel: two GMs, two duels.'
fb-duel sheet add Ann --side light --hand right >/dev/null
fb-duel sheet add Bob --side dark --hand left >/dev/null
fb-duel sheet add Cid --side light --hand left >/dev/null
fb-duel sheet add Dot --side dark --hand right >/dev/null
run env REFKIT_GM=Anna fb-duel start Ann Bob
run env REFKIT_GM=Ben fb-duel start Cid Dot
run env REFKIT_GM=Anna fb-duel --seed 3 round
run env REFKIT_GM=Ben fb-duel status
run env REFKIT_GM=Cleo fb-duel round
run env REFKIT_GM=Cleo fb-duel --duel 2 start Ann Bob
run fb-duel list
echo '# bg-board: two GMs, two games.'
bg-board team add Red --file "$TOP/tests/fixtures/bg/red.team" >/dev/null
bg-board team add Blue --file "$TOP/tests/fixtures/bg/blue.team" >/dev/null
run env REFKIT_GM=Anna bg-board new Red Blue
run env REFKIT_GM=Ben bg-board new Blue Red
run env REFKIT_GM=Anna bg-board place Rogue f2
run env REFKIT_GM=Ben bg-board place Toad f2
run env REFKIT_GM=Anna bg-board log
run env REFKIT_GM=Ben bg-board log
run env REFKIT_GM=Cleo bg-board pass
run bg-board list
