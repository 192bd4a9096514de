# A five-combatant, five-round melee with the tool drawing every card
# (seeded, so the transcript is fixed): items, a Fireball on a group, a
# Flee, a Charge with its free action, Taking a Blow.  The log at the end
# reads as the story of the fight; replay re-derives every event.
export REFKIT_NOW=1795000000
crs-stats add Aria OR=4 DR=8 MIND=12 LIFE=22 IN=3 EM=30 LB=1
crs-stats add Brann OR=9 DR=10 MIND=5 LIFE=30 IN=2 LB=1
crs-stats add Corin OR=5 DR=12 MIND=6 LIFE=20 IN=4 LB=2
crs-stats add Dax OR=11 DR=7 MIND=3 LIFE=70 IN=1
crs-stats add Esk OR=7 DR=11 MIND=7 LIFE=18 IN=5 LB=1
crs-stats item add Sword or=+5 range=short
crs-stats item add Shield dr=+3
crs-stats item add Longbow offense=+4 range=long
crs-stats item add 'Great Axe' or=+8 range=short full-or=yes
crs-stats item add 'Leather Coat' dr=+1 use=wearable
crs-stats power add Fireball em=10 picks=2 target=group defend=dr bonus=2
crs-stats give Aria Fireball
crs-stats give Brann Sword
crs-stats give Brann Shield
crs-stats give Corin Longbow
crs-stats give Dax 'Great Axe'
crs-stats give Esk 'Leather Coat'
C='crs-combat --gm Morgan'
echo '# Round 1'
run $C start Aria Brann Corin Dax Esk
run $C range Brann Dax 5 Esk Aria 5 Aria Brann 15 Aria Corin 20 Aria Dax 20 Brann Corin 25 Brann Esk 15 Corin Dax 30 Corin Esk 25 Dax Esk 20
run $C --seed 100 init Corin=9 Esk=7 Brann=8 Aria=6 Dax=5
run $C --seed 101 attack Corin Dax --long --item Longbow
run $C --seed 102 attack Esk Corin --long
run $C --seed 103 attack Brann Dax --item Sword
run $C --seed 104 power Aria Fireball Dax Brann --em 12
run $C --seed 105 attack Dax Brann --item 'Great Axe' --vs-item Shield
run $C status
run $C round
echo '# Round 2: Esk guards Aria; Corin shoots into the melee.'
run $C --seed 200 init Brann=9 Esk=5 Dax=8 Aria=5 Corin=3
run $C --seed 201 attack Brann Dax --item Sword
run $C blow Esk Aria
run $C --seed 202 attack Dax Brann --item 'Great Axe' --vs-item Shield
run $C pass Aria
run $C --seed 204 attack Corin Brann --long --item Longbow
run $C round
echo '# Round 3: Esk carries on at step 1; Dax shoots at Corin.'
run $C blow Esk Aria
run $C --seed 300 init Dax=9 Corin=5 Brann=6 Aria=2
run $C --seed 301 attack Dax Corin --long
run $C --seed 302 attack Corin Dax --long --item Longbow
run $C --seed 303 attack Brann Aria --long
run $C --seed 304 mental Aria Brann --skill 'Sorcery=+2'
run $C round
echo '# Round 4: Corin charges; Dax, who shot at him last, gets a free action.'
run $C --seed 400 init Corin=9 Brann=8 Aria=6 Dax=5 Esk=2
run $C --seed 401 charge Corin Brann=5 Dax=10 Aria=20 Esk=20
run $C --seed 402 attack Dax Corin --long --free
run $C --seed 403 attack Brann Corin --item Sword
run $C --seed 404 attack Aria Brann --long
run $C --seed 406 attack Esk Brann --long
run $C --seed 405 flee Dax
run $C status
run $C round
echo '# Round 5'
run $C --seed 500 init Corin=9 Brann=8 Aria=6 Esk=5
run $C --seed 501 attack Corin Brann --item Longbow
run $C --seed 502 attack Corin Brann
run $C --seed 503 attack Brann Corin --item Sword
run $C --seed 505 pass Esk
run $C --seed 504 power Aria Fireball Brann Corin --em 10
run $C round
run $C end --agreed
run $C flee Esk
run $C log
run $C replay
