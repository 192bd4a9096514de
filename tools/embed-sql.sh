#!/bin/sh
# embed-sql.sh NAME FILE: prints a C file defining "const char NAME[]" with
# the text of FILE, so that schema.sql stays the one source of the schema.
set -eu
name=$1
file=$2
printf '/* Generated from %s by tools/embed-sql.sh; do not edit. */\n' "$file"
printf 'extern const char %s[];\n' "$name"
printf 'const char %s[] =\n' "$name"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/^/"/' -e 's/$/\\n"/' "$file"
printf ';\n'
