#!/bin/sh
# complete.sh BUILD-DIR: the shell completion scripts (issue #23), run as
# the shells run them, over BUILD-DIR's tools and a database of every
# kind of name.  Prints a line per failed check and ends with
# "N passed, N failed".
#   - bash: completions/refkit.bash sourced in a non-interactive bash;
#     COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT set as bash sets
#     them for a line with the cursor at its end, _refkit called with the
#     arguments bash gives it, and COMPREPLY compared;
#   - zsh (when installed): completions/_refkit through compsys, in an
#     interactive zsh driven by zpty, the line's buffer after a TAB
#     compared;
#   - every tool's commands (those its "no command given" lists) and
#     options (those its --help names) are offered; after a command of
#     crs-combat, fb-duel or bg-board, only the options it takes and the
#     global ones;
#   - a missing or empty database: no candidates, nothing on stderr, no
#     file made; completing writes nothing to the database, nor a -wal
#     or -shm beside it.
set -u
B=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
# On a RAM file system where there is one, as tests/run.sh's cases: the
# database's writes are then not waits for a shared disk.
shm=${TMPDIR:-/tmp}
[ -d /dev/shm ] && [ -w /dev/shm ] && shm=/dev/shm
tmp=$(TMPDIR=$shm mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH="$top/$B:$PATH" LC_ALL=C TZ=UTC HOME="$tmp" REFKIT_DB="$tmp/refkit.db"
export REFKIT_NOW=1795000000
unset XDG_DATA_HOME REFKIT_STATION
cd "$tmp" || exit 1

# The database: names with spaces and punctuation, two combats (the
# first ended), a D6 character, a duel, a game; and a second database.
{
	crs-stats add 'Grim, the Unbowed' OR=8 DR=10 MIND=6 LIFE=30 IN=3
	crs-stats add Fred OR=6 DR=8 MIND=5 LIFE=20 IN=1
	crs-stats add John OR=7 DR=9 MIND=5 LIFE=25 IN=2
	crs-stats add "Mary O'Hara" OR=6 DR=8 MIND=5 LIFE=20 IN=1
	crs-stats item add 'Chain Mail' dr=+3 use=wearable
	crs-stats power add Fireball em=4 picks=1 target=group
	crs-combat start Fred John
	crs-combat end --agreed
	crs-combat start 'Grim, the Unbowed' "Mary O'Hara"
	d6-roll char add Luke dexterity=3D+2 dexterity.blaster=5D
	fb-duel sheet add Ann --side light --hand right
	fb-duel sheet add Bob --side dark --hand left
	fb-duel start Ann Bob
	cp "$top/tests/fixtures/bg/red.team" "$top/tests/fixtures/bg/blue.team" .
	bg-board team add Red --file red.team
	bg-board team add Blue --file blue.team
	bg-board new Red Blue
	crs-stats --db other.db add Zed OR=6 DR=8 MIND=5 LIFE=20 IN=1
} >"$tmp/setup.out" 2>&1 || { cat "$tmp/setup.out"; echo "0 passed, 1 failed"; exit 1; }
sum=$(cksum <refkit.db)

# The bash cases: a line, the word readline completes ($2, the part of
# the last word after a quote or a break such as '='), and the replies
# expected, one a line ("" for none).  COMP_WORDS splits the line at
# blanks, and at '=' and ':' as bash's COMP_WORDBREAKS does, outside
# quotes.
cat >"$tmp/cases.bash" <<'EOF'
pass=0 fail=0
. "$TOP/completions/refkit.bash"
# words LINE: COMP_WORDS and COMP_CWORD as bash makes them.
words() {
	local line=$1 w='' q='' ch i
	COMP_WORDS=()
	for ((i = 0; i < ${#line}; i++)); do
		ch=${line:i:1}
		if [[ -n $q ]]; then
			w+=$ch
			[[ $ch == "$q" ]] && q=''
		elif [[ $ch == ' ' ]]; then
			[[ -n $w ]] && COMP_WORDS+=("$w")
			w=''
		elif [[ $ch == [=:] ]]; then
			[[ -n $w ]] && COMP_WORDS+=("$w")
			COMP_WORDS+=("$ch")
			w=''
		else
			[[ $ch == [\'\"] ]] && q=$ch
			[[ $ch == '\' ]] && { w+=$ch; ((i++)); ch=${line:i:1}; }
			w+=$ch
		fi
	done
	COMP_WORDS+=("$w")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
}
# check LINE RLWORD [REPLY...]: the cursor at the end of LINE, or at
# $AT when set.
check() {
	local line=$1 rl=$2 got want prev cword
	shift 2
	COMP_POINT=${AT:-${#line}}
	words "${line:0:COMP_POINT}"
	cword=$COMP_CWORD
	words "$line"
	COMP_CWORD=$cword
	COMP_LINE=$line
	prev=${COMP_WORDS[COMP_CWORD-1]-}
	_refkit "${COMP_WORDS[0]}" "$rl" "$prev" 2>"$T/stderr"
	got=$(printf '%s\n' "${COMPREPLY[@]}")
	want=$(printf '%s\n' "$@")
	if [[ $got == "$want" && ! -s $T/stderr ]]; then
		((pass++))
	else
		((fail++))
		printf 'FAIL: bash: %s<TAB>\n  want: %s\n  got:  %s\n' "$line" \
		    "${want//$'\n'/ | }" "${got//$'\n'/ | }"
		cat "$T/stderr"
	fi
}
# Commands and sub-commands.
check 'crs-stats sh' sh sheets show
check 'crs-stats sho' sho show
check 'crs-stats --paper ' '' a4 letter
check 'crs-stats --per-page ' '' 1 2
check 'crs-stats item ' '' add list rm set
check 'crs-draw v' v versus
check 'd6-roll char ' '' add list rm roll set sheets show verify-sheet
check 'd6-roll --paper l' l letter
check 'fb-duel s' s sheet sheets sim stance start status
check 'fb-duel --per-page ' '' 1 2
check 'bg-board mo' mo move moves
check 'refkit changes ' '' apply export show
# Options, and an option's fixed values.
check 'crs-combat --sur' --sur --surprise
check 'crs-stats --rounding ' '' per-term whole
check 'crs-stats --rounding=p' p per-term
check 'crs-combat --kind i' i intimidation
# After a command, its own options and those of every command (#39).
check 'crs-combat attack Fred --v' --v --version --vs-card --vs-item \
    --vs-mod --vs-skill --vs-special
check 'crs-combat attack Fred --a' --a
check 'crs-combat end --a' --a --agreed
check 'crs-combat undo --' -- --combat --csv --db --dry-run --gm --help \
    --json --seed --version
check 'crs-combat --card 8 mental Fred --k' --k --kind
check 'crs-combat pass Fred --c' --c --combat --csv
check 'fb-duel --si' --si --side
check 'fb-duel --level t' t templar
check 'd6-roll 4D --vs mod' mod moderate
check 'refkit --prefer t' t theirs
check 'bg-board --stat b' b blue
# Names of the roster, quoted so that they come back as they are.
check 'crs-stats show Gr' Gr 'Grim\,\ the\ Unbowed'
check 'crs-stats show gr' gr 'Grim\,\ the\ Unbowed'
check 'crs-stats show unb' unb 'Grim\,\ the\ Unbowed'
check "crs-stats show 'Gr" Gr 'Grim, the Unbowed'
check 'crs-stats show "Gr' Gr 'Grim, the Unbowed'
check 'crs-stats show Grim,\ the\ U' 'Grim,\ the\ U' 'Grim\,\ the\ Unbowed'
check 'crs-stats show ma' ma "Mary\\ O\\'Hara"
check "crs-stats show 'Ma" Ma "Mary O'\\''Hara"
check 'crs-stats show ' '' Fred 'Grim\,\ the\ Unbowed' John "Mary\\ O\\'Hara"
check 'crs-stats give Fred ch' ch 'Chain\ Mail'
check 'crs-stats give Fred f' f Fireball
check 'crs-stats item rm ' '' 'Chain\ Mail'
check 'crs-stats set Fred S' S STR=
check 'crs-draw versus Fred J' J John
check 'crs-combat start Fred J' J John
check 'crs-combat join Jo' Jo John
check 'crs-combat attack Fred --item C' C 'Chain\ Mail'
# The fighters of the combat under way, or of the one --combat names.
check 'crs-combat attack ' '' 'Grim\,\ the\ Unbowed' "Mary\\ O\\'Hara"
check 'crs-combat attack Grim ' '' 'Grim\,\ the\ Unbowed' "Mary\\ O\\'Hara"
check 'crs-combat pass m' m "Mary\\ O\\'Hara"
check 'crs-combat --combat 1 attack ' '' Fred John
AT=19 check 'crs-combat attack J --combat=1' J John
check 'crs-combat init G' G 'Grim\,\ the\ Unbowed='
check 'crs-combat flee Grim --let m' m "Mary\\ O\\'Hara"
check 'crs-combat range Grim Mary 5 G' G 'Grim\,\ the\ Unbowed'
check 'crs-combat range Grim Mary ' ''
# D6 characters and their traits; duelists, boards and the duel's two;
# teams and the game's figures.
check 'd6-roll L' L Luke
check 'd6-roll Luke bl' bl blaster
check 'd6-roll char roll Luke d' d dexterity
check 'd6-roll weapon heavy-b' heavy-b heavy-blaster-pistol
check 'fb-duel sim Ann Bob --' -- --csv --db --duel --gm --help --jobs \
    --json --max-rounds --n --seed --version
check 'fb-duel geas Ann push --' -- --absorb --csv --db --duel --gm --help \
    --json --seed --spheres --version
check 'fb-duel stance Ann --c' --c --clear --csv
check 'fb-duel status --' -- --csv --db --duel --gm --help --json --seed \
    --version
check 'fb-duel round --p' --p --pass --place --pull
check 'fb-duel sheets Ann --p' --p --paper --per-page
check 'bg-board new Red Blue --s' --s --safe-attack
check 'bg-board move Rogue a3 --r' --r --release --release-to --return \
    --roll
check 'bg-board undo --' -- --csv --db --dry-run --game --gm --help --json \
    --version
check 'bg-board die Red 3 --s' --s --swap
check 'fb-duel adjust Ann --r' --r --reason
check 'bg-board adjust Red DICE=2 --r' --r --reason
check 'd6-roll weapon blaster-p' blaster-p blaster-pistol heavy-blaster-pistol
check 'fb-duel sheet show A' A Ann
check 'fb-duel geas B' B Bob
check 'fb-duel geas Bob li' li lightning
check 'fb-duel --board d' d default
check 'bg-board new R' R Red
check 'bg-board moves Ro' Ro Rogue
check 'bg-board team show B' B Blue
# --db on the line, before or after the word; a missing database.
check 'crs-stats --db other.db show ' '' Zed
check 'crs-stats --db=other.db show Z' Z Zed
check 'crs-stats -d other.db show ' '' Zed
check 'crs-stats --db nowhere.db show ' ''
# File names: the shell's own.
check 'crs-stats import red' red red.team
check 'crs-stats --db oth' oth other.db
check 'refkit merge oth' oth other.db
echo "bash: $pass passed, $fail failed"
EOF
bash_out=$(T="$tmp" TOP="$top" bash "$tmp/cases.bash" 2>&1)
printf '%s\n' "$bash_out" | grep -v '^bash: [0-9]* passed'
pass=$(printf '%s\n' "$bash_out" | sed -n 's/^bash: \([0-9]*\) passed.*/\1/p')
fail=$(printf '%s\n' "$bash_out" | sed -n 's/^bash: [0-9]* passed, \([0-9]*\) failed/\1/p')
if [ -z "$pass" ]; then
	pass=0
	fail=1
	echo "FAIL: the bash cases did not finish"
fi

ok() {
	pass=$((pass + 1))
}
bad() {
	fail=$((fail + 1))
	printf 'FAIL: %s\n' "$1"
}

# Every tool offers its commands and its options.
for t in crs-stats crs-draw crs-combat d6-roll fb-duel bg-board refkit; do
	"$t" --complete 1 -- "$t" '' >"$tmp/cmds" 2>"$tmp/err"
	"$t" --complete 1 -- "$t" -- >"$tmp/opts" 2>&1
	missing=
	for c in $("$t" 2>&1 | sed -n 's/.*no command given (\(.*\))$/\1/p' |
	    sed 's/, or / /; s/ or / /; s/,/ /g'); do
		grep -qx "$c" "$tmp/cmds" || missing="$missing $c"
	done
	for o in $("$t" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -qx -- "$o" "$tmp/opts" || missing="$missing $o"
	done
	if [ -z "$missing" ] && [ -s "$tmp/cmds" ] && [ ! -s "$tmp/err" ]; then
		ok
	else
		bad "$t: not offered:$missing"
	fi
done

# A missing database, and an empty file: nothing, silently; no file
# made or changed; exit 0.
out=$(REFKIT_DB="$tmp/none/refkit.db" crs-stats --complete 2 -- crs-stats \
    show '' 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ -z "$out" ] && [ ! -e "$tmp/none" ]; then
	ok
else
	bad "a missing database: exit $rc, '$out'"
fi
out=$(HOME="$tmp/home" REFKIT_DB= crs-combat --complete 2 -- crs-combat \
    attack '' 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ -z "$out" ] && [ ! -e "$tmp/home" ]; then
	ok
else
	bad "the default database, missing: exit $rc, '$out'"
fi
: >empty.db
out=$(crs-stats --complete 4 -- crs-stats --db empty.db show '' 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ -z "$out" ] && [ ! -s empty.db ] &&
    [ ! -e empty.db-wal ] && [ ! -e empty.db-shm ]; then
	ok
else
	bad "an empty file: exit $rc, '$out'"
fi
# A request not of the protocol's form: exit 2, silently.
out=$(crs-stats --complete x -- crs-stats 2>&1)
rc=$?
if [ "$rc" -eq 2 ] && [ -z "$out" ]; then
	ok
else
	bad "a bad request: exit $rc, '$out'"
fi
# Nothing was written by all of the above, nor left beside the file.
if [ "$(cksum <refkit.db)" = "$sum" ] && [ ! -e refkit.db-wal ] &&
    [ ! -e refkit.db-shm ]; then
	ok
else
	bad "completing changed the database or left a -wal or -shm"
fi

# zsh's compsys: an interactive zsh in a pty (zpty), each line typed
# with a TAB, then ^X, bound to write the buffer to a file.
if command -v zsh >/dev/null 2>&1; then
	cat >"$tmp/cases.zsh" <<'EOF'
zmodload zsh/zpty || exit 1
out=$T/zbuf
: >$out
zpty z TERM=xterm zsh -f -i
zpty -w z "PS1='' ; fpath=($TOP/completions \$fpath);"\
" autoload -U compinit; compinit -u -D; dump() { print -r -- \"<\$BUFFER>\""\
" >>$out; BUFFER= }; zle -N dump; bindkey '^X' dump"
n=0
lines=(
	'crs-stats sho'
	'crs-stats show gr'
	"crs-stats show 'Gr"
	'crs-combat --sur'
	'crs-combat attack Grim m'
	'crs-combat init G'
	'crs-stats --db other.db show Z'
	'crs-stats --rounding=p'
	'bg-board moves Ro'
	'crs-stats import red.t'
	'fb-duel sim Ann Bob --m'
	'bg-board new Red Blue --s'
)
for l in $lines; do
	zpty -w -n z "$l"$'\t'$'\x18'
	(( n++ ))
	for i in {1..100}; do
		(( $(wc -l <$out) >= n )) && break
		sleep 0.1
	done
done
zpty -d z
cat $out
EOF
	zout=$(cd "$tmp" && T="$tmp" TOP="$top" zsh -f "$tmp/cases.zsh" 2>&1)
	i=0
	for want in '<crs-stats show >' \
	    '<crs-stats show Grim,\ the\ Unbowed >' \
	    "<crs-stats show 'Grim, the Unbowed' >" \
	    '<crs-combat --surprise >' \
	    "<crs-combat attack Grim Mary\\ O\\'Hara >" \
	    '<crs-combat init Grim,\ the\ Unbowed=>' \
	    '<crs-stats --db other.db show Zed >' \
	    '<crs-stats --rounding=per-term >' \
	    '<bg-board moves Rogue >' \
	    '<crs-stats import red.team >' \
	    '<fb-duel sim Ann Bob --max-rounds >' \
	    '<bg-board new Red Blue --safe-attack >'; do
		i=$((i + 1))
		got=$(printf '%s\n' "$zout" | sed -n "${i}p")
		if [ "$got" = "$want" ]; then
			ok
		else
			bad "zsh: want $want, got $got"
		fi
	done
else
	echo "SKIP: zsh is not installed"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
