# The EXAMPLES section of fb-duel(1), as written there.
export REFKIT_NOW=1795400000
run fb-duel sheet add Ann --side light --hand right
run fb-duel sheet add Bob --side dark --hand left att=4 lightning=1
run fb-duel start Ann Bob
run fb-duel round --init 5,2 --choose torso --pull Bob:center=2,left=1 --hit 2,2 --block 4,4
run fb-duel init --seed 4
run fb-duel target --seed 4
run fb-duel round --pull Ann:center=3 --seed 4
run fb-duel status
run fb-duel sheet add Cyd --side light --hand left --level templar center=4 att=6 def=6 protect=3 jump=1 absorb=1 heal=1
run fb-duel sim Cyd Ann --n 100000 --seed 1 --jobs 1
run fb-duel sim Cyd Ann --n 100000 --seed 1 --jobs 2
run fb-duel sheets --all --per-page 2 -o boards.pdf
