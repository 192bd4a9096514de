# crs-combat refusals (each with its reason and nothing written), undo,
# virtual draws replayed from their seeds, initiative ties, stances, long
# range DR halving, a downed combatant, and tampering found by replay.
export REFKIT_NOW=1795000000
crs-stats add Ann OR=8 DR=10 MIND=6 LIFE=12 IN=3 LB=1
crs-stats add Bob OR=7 DR=9 MIND=5 LIFE=9 IN=3 LB=0
crs-stats add Cy OR=5 DR=8 MIND=0 LIFE=6 IN=1 LB=0
crs-stats add Dee OR=4 DR=4 LIFE=5
crs-stats add Nobody LUC=6
run crs-combat status
run crs-combat attack Ann Bob
run crs-combat start Ann Bob Cy
run crs-combat start Ghost
snap
run crs-combat attack Ann Bob --card 5 --vs-card 4
run crs-combat stance Zed
unchanged
run crs-combat init Ann=5/2 Bob=5/9 Cy=7/3
run crs-combat stance Cy
run crs-combat init Ann=5/6 Bob=5/9
run crs-combat log
snap
run crs-combat attack Ann Bob --card 4 --vs-card 3
run crs-combat stance Ann
run crs-combat init
run crs-combat attack Bob Zed --card 4 --vs-card 3
run crs-combat attack Bob Bob --card 4
run crs-combat attack Bob Cy --card 4,5 --vs-card 3
run crs-combat attack Bob Cy --card 10 --vs-card 3
run crs-combat attack Bob Cy --card A,4
run crs-combat attack Bob Cy --card 11
run crs-combat mental Bob Cy --card 4 --vs-card 3
run crs-combat attack Bob Ann --use 8 --card 4 --vs-card 3
run crs-combat attack Bob Ann --card A --vs-card 3
run crs-combat join Ann
unchanged
# Cy's Defensive Stance doubles DR 8 to 16.
run crs-combat attack Bob Cy --card 9 --vs-card 2
run crs-combat attack Bob Ann --card 9 --vs-card 2
run crs-combat attack Ann Bob --long --use 5 --card 3 --vs-card 4
run crs-combat status
# A set-aside card cannot come up again this round.
run crs-combat undo
run crs-combat attack Ann Bob --long --card 9 --vs-card 2
run crs-combat status --json
run crs-combat undo 99
run crs-combat undo 1
run crs-combat round
# A downed combatant draws no initiative; long range halves DR 10 to 5.
run crs-combat init Ann=9 Bob=2 Cy=3
run crs-combat init Ann=9 Bob=2
run crs-combat attack Ann Bob --long --card 2 --vs-card 3
run crs-combat status --json
# A defensive Ace: DR 5 minus the special 4.
run crs-combat attack Bob Ann --card 7 --vs-card A --vs-special 4
run crs-combat attack Cy Ann --card 9 --vs-card 2
run crs-combat round
run crs-combat init Ann=9 Bob=2
run crs-combat attack Ann Bob --card 10,9 --vs-card 2
run crs-combat status
run crs-combat attack Cy Bob --card 3 --vs-card 2
run crs-combat end
run crs-combat pass Cy
run crs-combat end
run crs-combat attack Ann Cy
run crs-combat replay
# Intimidation: -5 MIND; a success makes the target pass its next action.
crs-combat start Ann Bob >/dev/null
run crs-combat init Ann=9 Bob=2
run crs-combat mental Ann Bob --kind intimidation --card 9 --vs-card 2
run crs-combat round
run crs-combat init Ann=2 Bob=9
run crs-combat attack Bob Ann --card 5 --vs-card 4
run crs-combat pass Bob
run crs-combat mental Ann Bob --card 8 --vs-card 3
run crs-combat end --agreed
# Virtual draws: a seed makes them repeat, and replay draws them again.
run crs-combat --seed 42 start Ann Bob
run crs-combat --seed 7 init
run crs-combat --seed 9 attack Ann Bob
run crs-combat log --json
run crs-combat replay
# A row changed by hand is found.
sql "UPDATE event SET damage = damage + 5, life_after = 0 WHERE combat_id % 2147483648 = 1 AND seq = 14"
run crs-combat replay
run crs-combat replay 3
# The dead do not come back; the merely down do.
crs-stats add Eve OR=20 DR=10 LIFE=10 IN=9
crs-stats add Fay OR=1 DR=1 LIFE=3 IN=0
crs-stats add Gus OR=1 DR=1 LIFE=4 IN=0
crs-combat start Eve Fay Gus >/dev/null
run crs-combat init Eve=9 Fay=2 Gus=3
run crs-combat attack Eve Fay --card 9 --vs-card 2
run crs-combat dead Eve
run crs-combat dead Fay
run crs-combat dead Fay
run crs-combat end --agreed
export REFKIT_NOW=1795000601
run crs-combat --combat 4 status
run crs-combat --combat 4 status --json
# An Intimidation of several targets: one offence, each target defends on
# its own; refused for other kinds, and for a target with MIND 0.
crs-stats add Hal MIND=12 OR=3 DR=3 LIFE=9 IN=5
crs-stats add Ida MIND=4 OR=3 DR=3 LIFE=9 IN=1
crs-stats add Jon MIND=9 OR=3 DR=3 LIFE=9 IN=2
crs-stats add Kim MIND=0 OR=3 DR=3 LIFE=9 IN=0
crs-combat start Hal Ida Jon Kim >/dev/null
run crs-combat init Hal=9 Ida=2 Jon=3 Kim=4
snap
run crs-combat mental Hal Ida Jon --kind suggestion --card 7
run crs-combat mental Hal Ida Jon Kim --kind intimidation --card 7 --vs-card 2/3/4
run crs-combat mental Hal Ida Jon --kind intimidation --card 7 --vs-card 2
run crs-combat attack Hal Ida Jon --card 7
unchanged
run crs-combat mental Hal Ida Jon --kind intimidation --card 7 --vs-card 2/9
run crs-combat undo 7
run crs-combat --seed 5 init
run crs-combat replay 5
run crs-combat undo
run crs-combat undo
run crs-combat log
# Taking a Blow carried on into the next round after the protector took a
# short range blow aimed at the one he protects (RULINGS section 1): that
# melee includes the protected, so it never stops the carry-over, and the
# status still shows it.  A melee of the protector's own still does.
crs-stats add Lou OR=8 DR=10 MIND=6 LIFE=30 IN=0
crs-stats add Max OR=7 DR=9 MIND=5 LIFE=25 IN=0
crs-stats add Ned OR=5 DR=8 MIND=4 LIFE=20 IN=0
crs-stats add Oz OR=4 DR=6 MIND=3 LIFE=15 IN=0
crs-combat start Lou Max Ned Oz >/dev/null
crs-combat range Lou Max 5 Max Ned 5 Lou Ned 5 Oz Ned 5 Oz Lou 20 Oz Max 20 >/dev/null
run crs-combat init Ned=9 Lou=8 Max=7 Oz=6
run crs-combat blow Ned Max
run crs-combat attack Lou Max --card 7 --vs-card 3
run crs-combat pass Max
run crs-combat pass Oz
run crs-combat status
run crs-combat round
run crs-combat blow Ned Max
run crs-combat status
run crs-combat init Lou=8 Max=7 Oz=6
run crs-combat attack Lou Max --card 6 --vs-card 2
run crs-combat pass Max
run crs-combat attack Oz Ned --card 5 --vs-card 4
run crs-combat status --json
run crs-combat round
snap
run crs-combat blow Ned Max
unchanged
run crs-combat replay
# A Surprise action comes before round 1 (RULINGS section 1): it halves no
# DR, and the cards it drew are back in their decks for round 1's
# initiative and actions.
crs-stats add Sal OR=6 DR=12 MIND=5 LIFE=20 IN=0
crs-stats add Rex OR=6 DR=8 MIND=5 LIFE=20 IN=0
crs-combat start Sal Rex >/dev/null
run crs-combat attack Sal Rex --long --surprise --card 5 --vs-card 3
run crs-combat status
run crs-combat init Sal=5 Rex=3
run crs-combat status
run crs-combat attack Sal Rex --long --card 5 --vs-card 3
run crs-combat status
run crs-combat replay
# One supplemental item per attack and one per defence (seed 001; RULINGS
# section 1): a second --item or --vs-item is a usage error naming both,
# never silently the one used.
crs-stats item add Knife or=+1 range=short
crs-stats item add Sword or=+5 range=short
crs-stats item add Buckler dr=+1
crs-stats item add Shield dr=+2
crs-stats give Rex Knife
crs-stats give Rex Sword
crs-stats give Sal Buckler
crs-stats give Sal Shield
snap
run crs-combat attack Rex Sal --item Knife --item Sword --card 4 --vs-card 2
run crs-combat attack Rex Sal --item Sword --vs-item Buckler --vs-item Shield --card 4 --vs-card 2
run crs-combat mental Rex Sal --item Knife --item Knife --card 4 --vs-card 2
run crs-combat power Rex Zap Sal --vs-item Shield --vs-item Buckler
unchanged
