# Names as a GM types them (issue #23): the exact name wins, then the
# name but for case, then a unique prefix of the name or of one of its
# words; an ambiguous prefix lists the candidates, an unknown name
# suggests the nearest; the ledger stores the full name.  Unknown
# commands and options suggest the nearest ones.
export REFKIT_NOW=1795000000
crs-stats add 'Grim, the Unbowed' OR=8 DR=10 MIND=6 LIFE=30 IN=3 LB=1
crs-stats add John OR=7 DR=9 MIND=5 LIFE=25 IN=2
crs-stats add Joanna OR=6 DR=8 MIND=5 LIFE=20 IN=1
crs-stats add Fred OR=6 DR=8 MIND=5 LIFE=20 IN=1
crs-stats add fred OR=5 DR=7 MIND=5 LIFE=20 IN=1
crs-stats add Templar OR=9 DR=9 MIND=5 LIFE=20 IN=1
crs-stats add 'Éowyn' OR=9 DR=9 MIND=5 LIFE=20 IN=1
crs-stats item add 'Chain Mail' dr=+3 use=wearable
crs-stats item add 'Long Sword' or=+2 use=supplemental
crs-stats power add Fireball em=4 picks=1 target=group
# The roster.
run crs-stats show grim
run crs-stats show UNBOWED
run crs-stats show éow
run crs-stats show Tmplar
run crs-stats show jo
run crs-stats show FRED
run crs-stats show fred
snap
run crs-stats show Zebediah
run crs-stats give jon chain
run crs-stats give john chan
unchanged
run crs-stats give john chain
run crs-stats give grim long
run crs-stats give grim fire
run crs-stats take john 'chain m'
run crs-stats item set 'long' or=+3
run crs-stats item list
run crs-stats set temp OR=10
run crs-stats rm tmplar
run crs-stats list
# Commands and options.
run crs-stats lsit
run crs-stats item lsit
run crs-stats --jsno list
run crs-combat attak
run crs-combat --s attack
run crs-combat re
run crs-draw pikc
run d6-roll char shwo
run fb-duel statsu
run fb-duel --sedd 4 sim
run bg-board mvoe
run refkit mrege
# A combat: full names stored, whatever was typed.
run crs-draw versus grim jOHN --exact
run crs-combat start grim john joanna
run crs-combat init GRIM=9 jo=4
run crs-combat init GRIM=9 john=4 joa=2
run crs-combat attack grim jon --card 8 --vs-card 6
snap
run crs-combat attack grim JO --card 8 --vs-card 6
run crs-combat attack grim Fred --card 8 --vs-card 6
unchanged
run crs-combat attack unb john --card 8 --vs-card 6 --item long
run crs-combat pass joa
run crs-combat pass joh
run crs-combat pass joa
run crs-combat log
sql "SELECT seq, actor, target FROM event WHERE actor IS NOT NULL ORDER BY seq"
run crs-stats --json=1 list
# A history asked of a name as typed: by the same rule, among those who
# fought.
run crs-combat history --char grim
run crs-combat history --char jo
run crs-combat history --char jonn
