# The full CRS action set (seed 002, "Combat" and "Combat Actions";
# RULINGS section 1), with typed cards so that every number can be
# checked by hand: distances and range refusals, the Melee Check and its
# draw, Taking a Blow (redirect, carry-over, its end), items (held,
# supplemental, range, full OR), powers (EM, K picks, a group), skills,
# a reaction, Flee with Catches, an Intimidation that stops Catches,
# Charge and its free action, the free Flee at the end, the lockout, a
# newcomer at long range, Surprise actions.  Every refusal leaves the
# database as it was; replay finds no mismatch.
export REFKIT_NOW=1795000000
crs-stats add Ann OR=8 DR=10 MIND=6 LIFE=30 IN=0 EM=30
crs-stats add Bob OR=7 DR=9 MIND=5 LIFE=25 IN=0
crs-stats add Cy OR=5 DR=8 MIND=0 LIFE=20 IN=0
crs-stats add Dee OR=4 DR=6 MIND=3 LIFE=15 IN=0
crs-stats add Eve OR=6 DR=7 MIND=8 LIFE=18 IN=0 EM=20
crs-stats item add 'Great Axe' or=+8 range=short full-or=yes
crs-stats item add Sword or=+5 range=short
crs-stats item add Shield dr=+2
crs-stats item add Bow offense=+3 range=long
crs-stats item add Longbow offense=+5 range=long full-or=yes
crs-stats item add 'Chain Mail' dr=+3 use=wearable
crs-stats power add Fireball em=10 picks=2 target=group defend=dr bonus=2
crs-stats power add 'Mind Spike' em=3 picks=1 defend=mind
crs-stats power add 'Fire Dart' em=5 picks=1 defend=none
crs-stats give Ann 'Great Axe'
crs-stats give Ann Fireball
crs-stats give Ann 'Mind Spike'
crs-stats give Bob Sword
crs-stats give Bob Shield
crs-stats give Dee Bow
crs-stats give Dee Longbow
crs-stats give Eve 'Chain Mail'
crs-stats give Eve 'Fire Dart'
run crs-combat start Ann Bob Cy Dee Eve
echo '# Round 1: distances first, in 5 ft steps.'
run crs-combat range Ann Bob 5 Bob Cy 5 Ann Cy 20 Ann Dee 30 Ann Eve 10 Bob Dee 30 Bob Eve 15 Cy Dee 25 Cy Eve 20 Dee Eve 10
snap
run crs-combat range Ann Bob 7
run crs-combat range Ann Ann 5
run crs-combat range Ann Bob 5 Ann Zed 5
unchanged
run crs-combat --seed 1 init Ann=9 Bob=8 Cy=7 Dee=6 Eve=5
snap
run crs-combat range Ann Bob 10
run crs-combat attack Ann Cy --card 5 --vs-card 3
run crs-combat attack Ann Bob --long --card 5 --vs-card 3
run crs-combat attack Ann Bob --item Sword --card 5 --vs-card 3
run crs-combat attack Ann Bob --item 'Chain Mail' --card 5 --vs-card 3
run crs-combat attack Ann Bob --item Nothing --card 5 --vs-card 3
run crs-combat attack Ann Bob --vs-item 'Great Axe' --card 5 --vs-card 3
run crs-combat attack Ann Bob --item 'Great Axe' --use 17 --card 5 --vs-card 3
unchanged
echo '# A full-OR item takes the whole OR at short range too (RULINGS).'
run crs-combat attack Ann Bob --item 'Great Axe' --use 5 --card 6 --vs-item Shield --vs-card 4
unchanged
run crs-combat attack Ann Bob --item 'Great Axe' --card 6 --vs-item Shield --vs-card 10,2
snap
echo '# Bob is in a melee with Ann, which Cy is not in.'
run crs-combat blow Bob Cy
unchanged
run crs-combat attack Bob Ann --item Sword --card 7 --vs-card 3
run crs-combat blow Cy Ann
run crs-combat blow Cy Bob
snap
run crs-combat attack Dee Bob --long --melee-hit Eve --card 8 --vs-card 5
run crs-combat attack Dee Bob --long --item Longbow --use 3 --card 8 --vs-card 5
unchanged
echo '# Bob is in a melee with Ann: the draw picks Bob, and Cy takes the blow.'
run crs-combat attack Dee Bob --long --item Bow --melee-hit Bob --card 8 --vs-card 5
snap
run crs-combat power Eve 'Fire Dart' Dee --em 25 --card 6
run crs-combat power Eve 'Fire Dart' Dee --em 4 --card 6
run crs-combat power Eve 'Fire Dart' Dee --card 6 --vs-card 3
unchanged
run crs-combat power Eve 'Fire Dart' Dee --card 6 --react Ann --react-base 2 --react-need 12 --react-card 7
run crs-combat status
run crs-combat round
echo '# Round 2: Cy carries on Taking a Blow at step 1; Dee cannot.'
snap
run crs-combat blow Dee Ann
unchanged
run crs-combat blow Cy Bob
snap
run crs-combat --seed 1 init Ann=9 Bob=8 Cy=7 Dee=6 Eve=5
unchanged
run crs-combat --seed 1 init Ann=9 Bob=8 Dee=6 Eve=5
snap
run crs-combat power Ann 'Mind Spike' Cy --card 4
unchanged
echo '# Taking a Blow does nothing against a mental attack.'
run crs-combat mental Ann Bob --card 4 --vs-card 3
echo '# Bob is still in a melee with Ann (his last action): no Charge.'
run crs-combat charge Bob Dee=10 --let Ann --let Cy
echo '# Bob acts: Cy no longer takes his blows.'
run crs-combat attack Bob Ann --skill 'Sword Mastery=+2' --card 5 --vs-skill 'Parry=+1' --vs-card 9
run crs-combat attack Dee Bob --long --item Bow --melee-hit Ann --card 7 --vs-card 2
snap
run crs-combat flee Eve --card 9 --catch Zed=5
run crs-combat flee Eve --card 9 --let Cy --catch Cy=5
unchanged
run crs-combat flee Eve --card 9 --let Cy --catch Ann=5 --catch Bob=4 --catch Dee=8
snap
run crs-combat attack Ann Eve --long --card 5 --vs-card 3
unchanged
run crs-combat round
echo '# Round 3: an Intimidation stops two Catches.'
run crs-combat --seed 1 init Ann=9 Bob=8 Cy=7 Dee=6
snap
run crs-combat attack Ann Eve --long --card 5 --vs-card 3
run crs-combat mental Ann Eve --card 5 --vs-card 3
unchanged
run crs-combat mental Ann Bob Dee --kind intimidation --card 9 --vs-card 2/3
snap
run crs-combat attack Bob Ann --card 5 --vs-card 4
unchanged
run crs-combat pass Bob
snap
run crs-combat flee Cy --card 6 --catch Bob=4
unchanged
run crs-combat flee Cy --card 6 --catch Ann=8
run crs-combat pass Dee
run crs-combat round
echo '# Round 4: Bob charges; Dee shot at him last, and gets a free action.'
run crs-combat --seed 1 init Bob=9 Ann=8 Cy=7 Dee=6
snap
run crs-combat charge Bob Dee=10 Ann=20 Cy=20 --let Ann
unchanged
run crs-combat charge Bob Dee=10 Ann=20 Cy=20 --let Ann --let Cy
snap
run crs-combat attack Ann Bob --long --free --card 5 --vs-card 4
unchanged
run crs-combat attack Dee Bob --long --free --card 5 --vs-card 4
run crs-combat status
snap
run crs-combat attack Dee Bob --long --free --card 6 --vs-card 3
run crs-combat power Ann Fireball Bob Cy Dee --em 40 --card 7,5 --vs-card 4/6/2
run crs-combat power Ann 'Mind Spike' Bob Cy --card 7 --vs-card 4/6
unchanged
run crs-combat power Ann Fireball Bob Cy Dee --em 12 --card 7,5 --vs-card 3/6/2
run crs-combat attack Cy Ann --long --card 9 --vs-card 2 --react Bob --react-base 3 --react-card 9
run crs-combat end --agreed
echo '# The free Flee at the end, and the lockout it starts.'
run crs-combat flee Cy
run crs-combat flee Cy
snap
run crs-combat start Eve Ann
unchanged
run crs-combat --combat 1 replay
echo '# A Surprise action comes before the first initiative, only once.'
run crs-combat start Ann Bob
snap
run crs-combat attack Ann Bob --surprise --card 5 --vs-card 3
run crs-combat join Cy
unchanged
run crs-combat attack Ann Bob --surprise --long --card 5 --vs-card 3
snap
run crs-combat mental Ann Bob --surprise --card 5 --vs-card 3
unchanged
run crs-combat --seed 1 init Ann=9 Bob=8
run crs-combat attack Ann Bob --card 4 --vs-card 5
run crs-combat pass Bob
run crs-combat round
echo '# Dee joins after the first round: at long range from everyone.'
run crs-combat join Dee
run crs-combat --seed 1 init Ann=9 Bob=8 Dee=7
snap
run crs-combat attack Ann Dee --card 4 --vs-card 5
run crs-combat --combat 1 attack Ann Bob --surprise --long --card 5 --vs-card 3
unchanged
run crs-combat start Dee
run crs-combat attack Dee Bob --surprise --long --card 5 --vs-card 3
run crs-combat log 1
run crs-combat log 1 --json
run crs-combat log 1 --csv
run crs-combat replay
