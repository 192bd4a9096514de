# Every example of crs-stats(1), run as written.
cp "$TOP/examples/roster.csv" roster.csv
run crs-stats calc STR=12 AGI=16 CUN=14 INT=10 CHA=12 CON=10
run crs-stats add Fred STR=12 AGI=16 CUN=14 CON=10 player=Alice
run crs-stats item add 'Chain Mail' dr=+3 use=wearable
run crs-stats give Fred 'Chain Mail'
run crs-stats show Fred
run crs-stats add Mary OR=8 DR=12 MIND=6 LIFE=20
run crs-stats import roster.csv
run crs-stats import --replace roster.csv
crs-stats list --csv > sheets.csv
cat sheets.csv
crs-stats export > export.csv
run crs-stats --db other.db import export.csv
run crs-stats --db other.db list
run crs-stats sheets --all --per-page 2 --paper letter -o sheets.pdf
run crs-stats verify-sheet 0ayb-7ykx-zrp0-nr4r
