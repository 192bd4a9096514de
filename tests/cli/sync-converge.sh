# Stations converge, whatever was settled and in whatever order (#37).
# A settlement is a change of the station that made it, which every
# station that takes it ends with; a change whose effect a station holds
# already is no conflict; a station's row is the same everywhere.
export REFKIT_NOW=1795000000
mask() {
	sed -e 's/[0-9a-f]\{32\}/<ID>/g' -e 's/[0-9a-f]\{8\}:\([0-9]\)/<TAG>:\1/g'
}
str() {
	for db in "$@"; do
		printf '%s: STR %s\n' "$db" "$(sqlite3 "$db" \
		    "SELECT str FROM character WHERE name = 'Fred'")"
	done
}
REFKIT_STATION=A crs-stats --db A.db add Fred STR=12 AGI=16 CUN=14 CON=10 \
    >/dev/null
REFKIT_STATION=B refkit --db B.db station >/dev/null
refkit --db B.db merge A.db >/dev/null
cp A.db A0.db
cp B.db B0.db
crs-stats --db A.db set Fred STR=13 >/dev/null
crs-stats --db B.db set Fred STR=15 >/dev/null
cp A.db A1.db
cp B.db B1.db

echo '# A settles the conflict its way: theirs.'
run refkit --db A.db --prefer theirs merge B.db | mask
echo '# B takes it: nothing to settle, B ends with A'"'"'s answer.'
run refkit --db B.db merge A.db | mask
run refkit --db B.db --prefer theirs merge A.db | mask
str A.db B.db

echo '# Whatever B prefers, it ends with A'"'"'s answer.'
for p in mine theirs; do
	cp B1.db B.db
	run refkit --db B.db --prefer $p merge A.db | mask
	str B.db
done

echo '# A station that holds the incoming values already: no conflict.'
cp B0.db C.db
crs-stats --db C.db set Fred STR=13 >/dev/null
run refkit --db C.db merge A1.db | mask

echo '# The settlement first, the change it settled after: still the answer.'
cp B1.db B2.db
refkit --db B2.db --prefer mine merge A1.db >/dev/null
REFKIT_STATION=D refkit --db D.db merge A0.db >/dev/null
refkit --db B1.db changes export -o b1.changes >/dev/null
refkit --db B2.db changes export --since "$(sqlite3 B2.db \
    "SELECT max(no) - 1 FROM change")" -o settled.changes >/dev/null
run refkit --db D.db changes apply b1.changes | mask
run refkit --db D.db changes apply settled.changes | mask
refkit --db A1.db changes export -o a1.changes >/dev/null
run refkit --db D.db changes apply a1.changes | mask
str D.db

echo '# A report names the record and shows only the fields that differ.'
cp A0.db E.db
cp B0.db F.db
crs-stats --db E.db set Fred STR=11 AGI=17 >/dev/null
crs-stats --db F.db set Fred STR=14 AGI=18 >/dev/null
run refkit --db E.db merge F.db | mask
refkit --db E.db --json merge F.db 2>/dev/null | mask | grep -o '"name":"Fred","differ":[^]]*]'
REFKIT_STATION=G crs-stats --db G.db add Fa OR=5 LIFE=20 >/dev/null
REFKIT_STATION=H crs-stats --db H.db add Fa OR=9 LIFE=40 >/dev/null
run refkit --db G.db merge H.db | mask

echo '# The station table is the same everywhere.'
REFKIT_NOW=1795009999 REFKIT_STATION=late refkit --db I.db merge A.db >/dev/null
refkit --db B.db station rename Bravo
refkit --db A.db --prefer mine merge B.db >/dev/null
refkit --db I.db merge A.db >/dev/null
for db in A.db B.db I.db; do
	echo "$db:"
	sqlite3 "$db" "SELECT name, created FROM station WHERE name <> 'late'
	    ORDER BY name"
done

