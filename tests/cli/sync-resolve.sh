# refkit changes apply / merge --resolve FILE and --resolutions-out FILE
# (#21): roster conflicts settled record by record from a file, and that
# file written from the report, so that nobody types a key.  The steps
# of refkit(1)'s example (template, grep, sed, --resolve) are here with
# these stations' keys.
export REFKIT_NOW=1795000000
# Station ids and key tags are random: shown as <ID> and <TAG>.
mask() {
	sed -e 's/[0-9a-f]\{32\}/<ID>/g' -e 's/[0-9a-f]\{8\}-\([0-9]\)/<TAG>-\1/g' \
	    -e 's/[0-9a-f]\{8\}:\([0-9]\)/<TAG>:\1/g'
}
# rows DB: the roster, as the tests compare it.
rows() {
	sqlite3 "$1" "SELECT name, given_or, given_dr, given_life FROM character
	    ORDER BY name"
}
# choose FILE NAME WORD: the line of NAME's record in FILE says WORD.
choose() {
	sed -i "/\"id\":$(key "$2")[,}]/s/ [a-z]*\$/ $3/" "$1"
}
# key NAME: a character's key, as either station has it.
key() {
	for db in t1.db t2.db; do
		sqlite3 $db "SELECT id FROM character WHERE name = '$1'"
	done | head -1
}
printf 'name,OR,DR,MIND,LIFE,IN\nAnn,8,5,4,12,3\nBob,6,6,7,9,2\nCy,5,5,5,6,1\n' \
    >roster.csv

echo '# Two tables import the same roster and take in each other'"'"'s.'
for s in 1 2; do
	REFKIT_STATION=table-$s crs-stats --db t$s.db import roster.csv
done
refkit --db t2.db merge t1.db >/dev/null
refkit --db t1.db merge t2.db >/dev/null
echo '# Then each changes the roster its own way: a conflict of every kind.'
crs-stats --db t1.db set Bob DR=9 >/dev/null		# changed at both
crs-stats --db t2.db set Bob DR=7 >/dev/null
crs-stats --db t1.db set Cy DR=8 >/dev/null		# removed here
crs-stats --db t2.db rm Cy
crs-stats --db t1.db rm Ann				# removed there
crs-stats --db t2.db set Ann LIFE=13 >/dev/null
crs-stats --db t1.db add Eve OR=3 LIFE=4 >/dev/null	# made at both
crs-stats --db t2.db add Eve OR=4 LIFE=4 >/dev/null
crs-stats --db t1.db add Fay OR=2 >/dev/null		# refused here:
# t2 has a Fay under another key, as a station made before keys were.
sqlite3 t2.db "INSERT INTO character (id, name, given_or, created, updated)
    VALUES (3, 'Fay', 5, 1795000000, 1795000000)"
refkit --db t1.db changes export -o t1.changes >/dev/null
cp t2.db t2-before.db
rows t2.db

echo '# No choice: every conflict reported, and the template written.'
snap t2.db
run refkit --db t2.db --resolutions-out res.txt changes apply t1.changes |
    mask
unchanged t2.db
mask <res.txt
echo '# merge writes the same template from the database itself.'
run refkit --db t2.db --resolutions-out m.txt merge t1.db | tail -3 | mask
cmp res.txt m.txt && echo "same template"
echo '# Nothing left open (--prefer settles all): no template written.'
cp t1.db t1-copy.db
run refkit --db t1-copy.db --resolutions-out none.txt --prefer mine \
    merge t2-before.db | tail -2 | mask
[ -e none.txt ] || echo "no none.txt"

echo '# A partial file: Bob theirs; the rest stays open, nothing written.'
cp res.txt part.txt
choose part.txt Bob theirs
grep -v '^#' part.txt
run refkit --db t2.db --resolve part.txt changes apply t1.changes | mask
unchanged t2.db
run refkit --db t2.db --json --resolve part.txt changes apply t1.changes |
    mask
unchanged t2.db

echo '# The whole file: mine for three, theirs for Bob and Ann.'
cp res.txt all.txt
choose all.txt Bob theirs
choose all.txt Ann theirs
choose all.txt Cy mine
choose all.txt Eve mine
choose all.txt Fay mine
grep -v '^#' all.txt
run refkit --db t2.db --resolve all.txt changes apply t1.changes | mask
rows t2.db
echo '# Applying it again: nothing new, and no line meets a conflict.'
run refkit --db t2.db --resolve all.txt changes apply t1.changes | mask

echo '# theirs where only mine can settle: left open, and why.'
cp t2-before.db t3.db
cp all.txt again.txt
choose again.txt Cy theirs
snap t3.db
run refkit --db t3.db --json --resolve again.txt changes apply t1.changes |
    mask
run refkit --db t3.db --resolve again.txt --resolutions-out again.txt \
    changes apply t1.changes | mask
unchanged t3.db
echo '# The template written over it keeps the choices that settled.'
grep -v '^#' again.txt
run refkit --db t3.db --prefer theirs changes apply t1.changes |
    grep -A1 '^  there: {"given_dr":8}' | mask
echo '# --resolve with --prefer: the file first, --prefer for the rest.'
run refkit --db t3.db --resolve part.txt --prefer mine merge t1.db | mask
rows t3.db

echo '# Spaces in a key do not count; a line that meets nothing is warned of.'
cp t2-before.db t4.db
{
	printf '  # a comment, after blanks\n\n'
	printf 'character { "id" : %s }\ttheirs\r\n' "$(key Bob)"
	printf 'character {"id":1} mine\n'
	printf 'holds_item {"character_id":1,"item_id":2} ask\n'
} >spaced.txt
run refkit --db t4.db --resolve spaced.txt --prefer mine \
    changes apply t1.changes | grep -v '^  ' | mask
rows t4.db

echo '# A bad line is refused, naming it, before anything is applied.'
cp t2-before.db t5.db
snap t5.db
bad() {
	printf "$1" >bad.txt
	run refkit --db t5.db --resolve bad.txt changes apply t1.changes
}
bad 'character\n'
bad '# fine\ncharacter mine\n'
bad 'character {"id":1}\n'
bad 'character {"id":1} yours\n'
bad 'character {"id":1} Mine\n'
bad 'character [1] mine\n'
bad 'character {"id":1 mine\n'
bad 'character {"id":"1} mine\n'
bad 'character {"id":1}} mine\n'
bad 'character {"id":1}{"id":2} mine\n'
bad 'charcter {"id":1} mine\n'
bad 'change {"no":1} mine\n'
bad 'character {"id":1} mine\n\ncharacter {"id": 1} theirs\n'
bad 'character {"id":1} mine\ncharacter {"id":1} mine\n'
bad 'character {"id":1} mine\nchar\0acter {"id":2} mine\n'
run refkit --db t5.db --resolve missing.txt changes apply t1.changes
run refkit --db t5.db --resolve bad.txt merge t1.db
unchanged t5.db

echo '# A change that names a record not here has no key: not in a template.'
crs-stats --db t1.db item add Rope >/dev/null
crs-stats --db t1.db give Bob Rope >/dev/null
refkit --db t1.db changes export --since 7 -o more.changes >/dev/null
crs-stats --db t2.db rm Bob
run refkit --db t2.db --resolutions-out dangling.txt changes apply \
    more.changes | mask
mask <dangling.txt

echo '# Usage.'
run refkit --resolve x changes export -o y
run refkit --resolutions-out x changes show t1.changes
run refkit changes apply t1.changes --resolve
