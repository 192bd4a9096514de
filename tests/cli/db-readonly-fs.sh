# A database on a read-only file system (a write-protected card, a CD, a
# read-only mount): commands that only read work, every write is refused
# in one line saying why, and nothing is created there.  The mount is a
# private read-only bind mount, so the case needs root and unshare(1).
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "skip: a read-only mount needs root and unshare"
	exit 0
fi
export REFKIT_NOW=1795000000
# A file's case, whatever database the suite is given (REFKIT_PG=1 in
# tests/run.sh); tests/pg has a read-only server, a hot standby.
export REFKIT_DB="$T/refkit.db"
crs-stats add Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1 >/dev/null
crs-stats add John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2 >/dev/null
crs-combat start Fred John >/dev/null
crs-combat init Fred=6 John=3 >/dev/null
crs-combat attack Fred John --card 8 --vs-card 6 >/dev/null
mkdir src ro
cp refkit.db src/r.db
# A copy whose last commits would still be in its -wal file.
cp refkit.db src/w.db
printf 'not yet checkpointed' >src/w.db-wal
unshare -m sh -c '
mount --bind src ro && mount -o remount,bind,ro ro || exit 1
. "$TOP/tests/cli/lib.sh"
run crs-stats --db ro/r.db list
run crs-stats --db ro/r.db show Fred --csv
run crs-combat --db ro/r.db status
run crs-combat --db ro/r.db history
run crs-stats --db ro/r.db add Zed
run crs-combat --db ro/r.db attack Fred John --card 8 --vs-card 6
run crs-stats --db ro/new.db list
run crs-stats --db ro/w.db list
echo "in the read-only directory: $(ls ro | tr "\n" " ")"
'
