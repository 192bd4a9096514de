#!/bin/sh
# gear.sh: the sample items and powers that melee.json's fighters hold
# (crs-combat(1)'s convention melee).  Run it once per database before
# importing melee.json:
#   sh examples/gear.sh && crs-stats import examples/melee.json
# It uses the crs-stats on PATH, else the one just built in build/.
set -e
crs=crs-stats
command -v crs-stats >/dev/null 2>&1 ||
    crs="$(dirname "$0")/../build/crs-stats"
"$crs" item add Sword or=+5 range=short notes='one hand'
"$crs" item add Shield dr=+3
"$crs" item add Longbow offense=+4 range=long
"$crs" item add 'Great Axe' or=+8 range=short full-or=yes
"$crs" item add 'Leather Coat' dr=+1 use=wearable
"$crs" power add Fireball em=10 picks=2 target=group defend=dr bonus=2
"$crs" power add Sleep em=4 picks=1 target=one defend=mind
