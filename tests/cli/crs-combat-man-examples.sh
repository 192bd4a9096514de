# The second example of crs-combat(1): the tool draws for everyone, and
# replay audits it.  The draws differ from run to run, so only the
# outcome of the audit and the exit statuses are shown.
crs-stats add Ann OR=8 DR=10 MIND=6 LIFE=12 IN=3 LB=1
crs-stats add Bob OR=7 DR=9 MIND=5 LIFE=9 IN=2 LB=0
crs-combat start Ann Bob >/dev/null
first=$(crs-combat init --json >/dev/null; crs-combat status --json | sed 's/.*"next":"\([^"]*\)".*/\1/')
other=Ann
[ "$first" = Ann ] && other=Bob
crs-combat attack "$first" "$other" >/dev/null; echo "attack: exit $?"
run crs-combat replay
