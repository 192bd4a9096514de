# fb-duel: names as a GM types them (issue #23).  Duelists and boards are
# found exactly, but for case, or by a unique beginning of the name or of
# one of its words; inside a duel a duelist is one of its two, and an
# unknown name's refusal lists them; the ledger stores the full names.
export REFKIT_NOW=1795400000
cd "$T" || exit 1
fb-duel board show >arena.txt
fb-duel board add Arena arena.txt >/dev/null
fb-duel sheet add Anakin --side dark --hand left att=4 lightning=1 >/dev/null
fb-duel sheet add Obi-Wan --side light >/dev/null
fb-duel sheet add Owen --side light >/dev/null
# Sheets and boards.
run fb-duel sheet show ANAKIN
run fb-duel sheet show wan
run fb-duel sheet show o
run fb-duel sheet show Anakn
run fb-duel board show ar
run fb-duel board show Areena
snap
run fb-duel sheet add Yoda --board nowhere
run fb-duel sheet set ow --board d
run fb-duel stance Ownen center=4
unchanged
run fb-duel sheet set ow --board ARE
run fb-duel stance OWEN
# A duel started, played and re-stanced by names' beginnings.
snap
run fb-duel start anak o
run fb-duel start anak Vader
run fb-duel start anak ow
unchanged
run fb-duel sheet rm ow
run fb-duel sheet list
run fb-duel start anak obi
run fb-duel round --init 5,2 --choose torso --pull o:center=1 --hit 6,6 --block 6,6
snap
run fb-duel restance Obi-Wn upper-left=3
run fb-duel round --pull Vader:center=1
run fb-duel round --pull Obi-Wn:center=1
run fb-duel geas anakn lightning 1
unchanged
run fb-duel restance wan upper-left=3 upper-right=3 center=3 left=3 right=3 lower-left=3 lower-right=3 att=5 def=5
run fb-duel geas ana lightning 1 --spheres lower-right
run fb-duel log
run fb-duel replay
sql "SELECT seq, action, actor, input FROM fb_event WHERE seq > 1 ORDER BY seq"
run fb-duel sim an obi --n 10 --seed 3 --jobs 1
