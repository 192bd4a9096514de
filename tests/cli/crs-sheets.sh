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
run crs-stats set Fred notes='Sworn to the Grey Order; owes Mary a favour. Carries the broken seal of the old keep, which the GM may call on once per event.'

run crs-stats sheets Fred -o fred.pdf
pages fred.pdf
pdftotext -layout fred.pdf - | mask | sed 's/ *$//'
# The big stats, by the height of the words of the first page taller
# than 20 points, from y = $2 to $3 (points, to the nearest): OR 9, DR
# 17, LIFE 20, EM 12, IN 5 in boxes 56 points tall on a sheet to a page,
# 26 on half of one; nothing else on the sheet is that tall.
bigs() {
	pdftotext -f 1 -l 1 -bbox "$1" - | sed -n 's/.*yMin="\([0-9.]*\)".*yMax="\([0-9.]*\)">\([^<]*\)<.*/\3 \1 \2/p' |
	    awk -v from="$2" -v to="$3" '$2 >= from && $2 < to { printf "%s %.0f\n", $1, $3 - $2 }' |
	    awk '$2 > 20 { printf "%s:%s ", $1, $2 } END { print "" }'
}
bigs fred.pdf 0 842
# The notes whole, the SOURCE column only where a value is not computed.
pdftotext fred.pdf - | grep -c 'SOURCE'
run crs-stats sheets Mary -o mary.pdf
pdftotext -layout mary.pdf - | grep -E '^(STAT|OR|EM) '
pdftotext mary.pdf - | grep -c '^-: not set'
run crs-stats sheets --all -o all.pdf
pages all.pdf
run crs-stats sheets --all --per-page 2 --paper letter -o two.pdf
pages two.pdf
pdftotext two.pdf - | grep -c '^Player: '
bigs two.pdf 0 396
bigs two.pdf 396 792
pdftotext -f 1 -l 1 two.pdf - | grep -A2 '^NOTES$'
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
# With refkit serve's address given, the QR code holds Fred's page there,
# the code after ?sheet=, which verify-sheet takes as it is scanned.
REFKIT_SERVE_URL=http://192.168.1.20:8080/ crs-stats sheets Fred -o url.pdf
pdftoppm -r 150 -png url.pdf url
qr=$(zbarimg -q --raw url-1.png 2>/dev/null)
[ "$qr" = "http://192.168.1.20:8080/character/Fred?sheet=$code" ] &&
    echo "the QR code holds Fred's page with the code" ||
    echo "the QR code holds '$qr'"
[ "$(code_of url.pdf)" = "$code" ] && echo "the sheet prints the same code"
run crs-stats verify-sheet "$qr" | mask
run crs-stats item set 'Chain Mail' dr=+4
run crs-stats verify-sheet "$code" | mask
run crs-stats item set 'Chain Mail' dr=+3
run crs-stats verify-sheet "$code" | mask
run crs-stats set Fred notes='the notes are printed, and covered'
run crs-stats verify-sheet "$code" | mask
run crs-stats set Fred notes='Sworn to the Grey Order; owes Mary a favour. Carries the broken seal of the old keep, which the GM may call on once per event.'
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
