# tally.sh: the count of a test script's checks, sourced by it (and by
# tests/pg/server.sh, so that a script on a server has it too).
#   tally NAME   starts the count, for the script NAME (as its failures
#                are to name it: "stations", "pg/crash");
#   ok           passes a check;
#   bad MESSAGE  fails one, with the line "FAIL: NAME: MESSAGE";
#   tally_done   says "N passed, N failed", the line tests/all.sh reads,
#                and returns 1 if any check failed.

tally() {
	tally_name=$1
	pass=0
	fail=0
}
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); printf 'FAIL: %s: %s\n' "$tally_name" "$1"; }
tally_done() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
