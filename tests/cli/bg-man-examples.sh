# The EXAMPLES section of bg-board(1), as written there, with the two
# team files it reads.
export REFKIT_NOW=1795400000
cd "$T" || exit 1
cat >red.team <<'TEAM'
# Red: the basic line-up (2 III, 4 II, 4 I, 2 S/A), Cosmic first
Galactus:III*:9,8,5,7,9,6:telepathy
Thor:III:8,9,4,5,6,7:super-sense
Hulk:II:9,10,2,1,3,8
Wolverine:II:8,6,7,3,2,9
Cyclops:II:5,4,6,6,8,5
Storm:II:4,3,7,6,8,4:teleport
Rogue:I:6,6,5,4,4,6
Gambit:I:5,4,8,5,5,4
Beast:I:6,7,6,8,3,5
Iceman:I:3,3,5,4,7,4:swap
Jubilee:SA:2,2,4,3,5,2
Pixie:SA:2,1,5,3,4,3
TEAM
sed 's/Galactus/Thanos/; s/Thor/Loki/; s/Hulk/Abomination/; s/Wolverine/Sabretooth/;
     s/Cyclops/Mystique/; s/Storm/Magneto/; s/Rogue/Toad/; s/Gambit/Pyro/;
     s/Beast/Blob/; s/Iceman/Avalanche/; s/Jubilee/Scout/; s/Pixie/Runner/;
     s/telepathy/hypnotize/' red.team >blue.team
run bg-board team add Red --file red.team
run bg-board team add Blue --file blue.team
run bg-board new Red Blue
run bg-board move Rogue a3
run bg-board move Toad a5
run bg-board move Rogue a4
run bg-board moves Toad
run bg-board move Toad a4 --stat-roll 5,2 --roll 1,2 --vs-roll 1,6
run bg-board die Blue 2
run bg-board show --plain
