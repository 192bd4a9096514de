# Every message is one line, whatever it quotes (issue #37): control
# characters are shown escaped (\n, \t, \x1b) wherever the text came
# from (an argument, a file, the database, a server address), and the
# bidirectional controls that reorder a line (U+202A to U+202E, U+2066
# to U+2069, U+200E, U+200F, U+061C) are refused in every name and note
# and shown as \u202e when they are quoted.
rlo=$(printf '\342\200\256')	# U+202E RIGHT-TO-LEFT OVERRIDE
lri=$(printf '\342\201\246')	# U+2066 LEFT-TO-RIGHT ISOLATE
rlm=$(printf '\342\200\217')	# U+200F RIGHT-TO-LEFT MARK

# A newline in a name read from a file: refused, and quoted escaped.
printf '[{"name":"Line1\\nLine2","STR":1}]' >nl.json
run_in nl.json crs-stats import --format json -
printf '[{"name":"Tab\\there","STR":1}]' >tab.json
run_in tab.json crs-stats import --format json -

# Bidirectional controls: refused in a name or a note, from a file or an
# argument, the field named; the message shows them escaped.
printf '[{"name":"Ann%sgnp.exe","STR":1}]' "$rlo" >rlo.json
run_in rlo.json crs-stats import --format json -
printf 'name,OR,notes\nBob,1,a%sb\n' "$lri" >lri.csv
run crs-stats import lri.csv
printf 'name,OR\nCy%s,1\n' "$rlm" >rlm.csv
run crs-stats import rlm.csv
# (Given as arguments, they are written here as printf escapes, so that
# this transcript holds none.)
run sh -c 'crs-stats add "Eve$(printf "\342\200\256")1" OR=1'
run sh -c 'crs-stats add Eve "notes=x$(printf "\330\234")y"'
run sh -c 'crs-stats item add "Sword$(printf "\342\201\246")"'
run sh -c 'fb-duel sheet add Kai --side light --hand right --notes "a$(printf "\342\200\256")b"'
run sh -c 'bg-board team add "Red$(printf "\342\200\217")" A:III*:1,1,1,1,1,1'
run sh -c 'd6-roll char add "Han$(printf "\342\200\256")"'
run sh -c 'REFKIT_GM="Gm$(printf "\342\200\256")" crs-combat start Ann Bob'
run sh -c 'refkit station --name "t$(printf "\342\201\246")1"'
run crs-stats list
# Text stored by another program is shown escaped, never reordered.
crs-stats add Dee OR=2 >/dev/null
sql "UPDATE character SET name = 'Dee${rlo}x', player = 'p
q' WHERE name = 'Dee'"
run crs-stats list

# What the database holds, quoted in a message, is escaped too.
fb-duel --db fb.db sheet add Kai --side light --hand right >/dev/null
sqlite3 fb.db "PRAGMA foreign_keys = OFF; UPDATE fb_duelist SET board = 'x' || char(10) || 'y' || char(27) || '[31m'"
run fb-duel --db fb.db sheet show Kai

# A server address that libpq cannot read is refused as such, with what
# was typed; no "(null)" for the parts it could not tell.
run crs-stats --db 'postgresql://refkit@[::1' list
run crs-stats --db 'postgresql://refkit@localhost/x?nosuch=1' list
