# refkit station: every database is a station with an id of its own.
export REFKIT_NOW=1795000000
# The ids are random: the transcript shows them as <ID>.
hide_id() {
	sed 's/[0-9a-f]\{32\}/<ID>/g'
}
REFKIT_STATION=table-1 run refkit station | hide_id
run refkit --json station | hide_id
echo '# TZ=CET-1CEST,M3.5.0,M10.5.0/3: created in local time, UTC in CSV.'
TZ=CET-1CEST,M3.5.0,M10.5.0/3 run refkit station | hide_id
TZ=CET-1CEST,M3.5.0,M10.5.0/3 refkit --csv station | cut -d, -f3
# The id: 32 lowercase hex digits, the same every time it is read.
a=$(refkit --csv station | tail -1 | cut -d, -f2)
b=$(refkit --csv station | tail -1 | cut -d, -f2)
[ "$a" = "$b" ] && echo "the id stays"
echo "$a" | grep -qx '[0-9a-f]\{32\}' && echo "the id is 32 hex digits"
# Another database is another station.
c=$(refkit --db other.db --station table-2 --csv station | tail -1 |
    cut -d, -f2)
[ "$a" != "$c" ] && echo "two databases, two ids"
run refkit --db other.db station | hide_id
# Any tool that creates the database names its station from the
# environment.
REFKIT_STATION='GM desk' run crs-stats --db third.db list
run refkit --db third.db --csv station list | hide_id
# Renaming.
run refkit station rename 'Table One'
run refkit station | hide_id
sql 'SELECT count(*) FROM station'
# Bad names, refused before anything is created.
run refkit --station ' x' --db bad.db station
REFKIT_STATION= run crs-stats --db bad.db list
REFKIT_STATION="$(printf 'a\tb')" run crs-stats --db bad.db list
REFKIT_STATION=$(printf '%065d' 0) run crs-stats --db bad.db list
[ -e bad.db ] || echo "bad.db not created"
snap
run refkit station rename ''
run refkit station rename
run refkit station rename a b
run refkit station what
unchanged
# A name is only taken at creation: an existing station keeps its own.
REFKIT_STATION=elsewhere run refkit station | hide_id
run refkit --db /dev/null station
run refkit
run refkit frob
