# CSV import and export: atomic, exact errors, byte-identical round trip.
cat >roster.csv <<'CSV'
name,player,STR,AGI,CUN,INT,CHA,CON,ENE,LUC,LEVEL
Fred,Alice,12,16,14,10,12,10,30,12,2
"Mary, the Healer",Beth,,,,,,,,,
Old Tom,,10,12,8,,,9,,,
CSV
run crs-stats import roster.csv
run crs-stats list
cat >given.csv <<'CSV'
MIND,name,OR,DR,LIFE,notes
6,Mary Q,8,12,20,"Line one
line two, with ""quotes"""
CSV
run crs-stats import given.csv
run crs-stats show 'Mary Q'
run crs-stats export
crs-stats export >export1.csv
REFKIT_DB="$T/second.db" crs-stats import export1.csv
REFKIT_DB="$T/second.db" crs-stats export >export2.csv
cmp export1.csv export2.csv && echo "export, import, export: identical bytes"

# Every bad file stops at its first error and writes nothing.
snap
printf 'name,STR\nA,1\nB,-3\nC,2\n' >neg.csv
run crs-stats import neg.csv
printf 'name,STR\nA,7.5\n' >frac.csv
run crs-stats import frac.csv
printf 'name,STR\nA,100000000000000000000\n' >huge.csv
run crs-stats import huge.csv
printf 'name,STR\nA,lots\n' >word.csv
run crs-stats import word.csv
printf 'name,STR\nA,1\n"B,2\nC,3\n' >quote.csv
run crs-stats import quote.csv
printf 'name,STR\nA,1\nB,2,3\n' >cols.csv
run crs-stats import cols.csv
printf 'name,STR,SPEED\nA,1,2\n' >unknown.csv
run crs-stats import unknown.csv
printf 'STR,AGI\n1,2\n' >noname.csv
run crs-stats import noname.csv
printf 'name,STR\nNew,1\nFred,2\n' >dup.csv
run crs-stats import dup.csv
printf 'name,STR\nNew,1\nNew,2\n' >dup2.csv
run crs-stats import --replace dup2.csv
printf 'name,items\nNew,Sword\n' >noitem.csv
run crs-stats import noitem.csv
printf 'name\n"Robert\047); DROP TABLE character;--"\nbad\033[31mred\n' >evil.csv
run crs-stats import evil.csv
run crs-stats import missing.csv
run crs-stats import
unchanged

# --replace replaces whole sheets; holdings only when the file names them.
crs-stats item add Sword or=+5
crs-stats give Fred Sword
printf 'name,STR,AGI\nFred,20,20\nNew Kid,1,1\n' >replace.csv
run crs-stats import --replace replace.csv
run crs-stats show Fred
printf 'name,items\nFred,\n' >drop.csv
run crs-stats import --replace drop.csv
run crs-stats show Fred
# Standard input, and a format named outright.
printf 'name,LUC\nPiped,60\n' | crs-stats import - && crs-stats show Piped --csv
printf 'name,LUC\nForced,6\n' >forced.txt
run crs-stats import --format csv forced.txt
