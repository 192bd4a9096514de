# The Avatar System 2.6 rules (seed 001) where they differ from the CRS
# (seed 002): items revealed at declaration, full-OR items at short range
# too, the one-hour flee lockout, Charge's free action or free Item Swap,
# Item Swap itself, no dodging skills while Taking a Blow.  Each is shown
# next to the CRS behaviour.
export REFKIT_NOW=1795000000
crs-stats add Ann OR=8 DR=10 MIND=6 LIFE=30 IN=0
crs-stats add Bob OR=7 DR=9 MIND=5 LIFE=25 IN=0
crs-stats add Cy OR=5 DR=8 MIND=4 LIFE=20 IN=0
crs-stats add Dee OR=4 DR=6 MIND=3 LIFE=15 IN=0
crs-stats item add 'Great Axe' or=+8 range=short full-or=yes
crs-stats item add Dagger or=+2 range=short
crs-stats item add Bow offense=+3 range=long
crs-stats item add Sling offense=+1 range=long
crs-stats give Ann 'Great Axe'
crs-stats give Ann Dagger
crs-stats give Cy Bow
crs-stats give Cy Sling
snap
run crs-combat start Ann Bob --rules avatar --lockout 10
run crs-combat start Ann Bob --rules gurps
unchanged
run crs-combat start Ann Bob Cy Dee --rules avatar
run crs-combat range Ann Bob 5 Bob Dee 5 Ann Cy 20 Ann Dee 10 Bob Cy 20 Cy Dee 25
run crs-combat --seed 1 init Ann=9 Bob=8 Cy=7 Dee=6
snap
echo '# Avatar 2.6: a full-OR item forbids pulling the punch at short range too.'
run crs-combat attack Ann Bob --item 'Great Axe' --use 5 --card 6 --vs-card 4
unchanged
run crs-combat attack Ann Bob --item 'Great Axe' --card 6 --vs-card 4
run crs-combat pass Bob
run crs-combat attack Cy Bob --long --item Bow --card 7 --vs-card 3
run crs-combat blow Dee Bob
run crs-combat round
echo '# Round 2: no dodging skill for whoever is Taking a Blow.'
run crs-combat blow Dee Bob
run crs-combat --seed 1 init Ann=9 Bob=8 Cy=7
snap
run crs-combat attack Ann Bob --item Dagger --card 5 --vs-skill Acrobatics=+3 --vs-card 4
run crs-combat attack Ann Bob --item Dagger --card 5 --vs-skill 'Fluid Motion=+3' --vs-card 4
run crs-combat attack Ann Bob --item Dagger --card 5 --vs-skill Dodging=+3 --vs-card 4
unchanged
run crs-combat attack Ann Bob --item Dagger --card 5 --vs-skill Toughness=+1 --vs-card 4
echo '# The Charge offers Cy a free long range action or a free Item Swap.'
run crs-combat charge Bob Cy=10 Ann=20 Dee=20 --let Ann --let Dee
snap
run crs-combat swap Ann Dagger --free
unchanged
run crs-combat swap Cy Sling --free
snap
run crs-combat attack Cy Bob --long --free --card 8 --vs-card 2
unchanged
run crs-combat attack Cy Bob --long --item Sling --card 8 --vs-card 2
run crs-combat round
run crs-combat end --agreed
echo '# The lockout is one hour under Avatar 2.6.'
run crs-combat flee Bob
echo '# Undoing the free Flee lifts the lockout; the Flee can be taken again.'
run crs-combat undo
run crs-combat status
run crs-combat flee Bob
run crs-combat start Bob Dee --rules avatar
run crs-combat status --json
run crs-combat log
run crs-combat replay
echo '# The same situations under the CRS rules.'
run crs-combat start Ann Cy Dee
run crs-combat range Ann Dee 5 Cy Dee 5 Ann Cy 20
run crs-combat --seed 1 init Cy=9 Ann=8 Dee=7
run crs-combat swap Cy Sling
run crs-combat blow Cy Dee
snap
run crs-combat attack Ann Dee --item 'Great Axe' --use 5 --card 6 --vs-card 4
unchanged
run crs-combat attack Ann Dee --item Dagger --card 5 --vs-skill Acrobatics=+3 --vs-card 4
run crs-combat replay
