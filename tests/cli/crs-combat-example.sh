# The worked example at the end of the CRS document, card for card:
# Fred 16 against John 12 for 4; John 23 against Fred 21 for 2; John's 10
# then Ace makes 0 and Fred draws no defence; Mary's Suggestion 20 against
# 13 succeeds.  At the end John has LIFE 6 and Fred 18.
export REFKIT_NOW=1795000000
crs-stats add Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1
crs-stats add Mary OR=2 DR=6 MIND=12 LIFE=8 IN=3 LB=0
crs-stats add John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2
run crs-combat --gm Vincent start Fred John
# Vincent runs the combat from here on: his commands reach it.
export REFKIT_GM=Vincent
run crs-combat init Fred=6 John=3
run crs-combat attack Fred John --card 8 --vs-card 6
run crs-combat attack John Fred --card 10,7 --vs-card 9
run crs-combat join Mary
run crs-combat round
run crs-combat init Fred=2 John=7 Mary=4
run crs-combat attack John Fred --card 10,A
run crs-combat status
run crs-combat mental Mary Fred --kind suggestion --card 8 --vs-card 9
run crs-combat end --agreed
run crs-combat status --json
export REFKIT_NOW=1795000600
run crs-combat status
run crs-combat log
run crs-combat log --json
run crs-combat replay
run crs-combat history
run crs-combat history --char Fred --json
run crs-combat log --csv
run crs-combat status --csv
