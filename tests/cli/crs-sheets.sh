# crs-stats sheets and verify-sheet: the PDF read back with poppler's
# tools (its text, page count and page size), the code checked against
# the database, and the refusals.  The codes are keyed by the station's
# random id, so the transcript shows them as CODE.
command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null &&
    command -v pdftoppm >/dev/null && command -v zbarimg >/dev/null ||
    { echo 'skip: poppler-utils or zbar-tools is not installed'; exit 0; }

# The PDF's page count and the size of its first page.
pages() {
	pdfinfo "$1" | sed -n 's/^Pages: *//p; s/^Page size: *//p'
}
# The code printed on the first sheet of a file.
code_of() {
	pdftotext -f 1 -l 1 "$1" - | grep -o 'Code [0-9A-Z-]*' | cut -c6- |
	    head -1
}
mask() {
	sed 's/[0-9A-Z]\{4\}-[0-9A-Z]\{4\}-[0-9A-Z]\{4\}-[0-9A-Z]\{4\}/CODE/g
	    s/ [0-9a-z]\{16\}$/ code-typed-loosely/'
}

run crs-stats sheets --all -o empty.pdf
run crs-stats add Fred ENE=30 STR=12 INT=10 CUN=14 AGI=16 CON=10 CHA=12 LUC=12 LEVEL=2 player=Alice
run crs-stats add Mary OR=8 DR=12 MIND=6 LIFE=20 player=Beth
run crs-stats add John STR=18 AGI=12 CUN=10 CON=16 INT=8 CHA=8 ENE=12 LUC=6 LEVEL=1
run crs-stats item add 'Chain Mail' dr=+3 use=wearable
run crs-stats item add Sword or=+5 range=short
run crs-stats power add Fireball em=10 picks=2 target=group defend=dr bonus=2
run crs-stats give Fred 'Chain Mail'
run crs-stats give Fred Sword
run crs-stats give Fred Fireball

run crs-stats sheets Fred -o fred.pdf
pages fred.pdf
pdftotext -layout fred.pdf - | mask | sed 's/ *$//'
run crs-stats sheets --all -o all.pdf
pages all.pdf
run crs-stats sheets --all --per-page 2 --paper letter -o two.pdf
pages two.pdf
pdftotext two.pdf - | grep -c '^Player: '
pdftoppm -r 20 -png two.pdf page && ls page-*.png

# The code read back from the sheet, and from its QR code (rendered, then
# read by zbarimg); typed loosely; after a change.
code=$(code_of fred.pdf)
pdftoppm -r 150 -png fred.pdf fred
qr=$(zbarimg -q --raw fred-1.png 2>/dev/null)
[ -n "$code" ] && [ "$qr" = "$code" ] && echo "the QR code holds the code"
run crs-stats verify-sheet "$code" | mask
run crs-stats verify-sheet "$(printf '%s' "$code" | tr -d - |
    tr A-Z a-z)" | mask
run crs-stats item set 'Chain Mail' dr=+4
run crs-stats verify-sheet "$code" | mask
run crs-stats item set 'Chain Mail' dr=+3
run crs-stats verify-sheet "$code" | mask
run crs-stats set Fred notes='notes are not printed'
run crs-stats verify-sheet "$code" | mask
run crs-stats set Fred LUC=13
run crs-stats verify-sheet "$code" | mask
run crs-stats verify-sheet 0000-0000-0000-0000
run crs-stats verify-sheet ABCD-EFGH
run crs-stats verify-sheet

# Refusals: a name unknown, bad options, a file that cannot be written.
run crs-stats sheets Fredd -o x.pdf
run crs-stats sheets Fred
run crs-stats sheets -o x.pdf
run crs-stats sheets Fred --all -o x.pdf
run crs-stats sheets Fred --paper legal -o x.pdf
run crs-stats sheets Fred --per-page 3 -o x.pdf
run crs-stats list -o x.pdf
run crs-stats sheets Fred -o nowhere/x.pdf
run crs-stats sheets Fred -o /dev/full
mkdir adir
run crs-stats sheets Fred -o adir
REFKIT_TEST_PANGOCAIRO=libnot-there.so.0 run crs-stats sheets Fred -o x.pdf
ls x.pdf 2>/dev/null

# A sheet printed at another station checks here once its records are
# merged: the codes of every station the database knows are tried.
run crs-stats --db other.db add Zed STR=10 AGI=10 CUN=10 CON=10
run crs-stats --db other.db sheets Zed -o zed.pdf
zcode=$(code_of zed.pdf)
run crs-stats verify-sheet "$zcode" | mask
run refkit merge other.db
run crs-stats verify-sheet "$zcode" | mask
