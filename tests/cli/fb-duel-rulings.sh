# fb-duel adjust (issue #39): a GM's ruling on a duelist's ATT, DEF and
# pool, always with a reason; the counters it adds or takes out change
# the duel's total, so the board's checks still hold.  An event of its
# own: marked in the output and the log, in --json, undone, replayed
# and verified like any.  The commands of fb-duel(1)'s example first.
export REFKIT_NOW=1795400000
fb-duel sheet add Ann --side light --hand right --colour blue >/dev/null
fb-duel sheet add Bob --side dark --hand left >/dev/null
echo '# The example of fb-duel(1).'
run fb-duel start Ann Bob
run fb-duel adjust Ann ATT=-1 POOL=+1 --reason 'a counter rolled off ATT'
run fb-duel adjust bob def=4 --reason 'misplaced at the start'
run fb-duel status --json
echo '# No reason, a bad counter or value: usage (exit 2); out of bounds,'
echo '# nothing changed: refused (exit 1); nothing written.'
snap
run fb-duel adjust Ann ATT=+1
run fb-duel adjust Ann ATT=+1 --reason ''
run fb-duel adjust Ann --reason why
run fb-duel adjust Ann LIFE=+1 --reason why
run fb-duel adjust Ann ATT=x --reason why
run fb-duel status --reason why
run fb-duel adjust Ann ATT=11 --reason 'too many'
run fb-duel adjust Ann POOL=-50 --reason 'below zero'
run fb-duel adjust Ann ATT=4 --reason 'the same'
run fb-duel adjust Zed ATT=1 --reason 'not in the duel'
unchanged
run fb-duel adjust Ann POOL=0 ATT=+1 --reason 'put back'
echo '# The record: the log, JSON, undo, replay, verify.'
run fb-duel round --init 5,2 --choose torso --pull Bob:center=2,left=1 --pull Ann:right=1 --hit 3,3 --block 4,4 --damage 5
run fb-duel log
run fb-duel log --json
run fb-duel undo
run fb-duel undo
run fb-duel log
run fb-duel replay
run refkit verify
echo '# A ruling rewritten by hand breaks the chain; put back, it holds.'
# (The reason, which no replay reads: with a snapshot after every event,
# as make check-full also runs the cases, a changed ATT would be found
# by the snapshots too.)
sql "UPDATE fb_event SET detail = replace(detail, 'rolled off', 'fell off')
    WHERE seq = 2"
run refkit verify
sql "UPDATE fb_event SET detail = replace(detail, 'fell off', 'rolled off')
    WHERE seq = 2"
run refkit verify
echo '# At the prompt, and completion.'
printf 'adjust ann att=-1 pool=+1 --reason "at the prompt"\nlog\n' >"$T/rule"
run_in rule fb-duel play
run fb-duel --complete 1 -- fb-duel adj
run fb-duel --complete 3 -- fb-duel adjust Ann ''
run fb-duel watch
