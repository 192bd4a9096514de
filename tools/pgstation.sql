
-- A PostgreSQL database as a station (tools/pgstation.sql, appended by
-- the Makefile after tools/pgcompat.sql); see refkit.db(5), "PostgreSQL".
--
-- On SQLite, the session extension notes every row a write transaction
-- changes, and the transaction stores them as one changeset in change.
-- Here the server notes them itself, in the same transaction: a trigger
-- on each table that travels (refkit_travel) copies the rows each
-- statement changed, as they were before it and as they are after it,
-- into refkit_rowlog, and the transaction's last step (refkit_store or
-- refkit_take_changeset, below) takes them out again and makes the
-- changeset SQLite would have made.
-- Only a transaction of refkit's, which says so (refkit.record = on),
-- is noted: another program's writes are no station's changes, as on
-- SQLite, and a merge applies changes that come with their own row of
-- change.  The table is always empty between transactions; unlogged,
-- it costs no write-ahead log.  The notes are numbered in the order they
-- are made, on from the last: refkit's writers hold its lock, so that
-- one transaction at a time has notes (a sequence would do it too, but
-- moves on when the transaction is rolled back, and a command refused
-- must leave the database as it was, to the byte).
--
-- Like tools/pgcompat.sql, run when a database is made and again after
-- each migration: whatever is here already is kept or replaced, and a
-- table a step added (to refkit_travel) gets its triggers.

CREATE UNLOGGED TABLE IF NOT EXISTS refkit_rowlog (
	n		BIGINT PRIMARY KEY,
	tbl		TEXT NOT NULL,
	after		BOOLEAN NOT NULL,	-- as the statement left it
	img		JSON NOT NULL		-- the row, a member a column
);

CREATE OR REPLACE FUNCTION refkit_record() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('refkit.record', true) IS DISTINCT FROM 'on' THEN
		RETURN NULL;
	END IF;
	IF TG_OP <> 'INSERT' THEN
		INSERT INTO refkit_rowlog (n, tbl, after, img)
		SELECT l.n + row_number() OVER (), TG_TABLE_NAME, false,
		    to_json(o) FROM refkit_old o,
		    (SELECT coalesce(max(n), 0) AS n FROM refkit_rowlog) l;
	END IF;
	IF TG_OP <> 'DELETE' THEN
		INSERT INTO refkit_rowlog (n, tbl, after, img)
		SELECT l.n + row_number() OVER (), TG_TABLE_NAME, true,
		    to_json(r) FROM refkit_new r,
		    (SELECT coalesce(max(n), 0) AS n FROM refkit_rowlog) l;
	END IF;
	RETURN NULL;
END
$$;

