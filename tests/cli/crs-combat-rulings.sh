# GM rulings (issue #39): the GM overrules the tool, always with a typed
# reason, and the ruling is an event of its own.  adjust changes LIFE and
# EM, relative or absolute, within 0 and the sheet's value; --out-of-turn
# lets a fighter act out of the initiative order, never twice a round.
# Every refusal writes nothing; log, --json and --csv carry the reason;
# undo, replay and refkit verify treat a ruling as any event, and a
# ruling rewritten by hand breaks the chain.  The commands of the
# example in crs-combat(1) come first, as printed there.
export REFKIT_NOW=1795000000
crs-stats add Kestrel OR=4 DR=5 MIND=5 LIFE=9 IN=2 EM=6 >/dev/null
crs-stats add Ysolde OR=5 DR=7 MIND=6 LIFE=12 IN=3 >/dev/null
crs-stats add Amos OR=3 DR=4 MIND=2 LIFE=6 IN=1 >/dev/null
echo '# The example of crs-combat(1).'
run crs-combat start Kestrel Ysolde Amos
run crs-combat init Kestrel=9 Ysolde=3 Amos=2
run crs-combat attack Ysolde Kestrel --card 8 --vs-card 2
run crs-combat attack Ysolde Kestrel --card 8 --vs-card 2 \
    --out-of-turn --reason "Kestrel's player was not ready"
run crs-combat adjust Kestrel LIFE=+2 EM=-1 --reason 'the prop sword broke'
run crs-combat adjust Kestrel LIFE=9 --reason 'healed by the plot team'
echo '# The combats under way name a ruling as the last event: an adjust.'
run crs-combat list
echo '# A ruling is never implied: no reason, no ruling (usage, exit 2).'
snap
run crs-combat adjust Kestrel LIFE=+1
run crs-combat adjust Kestrel LIFE=+1 --reason ''
run crs-combat adjust Kestrel LIFE=+1 --reason '   '
run crs-combat attack Kestrel Ysolde --card 5 --vs-card 5 --out-of-turn
run crs-combat attack Kestrel Ysolde --card 5 --vs-card 5 --reason why
run crs-combat round --out-of-turn --reason why
run crs-combat adjust Kestrel --reason why
run crs-combat adjust Kestrel HP=3 --reason why
run crs-combat adjust Kestrel OR=+2 --reason why
run crs-combat adjust Kestrel LIFE=x --reason why
run crs-combat adjust Kestrel LIFE=-x --reason why
run crs-combat adjust Kestrel LIFE=+1 life=2 --reason why
unchanged
echo '# Values out of bounds, or nothing changed, are refused (exit 1).'
run crs-combat adjust Kestrel LIFE=+1 --reason 'over the sheet'
run crs-combat adjust Kestrel LIFE=-10 --reason 'below zero'
run crs-combat adjust Kestrel EM=7 --reason 'over the sheet'
run crs-combat adjust Ysolde EM=+1 --reason 'no EM on the sheet'
run crs-combat attack Kestrel Ysolde --card 5 --vs-card 5 --out-of-turn \
    --reason 'Kestrel is next anyway'
run crs-combat adjust Kestrel LIFE=9 --reason 'the same value'
run crs-combat adjust Nobody LIFE=1 --reason 'not here'
unchanged
echo '# Out of turn still once a round, and only with the option.'
run crs-combat attack Ysolde Amos --card 5 --vs-card 5 --out-of-turn \
    --reason again
run crs-combat pass Amos
unchanged
run crs-combat pass Amos --out-of-turn --reason 'Amos steps back'
echo '# A ruling takes a fighter down and brings him back; not the dead.'
run crs-combat adjust Amos LIFE=0 --reason 'fell off the bridge'
run crs-combat status
run crs-combat dead Amos
run crs-combat adjust Amos LIFE=+3 --reason 'too late'
run crs-combat undo
run crs-combat adjust Amos LIFE=+3 --reason 'caught by a rope'
echo '# The record: log, JSON, CSV; undo and replay as any event.'
run crs-combat log
run crs-combat log --json
run crs-combat log --csv
run crs-combat undo
run crs-combat log
run crs-combat replay
run refkit verify
echo '# A ruling rewritten by hand: its hash no longer holds.  Each'
echo '# change is put back after (on every backend), and the chain holds.'
sql "UPDATE event SET life_after = 12 WHERE seq = 7"
run refkit verify
sql "UPDATE event SET life_after = 5 WHERE seq = 7"
sql "UPDATE event SET detail = replace(detail, 'prop sword', 'prop axe')
    WHERE seq = 7"
run refkit verify
sql "UPDATE event SET detail = replace(detail, 'prop axe', 'prop sword')
    WHERE seq = 7"
run refkit verify
echo '# At the prompt: the same rulings, the same marks.'
cat >"$T/rule" <<'END'
round
i kestrel=2 ysolde=9
a kestrel ysolde 7 3
a kestrel ysolde 7 3 --out-of-turn --reason 'Ysolde hesitates'
adjust ysolde life=-1 --reason 'tripped on a root'
adjust amos life=+1
u
l
END
run_in rule crs-combat play
echo '# Completion: the command, the fighters, the counters, the option.'
run crs-combat --complete 1 -- crs-combat adj
run crs-combat --complete 3 -- crs-combat adjust Kestrel ''
run crs-combat --complete 4 -- crs-combat adjust Kestrel LIFE=+1 ''
run crs-combat --complete 3 -- crs-combat attack Kestrel --out
echo '# The report counts the rulings per GM; an undone one does not count.'
run env REFKIT_GM=Bea crs-combat --combat 1 adjust Kestrel LIFE=-1 \
    --reason 'a second opinion'
crs-combat report --json | sed -n '/^"rulings"/,$p'
crs-combat report -o report.html
sed -n '/id="rulings"/,/<\/table>/p' report.html
echo '# The board without a terminal: one frame, the marks in its story.'
run crs-combat watch
