#!/bin/sh
# sync-converge.sh BUILD-DIR: stations converge, whatever was settled and in
# whatever order (issue 37).
#
# For each seed, three to five stations share a roster and then go
# through many random steps: a character's stat or player set, a
# character added (often under a name another station used too) or
# removed; one station merging another's database, or applying its
# changes file (now and then one exported with a --since that skips
# changes, which may be refused); every merge and apply with no choice,
# --prefer mine, --prefer theirs, or a resolution file written by
# --resolutions-out with a random choice on each line.  Every few steps
# comes a full exchange: one station merges every other, then every
# other merges it (a merge left with a conflict theirs cannot settle is
# run again with --prefer mine).  After each, the sorted rows of every
# table that travels must be the same bytes at every station, and no
# station may have made a change in the second half (there was nothing
# left to settle).  Each station renames itself first, so that its
# first change, which carries its row of the station table, is made.
#
# A seed that fails is printed; add it to REGRESS, whose seeds always
# run.  CONVERGE_SEEDS (default 1-12) names the others, e.g. '100-199'.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset REFKIT_DB REFKIT_STATION REFKIT_NOW
export LC_ALL=C TZ=UTC
REGRESS="21 27 160 210"
range=${CONVERGE_SEEDS:-1-12}
[ -n "${CONVERGE_KEEP:-}" ] && trap - EXIT && echo "kept in $tmp"
. "$top/tests/lib/tally.sh"
tally stress/sync-converge
checked=0

# The generator: r is the state; rand N sets x to 0 .. N-1.
rand() {
	r=$(( (r * 1103515245 + 12345) % 2147483648 ))
	x=$(( (r / 65536) % $1 ))
}

names="Ann Bob Cy Dee Eve Fay Gus Hal"
pick_name() {
	rand 8
	set -- $names
	shift $x
	name=$1
}

