# d6-roll char sheets and char verify-sheet: a D6 character's printed
# sheet read back with poppler's tools, its code checked, the refusals.
command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null ||
    { echo 'skip: poppler-utils is not installed'; exit 0; }
mask() {
	sed 's/[0-9A-Z]\{4\}-[0-9A-Z]\{4\}-[0-9A-Z]\{4\}-[0-9A-Z]\{4\}/CODE/g'
}

run d6-roll char sheets --all --output empty.pdf
run d6-roll char add Luke Dexterity=3D+1 Dexterity.Blaster=5D Dexterity.Lightsaber=6D+2 Perception=2D+2 Strength=3D Mechanical=3D+1 Mechanical.Piloting=5D fp=2 notes='farm boy'
run d6-roll char add Han Dexterity=3D Dexterity.Blaster=6D Perception=3D Strength=3D cp=7
run d6-roll char sheets lu --output luke.pdf
pdfinfo luke.pdf | sed -n 's/^Pages: *//p; s/^Page size: *//p'
pdftotext -layout luke.pdf - | mask | sed 's/ *$//' | grep -v '^$'
run d6-roll char sheets --all --per-page 2 --paper letter --output both.pdf
pdfinfo both.pdf | sed -n 's/^Pages: *//p; s/^Page size: *//p'
code=$(pdftotext luke.pdf - | grep -o 'Code [0-9A-Z-]*' | cut -c6-)
run d6-roll char verify-sheet "$code" | mask
run d6-roll char set Luke notes='printed, and covered'
run d6-roll char verify-sheet "$code" | mask
run d6-roll char set Luke Dexterity.Blaster=5D+1
run d6-roll char verify-sheet "$code" | mask
run d6-roll char verify-sheet nonsense
run d6-roll char sheets Lucas --output x.pdf
run d6-roll char sheets Luke
run d6-roll char sheets --output x.pdf
run d6-roll char sheets Luke --output x.pdf --paper a3
run d6-roll char show Luke --output x.pdf
run d6-roll 3D --paper a4
run d6-roll char sheets Luke --output nowhere/x.pdf
