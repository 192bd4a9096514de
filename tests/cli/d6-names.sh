# d6-roll: names as a GM types them (issue #23).  A character, a trait
# and a weapon are found exactly, but for case, or by a unique beginning
# of the name or of one of its words; an ambiguous name lists the
# candidates, an unknown one suggests the nearest; the roll log stores
# the full names.  A die code is still a die code.
export REFKIT_NOW=1795300000
d6-roll char add 'Luke Skywalker' dexterity=3D+2 dexterity.blaster=5D dexterity.dodge=4D dexterity.brawling=3D+2 perception=3D perception.search=4D+1 >/dev/null
d6-roll char add Leia dexterity=3D dexterity.blaster=4D >/dev/null
d6-roll char add 'Han Solo' dexterity=3D+1 dexterity.blaster=6D+1 >/dev/null
d6-roll char add han dexterity=2D >/dev/null
# Characters.
run d6-roll char show luke
run d6-roll char show SKY
run d6-roll char show han
run d6-roll char show HAN
run d6-roll char show solo
run d6-roll char show l
run d6-roll char show Lea
run d6-roll char show Chewbacca
snap
run d6-roll char rm Lia
run d6-roll char roll l blaster
unchanged
run d6-roll char set sky cp=4
run d6-roll char rm HAN
run d6-roll char list
# Traits: a roll by a character's and a trait's beginnings.
run d6-roll sky blas --seed 9
run d6-roll char roll solo BLASTER --seed 3
run d6-roll luke dex.do --seed 2
run d6-roll luke per.blaster --seed 4
snap
run d6-roll luke d
run d6-roll luke dodj
run d6-roll luke dx.blaster
run d6-roll luke dex.b
unchanged
sql "SELECT character, trait, code FROM d6_roll ORDER BY id"
# A die code is rolled as one, whatever the roster holds.
d6-roll char add D6 dexterity=2D >/dev/null
run d6-roll D6 --seed 1
run d6-roll D6 dexterity
run d6-roll 2D --seed 1
run d6-roll 4X moderate
# Weapons: the chart's keys, spaces read as hyphens.
run d6-roll weapon 'heavy repeating' --range 50
run d6-roll weapon TURBO --range 20000
run d6-roll weapon rifle --range 10
run d6-roll weapon blaster --range 10
run d6-roll weapon 'blaster pistl' --range 10
run d6-roll weapon lightbow --range 10
