
-- SQLite's functions that refkit's statements call, under their SQLite
-- names, for PostgreSQL (tools/pgcompat.sql, appended by the Makefile).
-- Each returns what SQLite's does as refkit reads it back; see
-- refkit.db(5), "PostgreSQL".  Run when a database is made and again
-- after each migration (db/dbpg.c), so that a migrated database has
-- this build's functions as a new one does: each may be there already.

-- The range of this station's keys (db.h: DB_NEW_KEY, DB_OWN_KEY): its
-- tag, the first 8 hex digits of its id with the top bit set, times 2^31.
CREATE OR REPLACE FUNCTION refkit_key_lo() RETURNS bigint
LANGUAGE sql STABLE AS $$
	SELECT ((('x' || substr(id, 1, 8))::bit(32)::bigint | 2147483648)
	    << 31) + 1 FROM station_self
$$;
CREATE OR REPLACE FUNCTION refkit_key_hi() RETURNS bigint
LANGUAGE sql STABLE AS $$
	SELECT refkit_key_lo() + 2147483646
$$;

-- The log a writer's command picked on the server, ahead of reading it
-- in the same round trip (core/journal.c, journal_pick_ahead): the
-- statement that picks sets refkit.pick, for the transaction, to its
-- key or to '' (none), and the statements after it name the log by this
-- (db/dbpg.c puts it where the client bound DB_PICKED).
CREATE OR REPLACE FUNCTION refkit_pick() RETURNS bigint
LANGUAGE sql STABLE AS $$
	SELECT nullif(current_setting('refkit.pick', true), '')::bigint
$$;

-- The seq a command picked the same way (journal_target_ahead: the
-- newest event an undo can take back), before which it reads the log
-- from a snapshot: refkit.before, or the largest bigint (any).
CREATE OR REPLACE FUNCTION refkit_before() RETURNS bigint
LANGUAGE sql STABLE AS $$
	SELECT coalesce(nullif(current_setting('refkit.before', true),
	    '')::bigint, 9223372036854775807)
$$;

-- A log's advisory lock, as db/db.c's log_lock_key makes it: FNV-1a's
-- steps, 64 bits, from that function's basis (which is not FNV's
-- published one: it must be the same), over its kind's bytes and then
-- its key's eight, the lowest first, with the top bit set; for a log
-- picked on the server (refkit_pick), whose key the client learns only
-- with the answer.  NULL for none.
CREATE OR REPLACE FUNCTION refkit_log_lock(kind text, id bigint)
RETURNS bigint LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
	b bytea := convert_to(kind, 'UTF8') || int8send(id);
	n int := length(convert_to(kind, 'UTF8'));
	h numeric := 1469598103934665603;
	c int;
	lo int;
BEGIN
	FOR i IN 0 .. n + 7 LOOP
		-- The key's bytes from its lowest: int8send's last first.
		c := get_byte(b, CASE WHEN i < n THEN i ELSE n + 7 - (i - n) END);
		lo := (h % 256)::int;
		h := mod((h - lo + (lo # c)) * 1099511628211,
		    18446744073709551616);
	END LOOP;
	IF h < 9223372036854775808 THEN
		h := h + 9223372036854775808;
	END IF;
	RETURN (h - 18446744073709551616)::bigint;
END
$$;

-- json_extract(doc, '$.a.b'): a scalar as text (true and false as 1 and
-- 0, null as NULL), an object or array as its JSON text.
CREATE OR REPLACE FUNCTION json_extract(doc text, path text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE json_typeof(v)
	    WHEN 'boolean' THEN CASE WHEN v::text = 'true' THEN '1' ELSE '0' END
	    WHEN 'null' THEN NULL
	    ELSE v #>> '{}' END
	FROM (SELECT doc::json #> string_to_array(substr(path, 3), '.') AS v) x
$$;

-- json_each(doc, '$.a'): the elements of the array there, key and value.
CREATE OR REPLACE FUNCTION json_each(doc text, path text)
RETURNS TABLE (key bigint, value text)
LANGUAGE sql IMMUTABLE AS $$
	SELECT n - 1, e::text FROM json_array_elements(doc::json #>
	    string_to_array(substr(path, 3), '.')) WITH ORDINALITY AS a(e, n)
$$;

-- group_concat(x, sep): the values joined, NULLs left out.
CREATE OR REPLACE FUNCTION refkit_concat(acc text, x text, sep text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN x IS NULL THEN acc WHEN acc IS NULL THEN x
	    ELSE acc || sep || x END
$$;
CREATE OR REPLACE AGGREGATE group_concat(text, text) (
	SFUNC = refkit_concat, STYPE = text
);

-- total(x): the sum as a real, 0.0 over no rows.
CREATE OR REPLACE AGGREGATE total(double precision) (
	SFUNC = float8pl, STYPE = double precision, INITCOND = '0'
);

-- round(x, n) of a real, half away from zero as SQLite rounds.
CREATE OR REPLACE FUNCTION round(x double precision, n integer) RETURNS double precision
LANGUAGE sql IMMUTABLE AS $$
	SELECT round(x::numeric, n)::double precision
$$;

-- instr(haystack, needle).
CREATE OR REPLACE FUNCTION instr(s text, t text) RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
	SELECT strpos(s, t)
$$;

