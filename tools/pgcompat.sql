
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

