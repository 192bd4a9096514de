# Boards for any screen (issue #39): each melee printed once, as a group,
# with who is engaged with whom where not all of it are; a character
# without MIND joins as "MIND -"; the status table at 40, 60, 80 and 120
# columns drops columns, the least useful first, rather than wrap, and
# the notes under it fold; watch's event lines keep their outcome.
export REFKIT_NOW=1795000000
crs-stats add Kestrel OR=8 DR=6 LIFE=20 IN=5 EM=12 >/dev/null
crs-stats add Ysolde OR=7 DR=5 MIND=6 LIFE=18 IN=4 >/dev/null
crs-stats add 'Brother Amos' OR=6 DR=7 MIND=9 LIFE=16 IN=3 >/dev/null
crs-stats add 'Brother Bede' OR=5 DR=5 LIFE=12 IN=2 >/dev/null
C='crs-combat --gm Morgan'
run $C start Kestrel Ysolde 'Brother Amos' 'Brother Bede'
run $C init Kestrel=9 Ysolde=8 'Brother Amos'=7 'Brother Bede'=6
run $C attack Kestrel Ysolde --card 10,6 --vs-card 2
run $C attack Ysolde 'Brother Amos' --card 9 --vs-card 3
run $C attack 'Brother Amos' Ysolde --card 4 --vs-card 8
# Ysolde is engaged with both, who are not engaged with each other.
run $C status
run $C --json status
export COLUMNS=120
run $C status
export COLUMNS=80
run $C status
export COLUMNS=60
run $C status
export COLUMNS=40
run $C status
unset COLUMNS
# The long lines of the board give way at their start, not their end.
run $C watch
