# Boards for any screen (issue #39), fb-duel: the status table at 40, 60,
# 80 and 120 columns and at 24 (COLUMNS) narrows the duelists' columns
# first, then drops the spheres' touches, then the counters' bars (the
# numbers stay); the sphere and both duelists always show, and the lines
# above the table fold.  watch draws the same
# table for its terminal's width (tests/watch.sh at 40 columns).
export REFKIT_NOW=1795400000
fb-duel sheet add Annabel --side light --hand right >/dev/null
fb-duel sheet add Bob --side dark --hand left att=4 lightning=1 >/dev/null
fb-duel start Annabel Bob >/dev/null
fb-duel round --init 5,2 --choose torso --pull Bob:center=2,left=1 \
    --hit 2,2 --block 4,4 >/dev/null
for c in 120 80 60 40 24; do
	COLUMNS=$c run fb-duel status
done
