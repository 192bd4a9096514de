# gmfloor.awk: the floor of bench/pg.sh's "16 GMs in play" figure
# (issue #40), a pgbench script that does on the server what one event
# of a play session does, made from that session's libpq trace
# (REFKIT_PG_TRACE): the transaction that inserts the event at seq SEQ
# (-v seq=N), statement for statement, in the same pipelines (one
# \startpipeline ... \endpipeline a round trip), with the same locks.
#
# What the client computed is made constant or left to the server:
#   - the combat's id becomes :cid (pgbench's variable, a combat of the
#     client's own), and its advisory lock, which refkit keys by a hash
#     of the id, is keyed by :cid itself;
#   - the event's seq becomes the next one of :cid's, read by a subquery
#     where the statement runs (pgbench cannot carry a result from one
#     statement of a pipeline to the next), and its key the next free
#     one, by the statement refkit reads it with;
#   - every other value is the one refkit bound, as a literal (the hash,
#     the changeset's bytes, the event's figures).
# So the floor pays what the server pays for refkit's work, and nothing
# of the rules, the hashing or the changeset's making.
#
# Usage: LC_ALL=C awk -v seq=N -v combat=ID -f gmfloor.awk TRACE > SCRIPT,
# ID the combat's key as a number; the script wants -D base=B, with B +
# pgbench's client_id each client's combat.
BEGIN {
	FS = "\t"
	for (i = 0; i < 256; i++)
		ord[sprintf("%c", i)] = i
	trip = 0
	last = ""
}

# The next token of s from position p (global): a quoted string, or a
# word up to the next space.
function skip_space() {
	while (p <= length(s) && substr(s, p, 1) == " ")
		p++
}
function quoted(    q, r) {
	skip_space()
	q = substr(s, p, 1)
	p++
	r = ""
	while (p <= length(s) && substr(s, p, 1) != q) {
		r = r substr(s, p, 1)
		p++
	}
	p++
	return r
}
function word(    r) {
	skip_space()
	r = ""
	while (p <= length(s) && substr(s, p, 1) != " ") {
		r = r substr(s, p, 1)
		p++
	}
	return r
}
# A value of n bytes as the trace prints it ('...', a byte that is not
# printable as \xNN), into bytes[1..n]; returns n.
function value(n,    k, c) {
	skip_space()
	p++			# the opening quote
	for (k = 1; k <= n; k++) {
		c = substr(s, p, 1)
		if (c == "\\" && substr(s, p + 1, 1) == "x" &&
		    substr(s, p + 2, 2) ~ /^[0-9a-f][0-9a-f]$/) {
			bytes[k] = hexval(substr(s, p + 2, 2))
			p += 4
		} else {
			bytes[k] = ord[c]
			p++
		}
	}
	p++			# the closing quote
	return n
}
function hexval(h,    d) {
	d = "0123456789abcdef"
	return (index(d, substr(h, 1, 1)) - 1) * 16 + index(d, substr(h, 2, 1)) - 1
}
function as_text(n,    k, r, c) {
	r = ""
	for (k = 1; k <= n; k++) {
		c = sprintf("%c", bytes[k])
		r = r (c == "'" ? "''" : c)
	}
	return r
}
function as_hex(n,    k, r) {
	r = ""
	for (k = 1; k <= n; k++)
		r = r sprintf("%02x", bytes[k])
	return r
}

$1 == "B" && last == "F" { trip++ }
$1 == "F" || $1 == "B" { last = $1 }

$1 == "F" && $3 == "Parse" {
	s = $4
	p = 1
	name = quoted()
	sql[name] = quoted()
	nt = word() + 0
	for (k = 1; k <= nt; k++)
		ptype[name, k] = word() + 0
	ntypes[name] = nt
	next
}

$1 == "F" && $3 == "Bind" {
	s = $4
	p = 1
	quoted()
	name = quoted()
	nf = word() + 0
	for (k = 1; k <= nf; k++)
		fmt[k] = word() + 0
	np = word() + 0
	n++
	stmt_trip[n] = trip
	text = sql[name]
	# Each parameter a literal, from the last so that $1 is not $10's.
	for (k = 1; k <= np; k++) {
		len = word() + 0
		if (len < 0) {
			lit[k] = "NULL"
			raw[k] = ""
			continue
		}
		value(len)
		f = nf == 1 ? fmt[1] : (nf == 0 ? 0 : fmt[k])
		if (f == 1)
			lit[k] = "'\\x" as_hex(len) "'::bytea"
		else {
			lit[k] = "'" as_text(len) "'"
			if (ptype[name, k] == 20)
				lit[k] = lit[k] "::int8"
		}
		raw[k] = as_text(len)
	}
	for (k = np; k >= 1; k--) {
		v = lit[k]
		if (raw[k] == combat)
			v = ":cid::int8"
		if (text ~ /^INSERT INTO event \(/ && k == 2)
			v = "(SELECT coalesce(max(seq), 0) + 1 FROM event" \
			    " WHERE combat_id = :cid)"
		if (text ~ /^INSERT INTO event \(/ && k == np - 1)
			v = "(" substr(newkey, 8) ")"
		if (text ~ /^INSERT INTO history/ && k == 2)
			v = "(SELECT max(seq) FROM event WHERE combat_id = :cid)"
		if (text ~ /^INSERT INTO chain / && k == 3)
			v = "(SELECT max(seq) FROM event WHERE combat_id = :cid)"
		if (text ~ /^SELECT pg_advisory_xact_lock\(\$1/ &&
		    (raw[k] + 0 < 0 || raw[k] + 0 > 2147483647))
			v = ":cid::int8"
		gsub("\\$" k "([^0-9]|$)", "\001&", text)
		while ((i = index(text, "\001$" k)) > 0)
			text = substr(text, 1, i - 1) v \
			    substr(text, i + 2 + length(k))
	}
	stmt[n] = text
	if (sql[name] ~ /^SELECT \(coalesce\(\(SELECT id FROM event WHERE/)
		newkey = sql[name]
	if (sql[name] ~ /^INSERT INTO event \(/ && raw[2] == seq "") {
		want_trip = trip
		found = n
	}
	next
}

END {
	if (!found) {
		print "gmfloor.awk: no INSERT of event " seq " in the trace" \
		    > "/dev/stderr"
		exit 1
	}
	# The transaction: from the BEGIN before the insert to the COMMIT
	# after it.
	for (b = found; b > 0 && stmt[b] != "BEGIN"; b--)
		;
	for (e = found; e <= n && stmt[e] != "COMMIT"; e++)
		;
	print "\\set cid :base + :client_id"
	t = -1
	for (k = b; k <= e; k++) {
		if (stmt_trip[k] != t) {
			if (t >= 0)
				print "\\endpipeline"
			print "\\startpipeline"
			t = stmt_trip[k]
		}
		print stmt[k] ";"
	}
	print "\\endpipeline"
}
