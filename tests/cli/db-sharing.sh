# Several processes writing one database at once: every write lands, none
# fails with "database is locked", and a large import prints no progress
# when standard error is not a terminal.
i=0
while [ $i -lt 24 ]; do
	crs-stats add "Racer $i" STR=$i AGI=$i >"out.$i" 2>&1 &
	i=$((i + 1))
done
(awk 'BEGIN { print "name,STR,AGI"; for (i = 0; i < 20000; i++) printf "Bulk %05d,%d,%d\n", i, i % 1001, (i * 7) % 1001 }' >bulk.csv &&
    crs-stats import bulk.csv >bulk.out 2>bulk.err) &
wait
cat out.* bulk.out
echo "stderr of the bulk import: $(wc -c <bulk.err | tr -d ' ') bytes"
sql "SELECT count(*) FROM character WHERE name LIKE 'Racer %'"
sql "SELECT count(*) FROM character WHERE name LIKE 'Bulk %'"
integrity
run crs-stats show 'Bulk 12345' --csv
# Regression: processes that open a brand-new file at the same moment once
# saw each other's schema half made ("not a refkit database") or lost the
# race to switch the file to WAL ("database is locked").
r=0
while [ $r -lt 8 ]; do
	i=0
	while [ $i -lt 12 ]; do
		crs-stats --db "fresh$r.db" add "P$i" STR=1 2>>fresh.err &
		i=$((i + 1))
	done
	wait
	r=$((r + 1))
done
echo "fresh-file races: $(cat fresh*.db 2>/dev/null >/dev/null; for f in fresh*.db; do sqlite3 "$f" 'SELECT count(*) FROM character'; done | sort -u | tr '\n' ' ')rows each, $(wc -c <fresh.err | tr -d ' ') bytes of errors"
