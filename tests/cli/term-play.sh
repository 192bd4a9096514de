# crs-combat play without a terminal (issue #23): commands one a line,
# each run as its one-shot form (the same events, the same refusals),
# the short forms a GM types at the table, comments and blank lines
# skipped, a refusal that ends that command only, quit; undo says what
# it will reverse first.  The status is 1 when a command failed.
export REFKIT_NOW=1795000000
crs-stats add 'Grim, the Unbowed' OR=8 DR=10 MIND=6 LIFE=30 IN=3 LB=1
crs-stats add John OR=7 DR=9 MIND=5 LIFE=25 IN=2
crs-stats add Mary OR=6 DR=8 MIND=5 LIFE=20 IN=1
cat >"$T/fight" <<'END'
# a fight scripted from a file
start grim john mary

init grim=9 jo=4 m=2
a grim j 8 6
a jo grim 5 9 --mod 1
attack mary 'Grim, the Unbowed' --card 7 --vs-card 2
a grim zed 8 6
attak
"an unclosed quote
p
u
s
n
quit
status
END
run_in fight crs-combat play
run crs-combat log
run crs-combat undo --dry-run
run crs-combat undo --dry-run --json
run crs-combat undo --dry-run 4
run crs-combat play 1 2
run crs-combat --dry-run status
printf 'status\n' >"$T/one"
run_in one crs-combat play 1
run_in one crs-combat play 9
# fb-duel play and bg-board play: the same, with their own short forms.
fb-duel sheet add Ann --side light --hand right >/dev/null
fb-duel sheet add Bob --side dark --hand left att=4 lightning=1 >/dev/null
cat >"$T/duel" <<'END'
start Ann Bob
r --init 5,2 --choose torso --hit 2,2 --block 4,4 --seed 7
u
r --init 5,2 --choose torso --hit 2,2 --block 4,4 --seed 7
bogus
END
run_in duel fb-duel play
run fb-duel undo --dry-run
run fb-duel log
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" "$T"
bg-board team add Red --file "$T/red.team" >/dev/null
bg-board team add Blue --file "$T/blue.team" >/dev/null
cat >"$T/game" <<'END'
new Red Blue
m Rogue a3
m Toad a5
u
m Toad a5
s
END
run_in game bg-board play
run bg-board undo --dry-run
run bg-board --dry-run show
run bg-board log
