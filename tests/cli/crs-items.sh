# Items and powers, holding them, and the effective stats they give.
run crs-stats add Fred ENE=30 STR=12 INT=10 CUN=14 AGI=16 CON=10 CHA=12 LUC=12 LEVEL=2
run crs-stats item add Sword or=+5 range=short
run crs-stats item add 'Chain Mail' dr=+3 use=wearable
run crs-stats item add 'Ring of Wits' mind=+2 or=-1 use=continuous notes='Hums softly.'
run crs-stats item add 'Great Axe' or=+8 pick=+1 range=short full-or=yes
run crs-stats item add Pistol offense=+5 range=long
run crs-stats power add 'Fire Dart' em=5 picks=1 defend=none
run crs-stats power add Fireball em=10 picks=2 target=group defend=dr bonus=2
run crs-stats power add 'Mind Spike' em=3 picks=1 defend=mind
run crs-stats item list
run crs-stats item list --json
run crs-stats power list
run crs-stats power list --csv
run crs-stats give Fred Sword
run crs-stats give Fred 'Chain Mail'
run crs-stats give Fred 'Ring of Wits'
run crs-stats give Fred Fireball
run crs-stats show Fred
run crs-stats show Fred --json
run crs-stats take Fred Sword
run crs-stats item set 'Chain Mail' dr=+4
run crs-stats show Fred
snap
run crs-stats give Fred 'Chain Mail'
run crs-stats give Fred Nothing
run crs-stats give Nobody Sword
run crs-stats take Fred Sword
run crs-stats item add Sword or=+1
run crs-stats item add 'Two;Names'
run crs-stats item add Club or=1001
run crs-stats item add Club range=far
run crs-stats item add Club colour=red
run crs-stats item add Club use=sometimes
run crs-stats item add Club full-or=maybe
run crs-stats power add Bolt em=-1
run crs-stats power add Bolt picks=21
run crs-stats power add Bolt target=everyone
run crs-stats power add Bolt defend=AC
run crs-stats item set Nothing or=1
run crs-stats item rm Nothing
run crs-stats power rm Nothing
unchanged
# An item both ways is ambiguous for give.
run crs-stats power add Sword em=1
run crs-stats give Fred Sword
run crs-stats power rm Sword
# Removing an item takes it from everyone who held it.
run crs-stats item rm 'Chain Mail'
run crs-stats show Fred
