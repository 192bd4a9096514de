# Shell completion (issue #23): the hidden --complete mode of every tool,
# TOOL --complete CWORD -- WORD0 WORD1 ... (refkit(7), "Completion"):
# commands, options and their values, and the database's names where a
# name is expected, sorted, one a line; "\tfiles" where a file is.  A
# missing database gives no names and no error, and nothing is written.
export REFKIT_NOW=1795000000
cd "$T" || exit 1
cp "$TOP/tests/fixtures/bg/red.team" "$TOP/tests/fixtures/bg/blue.team" .
{
	crs-stats add 'Grim, the Unbowed' OR=8 DR=10 MIND=6 LIFE=30 IN=3
	crs-stats add Fred OR=6 DR=8 MIND=5 LIFE=20 IN=1
	crs-stats add John OR=7 DR=9 MIND=5 LIFE=25 IN=2
	crs-stats add Joanna OR=6 DR=8 MIND=5 LIFE=20 IN=1
	crs-stats add 'Éowyn' OR=9 DR=9 MIND=5 LIFE=20 IN=1
	crs-stats item add 'Chain Mail' dr=+3 use=wearable
	crs-stats item add 'Long Sword' or=+2 use=supplemental
	crs-stats power add Fireball em=4 picks=1 target=group
	crs-combat start Fred John
	crs-combat end --agreed
	crs-combat start 'Grim, the Unbowed' Joanna
	crs-combat join fred
	crs-combat undo
	d6-roll char add Luke dexterity=3D+2 dexterity.blaster=5D
	d6-roll char add Leia perception=3D
	fb-duel sheet add Ann --side light --hand right
	fb-duel sheet add Bob --side dark --hand left
	fb-duel sheet add Cyd --side light --hand left
	fb-duel start Ann Bob
	bg-board team add Red --file red.team
	bg-board team add Blue --file blue.team
	bg-board new Red Blue
} >/dev/null 2>&1
snap
# Commands, sub-commands, options and their values.
run crs-stats --complete 1 -- crs-stats ''
run crs-stats --complete 1 -- crs-stats sh
run crs-stats --complete 2 -- crs-stats item ''
run crs-stats --complete 1 -- crs-stats --r
run crs-stats --complete 2 -- crs-stats --rounding ''
run crs-stats --complete 1 -- crs-stats --format=j
run crs-combat --complete 1 -- crs-combat --sur
run crs-combat --complete 3 -- crs-combat mental --kind ''
run crs-draw --complete 1 -- crs-draw ''
run d6-roll --complete 2 -- d6-roll char ''
run d6-roll --complete 3 -- d6-roll 4D --vs ''
run fb-duel --complete 1 -- fb-duel st
run fb-duel --complete 2 -- fb-duel --level ''
run bg-board --complete 1 -- bg-board ''
run refkit --complete 1 -- refkit ''
run refkit --complete 2 -- refkit station ''
# The roster's names: a prefix of the name or of a word of it, in any
# case; items, powers, or either.
run crs-stats --complete 2 -- crs-stats show ''
run crs-stats --complete 2 -- crs-stats show jo
run crs-stats --complete 2 -- crs-stats show unb
run crs-stats --complete 2 -- crs-stats show éo
run crs-stats --complete 3 -- crs-stats give Fred ''
run crs-stats --complete 3 -- crs-stats item set l
run crs-stats --complete 3 -- crs-stats set Fred L
run crs-draw --complete 3 -- crs-draw versus Fred ''
run crs-combat --complete 3 -- crs-combat start Fred ''
# The fighters of the combat under way (Fred's join was undone), of the
# one --combat names, before or after the word; NAME= where a value
# follows.
run crs-combat --complete 2 -- crs-combat attack ''
run crs-combat --complete 3 -- crs-combat attack grim ''
run crs-combat --complete 4 -- crs-combat --combat 1 attack ''
run crs-combat --complete 2 -- crs-combat attack '' --combat=1
run crs-combat --complete 2 -- crs-combat init ''
run crs-combat --complete 5 -- crs-combat attack Grim Joanna --item ''
run crs-combat --complete 4 -- crs-combat flee Grim --catch j
run crs-combat --complete 4 -- crs-combat flee Grim --catch joanna=
run crs-combat --complete 4 -- crs-combat --combat 9 attack ''
# D6 characters, a character's traits, the charts; duelists, boards,
# the duel's two, the GEAS; teams and the game's figures.
run d6-roll --complete 1 -- d6-roll L
run d6-roll --complete 2 -- d6-roll Luke ''
run d6-roll --complete 4 -- d6-roll char roll leia ''
run d6-roll --complete 2 -- d6-roll table ''
run fb-duel --complete 3 -- fb-duel sheet show ''
run fb-duel --complete 2 -- fb-duel geas ''
run fb-duel --complete 3 -- fb-duel geas Ann m
run fb-duel --complete 2 -- fb-duel --board ''
run bg-board --complete 2 -- bg-board new ''
run bg-board --complete 2 -- bg-board moves ''
run bg-board --complete 3 -- bg-board move Rogue --release=t
# Files: the shell's own.
run crs-stats --complete 2 -- crs-stats import ''
run refkit --complete 2 -- refkit --db ''
run bg-board --complete 5 -- bg-board team add Red --file ''
# --db names a database that is not there, or a file that is no
# database: nothing, silently, and nothing made.
run crs-stats --complete 4 -- crs-stats --db nowhere.db show ''
ls | grep nowhere || echo '(no nowhere.db)'
: >empty.db
run crs-stats --complete 4 -- crs-stats --db empty.db show ''
wc -c <empty.db
# Words the shell would not pass as they are, and requests not of the
# form: silence, and exit 2 for the latter.
run crs-stats --complete 2 -- crs-stats show
run crs-stats --complete 3 -- crs-stats show
run crs-stats --complete 1 -- crs-stats '--='
run crs-stats --complete 2 -- crs-stats -- ''
run crs-stats --complete
run crs-stats --complete 1 crs-stats
run crs-stats --complete -1 -- crs-stats
run_full crs-stats --complete 1 -- crs-stats ''
unchanged
