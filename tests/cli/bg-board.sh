# bg-board: teams and their line-ups, a refereed basic game with given
# dice (a plain move, a roll-off on white, a re-rolled tie, a die moved to
# the Dice Zone, a power, undo), the derived board, the log and the
# ledger, an advanced game's far-end release and its Cosmic capture, and
# refusals that leave the database as it was.
export REFKIT_NOW=1795400000
cd "$T" || exit 1
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" .
run bg-board team add Red --file red.team
run bg-board team add Blue --file blue.team
run bg-board team list
run bg-board team list --csv
run bg-board team show Red
run bg-board team show Blue --json
run bg-board stat
run bg-board stat blue Psionics
run bg-board stat red Punching
snap
# Line-up and spec refusals: one line per broken limit, nothing written.
run bg-board team add Small 'A:III*:1,1,1,1,1,1' 'B:II:1,1,1,1,1,1'
run bg-board team add Bad 'A:IV:1,1,1,1,1,1'
run bg-board team add Bad 'A:I:1,1,1,1,1'
run bg-board team add Bad 'A:I:1,1,1,1,1,100'
run bg-board team add 'Bad Name' 'A:I:1,1,1,1,1,1'
run bg-board team add Red --file red.team
run bg-board team add Bad --file nowhere
run bg-board new --advanced Red Blue
run bg-board new Red Red
run bg-board new Red Nobody
run bg-board show
unchanged
# The game.  Setup swaps before the first move.
run bg-board new Red Blue
run bg-board place Rogue f2
run bg-board place Rogue a1
run bg-board place Galactus d1
run bg-board place Thor c1
run bg-board place Thor d1
run bg-board show
run bg-board moves Galactus
run bg-board moves Iceman
run bg-board move Iceman a3
run bg-board move Toad a5
run bg-board move Iceman a4
run bg-board moves Toad
# Toad attacks Iceman on white from a coloured square: a roll-off picks
# the stat (Toad rolls higher and picks, red by default), then a tie
# (7 all) and a re-roll that Iceman wins.
run bg-board move Toad a4 --stat-roll 5,2 --roll 1,2 --vs-roll 4,6
run bg-board die Red 7
run bg-board die Red 2
run bg-board die Blue 2
run bg-board die Blue 3
snap
run bg-board move Toad a5
run bg-board move Thor e6
run bg-board move Rogue a9
run bg-board move Rogue f3 --roll 4
run bg-board move Rogue e3 --stat red
run bg-board move Hulk a3 --release Thor
run bg-board power Rogue teleport e2
run bg-board power Storm teleport f1
run bg-board power Storm hypnotize Toad a2
run bg-board power Storm telepathy f2
unchanged
run bg-board power Storm teleport f2
run bg-board move Abomination a5
run bg-board moves Iceman
run bg-board move Iceman a5 --roll 6 --vs-roll 1
run bg-board show --plain
run bg-board undo
run bg-board show --json
run bg-board log
run bg-board games
run bg-board games --csv
run sql "SELECT seq, turn, action, actor, input, battle, ended, winner, CASE WHEN seed IS NULL THEN 0 ELSE 1 END, undoes FROM bg_event ORDER BY seq"
# The same attack with the dice from a seed: they are stored, with it.
run bg-board move Iceman a5 --seed 7
run sql "SELECT input, seed FROM bg_event WHERE seq = (SELECT max(seq) FROM bg_event)"
run bg-board log --json
# The advanced board: a game whose Cosmic figure falls.  Minimal teams
# whose level III figures stand ready.
{
	echo 'Apoc:III*:5,5,5,5,5,5'
	for i in 1 2 3; do echo "Horse$i:III:4,4,4,4,4,4"; done
	for i in 1 2 3 4; do echo "Guard$i:II:3,3,3,3,3,3"; done
	for i in 1 2 3 4 5 6; do echo "Grunt$i:I:2,2,2,2,2,2"; done
	echo 'Pup1:SA:1,1,1,1,1,1'
	echo 'Pup2:SA:1,1,1,1,1,1'
} >adv.team
sed 's/^/X/' adv.team >adv2.team
run bg-board team add Apocalypse --file adv.team
run bg-board team add Xmen --file adv2.team
run bg-board new Apocalypse Blue
run bg-board new --advanced --safe-attack Apocalypse Xmen
run bg-board show
run bg-board move Grunt3 c3
run bg-board move XGrunt3 c6
run bg-board move Horse1 c4
run bg-board move XHorse1 d5
# Both on white: each picks her own stat.  The attacker loses and, with
# --safe-attack, stays where she was.
run bg-board move Horse1 d5 --att-stat red --def-stat blue --roll 2 --vs-roll 5
run bg-board die Apocalypse 1
run bg-board move XHorse1 c4 --roll 6 --vs-roll 1
run bg-board move Grunt3 b4
# The Cosmic figure on an all-colour square picks the stat, and falls.
run bg-board moves XHorse1
run bg-board move XHorse1 d1 --stat red --roll 6 --vs-roll 1
run bg-board move Grunt1 a3
run bg-board show --plain
run bg-board games
# Usage errors and a full disk.
run bg-board
run bg-board frobnicate
run bg-board move
run bg-board show --advanced
# By bg/complete.c's table, as completion offers them; an unknown
# command is said first.
run bg-board power Rogue teleport a3 --seed 3
run bg-board die Red 3 --roll 6
run bg-board mov Grunt4 d5 --roll 6
run bg-board move Grunt4 d5 --roll
run bg-board --game 0 show
run bg-board --game 99 show
run_full bg-board team list
