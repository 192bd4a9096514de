#!/bin/sh
# seeds.sh OUTDIR: writes each fuzz target's seed corpus into OUTDIR/TARGET,
# taken from the golden CLI transcripts (tests/expected) and the test
# fixtures, so that fuzzing starts from inputs the tools really take.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
exp="$top/tests/expected"
rm -rf "$out"
mkdir -p "$out"

# put TARGET NAME: stdin becomes one seed file.
put() {
	mkdir -p "$out/$1"
	cat >"$out/$1/$2"
}

# The argv targets: each transcript's command lines for the tool, twelve
# to a seed, in the order the case ran them.
for tool in crs-stats crs-draw crs-combat d6-roll fb-duel bg-board refkit; do
	mkdir -p "$out/argv-$tool"
	for f in "$exp"/*.out; do
		name=$(basename "$f" .out)
		grep -a "^\\\$ $tool " "$f" | sed "s/^\\\$ $tool //; s/ [<>] [^ ]*\$//" |
		    split -l 12 - "$out/argv-$tool/$name-" || true
	done
done

# KEY=VALUE words of crs-stats calc, add and set, eight to a seed.
mkdir -p "$out/sheet"
grep -ah '^\$ crs-stats \(calc\|add\|set\) ' "$exp"/*.out | tr ' ' '\n' |
    tr -d "'" | grep -a '=' | sort -u | split -l 8 - "$out/sheet/kv-"

# Card lists: each --drawn and --out value, as DRAWN|OUT pairs.
mkdir -p "$out/deck"
grep -aho -- "--\(drawn\|out\) '\?[A0-9,]*" "$exp"/*.out | sed "s/.* '\\?//" |
    sort -u | awk '{ print $0 "|" prev > (dir "/" NR); prev = $0 }' \
    dir="$out/deck"

# Die codes: every word of a d6-roll line that looks like one.
mkdir -p "$out/d6"
grep -ah '^\$ d6-roll ' "$exp"/*.out | tr ' ' '\n' | tr -d "'" |
    grep -i '^[0-9]*d[0-9+-]*' | sort -u | awk '{ print > (dir "/" NR) }' \
    dir="$out/d6"
printf 'Moderate' | put d6 difficulty

# Roster files.
mkdir -p "$out/import-csv" "$out/import-json"
for f in "$top"/examples/*.csv "$top"/tests/fixtures/*.csv; do
	[ -f "$f" ] && cp "$f" "$out/import-csv/"
done
for f in "$top"/examples/*.json "$top"/tests/fixtures/*.json; do
	[ -f "$f" ] && cp "$f" "$out/import-json/"
done
grep -ah "^\$ crs-stats export" -A40 "$exp"/*.out | sed -n '/^name,/,/^?/p' |
    grep -v '^?' | put import-csv exported
printf 'name,STR,ENE\nAnn,3,4\n"Bo,b",5,\n' | put import-csv quoted
printf '[{"name":"Ann","STR":3,"items":["Sword"]},{"name":"Bob"}]' |
    put import-json small

# Changes files, written by the writer (build/unit-sync-changes --fixtures
# tests/fixtures/changes makes them anew).
mkdir -p "$out/changes" "$out/changes-show"
cp "$top"/tests/fixtures/changes/*.changes "$out/changes/"
cp "$top"/tests/fixtures/changes/*.changes "$out/changes-show/"

# Resolution files: the template lines of the resolve case, and the
# lines it refuses.
grep -ah '^[a-z_]* {.*} [a-z]*$' "$exp"/sync-resolve.out | put resolve lines
printf '# c\n\ncharacter { "id" : 1 }\tmine\r\nitem {"id":2,"name":"A b"} ask\n' |
    put resolve spaced
printf 'character {"id":1} mine\ncharacter {"id":1} theirs\n' |
    put resolve twice

# fb-duel: stances, the default board, GEAS specs and round options, as
# the ledger stores them ('0'..'4' picks the parser).
{ printf 0; echo 'upper-left=2 upper-right=3 center=4 att=5 def=5'; } | put fb stance-light
{ printf 1; echo 'center=3 att=4 def=5 lightning=1'; } | put fb stance-dark
grep -aho '"input":"duelist[^"]*' "$exp"/fb*.out | head -1 |
    sed 's/.*board default\\n//; s/\\n/\n/g' | { printf 2; cat; } | put fb board
n=0
grep -aho '"input":"--[^"]*' "$exp"/fb*.out | sed 's/"input":"//' | sort -u |
while IFS= read -r line; do
	n=$((n + 1))
	case $line in
	--geas*) { printf 3; printf '%s' "${line#--geas }"; } | put fb "geas-$n" ;;
	*) { printf 4; printf '%s' "$line"; } | put fb "round-$n" ;;
	esac
done

# bg-board: the team files, and games between the built-in teams A and B
# (figures A0.., the Cosmic first), on both boards.
for f in "$top"/tests/fixtures/bg/*.team; do
	{ printf 0; cat "$f"; } | put bg "team-$(basename "$f" .team)"
done
printf '1move A10 a3\nmove B10 a4\nmove A10 a4 --roll 3 --vs-roll 2\npass\ndie 2 1\n' |
    put bg basic
printf '2place A0 d1\nmove A14 b3\npower A3 teleport A14 b3\npass\n' |
    put bg advanced
