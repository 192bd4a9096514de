# bg-board adjust (issue #39): a GM's ruling on a player's DICE, the
# Battle Dice she may still move to her Dice Zone now, always with a
# reason: a player who forgot to move her die after a lost battle is
# let to move it a turn later.  An event of its own: marked in the
# output and the log, in --json, undone, replayed and verified like any.
# The commands of bg-board(1)'s example first.
export REFKIT_NOW=1795400000
cd "$T" || exit 1
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" .
bg-board team add Red --file red.team >/dev/null
bg-board team add Blue --file blue.team >/dev/null
bg-board new Red Blue >/dev/null
echo '# The example of bg-board(1).'
run bg-board adjust Blue DICE=+1 --reason 'forgot her die after the battle'
run bg-board die Blue 2
echo '# No reason, a bad counter or value: usage (exit 2); out of bounds,'
echo '# nothing changed: refused (exit 1); nothing written.'
snap
run bg-board adjust Blue DICE=+1
run bg-board adjust Blue DICE=+1 --reason ''
run bg-board adjust Blue --reason why
run bg-board adjust Blue LIFE=1 --reason why
run bg-board adjust Blue DICE=x --reason why
run bg-board show --reason why
run bg-board adjust Blue DICE=7 --reason 'too many'
run bg-board adjust Blue DICE=-1 --reason 'below zero'
run bg-board adjust Blue DICE=0 --reason 'the same'
run bg-board adjust Green DICE=1 --reason 'not playing'
unchanged
echo '# The record: the log, JSON, undo, replay, verify.'
run bg-board adjust red dice=2 --reason 'two dice owed'
run bg-board log
run bg-board log --json
run bg-board undo
run bg-board log
run bg-board replay
run refkit verify
echo '# A ruling rewritten by hand breaks the chain; put back, it holds.'
# (The reason, which no replay reads: with a snapshot after every event,
# as make check-full also runs the cases, a changed DICE would be found
# by the snapshots too.)
sql "UPDATE bg_event SET detail = replace(detail, 'forgot her', 'lost her')
    WHERE seq = 1"
run refkit verify
sql "UPDATE bg_event SET detail = replace(detail, 'lost her', 'forgot her')
    WHERE seq = 1"
run refkit verify
echo '# At the prompt, and completion.'
printf 'adjust red dice=1 --reason "at the prompt"\n' >"$T/rule"
run_in rule bg-board play
run bg-board --complete 1 -- bg-board adj
run bg-board --complete 3 -- bg-board adjust Red ''
run bg-board watch
