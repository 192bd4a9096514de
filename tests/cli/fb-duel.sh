# fb-duel: sheets and their limits, a refereed duel with given dice and
# seeded ones, GEAS, undo, the derived state, history, the ledger in the
# database, and refusals that leave the database as it was.
export REFKIT_NOW=1795400000
run fb-duel board list
run fb-duel board show
run fb-duel sheet add Ann --side light --hand right --colour blue
run fb-duel sheet add Bob --side dark --hand left
run fb-duel sheet add Cyd --side light --hand left --level templar center=4 att=6 def=6 protect=3 jump=1 absorb=1 heal=1
run fb-duel sheet show Cyd --json
run fb-duel sheet list
run fb-duel sheet list --csv
snap
# Every stance limit refused, with one line per broken limit.
run fb-duel sheet add Dee --side dark --colour blue
run fb-duel sheet add Dee --side light --colour red
run fb-duel sheet add Dee center=5 left=1
run fb-duel sheet add Dee att=11 def=0
run fb-duel sheet add Dee def=11 att=0
run fb-duel sheet add Dee center=2
run fb-duel sheet add Dee --level templar center=2 left=2
run fb-duel sheet add Dee att=6
run fb-duel sheet add Dee att=4 rage=1
run fb-duel sheet add Dee --side dark att=4 heal=1
run fb-duel sheet add Dee --level templar --free-geas push
run fb-duel sheet add Dee --level diamedes --free-geas choke
run fb-duel sheet add Dee --side dark --colour green center=5 att=12
run fb-duel sheet add Dee nowhere=3
run fb-duel sheet add Dee center=x
run fb-duel sheet add 'Dee Dee'
run fb-duel sheet add Ann
run fb-duel stance Ann center=4
unchanged
run fb-duel stance Ann center=4 upper-left=2
run fb-duel sheet set Bob att=4 lightning=1
# The duel.  Round 1: Ann wins initiative and chooses the torso; Bob
# pulls 3 to block, Ann 1 to hit; hit and block.
run fb-duel start Ann Bob
run fb-duel round --init 5,2 --choose torso --pull Bob:center=2,left=1 --pull Ann:right=1 --hit 3,3 --block 4,4
run fb-duel status
# Round 2: Bob's lightning takes one of Ann's counters; a tied initiative
# swaps roles; the target die, then a paid move.
run fb-duel geas Bob lightning 1 --spheres lower-right
run fb-duel init --init 3,3
run fb-duel target --target-die 4 --move right-arm@right
run fb-duel round --pull Ann:upper-right=2 --hit 6,6 --block 1,2 --gain 4 --gain-from-foe
run fb-duel status --json
snap
# Refusals: nothing written.
run fb-duel round --choose head
run fb-duel round --hit 7,1
run fb-duel round --pull Ann:lower-left=2 --init 6,1 --choose torso
run fb-duel round --pull Zed:center=1
run fb-duel geas Ann rage
run fb-duel geas Ann lightning 1
run fb-duel geas Bob heal
run fb-duel geas Bob lightning 1
run fb-duel restance Ann center=4
run fb-duel round --bogus
unchanged
# Undo and redo a round with seeded dice.
run fb-duel round --seed 7 --choose head
run fb-duel round --seed 7 --init 6,1 --target-die 1 --hit 1,1 --block 6,6 --damage 6
run fb-duel log
run fb-duel undo
run fb-duel round --init 2,6 --target-die 3 --pull Ann:center=2,right=2 --hit 2,2 --block 3,3
run fb-duel log --json
run fb-duel history
run fb-duel history Bob --json
echo "$ sql" "SELECT seq, round, action, actor, outcome, ended, winner, input FROM fb_event"
sql "SELECT seq, round, action, actor, outcome, ended, winner, input FROM fb_event"
# An unblocked hit that maims ends the duel; nothing more is allowed.
run fb-duel round --init 6,1 --target-die 1 --hit 1,1 --block 6,6 --damage 1
run fb-duel status
run fb-duel round --seed 1
run fb-duel history --csv
# The simulation, seeded, on one stream (--jobs 1: the default is a job
# per online core, and the result depends on the number of jobs).
run fb-duel sim Ann Bob --n 2000 --seed 5 --jobs 1
run fb-duel sim Ann Cyd --n 500 --seed 5 --json --jobs 1
run fb-duel sim Ann Bob
run fb-duel sim Ann Nobody --n 5
# Two jobs: streams 0 and 1 of the seed, dealt the duels in turn; the
# same result on every run, on the lean path and stage by stage.
run fb-duel sim Ann Bob --n 2000 --seed 5 --jobs 2
fb-duel sim Ann Bob --n 2000 --seed 5 --jobs 2 >"$T/j2a"
fb-duel sim Ann Bob --n 2000 --seed 5 --jobs 2 >"$T/j2b"
cmp -s "$T/j2a" "$T/j2b" && echo "(two runs of --jobs 2: the same output)"
run fb-duel sim Ann Cyd --n 500 --seed 5 --json --jobs 3
# Without --jobs, a job per online core.
fb-duel sim Ann Bob --n 1000 --seed 5 >"$T/jd"
fb-duel sim Ann Bob --n 1000 --seed 5 \
    --jobs "$(getconf _NPROCESSORS_ONLN)" >"$T/jc"
cmp -s "$T/jd" "$T/jc" && echo "(no --jobs: as many jobs as online cores)"
# A job count is a whole number from 1 to 256.
run fb-duel sim Ann Bob --n 5 --jobs 0
run fb-duel sim Ann Bob --n 5 --jobs 257
run fb-duel sim Ann Bob --n 5 --jobs two
run fb-duel sim Ann Bob --n 5 --jobs
# Usage and output errors.
run fb-duel
run fb-duel --bogus
run fb-duel frobnicate
# An option goes with the commands that take it (fb/complete.c's table,
# which completion offers by): a sheet's, sim's and a round's are
# refused elsewhere, and an unknown command is said first.
run fb-duel status --side light
run fb-duel undo --n 3
run fb-duel geas Ann push --hit 2,2
run fb-duel start Ann Bob --spheres 1,2
run fb-duel log --clear
run fb-duel statu --hit 2,2
run fb-duel sheet rm Bob
run fb-duel sheet rm Bob
run_full sh -c 'fb-duel sheet list >/dev/full'