echo '# A settlement meets the version it kept: no conflict of its own.'
# Hal is made at J and at L without either knowing; hub K takes J's,
# then keeps it over L's.  L takes K's changes: J's insert meets L's
# Hal, and K's settlement, a row just like J's insert, settles it.  J's
# insert being in L's record of changes does not make K's settlement
# old news at L: L kept its own version of it.
REFKIT_STATION=J crs-stats --db J.db add Hal OR=7 LIFE=20 >/dev/null
REFKIT_STATION=K refkit --db K.db station >/dev/null
REFKIT_STATION=L crs-stats --db L.db add Hal OR=5 LIFE=14 >/dev/null
refkit --db K.db merge J.db >/dev/null
run refkit --db K.db --prefer mine merge L.db | mask
run refkit --db L.db --prefer mine merge K.db | mask
for db in K.db L.db; do
	printf '%s: %s\n' "$db" "$(sqlite3 "$db" "SELECT given_or, given_life
	    FROM character WHERE name = 'Hal'")"
done

echo '# A copy made without knowing of a removal gives way to it everywhere.'
# P removes Ann and makes her again; Q, which never saw the removal,
# changes the old Ann.  Hub O keeps the removal over Q's change, and then
# passes over P's Ann, made without knowing of that settlement.  At P,
# the settlement meets P's Ann and removes it the same way, unasked.
REFKIT_STATION=O crs-stats --db O.db add Ann OR=8 LIFE=12 >/dev/null
REFKIT_STATION=P refkit --db P.db merge O.db >/dev/null
REFKIT_STATION=Q refkit --db Q.db merge O.db >/dev/null
crs-stats --db P.db rm Ann >/dev/null
refkit --db O.db merge P.db >/dev/null
crs-stats --db P.db add Ann OR=9 LIFE=26 >/dev/null
crs-stats --db Q.db set Ann STR=16 >/dev/null
run refkit --db O.db --prefer mine merge Q.db | mask
run refkit --db O.db merge P.db | mask
run refkit --db P.db merge O.db | mask
run refkit --db Q.db merge O.db | mask
for db in O.db P.db Q.db; do
	printf '%s: %s\n' "$db" "$(sqlite3 "$db" "SELECT count(*) FROM
	    character WHERE name = 'Ann'")"
done

echo '# An update made without knowing of a removal meets the record made again.'
# R removes Eve and makes her again; S, which never saw the removal,
# changes the old Eve.  Hub R takes S's change: it was made to the Eve
# removed, not to this one, so it is in conflict with the removal, as
# it is at S (stress seed 27; R used to take it quietly, and S then met
# the removal and settled it its own way).
REFKIT_STATION=R crs-stats --db R.db add Eve OR=2 LIFE=5 >/dev/null
REFKIT_STATION=S refkit --db S.db merge R.db >/dev/null
REFKIT_NOW=1795000100 crs-stats --db S.db set Eve OR=20 >/dev/null
REFKIT_NOW=1795000200 crs-stats --db R.db rm Eve >/dev/null
REFKIT_NOW=1795000300 crs-stats --db R.db add Eve OR=2 LIFE=5 >/dev/null
run refkit --db R.db merge S.db | mask
run refkit --db R.db --prefer theirs merge S.db | mask
run refkit --db S.db merge R.db | mask
for db in R.db S.db; do
	printf '%s: %s\n' "$db" "$(sqlite3 "$db" "SELECT given_or, created,
	    updated FROM character WHERE name = 'Eve'")"
done

echo '# A settlement newer than the record kept here gives its times too.'
# V changes Bob, not knowing that U removed him and made him again; hub
# W settles it after U's, and V takes W's settlement, made knowing of
# every version: V ends with the times of the Bob made again, as W and
# U do, not with the earliest of the versions it met (stress seed 21).
REFKIT_STATION=T crs-stats --db T.db add Bob OR=3 LIFE=9 >/dev/null
for s in U V W; do
	REFKIT_STATION=$s refkit --db $s.db merge T.db >/dev/null
