# Times in local time wherever people read them, UTC for programs, and
# --since in the forms a referee types.  TZ is Berlin's rule as a POSIX
# string (CET, UTC+1 in November), so no tzdata is needed.  The three
# combats of the report fixture start at 11:06:40, 12:13:20 and 14:26:40
# UTC on 2026-11-18: 12:06:40, 13:13:20 and 15:26:40 in Berlin.
crs-stats add Fred OR=8 DR=12 MIND=4 LIFE=20 IN=4 LB=1
crs-stats add Mary OR=2 DR=6 MIND=12 LIFE=8 IN=3 LB=0
crs-stats add John OR=6 DR=6 MIND=7 LIFE=10 IN=2 LB=2
. "$TOP/tests/fixtures/report-combats.sh" >/dev/null
export TZ=CET-1CEST,M3.5.0,M10.5.0/3
# Now: 2026-11-18T15:26:40Z, 16:26:40 in Berlin.
export REFKIT_NOW=1795015600
echo '# 13:00 today in Berlin is 12:00 UTC: the last two combats.'
run crs-combat history --since 13:00
run crs-combat history --since '2026-11-18 13:00' --csv
run crs-combat history --since 2026-11-18T13:00:00 --csv
run crs-combat history --since 2026-11-18T12:00:00Z --csv
echo '# history counts events at or after --since: at 13:14 Berlin the second'
echo '# combat still has an attack (12:15:00 UTC) and its end to come.'
run crs-combat history --since 13:14 --csv
echo '# A time ago: 2h is 13:26:40 UTC (the last combat), 4h 11:26:40 (the'
echo '# last two: the first ended at 11:13:40), 300m 10:26:40 (all).'
run crs-combat history --since 2h --csv
run crs-combat history --since 4h --csv
run crs-combat history --since 300m --csv
run crs-combat history --since 1d --csv
echo '# Local midnights: today began at 23:00 UTC the day before.'
run crs-combat history --since today --csv
run crs-combat history --since yesterday --csv
run crs-combat history --since 2026-11-18 --csv
run crs-combat history --since 2026-11-19 --csv
echo '# JSON keeps UTC, whatever TZ says.'
crs-combat report --since 13:00 --json | head -1
echo '# The page and the status for people: local time, with its zone.'
run crs-combat report --since 13:00 -o r.html
grep -o 'Written [^<]*' r.html
grep -o '<title>Combats with a strike started per hour[^<]*' r.html
grep -o '>11-18 [0-9:]*<' r.html
grep -o '<td>2026-11-18 [0-9:]*' r.html
echo '# Not a time: one line naming the option and the forms.'
run crs-combat history --since soon
run crs-combat history --since 25:00
run crs-combat history --since '2026-11-18 13:00 '
echo '# A free Flee at the end: its lockout in local time in the log, the'
echo '# notes under the status and the refusal; LIFE back in local time.'
run crs-combat end --agreed
run crs-combat flee Fred
run crs-combat status
run crs-combat start Fred John
crs-combat log | tail -1
echo "# The first combat at 11:15 UTC: John has LIFE to come back, local for people,"
echo '# UTC in JSON.'
REFKIT_NOW=1795000500 run crs-combat --combat 1 status
REFKIT_NOW=1795000500 crs-combat --combat 1 status --json | grep -o '"restores_at":"[^"]*"'
echo '# The board: the local time of day LIFE comes back at.'
REFKIT_NOW=1795000500 crs-combat watch 1 | grep -o "back at.*"
