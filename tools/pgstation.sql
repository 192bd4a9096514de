
-- A PostgreSQL database as a station (tools/pgstation.sql, appended by
-- the Makefile after tools/pgcompat.sql); see refkit.db(5), "PostgreSQL".
--
-- On SQLite, the session extension notes every row a write transaction
-- changes, and the transaction stores them as one changeset in change.
-- Here the server notes them itself, in the same transaction: a trigger
-- on each table that travels (refkit_travel) copies the rows each
-- statement changed, as they were before it and as they are after it,
-- into refkit_rowlog, and the transaction's last step (db/pgrecord.c)
-- takes them out again and writes the changeset SQLite would have made.
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