-- The notes made into changes (refkit.db(5), "A PostgreSQL database as a
-- station"): what SQLite's session extension would have recorded of the
-- transaction, by the server itself, so that a writer's record goes out
-- with its writes and its COMMIT, in one round trip.
--
-- A length as a changeset gives it: SQLite's varint, 7 bits a byte, the
-- high ones first, each byte but the last with its top bit set.
CREATE OR REPLACE FUNCTION refkit_byte(v bigint) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT AS $$
SELECT set_byte('\x00'::bytea, 0, v::int)
$$;

-- (A value on the server holds at most 1 GB, whose length takes 5 bytes.)
CREATE OR REPLACE FUNCTION refkit_varint(v bigint) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT AS $$
SELECT CASE
WHEN v < 128 THEN refkit_byte(v)
WHEN v < 16384 THEN refkit_byte(v >> 7 | 128) || refkit_byte(v & 127)
WHEN v < 2097152 THEN refkit_byte(v >> 14 | 128) ||
    refkit_byte(v >> 7 & 127 | 128) || refkit_byte(v & 127)
WHEN v < 268435456 THEN refkit_byte(v >> 21 | 128) ||
    refkit_byte(v >> 14 & 127 | 128) || refkit_byte(v >> 7 & 127 | 128) ||
    refkit_byte(v & 127)
ELSE refkit_byte(v >> 28 & 127 | 128) || refkit_byte(v >> 21 & 127 | 128) ||
    refkit_byte(v >> 14 & 127 | 128) || refkit_byte(v >> 7 & 127 | 128) ||
    refkit_byte(v & 127)
END
$$;

-- A note that is not what the schema has: the record is damaged.
CREATE OR REPLACE FUNCTION refkit_damaged(tbl text) RETURNS bytea
LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'damaged record of changes of ''%''', tbl
	    USING ERRCODE = 'data_corrupted';
END
$$;

-- The transaction's notes, taken out of refkit_rowlog, as the changes
-- they come to: one row a key that ends other than it began, with its
-- table (its place in the schema, name and key columns), its first note,
-- its operation (SQLite's codes: 18 insert, 23 update, 9 delete), the
-- change as a changeset writes it, and for a removal the key as table
-- gone stores it (db/gone.h).  Each value is encoded as a changeset has
-- it (a type, then eight bytes of a number or the length and bytes of
-- text), and as gone does (a length of eight bytes).  A key's first note
-- says what the row was when the transaction began (an after note: there
-- was none), its last what it is now (a before note: it is gone).
CREATE OR REPLACE FUNCTION refkit_take_net() RETURNS TABLE (ord bigint,
    tbl text, pk bytea, first bigint, op int, change bytea, gkey bytea)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
RETURN QUERY WITH d AS (
	DELETE FROM refkit_rowlog RETURNING n, tbl, after, img
), v AS (
	SELECT d.n, d.tbl, d.after, t.ord, t.pk, e.k,
	    CASE WHEN e.k <= length(t.pk) THEN get_byte(t.pk, e.k::int - 1)
	    ELSE 0 END AS kp,
	    CASE json_typeof(e.v)
	    WHEN 'null' THEN '\x05'::bytea
	    WHEN 'string' THEN '\x03'::bytea || CASE WHEN
		octet_length(convert_to(e.v #>> '{}', 'UTF8')) < 128 THEN
		set_byte('\x00'::bytea, 0, octet_length(convert_to(e.v #>> '{}',
		'UTF8'))) ELSE refkit_varint(octet_length(convert_to(e.v #>> '{}',
		'UTF8'))) END || convert_to(e.v #>> '{}', 'UTF8')
	    WHEN 'number' THEN '\x01'::bytea || int8send((e.v #>> '{}')::bigint)
	    WHEN 'boolean' THEN '\x01'::bytea ||
		int8send(CASE WHEN e.v::text = 'true' THEN 1 ELSE 0 END::bigint)
	    ELSE refkit_damaged(d.tbl) END AS val,
	    CASE json_typeof(e.v)
	    WHEN 'string' THEN '\x03'::bytea ||
		int8send(octet_length(convert_to(e.v #>> '{}', 'UTF8'))::bigint)
		|| convert_to(e.v #>> '{}', 'UTF8')
	    ELSE NULL END AS gval
	FROM d JOIN refkit_travel t ON t.tbl = d.tbl,
	    json_each(d.img) WITH ORDINALITY AS e(key, v, k)
), notes AS (
	SELECT n, tbl, after, ord, pk,
	    CASE WHEN count(*) <> length(pk) THEN
		array[refkit_damaged(tbl)] ELSE
		array_agg(val ORDER BY k) END AS vals,
	    string_agg(val, ''::bytea ORDER BY kp) FILTER (WHERE kp > 0)
		AS key,
	    string_agg(coalesce(gval, val), ''::bytea ORDER BY k)
		FILTER (WHERE kp > 0) AS gkey
	FROM v GROUP BY n, tbl, after, ord, pk
), keyed AS (
	SELECT DISTINCT ON (tbl, key) ord, tbl, pk, gkey,
	    first_value(n) OVER w AS first,
	    first_value(after) OVER w AS fa, first_value(vals) OVER w AS fv,
	    last_value(after) OVER w AS la, last_value(vals) OVER w AS lv
	FROM notes
	WINDOW w AS (PARTITION BY tbl, key ORDER BY n ROWS BETWEEN
	    UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
), net AS (
	SELECT ord, tbl, pk, gkey, first,
	    CASE WHEN NOT fa AND la THEN 23 WHEN NOT fa THEN 9
	    WHEN la THEN 18 END AS op, fv, lv
	FROM keyed WHERE NOT fa OR la
)
SELECT ord, tbl, pk, first, op,
    set_byte('\x0000'::bytea, 0, op) || CASE op
    WHEN 18 THEN (SELECT string_agg(a, ''::bytea ORDER BY i)
	FROM unnest(lv) WITH ORDINALITY AS u(a, i))
    WHEN 9 THEN (SELECT string_agg(b, ''::bytea ORDER BY i)
	FROM unnest(fv) WITH ORDINALITY AS u(b, i))
    ELSE (SELECT string_agg(CASE WHEN get_byte(pk, i::int - 1) <> 0 OR
	b <> a THEN b ELSE '\x00'::bytea END, ''::bytea ORDER BY i) ||
	string_agg(CASE WHEN get_byte(pk, i::int - 1) = 0 AND b <> a THEN a
	ELSE '\x00'::bytea END, ''::bytea ORDER BY i)
	FROM unnest(fv, lv) WITH ORDINALITY AS u(b, a, i)) END,
    CASE WHEN op = 9 THEN gkey END
FROM net WHERE op <> 23 OR fv <> lv;
END
$$;

-- The changeset of the transaction's notes (taken out), its tables in
-- the order of the schema (a record before the rows that name it), each
-- with its header ('T', its columns, which are the key, its name) and
-- its changes in the order of their first notes; NULL when no row ends
-- other than it began.
CREATE OR REPLACE FUNCTION refkit_take_changeset() RETURNS bytea
LANGUAGE plpgsql AS $$
BEGIN
RETURN (SELECT string_agg(part, ''::bytea ORDER BY ord) FROM (
	SELECT n.ord, '\x54'::bytea || refkit_varint(length(n.pk)) || n.pk ||
	    convert_to(n.tbl, 'UTF8') || '\x00'::bytea ||
	    string_agg(n.change, ''::bytea ORDER BY n.first) AS part
	FROM refkit_take_net() n GROUP BY n.ord, n.tbl, n.pk) p);
END
$$;

-- The transaction's changes stored as this station's next, as
-- db/db.c's change_write stores them: numbered, with the seen list
-- (db/gone.h) and the keys removed noted in gone.  Returns the change's
-- number at its station, or 0 when there was none.  Never a station's
-- first change, which carries the station's own row (the writer asks
-- that one's record for itself).  Its caller holds the lock of changes.
CREATE OR REPLACE FUNCTION refkit_store(now bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	cs bytea;
	gt text[];
	gk bytea[];
	self text;
	o bigint;
BEGIN
	WITH net AS MATERIALIZED (SELECT * FROM refkit_take_net())
	SELECT (SELECT string_agg(part, ''::bytea ORDER BY ord) FROM (
		SELECT ord, '\x54'::bytea || refkit_varint(length(pk)) ||
		    pk || convert_to(tbl, 'UTF8') || '\x00'::bytea ||
		    string_agg(change, ''::bytea ORDER BY first) AS part
		FROM net GROUP BY ord, tbl, pk) p),
	    (SELECT array_agg(tbl ORDER BY ord, first) FROM net WHERE op = 9),
	    (SELECT array_agg(gkey ORDER BY ord, first) FROM net WHERE op = 9)
	INTO cs, gt, gk;
	IF cs IS NULL THEN
		RETURN 0;
	END IF;
	SELECT id INTO self FROM station_self;
	o := coalesce((SELECT max(oseq) FROM change WHERE origin = self), 0)
	    + 1;
	IF o = 1 THEN
		RAISE EXCEPTION 'refkit bug: a station''s first change stored '
		    'without its own row';
	END IF;
	INSERT INTO change (no, origin, oseq, time, data, seen, rest)
	SELECT (SELECT coalesce(max(no), 0) + 1 FROM change), self, o, now,
	    cs, coalesce((SELECT string_agg(convert_to(s.id, 'UTF8') ||
	    int8send(s.m), ''::bytea ORDER BY s.id) FROM (SELECT t.id,
	    (SELECT max(c.oseq) FROM change c WHERE c.origin = t.id) AS m
	    FROM station t WHERE t.id <> self) s WHERE s.m IS NOT NULL AND
	    octet_length(s.id) = 32), ''::bytea), NULL;
	IF gt IS NOT NULL THEN
		INSERT INTO gone (tbl, key, origin, oseq)
		SELECT u.t, u.k, self, o FROM unnest(gt, gk) AS u(t, k)
		ON CONFLICT DO NOTHING;
	END IF;
	RETURN o;
END
$$;

-- The triggers: one a statement, with the statement's rows (its
-- transition tables), so that a large import pays once a statement;
-- made where missing, and dropped from a table that no longer travels.
-- And every foreign key may wait for the end of the transaction, as
-- SQLite's defer_foreign_keys lets it: applying another station's
-- changeset, whose rows come in no order, checks them once it is in
-- (sync/dbapply.c).  Outside an apply they are checked at once, as
-- before.
DO $$
DECLARE
	t record;
BEGIN
	FOR t IN SELECT tg.tgname, tg.tgrelid::regclass AS rel FROM pg_trigger
	    tg JOIN pg_class c ON c.oid = tg.tgrelid WHERE tg.tgname LIKE
	    'refkit\_record\_%' AND c.relnamespace =
	    current_schema()::regnamespace AND c.relname NOT IN (SELECT tbl
	    FROM refkit_travel)
	LOOP
		EXECUTE format('DROP TRIGGER %I ON %s', t.tgname, t.rel);
	END LOOP;
	FOR t IN SELECT r.tbl, k.op, k.tables FROM refkit_travel r,
	    (VALUES ('insert', 'NEW TABLE AS refkit_new'),
	    ('update', 'OLD TABLE AS refkit_old NEW TABLE AS refkit_new'),
	    ('delete', 'OLD TABLE AS refkit_old')) AS k(op, tables)
	    WHERE NOT EXISTS (SELECT 1 FROM pg_trigger tg WHERE tg.tgrelid =
	    format('%I', r.tbl)::regclass AND tg.tgname = 'refkit_record_' ||
	    k.op) ORDER BY r.ord, k.op
	LOOP
		EXECUTE format('CREATE TRIGGER %I AFTER %s ON %I REFERENCING'
		    ' %s FOR EACH STATEMENT EXECUTE FUNCTION refkit_record()',
		    'refkit_record_' || t.op, upper(t.op), t.tbl, t.tables);
	END LOOP;
	-- Every foreign key DEFERRABLE (still checked at once unless asked):
	-- a changeset's are checked when it is all in, and a rename
	-- (db_rekey) moves a record's key before the rows that name it, as
	-- SQLite allows under PRAGMA defer_foreign_keys.
	FOR t IN SELECT conrelid::regclass AS rel, conname FROM pg_constraint
	    WHERE contype = 'f' AND NOT condeferrable AND connamespace =
	    current_schema()::regnamespace
	LOOP
		EXECUTE format('ALTER TABLE %s ALTER CONSTRAINT %I DEFERRABLE',
		    t.rel, t.conname);
	END LOOP;
END
$$;

-- Every commit that records a change (this station's, or another's
-- applied here) tells the connections that listen for it: a live board
-- (term/watch.c) is drawn again at once rather than when it next polls.
-- One notice a transaction: the server folds those alike.
CREATE OR REPLACE FUNCTION refkit_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('refkit_change', '');
	RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER refkit_notify AFTER INSERT ON change
    FOR EACH STATEMENT EXECUTE FUNCTION refkit_notify();

-- How many references name a record not here, over every foreign key
-- (a NULL in any of its columns names none): what SQLite counts of the
-- foreign keys it defers, asked for when a changeset applied here left
-- some (sync/dbapply.c).
CREATE OR REPLACE FUNCTION refkit_dangling() RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
	f record;
	n bigint;
	total bigint := 0;
BEGIN
	FOR f IN SELECT con.conrelid::regclass AS child,
	    con.confrelid::regclass AS parent,
	    (SELECT string_agg(format('c.%I IS NOT NULL', a.attname), ' AND ')
	    FROM unnest(con.conkey) AS k(c) JOIN pg_attribute a ON
	    a.attrelid = con.conrelid AND a.attnum = k.c) AS given,
	    (SELECT string_agg(format('p.%I = c.%I', pa.attname, ca.attname),
	    ' AND ') FROM unnest(con.conkey, con.confkey) AS k(c, p)
	    JOIN pg_attribute ca ON ca.attrelid = con.conrelid AND
	    ca.attnum = k.c JOIN pg_attribute pa ON pa.attrelid =
	    con.confrelid AND pa.attnum = k.p) AS same
	    FROM pg_constraint con WHERE con.contype = 'f' AND
	    con.connamespace = current_schema()::regnamespace
	LOOP
		EXECUTE format('SELECT count(*) FROM %s c WHERE %s AND NOT EXISTS'
		    ' (SELECT 1 FROM %s p WHERE %s)', f.child, f.given,
		    f.parent, f.same) INTO n;
		total := total + n;
	END LOOP;
	RETURN total;
END
$$;

-- The foreign keys deferred so far checked now (sync/dbapply.c, after
-- each changeset): 0 when every reference names a record here, else
-- how many do not.  A refusal is caught, which undoes no row (the
-- function's own savepoint holds none) and leaves them deferred, so
-- the next check sees them again, as SQLite counts on.
CREATE OR REPLACE FUNCTION refkit_check_keys() RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
	SET CONSTRAINTS ALL IMMEDIATE;
	SET CONSTRAINTS ALL DEFERRED;
	RETURN 0;
EXCEPTION WHEN foreign_key_violation THEN
	RETURN greatest(refkit_dangling(), 1);
END
$$;
