# Hostile input and a hostile environment: every refusal is one line that
# names what is wrong, exits 1 (2 for a bad argument), and leaves the
# database file byte for byte as it was.
crs-stats add Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1 >/dev/null
crs-stats add John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2 >/dev/null
crs-combat start Fred John >/dev/null

# Strings: SQL and quotes are stored verbatim and shown as they are.
run crs-stats item add "Sword'; DROP TABLE item;--" 'notes=a "quoted" note; ok'
run crs-stats item list
run fb-duel sheet add "Robert');--" --side light --hand right
run bg-board team add "Red;DROP" 'A:III*:1,1,1,1,1,1'
snap
# Control characters and invalid UTF-8 never get in, and are shown
# escaped in the message.
run crs-stats add "$(printf 'Eve\033[2J')" OR=1
run crs-stats item add "$(printf 'Bad\rItem')"
run crs-stats add Eve "$(printf 'player=\377\376')"
run crs-stats add Eve "$(printf 'notes=bell\007')"
run d6-roll "$(printf '4D\n+2')"
run crs-draw pick --drawn "$(printf '10,\0337')"
run fb-duel sheet add "$(printf 'Ann\tB')" --side light --hand right
run bg-board team add Blue "$(printf 'A:III*:1,1,1,1,1,1:\033]0;x\007')"
# Long strings: 100 kB arguments, and a 1 MB field in a file.
long=$(head -c 100000 /dev/zero | tr '\0' a)
run crs-stats add "$long" OR=1
run crs-stats add Eve "notes=$long"
run crs-combat --gm "$long" start Fred John
{ echo name,OR; printf 'Big,'; head -c 1000000 /dev/zero | tr '\0' 7; echo; } >big.csv
run crs-stats import big.csv
{ echo name,notes; printf 'Big,'; head -c 1000000 /dev/zero | tr '\0' n; echo; } >big.csv
run crs-stats import big.csv
{ printf 'A:III*:1,1,1,1,1,1:'; head -c 1000000 /dev/zero | tr '\0' x; echo; } >big.team
run bg-board team add Big --file big.team
unchanged

# Numbers at and past every limit.
run crs-stats calc STR=2147483648
run crs-stats calc STR=-1 ENE=1000
run crs-stats calc STR=99999999999999999999999
run crs-draw pick --lb 2147483647 --seed 1
run crs-draw pick --cards 0 --seed 1
run crs-draw pick --base -2147483649 --seed 1
run crs-draw pick --seed 18446744073709551616
run crs-draw pick --seed 18446744073709551615 --cards 20 --lb 1000 --json
run crs-combat --combat 9223372036854775808 status
run crs-combat --combat 0 status
run crs-combat attack Fred John --use 2147483648
run crs-combat attack Fred John --mod -99999999999
run d6-roll 2147483647D --seed 1
run d6-roll 1000D+2 --seed 1 --json
run d6-roll 4D --vs 9223372036854775807 --seed 1
run d6-roll 4D+99999999999 --seed 1
run fb-duel sim Ann Bob --n 0
run fb-duel sim Ann Bob --n 1000000001
run bg-board --game -1 show
run bg-board --game 99999999999999999999 show
unchanged

# The environment.  A disk that fills: the write fails whole.
awk -v n=20000 -f "$TOP/bench/gen-roster.awk" >roster.csv
printf '$ crs-stats import roster.csv   (ulimit -f 100)\n'
(trap '' XFSZ; ulimit -f 100; crs-stats import roster.csv; echo "? $?") 2>&1 |
    sed "s|$T/||g; s/^crs-stats/2> crs-stats/"
