# Two GMs run two combats at once in one database file, from separate
# processes: every event of both is recorded once, in order, with no gap.
crs-stats add Ann OR=8 DR=10 MIND=6 LIFE=200 IN=3 LB=3
crs-stats add Bob OR=7 DR=9 MIND=5 LIFE=200 IN=3 LB=3
crs-stats add Cy OR=5 DR=8 MIND=4 LIFE=200 IN=1 LB=3
crs-stats add Dee OR=6 DR=6 MIND=6 LIFE=200 IN=2 LB=3
crs-combat start Ann Bob >/dev/null
crs-combat start Cy Dee >/dev/null
fight() {
	c=$1 a=$2 b=$3
	r=0
	while [ $r -lt 12 ]; do
		crs-combat --combat $c init "$a=2" "$b=3" >/dev/null || echo "combat $c init failed"
		crs-combat --combat $c attack $b $a >/dev/null || echo "combat $c attack failed"
		crs-combat --combat $c attack $a $b >/dev/null || echo "combat $c attack failed"
		crs-combat --combat $c round >/dev/null || echo "combat $c round failed"
		r=$((r + 1))
	done
}
fight 1 Ann Bob >gm1.out 2>&1 &
fight 2 Cy Dee >gm2.out 2>&1 &
wait
cat gm1.out gm2.out
sql "SELECT combat_id % 2147483648, count(*), min(seq), max(seq), count(DISTINCT seq) FROM event GROUP BY combat_id"
run crs-combat replay
