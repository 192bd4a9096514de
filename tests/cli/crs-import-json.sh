# JSON import and export.
cat >roster.json <<'JSON'
[
  {"name": "Fred", "player": "Alice", "STR": 12, "AGI": 16, "CUN": 14,
   "INT": 10, "CHA": 12, "CON": 10, "ENE": 30, "LUC": 12, "LEVEL": 2},
  {"name": "Mary", "OR": 8, "DR": 12, "notes": "Healer\nand guide"},
  {"name": "Tom", "str": null, "items": []}
]
JSON
run crs-stats import roster.json
run crs-stats list
run crs-stats export --format json
crs-stats export --format json >export1.json
REFKIT_DB="$T/second.db" crs-stats import export1.json
REFKIT_DB="$T/second.db" crs-stats export --json >export2.json
cmp export1.json export2.json && echo "JSON export, import, export: identical bytes"
# Items and powers round-trip where they exist.
crs-stats item add Sword or=+5
crs-stats power add Heal em=4
crs-stats give Fred Sword
crs-stats give Fred Heal
crs-stats export --json >with-items.json
REFKIT_DB="$T/third.db" crs-stats item add Sword or=+5
REFKIT_DB="$T/third.db" crs-stats power add Heal em=4
REFKIT_DB="$T/third.db" crs-stats import with-items.json
REFKIT_DB="$T/third.db" crs-stats export --json | cmp - with-items.json && echo "with items: identical bytes"

snap
printf '[{"name":"A","STR":1},{"name":"B","STR":7.5}]' >frac.json
run crs-stats import frac.json
printf '[{"name":"A","STR":-1}]' >neg.json
run crs-stats import neg.json
printf '[{"name":"A","STR":"12x"}]' >str.json
run crs-stats import str.json
printf '[{"name":"A","SPEED":1}]' >unknown.json
run crs-stats import unknown.json
printf '[{"name":"A"},"B"]' >notobj.json
run crs-stats import notobj.json
printf '[{"name":"A",}]' >broken.json
run crs-stats import broken.json
printf '{"name":"A"}' >object.json
run crs-stats import object.json
printf '[{"STR":1}]' >noname.json
run crs-stats import noname.json
printf '[{"name":"Fred"}]' >dup.json
run crs-stats import dup.json
printf '[{"name":"A","items":["Axe"]}]' >noitem.json
run crs-stats import noitem.json
printf '[{"name":"A","powers":5}]' >powerstr.json
run crs-stats import powerstr.json
printf '[{"name":"A","player":{"x":1}}]' >player.json
run crs-stats import player.json
unchanged
