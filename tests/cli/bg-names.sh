# bg-board: names as a GM types them (issue #23).  Teams and figures are
# found exactly, but for case, or by a unique beginning of the name or of
# one of its words; inside a game a figure is one of its figures, and an
# unknown one's refusal lists those of the side to move; the ledger
# stores the full names.
export REFKIT_NOW=1795400000
cd "$T" || exit 1
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" .
bg-board team add Red --file red.team >/dev/null
bg-board team add Blue --file blue.team >/dev/null
bg-board team add Redwing --file red.team >/dev/null
# Teams.
run bg-board team show red
run bg-board team show REDW
run bg-board team show re
run bg-board team show Bleu
snap
run bg-board team rm Redwnig
run bg-board new re blu
run bg-board new RED Bleu
unchanged
# A team is removed on a server too (its count of games once asked the
# server for a collation it has not).
run bg-board team rm redw
run bg-board team list
# A game: figures by their beginnings, in any case.
run bg-board new RED bl
run bg-board place rog f2
run bg-board place GALA d1
snap
run bg-board place xyz f2
run bg-board moves Icemn
run bg-board move ic a9
run bg-board move t a5
unchanged
run bg-board moves ice
run bg-board move ice a3
snap
run bg-board move 2:t a5
run bg-board move bleu:to a5
run bg-board move 2:Tod a5
unchanged
run bg-board move blu:to a5
run bg-board move iceman a4
run bg-board move TOAD a4 --stat-roll 5,2 --roll 1,2 --vs-roll 4,6
snap
run bg-board die Rd 2
unchanged
run bg-board die bl 2
snap
run bg-board move pyro e5
run bg-board power sto hypnotize tox a2
run bg-board power sto hypnotize 1:toad a2
unchanged
run bg-board power sto teleport f2
run bg-board log
sql "SELECT seq, actor, input FROM bg_event ORDER BY seq"
run bg-board team rm BLU
run bg-board replay
