# A hostile environment for the database file: a disk that fills, a
# truncated or damaged file, another user's file or directory, a lock held
# by another program, paths that are no database files, text written by
# another program.  Every refusal is one line that names what is wrong,
# exits 1, and leaves the file byte for byte as it was.  This is about a
# file, so the case runs on one whatever database the suite is given
# (REFKIT_PG=1 in tests/run.sh); tests/pg has a server's failures.
export REFKIT_DB="$T/refkit.db"
crs-stats add Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1 >/dev/null
crs-stats add John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2 >/dev/null
crs-combat start Fred John >/dev/null
snap

# A disk that fills: the write fails whole.
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

# Text with a NUL inside, written by another program, is a damaged
# record, not a shorter name; so is a ledger detail holding \u0000.
cp refkit.db nul.db
sqlite3 nul.db "UPDATE character SET player = CAST(X'416C00696365' AS TEXT) WHERE name = 'Fred'"
run crs-stats --db nul.db show Fred
sqlite3 nul.db "UPDATE event SET detail = '{\"text\":\"a\\u0000b\"}' WHERE seq = 1"
run crs-combat --db nul.db log
