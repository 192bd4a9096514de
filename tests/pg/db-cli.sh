#!/bin/sh
# db-cli.sh BUILD-DIR: the tools on a PostgreSQL server (issue #22).  Starts
# a private server (tests/pg/server.sh), then
#   - runs every golden CLI case, each on a fresh database, against the
#     same transcripts as on SQLite (tests/run.sh with REFKIT_PG=1), so
#     that a new case is on both at once;
#   - checks the one-line refusals: server unreachable, database missing,
#     a database of another program, and a connection string that names
#     no database keyword (taken for a file).
# Every case but core-seal, which runs under REFKIT_SOAK=1 (make check-soak).
# Cases about a database file (db-schema, db-readonly-fs, db-hostile-file) run
# on a file here too, and pass as a check that REFKIT_DB does not leak
# into them.
set -u
B=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
bin="$top/$B"
. "$top/tests/pg/server.sh"
pg_setup db-cli
# seal's sealed event of 1,114 draws is some 4,000 commands, each its own
# connection through play (about 5 minutes on two cores): when soaking.
[ "${REFKIT_SOAK:-0}" = 1 ] && skip=${REFKIT_SKIP:-} ||
    skip="${REFKIT_SKIP:-} core-seal"
out=$(REFKIT_PG=1 REFKIT_SKIP=$skip sh "$top/tests/run.sh" "$B" 2>&1)
printf '%s\n' "$out" | grep -v '^cli/.*: ok$\|passed, .* failed$' | head -60
p=$(printf '%s\n' "$out" | tail -1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
f=$(printf '%s\n' "$out" | tail -1 | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
pass=$((pass + ${p:-0}))
fail=$((fail + ${f:-1}))

# expect WHAT WANT CMD...: CMD exits 1 with the one line WANT on stderr.
expect() {
	what=$1 want=$2
	shift 2
	got=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$got" = "$want" ]; then
		ok
	else
		bad "$what: exit $rc, got '$got', want '$want'"
	fi
}
psql -qc 'CREATE DATABASE other' && psql -q -d other -c 'CREATE TABLE t (x int)'
expect "server unreachable" \
    "crs-stats: cannot connect to 'postgresql://refkit@127.0.0.1:1/x': Connection refused" \
    "$bin/crs-stats" --db 'postgresql://refkit@127.0.0.1:1/x' list
expect "database missing" \
    "crs-stats: cannot connect to 'postgresql://refkit@$PGHOST:5432/nope': database \"nope\" does not exist" \
    "$bin/crs-stats" --db "host=$PGHOST dbname=nope" list
expect "another program's database" \
    "crs-stats: 'postgresql://refkit@$PGHOST:5432/other': not a refkit database (it has tables of another program)" \
    "$bin/crs-stats" --db "postgresql:///other?host=$PGHOST" list
# ... and that database was left as it was.
if [ "$(psql -At -d other -c "SELECT string_agg(tablename, ',') FROM pg_tables WHERE schemaname = 'public'")" = t ]; then
	ok
else
	bad "another program's database was changed"
fi
# Text is in SQLite's byte order whatever the database's locale: on a
# database whose default collation is ICU's English (where "alf" sorts
# before "Ann"), names are listed as on a file.
if createdb -T template0 --locale-provider=icu --icu-locale=en-US icu; then
	for n in bob Ann _x Cy alf Zed; do
		"$bin/crs-stats" --db "postgresql:///icu?host=$PGHOST" add "$n" \
		    STR=1 >/dev/null
		"$bin/crs-stats" --db "$pg_dir/order.db" add "$n" STR=1 >/dev/null
	done
	if [ "$("$bin/crs-stats" --db "postgresql:///icu?host=$PGHOST" list)" = \
	    "$("$bin/crs-stats" --db "$pg_dir/order.db" list)" ]; then
		ok
	else
		bad "names on an ICU-collated database are not in byte order"
	fi
else
	bad "cannot create an ICU-collated database"
fi
# The backup refkit(7) gives: pg_dump of a live database, restored with
# pg_restore into an empty one, reads the same and takes writes (its
# identity counters restored too).
conv="postgresql:///conv?host=$PGHOST"
back="postgresql:///back?host=$PGHOST"
createdb conv && createdb back &&
    "$bin/crs-stats" --db "$conv" add Ann OR=8 DR=5 LIFE=12 IN=3 >/dev/null &&
    "$bin/crs-stats" --db "$conv" add Bob OR=6 DR=6 LIFE=9 IN=2 >/dev/null &&
    "$bin/crs-combat" --db "$conv" start Ann Bob >/dev/null &&
    "$bin/crs-combat" --db "$conv" init Ann=5 Bob=3 >/dev/null &&
    "$bin/crs-combat" --db "$conv" attack Ann Bob --card 7 --vs-card 2 \
    >/dev/null &&
    pg_dump -Fc -f "$pg_dir/conv.dump" conv &&
    pg_restore -d back "$pg_dir/conv.dump" ||
	bad "backup and restore failed"
for c in "crs-stats list" "crs-combat log" "crs-combat replay"; do
	if [ "$("$bin/${c% *}" --db "$conv" "${c#* }" 2>&1)" = \
	    "$("$bin/${c% *}" --db "$back" "${c#* }" 2>&1)" ]; then
		ok
	else
		bad "restored: $c differs"
	fi
done
for db in "$conv" "$back"; do
	"$bin/crs-combat" --db "$db" attack Bob Ann --card 3 --vs-card 3 >/dev/null
	"$bin/crs-stats" --db "$db" add Cy STR=1 >/dev/null
done
if [ "$("$bin/crs-combat" --db "$conv" log 2>&1; "$bin/crs-stats" --db "$conv" list 2>&1)" = \
    "$("$bin/crs-combat" --db "$back" log 2>&1; "$bin/crs-stats" --db "$back" list 2>&1)" ]; then
	ok
else
	bad "restored: the same writes read differently"
fi
tally_done