done
REFKIT_NOW=1795000100 crs-stats --db U.db rm Bob >/dev/null
REFKIT_NOW=1795000200 crs-stats --db U.db add Bob OR=6 LIFE=17 >/dev/null
REFKIT_NOW=1795000300 crs-stats --db V.db set Bob player=p1 >/dev/null
run refkit --db W.db merge U.db | mask
run refkit --db W.db --prefer theirs merge V.db | mask
run refkit --db V.db merge W.db | mask
run refkit --db U.db merge W.db | mask
for db in U.db V.db W.db; do
	printf '%s: %s; %s changes\n' "$db" "$(sqlite3 "$db" "SELECT
	    given_or, player, created, updated FROM character WHERE name =
	    'Bob'")" "$(sqlite3 "$db" "SELECT count(*) FROM change")"
done

echo '# A value put back by a change the update had not seen is a conflict.'
# X changes Ann's notes and hub Z takes it; Y, which never saw that,
# changes them too; Z puts them back as they were.  Y's change finds
# the value it was made from at Z, written again by a change it had not
# seen: a conflict, settled there, and Y and X come to Z's answer.  Z
# used to take it quietly, Y then met X's change and found it settled
# by Z's, and Y kept the notes empty while Z held Y's (issue #42).  Once
# with every time the same, so that SQLite meets no difference, once
# with times of their own.
for t in same own; do
	rm -f X.db Y.db Z.db
	REFKIT_STATION=Z crs-stats --db Z.db add Ann OR=8 LIFE=12 >/dev/null
	REFKIT_STATION=X refkit --db X.db merge Z.db >/dev/null
	REFKIT_STATION=Y refkit --db Y.db merge Z.db >/dev/null
	[ $t = own ] && export REFKIT_NOW=1795000100
	crs-stats --db X.db set Ann notes=four >/dev/null
	refkit --db Z.db --prefer theirs merge X.db >/dev/null
	[ $t = own ] && export REFKIT_NOW=1795000200
	crs-stats --db Y.db set Ann notes=seven >/dev/null
	[ $t = own ] && export REFKIT_NOW=1795000300
	crs-stats --db Z.db set Ann notes= >/dev/null
	run refkit --db Z.db --prefer theirs merge Y.db | mask
	run refkit --db Y.db --prefer theirs merge Z.db | mask
	run refkit --db X.db --prefer theirs merge Z.db | mask
	for db in X.db Y.db Z.db; do
		printf '%s: %s\n' "$db" "$(sqlite3 "$db" "SELECT coalesce(notes,
		    '-'), updated FROM character WHERE name = 'Ann'")"
	done
	export REFKIT_NOW=1795000000
done

echo '# Two stations settle the same conflict their own ways: those conflict.'
# Gus is made at D1 and at D3 differently; D2 takes D3's.  D3 keeps its
# own over D1's, D2 takes D1's: two settlements, each made knowing of
# both versions, neither of the other.  D2 then meets D3's settlement:
# a conflict, not old news because D2 had seen D3's first Gus (stress
# seed 210; D2 and D3 each kept their own).
export REFKIT_NOW=1795000000
for s in 1 2 3; do
	rm -f D$s.db
	REFKIT_STATION=D$s refkit --db D$s.db station >/dev/null
done
crs-stats --db D3.db add Gus OR=3 LIFE=8 >/dev/null
crs-stats --db D1.db add Gus OR=10 LIFE=29 >/dev/null
refkit --db D2.db --prefer mine merge D3.db >/dev/null
run refkit --db D3.db --prefer mine merge D1.db | mask
run refkit --db D2.db --prefer theirs merge D1.db | mask
run refkit --db D2.db --prefer theirs merge D3.db | mask
for s in 1 3; do
	run refkit --db D$s.db --prefer theirs merge D2.db | mask
done
for s in 1 2 3; do
	printf 'D%s: %s\n' $s "$(sqlite3 D$s.db "SELECT given_or, given_life
	    FROM character WHERE name = 'Gus'")"
done
