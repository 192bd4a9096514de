# Hostile names on printed sheets: quotes, right-to-left text, emoji and
# a 200-character name are laid out within the page (pdftotext -bbox:
# every word inside the margins), a long name cut with an ellipsis, and
# every sheet still verifies.
command -v pdftotext >/dev/null ||
    { echo 'skip: poppler-utils is not installed'; exit 0; }

long=$(printf 'W%.0s' $(seq 1 100); printf 'i%.0s' $(seq 1 100))
run crs-stats add "O'Hara \"the Quick\" <b>&amp;" STR=12 AGI=16 CUN=14 CON=10
run crs-stats add 'שלום עליכם' STR=12 AGI=16 CUN=14 CON=10 player='مريم'
run crs-stats add '🐉 Dragon 🔥' STR=12 AGI=16 CUN=14 CON=10
run crs-stats add "$long" STR=12 AGI=16 CUN=14 CON=10 player="$long" LIFE=100000 EM=999
run crs-stats item add "$(printf 'x%.0s' $(seq 1 200))" or=+1
run crs-stats give "$long" "$(printf 'x%.0s' $(seq 1 200))"
run crs-stats sheets --all -o h.pdf
run crs-stats sheets --all --per-page 2 -o h2.pdf

# Every word's box within the paper less a margin of 27 points (the
# sheets keep 28), on every page of both files.
for f in h.pdf h2.pdf; do
	pdftotext -enc UTF-8 -bbox "$f" - | awk -v f="$f" '
	    /<page / { match($0, /width="[0-9.]+"/)
		w = substr($0, RSTART + 7, RLENGTH - 8) + 0
		match($0, /height="[0-9.]+"/)
		h = substr($0, RSTART + 8, RLENGTH - 9) + 0 }
	    /<word / { n++
		split($0, a, "\"")
		if (a[2] < 27 || a[4] < 27 || a[6] > w - 27 || a[8] > h - 27) {
			bad++; print f ": outside: " $0 } }
	    END { printf "%s: %d words, %d outside the margins\n", f, n, bad + 0 }'
done
# The long name is cut, not wrapped: one line of 16 points, above the
# player's (cairo keeps the whole name as the text of the ellipsis, so
# pdftotext still reads all of it).
pdftotext -enc UTF-8 -f 2 -l 2 -bbox h.pdf - | awk '
    /<word / && !seen { split($0, a, "\"")
	if ($0 ~ />Player:</) { seen = 1; player = a[4]; next }
	n++; if (n == 1 || a[4] < lo) lo = a[4]; if (a[4] > hi) hi = a[4]
	if (a[8] > bottom) bottom = a[8] }
    END { printf "name in %d words on %s line, %s the player\n", n,
	hi - lo < 1 ? "one" : "more than one",
	bottom <= player ? "above" : "not above" }'
# The boxes of a LIFE too large for the strip give way to a count.
pdftotext -enc UTF-8 -f 2 -l 2 h.pdf - | grep -E '^\+[0-9]+$'
# Every sheet's code verifies.
for p in 1 2 3 4; do
	c=$(pdftotext -f $p -l $p h.pdf - | grep -o 'Code [0-9A-Z-]*' |
	    cut -c6-)
	crs-stats verify-sheet "$c" >/dev/null && echo "page $p verifies"
done