# tables DB: the tables that travel, as the statements that read them
# all, so that a dump is one sqlite3, not one a table (the dumps were
# most of the test's time).
tables() {
	query=$(sqlite3 "$1" "SELECT group_concat('SELECT ''' || name ||
	    ''', * FROM \"' || name || '\"', '; ') FROM (SELECT name FROM
	    sqlite_schema WHERE type = 'table' AND name NOT IN ('change',
	    'gone', 'station_self', 'snapshot', 'history', 'history_combat',
	    'seal_secret') AND name NOT LIKE 'sqlite_%' ORDER BY name)")
}

# dump DB: every row of every table that travels, each led by its
# table's name, sorted.
dump() {
	sqlite3 "$1" "$query" | sort
}

changes() {
	sqlite3 "$1" "SELECT count(*) FROM change"
}

# choice: a random way to settle, as options.
choice() {
	rand 4
	case $x in
	0) opt= ;;
	1) opt="--prefer mine" ;;
	2) opt="--prefer theirs" ;;
	3) opt=file ;;
	esac
}

# take I VERB ARG: station I merges or applies ARG, settled as choice says.
take() {
	db=$tmp/s$1.db
	choice
	if [ "$opt" = file ]; then
		rm -f "$tmp/res.txt"
		$bin/refkit --db "$db" --resolutions-out "$tmp/res.txt" $2 $3 \
		    >/dev/null 2>&1 && return 0
		[ -f "$tmp/res.txt" ] || return 1
		awk -v seed="$r" 'BEGIN { srand(seed) } / ask$/ {
		    sub(/ ask$/, rand() < 0.5 ? " mine" : " theirs") } { print }' \
		    "$tmp/res.txt" >"$tmp/res2.txt"
		$bin/refkit --db "$db" --resolve "$tmp/res2.txt" $2 $3 \
		    >/dev/null 2>&1
		return
	fi
	$bin/refkit --db "$db" $opt $2 $3 >/dev/null 2>&1
}

# settle I OTHER: station I merges OTHER and must end with nothing open.
settle() {
	rand 2
	p=mine
	[ $x = 1 ] && p=theirs
	$bin/refkit --db "$tmp/s$1.db" --prefer $p merge "$tmp/s$2.db" \
	    >"$tmp/out" 2>&1 ||
	    $bin/refkit --db "$tmp/s$1.db" --prefer mine merge \
	    "$tmp/s$2.db" >"$tmp/out" 2>&1
	rc=$?
	cp "$tmp/out" "$tmp/out.$1"
	return $rc
}

# exchange SEED N: the full exchange, then the check.
exchange() {
	rand "$2"
	hub=$((x + 1))
	i=1
	while [ $i -le "$2" ]; do
		if [ $i != $hub ] && ! settle $hub $i; then
			echo "seed $1: hub s$hub cannot merge s$i: $(tail -1 "$tmp/out")"
			return 1
		fi
		i=$((i + 1))
	done
	before=$(changes "$tmp/s$hub.db")
	i=1
	while [ $i -le "$2" ]; do
		if [ $i != $hub ] && ! settle $i $hub; then
			echo "seed $1: s$i cannot merge hub s$hub: $(tail -1 "$tmp/out")"
			return 1
		fi
		i=$((i + 1))
	done
	dump "$tmp/s$hub.db" >"$tmp/hub.dump"
	i=1
	while [ $i -le "$2" ]; do
		if [ "$(sqlite3 "$tmp/s$i.db" "SELECT count(*) FROM change")" != \
		    "$before" ]; then
			echo "seed $1: s$i holds $(changes "$tmp/s$i.db") changes after the exchange, the hub s$hub had $before"
			sed 's/^/  /' "$tmp/out.$i"
			return 1
		fi
		dump "$tmp/s$i.db" >"$tmp/s$i.dump"
		if ! cmp -s "$tmp/hub.dump" "$tmp/s$i.dump"; then
			echo "seed $1: s$i and hub s$hub differ after the exchange:"
			diff "$tmp/hub.dump" "$tmp/s$i.dump" | head -10
			return 1
		fi
		i=$((i + 1))
	done
	checked=$((checked + 1))
}

# run SEED: one seed's stations, steps and exchanges.
run() {
	seed=$1
	r=$seed
	rm -f "$tmp"/s*.db "$tmp"/*.changes
	rand 3
	n=$((x + 3))
	i=1
	while [ $i -le $n ]; do
		# Named anew: its first change, which carries its row.
		REFKIT_STATION=t$i REFKIT_NOW=$((1795000000 + i)) \
		    $bin/refkit --db "$tmp/s$i.db" station >/dev/null || return 1
		REFKIT_NOW=$((1795000100 + i)) $bin/refkit --db "$tmp/s$i.db" \
		    station rename s$i >/dev/null || return 1
		i=$((i + 1))
	done
	printf 'name,OR,DR,MIND,LIFE,IN\nAnn,8,5,4,12,3\nBob,6,6,7,9,2\nCy,5,5,5,6,1\n' \
	    >"$tmp/roster.csv"
	tables "$tmp/s1.db"
	REFKIT_NOW=1795000000 $bin/crs-stats --db "$tmp/s1.db" import \
	    "$tmp/roster.csv" >/dev/null || return 1
	i=2
	while [ $i -le $n ]; do
		$bin/refkit --db "$tmp/s$i.db" merge "$tmp/s1.db" >/dev/null ||
		    return 1
		i=$((i + 1))
	done
	step=0
	while [ $step -lt 48 ]; do
		step=$((step + 1))
		rand $n
		s=$((x + 1))
		db=$tmp/s$s.db
		export REFKIT_NOW=$((1795000000 + step * 60 + s))
		rand 10
		case $x in
		0|1|2)
			pick_name
			rand 4
			case $x in
			0) rand 20; a="STR=$((x + 5))" ;;
			1) rand 20; a="OR=$((x + 1))" ;;
			2) rand 40; a="LIFE=$((x + 1))" ;;
			3) rand 3; a="player=p$x" ;;
			esac
			$bin/crs-stats --db "$db" set "$name" "$a" >/dev/null 2>&1
			;;
		3)
			pick_name
			rand 10
			$bin/crs-stats --db "$db" add "$name" OR=$((x + 1)) \
			    LIFE=$((x * 3 + 2)) >/dev/null 2>&1
			;;
		4)
			pick_name
			$bin/crs-stats --db "$db" rm "$name" >/dev/null 2>&1
			;;
		5|6|7)
			rand $n
			[ $((x + 1)) = $s ] || take $s merge "$tmp/s$((x + 1)).db"
			;;
		8)
			rand $n
			o=$((x + 1))
			[ $o = $s ] && continue
			rand 4
			since=0
			if [ $x = 0 ]; then
				rand "$(changes "$tmp/s$o.db")"
				since=$x
			fi
			$bin/refkit --db "$tmp/s$o.db" changes export --since $since \
			    -o "$tmp/x.changes" >/dev/null 2>&1 &&
			    take $s "changes apply" "$tmp/x.changes"
			;;
		9)
			unset REFKIT_NOW
			exchange "$seed" $n || return 1
			;;
		esac
		unset REFKIT_NOW
	done
	exchange "$seed" $n
}

seeds=$REGRESS
lo=${range%-*}
hi=${range#*-}
s=$lo
while [ "$s" -le "$hi" ]; do
	seeds="$seeds $s"
	s=$((s + 1))
done
for seed in $seeds; do
	if run "$seed"; then
		ok
	else
		bad "seed $seed (keep it in REGRESS)"
	fi
done
echo "stress/sync-converge: $checked exchanges checked, at $(echo $seeds | wc -w) seeds"
tally_done
