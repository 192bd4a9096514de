#!/bin/sh
# embed-sql.sh [--parts] SCHEMA: prints a C file with the schema and every migration
# step cut from SCHEMA (schema.sql), so that it stays the one source of
# both.  Lines of the form
#
#   -- @since N: ...              starts a section added in version N
#   -- @since N, rerun by M: ...  the same, run again by step M
#   -- @since N, rerun by M and L: ...  and by step L too
#   -- @migrate N: ...            starts a section only step N runs
#
# divide the file; what comes before the first of them (the PRAGMAs) is
# for a new database only.  It defines
#
#   db_schema_sql[]       the whole file less the @migrate sections: what
#                         a new, empty database runs;
#   db_schema_step[N]     what brings a database at version N - 1 to N:
#                         its sections in the order of the file.
#
# and refuses a file whose user_version is not its highest @since, or
# that leaves a step between 2 and it empty; the C file does not compile
# where DB_SCHEMA_VERSION (src/db/db_base.h) is not that version.
#
# With --parts it defines instead db_schema_parts[]: what db_schema_sql
# runs, a part per section, each with the version that added it (0 for
# the PRAGMAs before the first), ended by { 0, NULL }; build/pgschema
# cuts an older version's schema from them (db.h).
set -eu
parts=0
if [ "$1" = --parts ]; then
	parts=1
	shift
fi
file=$1
awk -v file="$file" -v parts="$parts" '
function esc(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	gsub(/\t/, "\\t", s)
	return "\"" s "\\n\""
}
function fail(msg) {
	printf "embed-sql.sh: %s:%d: %s\n", file, NR, msg > "/dev/stderr"
	failed = 1
	exit 1
}
BEGIN { fresh = 1; nsteps = 0; npart = 1; since[1] = 0 }
/^PRAGMA user_version = [0-9]+;/ {
	version = $4 + 0
}
/^-- @/ {
	delete in_step
	if ($0 ~ /^-- @since [0-9]+[:,]/) {
		fresh = 1
		n = $3 + 0
		since[++npart] = n
		if (n > 1)
			in_step[n] = 1
		if (n > max)
			max = n
		if ($0 ~ /^-- @since [0-9]+, rerun by [0-9]+( and [0-9]+)*:/) {
			r = $0
			sub(/^-- @since [0-9]+, rerun by /, "", r)
			sub(/:.*/, "", r)
			nr = split(r, reruns, / and /)
			for (k = 1; k <= nr; k++)
				in_step[reruns[k] + 0] = 1
		}
	} else if ($0 ~ /^-- @migrate [0-9]+:/) {
		fresh = 0
		in_step[$3 + 0] = 1
	} else
		fail("not a section line: " $0)
}
{
	line = esc($0)
	if (fresh) {
		schema = schema "\n" line
		part[npart] = part[npart] "\n" line
	}
	for (n in in_step)
		step[n] = step[n] "\n" line
}
END {
	if (failed)
		exit 1
	if (version != max)
		fail("user_version " version " but the last @since is " max)
	for (n = 2; n <= max; n++)
		if (!(n in step))
			fail("nothing brings version " n - 1 " to " n)
	printf "/* Generated from %s by tools/embed-sql.sh; do not edit. */\n",
	    file
	printf "#include \"db/db.h\"\n\n"
	if (parts) {
		printf "const struct db_schema_part db_schema_parts[] = {\n"
		for (k = 1; k <= npart; k++)
			if (k in part)
				printf "\t{ %d,%s },\n", since[k], part[k]
		printf "\t{ 0, NULL }\n};\n"
		exit 0
	}
	printf "_Static_assert(DB_SCHEMA_VERSION == %d,\n", max
	printf "    \"DB_SCHEMA_VERSION is not the user_version of schema.sql\");\n\n"
	printf "const char db_schema_sql[] =%s;\n\n", schema
	printf "const char *const db_schema_step[DB_SCHEMA_VERSION + 1] = {\n"
	for (n = 2; n <= max; n++)
		printf "\t[%d] =%s,\n", n, step[n]
	printf "};\n"
}' "$file"
