# fb-duel sheets and verify-sheet: a duelist's printed board read back
# with poppler's tools, its code checked, the refusals.
command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null ||
    { echo 'skip: poppler-utils is not installed'; exit 0; }
mask() {
	sed 's/[0-9A-Z]\{4\}-[0-9A-Z]\{4\}-[0-9A-Z]\{4\}-[0-9A-Z]\{4\}/CODE/g'
}

run fb-duel sheets --all -o empty.pdf
run fb-duel sheet add Anakin --side light --level templar
run fb-duel sheet add Dooku --side dark --hand left --level diamedes --free-geas lightning --notes 'a count'
run fb-duel sheets ana -o anakin.pdf
pdfinfo anakin.pdf | sed -n 's/^Pages: *//p; s/^Page size: *//p'
pdftotext -layout anakin.pdf - | mask | sed 's/ *$//' | grep -v '^$'
run fb-duel sheets --all --per-page 2 --paper letter -o both.pdf
pdfinfo both.pdf | sed -n 's/^Pages: *//p; s/^Page size: *//p'
pdftotext both.pdf - | grep -c '^lightning 0 (free)$'
code=$(pdftotext -f 1 -l 1 -layout both.pdf - | grep -o 'Code [0-9A-Z-]*' |
    head -1 | cut -c6-)
run fb-duel verify-sheet "$code" | mask
run fb-duel sheet set Anakin --notes 'not printed'
run fb-duel verify-sheet "$code" | mask
fb-duel stance Anakin att=6 def=4 >/dev/null && echo "(stance Anakin att=6 def=4)"
run fb-duel verify-sheet "$code" | mask
run fb-duel verify-sheet 1234
run fb-duel sheets Obi -o x.pdf
run fb-duel sheets Anakin
run fb-duel sheets -o x.pdf
run fb-duel sheets Anakin -o x.pdf --per-page 0
run fb-duel status -o x.pdf
run fb-duel sheets Anakin -o nowhere/x.pdf