sqlite3 refkit.db 'SELECT count(*) FROM character'
# A truncated file, and one with a damaged page.
head -c 3000 refkit.db >cut.db
run crs-stats --db cut.db list
cp refkit.db bad.db
printf 'this is not a b-tree page' | dd of=bad.db bs=1 seek=4096 conv=notrunc 2>/dev/null
cutsum=$(filesum bad.db)
run crs-stats --db bad.db list
run crs-stats --db bad.db add Zed
[ "$(filesum bad.db)" = "$cutsum" ] && echo "(damaged file unchanged)"
# Read-only: the file and its directory belong to someone else.  (Run
# as the user nobody when the tests run as root, who may write anywhere.)
mkdir ro && cp refkit.db ro/r.db && chmod 755 ro && chmod 444 ro/r.db
chmod 755 "$T"
as_other() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid 65534 --regid 65534 --clear-groups "$@"
	else
		"$@"
	fi
}
rosum=$(filesum ro/r.db)
printf '$ crs-stats --db ro/r.db add Zed   (another user'"'"'s file)\n'
as_other crs-stats --db "$T/ro/r.db" add Zed 2>&1 | sed "s|$T/||g; s/^/2> /"
[ "$(filesum ro/r.db)" = "$rosum" ] && echo "(file unchanged)"
printf '$ crs-stats --db ro/new.db list   (another user'"'"'s directory)\n'
as_other crs-stats --db "$T/ro/new.db" list 2>&1 | sed "s|$T/||g; s/^/2> /"
[ -e ro/new.db ] || echo "(nothing created)"
# Locked by another program for longer than the busy timeout (shortened
# to 300 ms by REFKIT_BUSY_TIMEOUT).  The lock is taken before the tool
# starts and let go only after it has exited, however slow the machine.
mkfifo lockctl
: >lockout
sqlite3 refkit.db <lockctl >>lockout 2>&1 &
exec 3>lockctl
printf "BEGIN EXCLUSIVE;\nSELECT 'locked';\n" >&3
until grep -q locked lockout; do sleep 0.05; done
export REFKIT_BUSY_TIMEOUT=300
run crs-stats add Zed OR=1
unset REFKIT_BUSY_TIMEOUT
printf 'COMMIT;\n' >&3
exec 3>&-
wait
unchanged

# Paths that are not database files are refused before SQLite opens them,
# and nothing is created beside them (once, /dev/null-journal was).
snap
run crs-stats --db /dev/null list
[ -e /dev/null-journal ] && echo "(/dev/null-journal CREATED)" ||
    echo "(nothing created in /dev)"
mkfifo pipe.db
run crs-stats --db pipe.db list
mkdir dir.db
run crs-stats --db dir.db add Zed
ln -s refkit.db link.db
run crs-stats --db link.db list
ls -a | grep -E '^(pipe|dir|link)\.db.' || echo "(nothing created beside them)"
# An empty file is made a database, with a note the first time only.
: >empty.db
run crs-stats --db empty.db list
run crs-stats --db empty.db list
# Brand-new files appear whole: no empty file, no temporary file left.
run crs-stats --db new.db list
ls -a | grep -E '^new\.db' | tr '\n' ' '; echo
unchanged

# JSON's \u0000 would cut a name short and replace another character
# (Fred's player vanished); it is refused wherever it is.
printf '[{"name":"Fred\\u0000 impostor","STR":1}]' >nul-name.json
run crs-stats import --replace nul-name.json
printf '[{"name":"Eve","notes":"before\\u0000after"}]' >nul-notes.json
run crs-stats import nul-notes.json
printf '[{"name":"Eve","name\\u0000x":"Fred"}]' >nul-key.json
run crs-stats import nul-key.json
run crs-stats show Fred --csv
unchanged
# Text with a NUL inside, written by another program, is a damaged
# record, not a shorter name; so is a ledger detail holding \u0000.
cp refkit.db nul.db
sqlite3 nul.db "UPDATE character SET player = CAST(X'416C00696365' AS TEXT) WHERE name = 'Fred'"
run crs-stats --db nul.db show Fred
sqlite3 nul.db "UPDATE event SET detail = '{\"text\":\"a\\u0000b\"}' WHERE seq = 1"
run crs-combat --db nul.db log

# One number rule everywhere: no sign where a value cannot be negative,
# never on 0, no leading zero, nothing around the digits; the message
# quotes what was typed.
run crs-stats calc STR=-0
run crs-stats calc STR=+5
run crs-stats calc STR=010
run crs-stats add Eve "STR= 5"
run crs-stats item add Shield dr=-0
run crs-combat attack Fred John --mod 05 --card 5 --vs-card 3
printf 'name,STR\nEve, 5\n' >space.csv
run crs-stats import space.csv
printf 'name,STR\nEve,+5\n' >plus.csv
run crs-stats import plus.csv
for v in '"5"' -0 100.0 1e999 9223372036854775808; do
	printf '[{"name":"Eve","STR":%s}]' "$v" >num.json
	run crs-stats import num.json
done
unchanged
# A sign where a value may be negative is fine.
run crs-stats item add Shield dr=+3 or=-1
# A NUL byte in a board or team file is refused, not read as its end.
fb-duel board show >plain.board
{ cat plain.board; printf '# after\000a NUL\n'; } >nul.board
snap
run fb-duel board add Nul nul.board
{ printf 'A:III*:1,1,1,1,1,1\n'; printf 'B:I:1,1,1,1,1,1\000\n'; } >nul.team
run bg-board team add Nul --file nul.team
unchanged
