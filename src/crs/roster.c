/*
 * roster.c - the SQL for characters, items and powers; see roster.h.
 * Every value goes in through a bound parameter.
 */
#include "crs/roster.h"

#include "db/lookup.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The character columns in the order bind_sheet and read_sheet use. */
#define CHAR_COLS \
	"name, player, notes, ene, str, int, cun, agi, con, cha, luc, " \
	"level, given_or, given_dr, given_mind, given_life, given_in, " \
	"given_em, given_lb"
#define CHAR_NCOLS	(3 + P_COUNT + S_COUNT)

/*
 * A rename of a character, an item, a power: its new key and the columns
 * that name it (db_rekey).
 */
#define REKEY_TAKEN(table) \
	"SELECT 1 FROM " table " WHERE id = ?2 AND ?1 IS NOT NULL"
static const char *const char_rekey[] = {
	REKEY_TAKEN("character"),
	"UPDATE holds_item SET character_id = ?2 WHERE character_id = ?1",
	"UPDATE holds_power SET character_id = ?2 WHERE character_id = ?1",
	"UPDATE character SET id = ?2 WHERE id = ?1", NULL
};
static const char *const item_rekey[] = {
	REKEY_TAKEN("item"),
	"UPDATE holds_item SET item_id = ?2 WHERE item_id = ?1",
	"UPDATE item SET id = ?2 WHERE id = ?1", NULL
};
static const char *const power_rekey[] = {
	REKEY_TAKEN("power"),
	"UPDATE holds_power SET power_id = ?2 WHERE power_id = ?1",
	"UPDATE power SET id = ?2 WHERE id = ?1", NULL
};

enum {
	W_INSERT, W_UPSERT, W_UPDATE, W_ITEM_ID, W_POWER_ID, W_HOLD_ITEM,
	W_HOLD_POWER, W_CLEAR_ITEMS, W_CLEAR_POWERS, W_COUNT
};

static const char *const writer_sql[W_COUNT] = {
	[W_INSERT] = "INSERT INTO character (id, " CHAR_COLS ", created,"
	    " updated) VALUES (" DB_NAME_KEY("?1") ", ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
	    " ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?20) RETURNING id",
	[W_UPSERT] = "INSERT INTO character (id, " CHAR_COLS ", created,"
	    " updated) VALUES (" DB_NAME_KEY("?1") ", ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
	    " ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?20)"
	    " ON CONFLICT (name) DO UPDATE SET player = excluded.player,"
	    " notes = excluded.notes, ene = excluded.ene, str = excluded.str,"
	    " int = excluded.int, cun = excluded.cun, agi = excluded.agi,"
	    " con = excluded.con, cha = excluded.cha, luc = excluded.luc,"
	    " level = excluded.level, given_or = excluded.given_or,"
	    " given_dr = excluded.given_dr, given_mind = excluded.given_mind,"
	    " given_life = excluded.given_life, given_in = excluded.given_in,"
	    " given_em = excluded.given_em, given_lb = excluded.given_lb,"
	    " updated = excluded.updated RETURNING id",
	[W_UPDATE] = "UPDATE character SET name = ?1, player = ?2, notes = ?3,"
	    " ene = ?4, str = ?5, int = ?6, cun = ?7, agi = ?8, con = ?9,"
	    " cha = ?10, luc = ?11, level = ?12, given_or = ?13,"
	    " given_dr = ?14, given_mind = ?15, given_life = ?16,"
	    " given_in = ?17, given_em = ?18, given_lb = ?19, updated = ?20"
	    " WHERE id = ?21",
	[W_ITEM_ID] = "SELECT id FROM item WHERE name = ?1",
	[W_POWER_ID] = "SELECT id FROM power WHERE name = ?1",
	[W_HOLD_ITEM] = "INSERT OR IGNORE INTO holds_item VALUES (?1, ?2)",
	[W_HOLD_POWER] = "INSERT OR IGNORE INTO holds_power VALUES (?1, ?2)",
	[W_CLEAR_ITEMS] = "DELETE FROM holds_item WHERE character_id = ?1",
	[W_CLEAR_POWERS] = "DELETE FROM holds_power WHERE character_id = ?1",
};

void
roster_writer_init(struct roster_writer *w, struct db *db)
{
	memset(w, 0, sizeof *w);
	w->db = db;
	w->now = db_now();
	for (int i = 0; i < W_COUNT; i++)
		w->st[i] = db_prepare(db, writer_sql[i]);
}

void
roster_writer_release(struct roster_writer *w)
{
	for (int i = 0; i < W_COUNT; i++)
		db_finalize(w->st[i]);
	memset(w, 0, sizeof *w);
}

static void
bind_text(struct db_stmt *st, int i, const char *s)
{
	if (s == NULL)
		db_bind_null(st, i);
	else
		db_bind_text(st, i, s);
}

static void
bind_stat(struct db_stmt *st, int i, int v)
{
	if (v == STATS_ABSENT)
		db_bind_null(st, i);
	else
		db_bind_int(st, i, v);
}

/* Binds parameters 1 to 19 in CHAR_COLS order, and 20 to now. */
static void
bind_sheet(struct db_stmt *st, const struct sheet *sh, int64_t now)
{
	bind_text(st, 1, sh->name);
	bind_text(st, 2, sh->player);
	bind_text(st, 3, sh->notes);
	for (int p = 0; p < P_COUNT; p++)
		bind_stat(st, 4 + p, sh->primary[p]);
	for (int s = 0; s < S_COUNT; s++)
		bind_stat(st, 4 + P_COUNT + s, sh->given[s]);
	db_bind_int(st, 20, now);
}

/* Reads CHAR_COLS starting at column col into an initialised sheet. */
static void
read_sheet(struct db_stmt *st, int col, struct sheet *sh)
{
	const char *s;

	sh->name = xstrdup(db_column_text(st, col));
	if ((s = db_column_text(st, col + 1)) != NULL)
		sh->player = xstrdup(s);
	if ((s = db_column_text(st, col + 2)) != NULL)
		sh->notes = xstrdup(s);
	for (int i = 0; i < P_COUNT + S_COUNT; i++) {
		struct db_cell c;
		int v;

		/* Each column found once for its type and value. */
		db_column_cell(st, col + 3 + i, &c);
		v = c.type == DB_NULL ? STATS_ABSENT : (int)c.i;

		if (i < P_COUNT)
			sh->primary[i] = v;
		else
			sh->given[i - P_COUNT] = v;
	}
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads a ';'-joined list of names into the sheet's list f, sorted. */
static void
read_list(struct db_stmt *st, int col, struct sheet *sh, int f)
{
	const char *s = db_column_text(st, col);
	char why[128];

	if (s == NULL)
		return;
	/* Names in the database passed item_check_name: this cannot fail. */
	(void)sheet_set_field(sh, f, s, why, sizeof why);
	if (f == SHEET_F_ITEMS)
		qsort(sh->items, sh->nitems, sizeof *sh->items, cmp_names);
	else
		qsort(sh->powers, sh->npowers, sizeof *sh->powers, cmp_names);
}

/* Makes the character's holdings of one kind exactly names[0..n). */
static enum roster_result
write_holdings(struct roster_writer *w, int64_t id, int powers,
    char *const *names, size_t n, int clear, const char **missing)
{
	struct db_stmt *find = w->st[powers ? W_POWER_ID : W_ITEM_ID];
	struct db_stmt *hold = w->st[powers ? W_HOLD_POWER : W_HOLD_ITEM];

	if (clear) {
		struct db_stmt *del = w->st[powers ? W_CLEAR_POWERS :
		    W_CLEAR_ITEMS];

		db_bind_int(del, 1, id);
		db_step(w->db, del, 0);
		db_reset(del);
	}
	for (size_t i = 0; i < n; i++) {
		int64_t thing;

		db_bind_text(find, 1, names[i]);
		if (db_step(w->db, find, 0) != DB_ROW) {
			db_reset(find);
			*missing = names[i];
			return powers ? ROSTER_NO_POWER : ROSTER_NO_ITEM;
		}
		thing = db_column_int(find, 0);
		db_reset(find);
		db_bind_int(hold, 1, id);
		db_bind_int(hold, 2, thing);
		db_step(w->db, hold, 0);
		db_reset(hold);
	}
	return ROSTER_OK;
}

enum roster_result
roster_write(struct roster_writer *w, const struct sheet *sh,
    enum roster_mode mode, int64_t id, int holdings, const char **missing)
{
	struct db_stmt *st = w->st[mode == ROSTER_INSERT ? W_INSERT :
	    mode == ROSTER_UPSERT ? W_UPSERT : W_UPDATE];
	enum roster_result r;
	int rc;

	bind_sheet(st, sh, w->now);
	if (mode == ROSTER_UPDATE)
		db_bind_int(st, 21, id);
	rc = db_step(w->db, st, 1);
	if (rc == DB_CONSTRAINT)
		/* The CHECKs mirror sheet.c, so only the name can clash. */
		return ROSTER_EXISTS;
	if (mode != ROSTER_UPDATE)
		id = db_column_int(st, 0);
	db_reset(st);
	/* A new name is a new key (db.h), its holdings with it. */
	if (mode == ROSTER_UPDATE && db_rekey(w->db, char_rekey, id,
	    db_name_key(sh->name)) != 0)
		return ROSTER_EXISTS;
	if (mode == ROSTER_UPDATE)
		id = db_name_key(sh->name);
	w->last_id = id;
	if (!holdings)
		return ROSTER_OK;
	r = write_holdings(w, id, 0, sh->items, sh->nitems,
	    mode != ROSTER_INSERT, missing);
	if (r == ROSTER_OK)
		r = write_holdings(w, id, 1, sh->powers, sh->npowers,
		    mode != ROSTER_INSERT, missing);
	return r;
}

/*
 * The bulk import.  Staged rows live in a private database attached as
 * "import" (ATTACH ''): a file of its own that SQLite deletes when it is
 * detached, filled through a small page cache, so memory does not grow
 * with the file; writing it takes no lock on the main database file, and
 * detaching discards it whole, where dropping its tables would free it
 * page by page.  Nothing ever needs to be rolled back in it, only thrown
 * away, so it keeps no journal.  Staging reads the roster in read
 * transactions of IMPORT_BATCH rows: a WAL reader never blocks a writer,
 * and ending the read now and then lets checkpoints go on.
 *
 * import_row is made by main.character's own CREATE TABLE, so that a
 * staged row is already the character's row but for its id, which is
 * key0 plus its place in the file (1, 2, ...), and its names are unique
 * by an index of its own as the roster's are (import_row_name).  Before
 * the commit, the rows are copied in the order of their names' keys
 * (db_name_key) into import_by_key; the commit writes them a chunk of
 * rows at a time, storing the
 * record of the changes after each (db_changes_flush), so that neither
 * the record nor the write holds the whole file at once.  What is not
 * a character's column is kept beside, only for the rows that need it, so
 * that most rows cost one insert: import_meta has the rows whose names
 * were taken when they were staged (kept, that character's id) or that
 * set holdings; import_place has the rows' places in the file, a row for
 * each run of places that count up by one ("line 2", "line 3", ...), so
 * one row for most files.
 *
 * The commit updates kept characters by id, which is cheaper under the
 * lock than an upsert by name, and checks that the ids still hold; rows
 * whose ids no longer hold go through the upsert by name.
 */
#define IMPORT_BATCH	4096

/* The staged rows a chunked write takes at a time. */
#define COMMIT_CHUNK	8192

/*
 * row is the staged row's id; pos is a holding's list order.  The place
 * of row n is that of the import_place run with the highest id up to n:
 * head, followed by num + n - id unless num is NULL.
 */
static const char import_tables_sql[] =
	"CREATE UNIQUE INDEX import.import_row_name ON import_row(name);"
	"CREATE TABLE import.import_meta ("
	" id INTEGER PRIMARY KEY, kept INTEGER, holdings INTEGER NOT NULL"
	") STRICT;"
	"CREATE TABLE import.import_place ("
	" id INTEGER PRIMARY KEY, head TEXT NOT NULL, num INTEGER"
	") STRICT;"
	"CREATE TABLE import.import_hold ("
	" row INTEGER NOT NULL, power INTEGER NOT NULL, pos INTEGER NOT NULL,"
	" name TEXT NOT NULL, PRIMARY KEY (row, power, pos)"
	") STRICT, WITHOUT ROWID;";

enum {
	I_META, I_PLACE, I_HOLD, I_ANY_CHAR, I_CHAR_ID, I_STAGED, I_HAS_ITEM,
	I_HAS_POWER, I_COUNT
};

_Static_assert(I_COUNT == sizeof ((struct roster_import *)0)->st /
    sizeof (struct db_stmt *), "roster_import's st[] has one per I_*");

/*
 * Staged rows go into import_row by a bulk load (db_bulk_begin), many
 * rows to a statement.  So that a name twice in the file is still
 * refused at its own row, before any later one is read, names are
 * checked as they come: against a blocked Bloom filter of every name
 * staged (seen, of SEEN_BITS bits, so that memory stays flat), and only
 * when it may hold the name, against import_row's index.
 */
#define SEEN_BITS	((size_t)1 << 25)

/*
 * While names come in ascending order (an export's are), each is new if
 * it sorts after the last: the filter is left alone.  From the first that
 * does not, every name goes into the filter, and those staged before are
 * all up to top.
 */
struct import_names {
	int		 unsorted;
	char		 top[SHEET_NAME_MAX + 1];
};

/* What import_staged says of a name. */
enum { STAGED_NO, STAGED_YES, STAGED_MAYBE };

static const char *const import_sql[I_COUNT] = {
	[I_META] = "INSERT INTO import.import_meta VALUES (?1, ?2, ?3)",
	[I_PLACE] = "INSERT INTO import.import_place VALUES (?1, ?2, ?3)",
	[I_HOLD] = "INSERT INTO import.import_hold VALUES (?1, ?2, ?3, ?4)",
	[I_ANY_CHAR] = "SELECT EXISTS (SELECT 1 FROM main.character)",
	[I_CHAR_ID] = "SELECT id FROM main.character WHERE name = ?1",
	[I_STAGED] = "SELECT 1 FROM import.import_row WHERE name = ?1",
	[I_HAS_ITEM] = "SELECT 1 FROM main.item WHERE name = ?1",
	[I_HAS_POWER] = "SELECT 1 FROM main.power WHERE name = ?1",
};

/*
 * The first staged row that can no longer be written, as staging would
 * have judged it: its id, what is wrong (0 its name is taken, looked at
 * when ?1 is set; 1 an item, 2 a power that does not exist), the name and
 * the row's place.
 */
static const char import_fault_sql[] =
	"SELECT f.row, f.kind, f.name, (SELECT p.head ||"
	" coalesce(p.num + f.row - p.id, '') FROM import.import_place p"
	" WHERE p.id <= f.row ORDER BY p.id DESC LIMIT 1) FROM ("
	" SELECT r.id AS row, 0 AS kind, 0 AS pos, r.name AS name"
	"  FROM import.import_row r WHERE ?1 AND EXISTS"
	"  (SELECT 1 FROM main.character c WHERE c.name = r.name)"
	" UNION ALL"
	" SELECT h.row, 1 + h.power, h.pos, h.name FROM import.import_hold h"
	"  WHERE CASE h.power"
	"  WHEN 0 THEN NOT EXISTS (SELECT 1 FROM main.item i"
	"   WHERE i.name = h.name)"
	"  ELSE NOT EXISTS (SELECT 1 FROM main.power p"
	"   WHERE p.name = h.name) END"
	") AS f ORDER BY f.row, f.kind, f.pos LIMIT 1";

/*
 * The staged rows in the order of their keys, copied out of import_row
 * before the commit takes the write lock: key (the row's id in
 * character), then row (its id in import_row), then CHAR_COLS, created
 * and updated.  Written in that order, the rows go to the end of
 * character one after the other, where the order of the file would
 * scatter them over the whole table; and read in that order from a table
 * of their own, they come one page after another, where an index of
 * import_row by key would fetch each from a page of its own.
 */
static const char import_by_key_sql[] =
	"CREATE TABLE import.import_by_key (key INTEGER PRIMARY KEY,"
	" row INTEGER NOT NULL, " CHAR_COLS ", created, updated);"
	"INSERT INTO import.import_by_key SELECT " DB_NAME_KEY("name") ", id,"
	" " CHAR_COLS ", created, updated FROM import.import_row ORDER BY 1";

/*
 * The staged rows whose names staging found in the roster, in the order
 * of the ids they had there (kept), copied out before the lock for the
 * same reason: the update by id then writes character from one end to
 * the other, a page at a time.
 */
static const char import_by_kept_sql[] =
	"CREATE TABLE import.import_by_kept (kept INTEGER PRIMARY KEY,"
	" row INTEGER NOT NULL, " CHAR_COLS ");"
	"INSERT INTO import.import_by_kept SELECT m.kept, r.id, " CHAR_COLS
	" FROM import.import_meta m JOIN import.import_row r ON r.id = m.id"
	" WHERE m.kept NOT NULL ORDER BY 1";

/* Staged rows into character, keyed by name; ?1 is the time. */
#define IMPORT_INSERT \
	"INSERT INTO main.character (id, " CHAR_COLS ", created, updated)" \
	" SELECT r.key, " CHAR_COLS ", ?1, ?1" \
	" FROM import.import_by_key r"

/* The upsert roster_write makes, with the id kept. */
#define IMPORT_ON_CONFLICT \
	" ON CONFLICT (name) DO UPDATE SET player = excluded.player," \
	" notes = excluded.notes, ene = excluded.ene, str = excluded.str," \
	" int = excluded.int, cun = excluded.cun, agi = excluded.agi," \
	" con = excluded.con, cha = excluded.cha, luc = excluded.luc," \
	" level = excluded.level, given_or = excluded.given_or," \
	" given_dr = excluded.given_dr, given_mind = excluded.given_mind," \
	" given_life = excluded.given_life, given_in = excluded.given_in," \
	" given_em = excluded.given_em, given_lb = excluded.given_lb," \
	" updated = excluded.updated"

enum {
	C_COPY, C_INSERT, C_UPDATE_KEPT, C_UPSERT_NEW, C_UPSERT_REST,
	C_CLEAR_BY_ROW, C_CLEAR_BY_HOLDING, C_HOLD, C_COUNT
};

/* A chunk of staged rows by their keys, ?5 to ?6 (import_by_key). */
#define KEY_CHUNK	"r.key BETWEEN ?5 AND ?6"
/* ... or by the ids staging found (import_by_kept). */
#define KEPT_CHUNK	"r.kept BETWEEN ?5 AND ?6"

/*
 * The commit's writes, items first and powers second where there are
 * two.  ?1 is the time.  Those with ?3 and ?4 write the staged rows with ids from ?3
 * to ?4 only, and run a chunk of rows at a time (import_write), so that
 * the record of the changes (db_changes_flush) never holds them all.
 */
static const char *const import_commit_sql[C_COUNT][2] = {
	/* Into an empty roster: the staged rows as they are. */
	[C_COPY] = { "INSERT INTO main.character (id, " CHAR_COLS ", created,"
	    " updated) SELECT r.key, " CHAR_COLS ", created, updated"
	    " FROM import.import_by_key r WHERE " KEY_CHUNK },
	[C_INSERT] = { IMPORT_INSERT " WHERE " KEY_CHUNK },
	/* Rows whose staged id still has their name. */
	[C_UPDATE_KEPT] = { "UPDATE main.character AS c SET"
	    " (player, notes, ene, str, int, cun, agi, con, cha, luc, level,"
	    " given_or, given_dr, given_mind, given_life, given_in, given_em,"
	    " given_lb, updated) = (SELECT r.player, r.notes, r.ene, r.str,"
	    " r.int, r.cun, r.agi, r.con, r.cha, r.luc, r.level, r.given_or,"
	    " r.given_dr, r.given_mind, r.given_life, r.given_in, r.given_em,"
	    " r.given_lb, ?1 FROM import.import_by_kept r WHERE r.kept = c.id)"
	    " WHERE c.id IN (SELECT r.kept FROM import.import_by_kept r"
	    " WHERE " KEPT_CHUNK ") AND c.name = (SELECT r.name"
	    " FROM import.import_by_kept r WHERE r.kept = c.id)" },
	/* When every staged id held: the rows whose names were free. */
	[C_UPSERT_NEW] = { IMPORT_INSERT " WHERE " KEY_CHUNK
	    " AND NOT EXISTS (SELECT 1 FROM"
	    " import.import_meta m WHERE m.id = r.row AND m.kept NOT NULL)"
	    IMPORT_ON_CONFLICT },
	/* When some did not: every row C_UPDATE_KEPT did not write. */
	[C_UPSERT_REST] = { IMPORT_INSERT " LEFT JOIN import.import_meta m"
	    " ON m.id = r.row WHERE " KEY_CHUNK " AND NOT EXISTS"
	    " (SELECT 1 FROM main.character c WHERE c.id = m.kept"
	    " AND c.name = r.name)" IMPORT_ON_CONFLICT },
	/*
	 * The holdings of the characters whose rows set holdings (a new
	 * one has none yet), found from the rows or from the holdings,
	 * whichever are fewer.
	 */
	[C_CLEAR_BY_ROW] = {
	    "DELETE FROM main.holds_item WHERE character_id IN"
	    " (SELECT c.id FROM import.import_meta m JOIN import.import_row r"
	    " ON r.id = m.id JOIN main.character c ON c.name = r.name"
	    " WHERE m.holdings)",
	    "DELETE FROM main.holds_power WHERE character_id IN"
	    " (SELECT c.id FROM import.import_meta m JOIN import.import_row r"
	    " ON r.id = m.id JOIN main.character c ON c.name = r.name"
	    " WHERE m.holdings)" },
	[C_CLEAR_BY_HOLDING] = {
	    "DELETE FROM main.holds_item WHERE EXISTS"
	    " (SELECT 1 FROM main.character c JOIN import.import_row r"
	    " ON r.name = c.name JOIN import.import_meta m ON m.id = r.id"
	    " WHERE c.id = holds_item.character_id AND m.holdings)",
	    "DELETE FROM main.holds_power WHERE EXISTS"
	    " (SELECT 1 FROM main.character c JOIN import.import_row r"
	    " ON r.name = c.name JOIN import.import_meta m ON m.id = r.id"
	    " WHERE c.id = holds_power.character_id AND m.holdings)" },
	[C_HOLD] = {
	    "INSERT INTO main.holds_item (character_id, item_id)"
	    " SELECT c.id, i.id FROM import.import_hold h"
	    " JOIN import.import_row r ON r.id = h.row"
	    " JOIN main.character c ON c.name = r.name"
	    " JOIN main.item i ON i.name = h.name WHERE h.power = 0"
	    " AND h.row BETWEEN ?3 AND ?4",
	    "INSERT INTO main.holds_power (character_id, power_id)"
	    " SELECT c.id, p.id FROM import.import_hold h"
	    " JOIN import.import_row r ON r.id = h.row"
	    " JOIN main.character c ON c.name = r.name"
	    " JOIN main.power p ON p.name = h.name WHERE h.power = 1"
	    " AND h.row BETWEEN ?3 AND ?4" },
};

/*
 * On a server (db_bulk_exclusive), the staged rows go by COPY into
 * temporary tables of the connection's own, and nothing is looked up
 * while they go: the checks that staging makes on SQLite a row at a time,
 * each a round trip to a server there, are made at the commit instead,
 * for every row at once (import_fault), and find the same first row at
 * fault.  The commit's writes are then COPYs straight into character
 * (import_direct) or INSERT ... SELECTs, each of a chunk of rows
 * (COMMIT_CHUNK) whose changes are recorded before the next, as on
 * SQLite, so that the record never holds the whole file.
 *
 * import_stage has each row's key (computed here), the character's
 * columns and times, which make the character's row as it is to be
 * written, and its number in the file (seq, from 1).  Its rows reach it
 * sorted by key (db_bulk_begin's keycol), which is the order the INSERT
 * reads them in: character's primary key is then written from left to
 * right, in half the time the file's order takes.  When nothing can be
 * refused (import_direct), they do not go there at all, but straight
 * into character (db_bulk_insert).  import_extra has, only for
 * the rows that need it, what SQLite keeps in import_meta, import_place
 * and import_hold: whether the row sets holdings, and the names of its
 * items and powers joined by ';' (which no such name holds); the start
 * of a run of places (head and num, NULL within a run); and whether its
 * name may be staged twice (suspect: the Bloom filter held it), so that
 * only those rows are looked for among the others.  Most rows have none
 * of it, and COPY then has six fields a row fewer to read.
 */
#define STAGE_COLS	"key, " CHAR_COLS ", created, updated, seq"
#define STAGE_NCOLS	(4 + CHAR_NCOLS)
#define EXTRA_COLS \
	"seq, name, holdings, suspect, items, powers, head, num"
#define EXTRA_NCOLS	8

static const char import_stage_sql[] =
	"CREATE TEMP TABLE import_stage ("
	" key BIGINT NOT NULL, name TEXT NOT NULL, player TEXT, notes TEXT,"
	" ene INTEGER, str INTEGER, int INTEGER, cun INTEGER, agi INTEGER,"
	" con INTEGER, cha INTEGER, luc INTEGER, level INTEGER,"
	" given_or INTEGER, given_dr INTEGER, given_mind INTEGER,"
	" given_life INTEGER, given_in INTEGER, given_em INTEGER,"
	" given_lb INTEGER, created BIGINT NOT NULL, updated BIGINT NOT NULL,"
	" seq BIGINT NOT NULL);"
	"CREATE TEMP TABLE import_extra (seq BIGINT NOT NULL,"
	" name TEXT NOT NULL, holdings BOOLEAN NOT NULL,"
	" suspect BOOLEAN NOT NULL, items TEXT, powers TEXT, head TEXT,"
	" num BIGINT)";

/*
 * import_fault_sql on a server: ?1 set looks for names in the roster, ?2
 * for names twice in the file, ?3 for holdings that do not exist.
 */
static const char import_stage_fault_sql[] =
	"SELECT f.seq, f.kind, f.name, (SELECT p.head ||"
	" coalesce((p.num + f.seq - p.seq)::text, '') FROM import_extra p"
	" WHERE p.seq <= f.seq AND p.head IS NOT NULL"
	" ORDER BY p.seq DESC LIMIT 1) FROM ("
	" SELECT r.seq, 0 AS kind, 0 AS pos, r.name FROM import_stage r"
	"  WHERE ?1 = 1 AND EXISTS"
	"  (SELECT 1 FROM character c WHERE c.name = r.name)"
	" UNION ALL"
	" SELECT x.seq, 0, 0, x.name FROM import_extra x"
	"  JOIN import_stage r ON r.name = x.name AND r.seq < x.seq"
	"  WHERE ?2 = 1 AND x.suspect"
	" UNION ALL"
	" SELECT x.seq, 1, h.pos, h.name FROM import_extra x,"
	"  unnest(string_to_array(x.items, ';')) WITH ORDINALITY"
	"  AS h(name, pos) WHERE ?3 = 1 AND NOT EXISTS"
	"  (SELECT 1 FROM item i WHERE i.name = h.name)"
	" UNION ALL"
	" SELECT x.seq, 2, h.pos, h.name FROM import_extra x,"
	"  unnest(string_to_array(x.powers, ';')) WITH ORDINALITY"
	"  AS h(name, pos) WHERE ?3 = 1 AND NOT EXISTS"
	"  (SELECT 1 FROM power p WHERE p.name = h.name)"
	") AS f ORDER BY f.seq, f.kind, f.pos LIMIT 1";

/*
 * A chunk of the staged rows into character, keyed by name: those whose
 * keys are ?5 to ?6.  ?1 is the time.
 */
#define STAGE_INSERT \
	"INSERT INTO character (id, " CHAR_COLS ", created, updated)" \
	" SELECT r.key, " CHAR_COLS ", ?1, ?1 FROM import_stage r" \
	" WHERE r.key BETWEEN ?5 AND ?6"

/*
 * The commit's writes on a server, indexed as import_commit_sql: the
 * upsert, then the holdings of the rows that set them, cleared and then
 * written (those of staged rows ?3 to ?4).  The plain insert is
 * stage_insert's.
 */
#define STAGE_CLEAR(table) \
	"DELETE FROM holds_" table " WHERE character_id IN" \
	" (SELECT c.id FROM import_extra x JOIN character c" \
	" ON c.name = x.name WHERE x.holdings)"
#define STAGE_HOLD(table, list) \
	"INSERT INTO holds_" table " (character_id, " table "_id)" \
	" SELECT c.id, t.id FROM (SELECT x.name," \
	" unnest(string_to_array(x." list ", ';')) AS held" \
	" FROM import_extra x WHERE x.seq BETWEEN ?3 AND ?4) AS h" \
	" JOIN character c ON c.name = h.name" \
	" JOIN " table " t ON t.name = h.held"

static const char *const import_stage_commit_sql[C_COUNT][2] = {
	[C_UPSERT_REST] = { STAGE_INSERT IMPORT_ON_CONFLICT },
	[C_CLEAR_BY_ROW] = { STAGE_CLEAR("item"), STAGE_CLEAR("power") },
	[C_HOLD] = { STAGE_HOLD("item", "items"),
	    STAGE_HOLD("power", "powers") },
};

static void
import_exec(struct db *db, const char *sql)
{
	db_exec(db, sql, "cannot stage the import");
}

/*
 * Runs sql with ?1 to ?6, those it has, bound to v[0] to v[5].  Returns
 * the first column of its first row (or -1 with none), or for a write
 * the rows it changed.  A constraint that refuses the write sets
 * *refused and returns 0 when refused is not NULL; it is fatal else.
 */
static int64_t
import_run_sqlv_or(struct db *db, const char *sql, const int64_t v6[6],
    int *refused)
{
	struct db_stmt *st = db_prepare(db, sql);
	int64_t v = 0;
	int rc;

	for (int i = 0; i < 6 && i < db_bind_count(st); i++)
		db_bind_int(st, i + 1, v6[i]);
	if ((rc = db_step(db, st, refused != NULL)) == DB_ROW)
		v = db_column_int(st, 0);
	else if (rc == DB_CONSTRAINT && refused != NULL)
		*refused = 1;
	else
		v = db_changes(db);
	db_finalize(st);
	return v;
}

static int64_t
import_run_sqlv(struct db *db, const char *sql, const int64_t v6[6])
{
	return import_run_sqlv_or(db, sql, v6, NULL);
}

static int64_t
import_run_sql(struct db *db, const char *sql, int64_t arg)
{
	const int64_t v6[6] = { arg, 0, 0, 0, 0, 0 };

	return import_run_sqlv(db, sql, v6);
}

/*
 * Creates import.as by main.table's CREATE TABLE as the database holds
 * it, so that the two tables cannot differ.  The statement is put
 * together from that text, which is refkit's own schema, and no user's.
 */
static void
import_create_like(struct db *db, const char *table, const char *as)
{
	struct db_stmt *st = db_prepare(db, "SELECT sql FROM main.sqlite_schema"
	    " WHERE type = 'table' AND name = ?1");
	const char *sql, *cols;
	char *create;

	db_bind_text(st, 1, table);
	if (db_step(db, st, 0) != DB_ROW ||
	    (sql = db_column_text(st, 0)) == NULL ||
	    (cols = strchr(sql, '(')) == NULL)
		db_die(db, "'%s': damaged refkit database (no %s table)",
		    util_q(db->path), table);
	create = xasprintf("CREATE TABLE import.%s %s", as, cols);
	db_finalize(st);
	import_exec(db, create);
	free(create);
}

/*
 * Begins a read transaction, whose snapshot of the roster is taken at
 * once: while the roster it sees is empty, no name needs looking up.
 */
static void
import_begin_read(struct roster_import *im)
{
	struct db_stmt *any = im->st[I_ANY_CHAR];

	db_begin_read(im->db);
	im->roster_empty = db_step(im->db, any, 0) == DB_ROW &&
	    db_column_int(any, 0) == 0;
	db_reset(any);
	/* Before the first row is read: what is written after it. */
	if (im->mark < 0)
		im->mark = db_changes_mark(im->db);
}

/* The columns of import_row that staging loads. */
#define ROW_COLS	"id, " CHAR_COLS ", created, updated"
#define ROW_NCOLS	(1 + CHAR_NCOLS + 2)

/* Loads CHAR_COLS of sh into the bulk load b. */
static void
bulk_sheet(struct db_bulk *b, const struct sheet *sh)
{
	db_bulk_text(b, sh->name);
	db_bulk_text(b, sh->player);
	db_bulk_text(b, sh->notes);
	for (int p = 0; p < P_COUNT; p++)
		if (sh->primary[p] == STATS_ABSENT)
			db_bulk_null(b);
		else
			db_bulk_int(b, sh->primary[p]);
	for (int g = 0; g < S_COUNT; g++)
		if (sh->given[g] == STATS_ABSENT)
			db_bulk_null(b);
		else
			db_bulk_int(b, sh->given[g]);
}

void
roster_import_init(struct roster_import *im, struct db *db, int replace)
{
	memset(im, 0, sizeof *im);
	im->db = db;
	im->replace = replace;
	im->now = db_now();
	im->fault_row = -1;
	im->names = xcalloc(1, sizeof *im->names);
	im->seen = xcalloc(SEEN_BITS / 8, 1);
	im->later = db_bulk_exclusive(db);
	/* A server's staged rows are numbered from 1: key0 is 0. */
	if (im->later) {
		import_exec(db, import_stage_sql);
		im->stage_table = 1;
		/* Both sorted: each is sent whole at its end. */
		im->bulk = db_bulk_begin(db, "import_stage", STAGE_COLS,
		    STAGE_NCOLS, 0);
		im->extra = db_bulk_begin(db, "import_extra", EXTRA_COLS,
		    EXTRA_NCOLS, 0);
		return;
	}
	im->key0 = db_key_base(db);
	im->mark = -1;
	import_exec(db, "ATTACH DATABASE '' AS import");
	import_exec(db, "PRAGMA import.journal_mode = OFF");
	/*
	 * The sorts of a large import (import_by_key_sql, the index of
	 * names built again) take a second core when there is one: a
	 * quarter less time, for a few MB more.
	 */
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		import_exec(db, "PRAGMA threads = 1");
	import_create_like(db, "character", "import_row");
	import_exec(db, import_tables_sql);
	for (int i = 0; i < I_COUNT; i++)
		im->st[i] = db_prepare(db, import_sql[i]);
	im->bulk = db_bulk_begin(db, "import.import_row", ROW_COLS,
	    ROW_NCOLS, -1);
	import_begin_read(im);
}

void
roster_import_release(struct roster_import *im)
{
	if (im->db == NULL)
		return;
	/* A load still open is thrown away before anything else runs. */
	db_bulk_free(im->bulk);
	db_bulk_free(im->extra);
	db_rollback(im->db);
	for (int i = 0; i < I_COUNT; i++)
		db_finalize(im->st[i]);
	db_rehearsal_free(im->rehearsal);
	/* Detaching discards the staging file whole, page by page freeing
	 * nothing, as dropping its tables would. */
	if (!im->later)
		import_exec(im->db, "DETACH DATABASE import");
	else if (im->stage_table)
		import_exec(im->db, "DROP TABLE import_stage, import_extra");
	free(im->names);
	free(im->seen);
	free(im->fault_name);
	free(im->fault_where);
	free(im->run_head);
	memset(im, 0, sizeof *im);
}

/* 1 if the look-up st finds name. */
static int
import_has(struct db *db, struct db_stmt *st, const char *name)
{
	int found;

	db_bind_text(st, 1, name);
	found = db_step(db, st, 0) == DB_ROW;
	db_reset(st);
	return found;
}

/*
 * Adds name to the filter of names staged.  Returns 0 when it cannot have
 * been there, 1 when it may have (its bits were all set already).
 */
static int
import_seen(unsigned char *seen, const char *name)
{
	uint64_t h = 14695981039346656037ULL;	/* FNV-1a, */
	int all = 1;

	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		h = (h ^ *s) * 1099511628211ULL;
	/* then MurmurHash3's finalizer, so that every bit counts. */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	/*
	 * The three bits lie in one block of 512 (a cache line), chosen by
	 * the low bits: one cache miss a name, not three, which a profile
	 * showed as a tenth of the import's time.
	 */
	seen += (size_t)(h & (SEEN_BITS / 512 - 1)) * 64;
	for (int i = 0; i < 3; i++) {
		unsigned bit = (unsigned)(h >> (32 + 9 * i)) & 511;
		unsigned char mask = (unsigned char)(1u << (bit & 7));

		if (!(seen[bit >> 3] & mask)) {
			all = 0;
			seen[bit >> 3] |= mask;
		}
	}
	return all;
}

/* 1 while names come in ascending order, name then being the last. */
static int
import_ascending(struct import_names *p, const char *name)
{
	size_t len;

	if (p->unsorted)
		return 0;
	len = strlen(name);
	if (len < sizeof p->top && strcmp(name, p->top) > 0) {
		memcpy(p->top, name, len + 1);
		return 1;
	}
	p->unsorted = 1;
	return 0;
}

/* Whether a row with this name is staged already (STAGED_*). */
static int
import_staged(struct roster_import *im, const char *name)
{
	struct import_names *p = im->names;
	int maybe;

	if (im->later) {
		/*
		 * Nothing can be looked up while the rows load: every name
		 * goes into the filter, so that only those it may hold are
		 * looked for among the others, at the commit.
		 */
		maybe = import_seen(im->seen, name);
		return import_ascending(p, name) || !maybe ? STAGED_NO :
		    STAGED_MAYBE;
	}
	if (import_ascending(p, name))
		return STAGED_NO;
	if (!import_seen(im->seen, name) && strcmp(name, p->top) > 0)
		return STAGED_NO;
	/* The rows held are looked at with the others. */
	db_bulk_flush(im->bulk);
	return import_has(im->db, im->st[I_STAGED], name) ? STAGED_YES :
	    STAGED_NO;
}

/* Stages one kind of a row's holdings, refusing a name that is unknown. */
static enum roster_result
stage_holdings(struct roster_import *im, int64_t row, int powers,
    char *const *names, size_t n, const char **missing)
{
	struct db_stmt *has = im->st[powers ? I_HAS_POWER : I_HAS_ITEM];
	struct db_stmt *hold = im->st[I_HOLD];

	for (size_t i = 0; i < n; i++) {
		if (!import_has(im->db, has, names[i])) {
			*missing = names[i];
			return powers ? ROSTER_NO_POWER : ROSTER_NO_ITEM;
		}
		db_bind_int(hold, 1, row);
		db_bind_int(hold, 2, powers);
		db_bind_int(hold, 3, (int64_t)i);
		db_bind_text(hold, 4, names[i]);
		db_step(im->db, hold, 0);
		db_reset(hold);
		im->nholds++;
	}
	return ROSTER_OK;
}

/*
 * Takes where as the place of the next row.  Returns 0 when it is in the
 * run of the row before, counting on from it; else 1, where starting a
 * run of its own: run_head is then its head and *num the number after
 * it, or -1.  A number with a leading zero, or too long, is kept as part
 * of the head.
 */
static int
place_run(struct roster_import *im, const char *where, long *num)
{
	size_t len = strlen(where), head = len;

	*num = -1;
	while (head > 0 && where[head - 1] >= '0' && where[head - 1] <= '9')
		head--;
	if (head < len && len - head <= 15 &&
	    (where[head] != '0' || len - head == 1)) {
		*num = 0;
		for (size_t i = head; i < len; i++)
			*num = 10 * *num + (where[i] - '0');
	} else
		head = len;
	if (*num >= 0 && im->run_head != NULL && *num == im->run_next &&
	    strlen(im->run_head) == head &&
	    memcmp(im->run_head, where, head) == 0) {
		im->run_next++;
		return 0;
	}
	free(im->run_head);
	im->run_head = xstrndup(where, head);
	im->run_next = *num >= 0 ? *num + 1 : -1;
	return 1;
}

/* Keeps where as the place of row seq (import_place). */
static void
stage_place(struct roster_import *im, int64_t seq, const char *where)
{
	struct db_stmt *st = im->st[I_PLACE];
	long num;

	if (!place_run(im, where, &num))
		return;
	db_bind_int(st, 1, seq);
	db_bind_text(st, 2, im->run_head);
	if (num >= 0)
		db_bind_int(st, 3, num);
	else
		db_bind_null(st, 3);
	db_step(im->db, st, 0);
	db_reset(st);
}

/* Loads names[0..n) joined by ';', which no such name holds; NULL for none. */
static void
bulk_names(struct db_bulk *b, char *const *names, size_t n)
{
	size_t len = 0;
	char *joined;

	if (n == 0) {
		db_bulk_null(b);
		return;
	}
	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + 1;
	joined = xmalloc(len);
	len = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(names[i]);

		memcpy(joined + len, names[i], k);
		len += k;
		joined[len++] = i + 1 < n ? ';' : '\0';
	}
	db_bulk_text(b, joined);
	free(joined);
}

/* Stages sh on a server: a row of import_stage, and of import_extra. */
static void
stage_later(struct roster_import *im, const struct sheet *sh, int holdings,
    const char *where)
{
	struct db_bulk *x = im->extra;
	int64_t seq = im->nrows + 1;
	int suspect = import_staged(im, sh->name) == STAGED_MAYBE;
	int run;
	long num;

	db_bulk_int(im->bulk, db_name_key(sh->name));
	bulk_sheet(im->bulk, sh);
	db_bulk_int(im->bulk, im->now);
	db_bulk_int(im->bulk, im->now);
	db_bulk_int(im->bulk, seq);
	run = place_run(im, where, &num);
	if (holdings || suspect || run) {
		im->nextra++;
		db_bulk_int(x, seq);
		db_bulk_text(x, sh->name);
		db_bulk_int(x, holdings != 0);
		db_bulk_int(x, suspect);
		bulk_names(x, holdings ? sh->items : NULL,
		    holdings ? sh->nitems : 0);
		bulk_names(x, holdings ? sh->powers : NULL,
		    holdings ? sh->npowers : 0);
		db_bulk_text(x, run ? im->run_head : NULL);
		if (run && num >= 0)
			db_bulk_int(x, num);
		else
			db_bulk_null(x);
	}
	im->nsuspect += suspect;
	if (holdings) {
		im->nflagged++;
		im->nholds += (long)(sh->nitems + sh->npowers);
	}
	im->nrows++;
}

enum roster_result
roster_import_stage(struct roster_import *im, const struct sheet *sh,
    int holdings, const char *where, const char **missing)
{
	struct db_stmt *meta = im->st[I_META];
	struct db_stmt *find = im->st[I_CHAR_ID];
	int64_t id = 0, seq = im->key0 + im->nrows + 1;
	enum roster_result r;

	if (im->later) {
		stage_later(im, sh, holdings, where);
		return ROSTER_OK;
	}
	/* The checks run in the order roster_write made them. */
	if (!im->roster_empty) {
		db_bind_text(find, 1, sh->name);
		if (db_step(im->db, find, 0) == DB_ROW)
			id = db_column_int(find, 0);
		db_reset(find);
	}
	if (id != 0 && !im->replace)
		return ROSTER_EXISTS;
	if (import_staged(im, sh->name) == STAGED_YES)
		return im->replace ? ROSTER_TWICE : ROSTER_EXISTS;
	db_bulk_int(im->bulk, seq);
	bulk_sheet(im->bulk, sh);
	db_bulk_int(im->bulk, im->now);
	db_bulk_int(im->bulk, im->now);
	stage_place(im, seq, where);
	if (id != 0 || holdings) {
		db_bind_int(meta, 1, seq);
		if (id != 0)
			db_bind_int(meta, 2, id);
		else
			db_bind_null(meta, 2);
		db_bind_int(meta, 3, holdings != 0);
		db_step(im->db, meta, 0);
		db_reset(meta);
	}
	if (holdings) {
		r = stage_holdings(im, seq, 0, sh->items, sh->nitems, missing);
		if (r == ROSTER_OK)
			r = stage_holdings(im, seq, 1, sh->powers, sh->npowers,
			    missing);
		if (r != ROSTER_OK)
			return r;
		im->nflagged++;
	}
	if (id != 0)
		im->nkept++;
	if (++im->nrows % IMPORT_BATCH == 0) {
		db_bulk_flush(im->bulk);
		db_commit(im->db);
		import_begin_read(im);
	}
	return ROSTER_OK;
}

/*
 * Looks for the first staged row that can no longer be written (names
 * too when names is set).  If there is one, rolls back, records it and
 * returns what is wrong; else ROSTER_OK.  On a server, every check is
 * made here: a name twice in the file too, and every holding.
 */
static enum roster_result
import_fault(struct roster_import *im, int names)
{
	static const enum roster_result kinds[] = {
		ROSTER_EXISTS, ROSTER_NO_ITEM, ROSTER_NO_POWER
	};
	struct db_stmt *st = db_prepare(im->db, im->later ?
	    import_stage_fault_sql : import_fault_sql);
	enum roster_result r = ROSTER_OK;

	db_bind_int(st, 1, names);
	if (im->later) {
		db_bind_int(st, 2, im->nsuspect > 0);
		db_bind_int(st, 3, im->nholds > 0);
	}
	if (db_step(im->db, st, 0) == DB_ROW) {
		/* Staged rows are key0 + 1, 2 ..., fault_row from 0. */
		im->fault_row = (long)(db_column_int(st, 0) - im->key0 -
		    1);
		r = kinds[db_column_int(st, 1)];
		/* A name is refused as staging refuses it. */
		if (r == ROSTER_EXISTS && im->replace)
			r = ROSTER_TWICE;
		im->fault_name = db_column_dup(st, 2);
		im->fault_where = db_column_dup(st, 3);
	}
	db_finalize(st);
	if (r != ROSTER_OK)
		db_rollback(im->db);
	return r;
}

/*
 * The server's staged rows of import_stage sent, in one COPY, and
 * indexed for the commit's chunks (COMMIT_CHUNK) when there are more
 * than one; unless that is done.
 */
static void
stage_rows(struct roster_import *im)
{
	if (im->bulk == NULL)
		return;
	db_bulk_end(im->bulk);
	im->bulk = NULL;
	if (im->nrows > COMMIT_CHUNK)
		import_exec(im->db, "CREATE INDEX import_stage_key ON"
		    " import_stage (key)");
}

/*
 * The server's staged rows sent, each table's in one COPY (import_stage's
 * only unless direct), and indexed like them.
 */
static void
stage_loaded(struct roster_import *im, int direct)
{
	db_bulk_end(im->extra);
	im->extra = NULL;
	if (im->nextra > COMMIT_CHUNK)
		import_exec(im->db, "CREATE INDEX import_extra_seq ON"
		    " import_extra (seq)");
	if (!direct)
		stage_rows(im);
}

enum roster_result
roster_import_check(struct roster_import *im)
{
	if (!im->later || im->nrows == 0)
		return ROSTER_OK;
	stage_loaded(im, 0);
	return import_fault(im, !im->replace);
}

/*
 * Copies the staged rows into import_by_key (import_by_key_sql), unless
 * that is done.
 */
static void
import_sort(struct roster_import *im)
{
	/* A server's are sorted already, and indexed (stage_loaded). */
	if (im->sorted || im->later)
		return;
	import_exec(im->db, import_by_key_sql);
	im->sorted = 1;
}

/* The same for the rows staging found (import_by_kept_sql). */
static void
import_sort_kept(struct roster_import *im)
{
	if (im->sorted_kept || im->later)
		return;
	import_exec(im->db, import_by_kept_sql);
	im->sorted_kept = 1;
}

/*
 * The highest key of the chunk of staged rows whose keys start at lo, or
 * INT64_MAX for the last chunk; of the ids staging found (import_by_kept)
 * when kept is set.
 */
static int64_t
key_chunk_end(struct roster_import *im, int64_t lo, int kept)
{
	struct db *db = im->db;
	struct db_stmt *st = db_prepare(db, im->later ? "SELECT key FROM"
	    " import_stage WHERE key >= ?1 ORDER BY key LIMIT 1 OFFSET ?2" :
	    kept ? "SELECT kept FROM import.import_by_kept WHERE kept >= ?1"
	    " ORDER BY kept LIMIT 1 OFFSET ?2" :
	    "SELECT key FROM import.import_by_key WHERE key >= ?1"
	    " ORDER BY key LIMIT 1 OFFSET ?2");
	int64_t hi = INT64_MAX;

	db_bind_int(st, 1, lo);
	db_bind_int(st, 2, COMMIT_CHUNK - 1);
	if (db_step(db, st, 0) == DB_ROW)
		hi = db_column_int(st, 0);
	db_finalize(st);
	return hi;
}

/*
 * The rehearsal (db_rehearsal_start): so that other commands wait for
 * the write lock a fraction of the time the commit's writes take, they
 * are made first outside the lock, in a read transaction, on copies of
 * the roster's rows they change, which the staging database holds under
 * the roster's own names (import.character, import.holds_item,
 * import.holds_power), and each chunk's changes are kept as the record
 * would keep them.  The bulk of those changes is written beforehand in
 * short transactions where nothing reads it (db_rehearsal_stage).  Under
 * the lock the rows the rehearsal left are only written over the
 * roster's own, one statement a table (import_play), and the changes
 * kept are recorded, a few bytes each naming the rest.  That takes the lock only when
 * nothing recorded since staging began wrote the roster, its items or
 * powers (db_rehearsal_play); else, or when a write that refkit does not
 * record changed the rows (import_play), the commit makes its writes
 * under the lock as before (import_writes), and records them as it goes.
 * The copies are of the rows whose ids staging found, and of their
 * holdings: the only rows of the roster the commit changes.
 */
static const char *const rehearsal_tables[] = {
	"character", "holds_item", "holds_power", NULL
};

/*
 * sql as the commit runs it: on the rehearsal's copies while rehearsing,
 * else as it is.  The caller frees it.
 */
static char *
import_target(const struct roster_import *im, const char *sql)
{
	static const char *const from[] = {
		"main.character", "main.holds_item", "main.holds_power"
	};
	char *out = xstrdup(sql), *at, *next;

	for (size_t i = 0; im->rehearsing && i < 3; i++)
		while ((at = strstr(out, from[i])) != NULL) {
			*at = '\0';
			next = xasprintf("%simport%s", out, at + 4);
			free(out);
			out = next;
		}
	return out;
}

/*
 * import_run_sqlv on the target of the commit (import_target).  While
 * the commit plays its rehearsal (db_rehearsal_play), a write that a
 * constraint refuses marks the play refused, and nothing more is run.
 */
static int64_t
import_run_at(struct roster_import *im, const char *sql,
    const int64_t v6[6])
{
	char *at;
	int64_t v;

	if (im->refused)
		return 0;
	at = import_target(im, sql);
	v = import_run_sqlv_or(im->db, at, v6, im->playing ? &im->refused :
	    NULL);
	free(at);
	return v;
}

static int64_t
import_count_at(struct roster_import *im, const char *sql)
{
	const int64_t v6[6] = { 0, 0, 0, 0, 0, 0 };

	return import_run_at(im, sql, v6);
}

/* Stores the changes so far, or keeps them while rehearsing. */
static void
import_flush(struct roster_import *im)
{
	if (im->rehearsing)
		db_rehearsal_take(im->rehearsal);
	else
		db_changes_flush(im->db);
}

/*
 * Runs the commit's write w, for items and then powers if it has two,
 * with ?1 bound to arg and ?2 to arg2, and stores the changes made after
 * each chunk of staged rows: by staged id (?3 to ?4) or by key (?5 to
 * ?6) for the writes that take them.  Returns the rows it changed.
 */
static int64_t
import_write(struct roster_import *im, int w, int64_t arg, int64_t arg2)
{
	int64_t n = 0, last = im->key0 + im->nrows;

	const char *const *sqls = im->later ? import_stage_commit_sql[w] :
	    import_commit_sql[w];

	for (int k = 0; k < 2 && sqls[k] != NULL; k++) {
		const char *sql = sqls[k];
		int64_t v[6] = { arg, arg2, 0, 0, 0, 0 };

		if (strstr(sql, "?6") != NULL) {
			int kept = w == C_UPDATE_KEPT;

			if (kept)
				import_sort_kept(im);
			else
				import_sort(im);
			v[4] = kept ? INT64_MIN : INT64_C(1) << 62;
			for (;;) {
				v[5] = key_chunk_end(im, v[4], kept);
				n += import_run_at(im, sql, v);
				import_flush(im);
				if (v[5] == INT64_MAX)
					break;
				v[4] = v[5] + 1;
			}
		} else if (strstr(sql, "?4") != NULL) {
			for (v[2] = im->key0 + 1; v[2] <= last;
			    v[2] += COMMIT_CHUNK) {
				v[3] = v[2] + COMMIT_CHUNK - 1;
				n += import_run_at(im, sql, v);
				import_flush(im);
			}
		} else {
			n += import_run_at(im, sql, v);
			import_flush(im);
		}
	}
	return n;
}

/*
 * The rows an import must add, and the share of the roster they must
 * make, for name_index_drop to drop the index.
 */
#define NAME_INDEX_ROWS		4096
#define NAME_INDEX_SHARE	4

/*
 * When an import is to add n new rows to a roster of before, at least
 * NAME_INDEX_ROWS and a NAME_INDEX_SHARE-th of the whole, drops the index
 * that keeps the roster's names unique (schema.sql, @since 13) and
 * returns its CREATE statement for name_index_build; else returns NULL.
 * The rows go in by key, in no order of their names, so each would put
 * its name in a page of the index of its own, once the index is larger
 * than the page cache; building the index again from the rows sorted
 * once costs a fraction of that, and checks again that no name is there
 * twice.  The drop is part of the import's transaction: another command
 * sees the roster with its index, before the import or after it.  On
 * SQLite only: a reader there never waits for a writer, where a server
 * would keep every reader of character waiting for the commit.
 */
static char *
name_index_drop(struct db *db, int64_t n, int64_t before)
{
	struct db_stmt *st;
	char *sql = NULL;

	if (n < NAME_INDEX_ROWS || n * NAME_INDEX_SHARE < before + n)
		return NULL;
	st = db_prepare(db, "SELECT sql FROM main.sqlite_schema WHERE"
	    " type = 'index' AND name = 'character_name'");
	if (db_step(db, st, 0) == DB_ROW)
		sql = db_column_dup(st, 0);
	db_finalize(st);
	if (sql == NULL)
		db_die(db, "'%s': damaged refkit database (no index"
		    " character_name)", util_q(db->path));
	import_exec(db, "DROP INDEX main.character_name");
	return sql;
}

/*
 * Builds the index name_index_drop dropped, if it did, and frees sql.  A
 * name twice refuses the play of a rehearsal (import_run_at).
 */
static void
name_index_build(struct roster_import *im, char *sql)
{
	const int64_t v6[6] = { 0, 0, 0, 0, 0, 0 };

	if (sql == NULL)
		return;
	(void)import_run_at(im, sql, v6);
	free(sql);
}

/*
 * The staged rows into character, a chunk of keys at a time, each chunk
 * recorded as one change from the rows the INSERT returns
 * (db_changes_insert), as the server would record them value by value
 * at many times the cost.
 */
static void
stage_insert(struct roster_import *im)
{
	int64_t lo = INT64_C(1) << 62, hi;
	struct db_stmt *st;

	for (;;) {
		hi = key_chunk_end(im, lo, 0);
		st = db_prepare(im->db, STAGE_INSERT " RETURNING id, "
		    CHAR_COLS ", created, updated");
		db_bind_int(st, 1, im->now);
		db_bind_int(st, 5, lo);
		db_bind_int(st, 6, hi);
		(void)db_changes_insert(im->db, "character", st);
		db_finalize(st);
		if (hi == INT64_MAX)
			break;
		lo = hi + 1;
	}
}

/*
 * Whether a server's staged rows can go straight into character, each
 * chunk recorded from the values sent (db_bulk_insert), without the
 * round of import_stage: when nothing can refuse a row but a holding
 * (which import_extra tells), that is, when no name can be in the file
 * twice (the filter held none) and the roster is empty, so that every
 * row is new.  Asked before the lock is taken, and again under it.
 */
static int
import_direct(struct roster_import *im)
{
	return im->nsuspect == 0 && im->nrows > 0 &&
	    import_run_sql(im->db, "SELECT EXISTS (SELECT 1 FROM character)",
	    0) == 0;
}

/* roster_import_commit on a server. */
static enum roster_result
commit_later(struct roster_import *im)
{
	struct db *db = im->db;
	enum roster_result r;
	int64_t before = 0;
	int empty, upsert, direct;

	direct = import_direct(im);
	stage_loaded(im, direct);
	db_begin(db);
	/*
	 * The import's record of changes is as large as its rows: lz4, where
	 * the server has it, compresses it ten times quicker than pglz, the
	 * default, which took a quarter of a million rows' import.
	 */
	import_exec(db, "SELECT set_config('default_toast_compression',"
	    " 'lz4', true) FROM pg_settings WHERE name ="
	    " 'default_toast_compression' AND 'lz4' = ANY (enumvals)");
	empty = import_run_sql(db, "SELECT EXISTS (SELECT 1 FROM character)",
	    0) == 0;
	/* A character added since: the rows are checked after all. */
	if (direct && !empty) {
		stage_rows(im);
		direct = 0;
	}
	if (((!im->replace && !empty) || im->nsuspect > 0 || im->nholds > 0) &&
	    (r = import_fault(im, !im->replace && !empty)) != ROSTER_OK)
		return r;
	/*
	 * Into an empty roster every row is new.  The index of names stays:
	 * built again, it would have to be dropped first, which locks every
	 * reader of the roster out until the commit.
	 */
	upsert = im->replace && !empty;
	if (upsert) {
		before = import_run_sql(db, "SELECT count(*) FROM character",
		    0);
		(void)import_write(im, C_UPSERT_REST, im->now, 0);
	} else if (direct) {
		(void)db_bulk_insert(im->bulk, "character", "id, " CHAR_COLS
		    ", created, updated", CHAR_NCOLS + 3, COMMIT_CHUNK);
		im->bulk = NULL;
	} else
		stage_insert(im);
	im->added = upsert ? (long)(import_run_sql(db, "SELECT count(*) FROM"
	    " character", 0) - before) : im->nrows;
	im->replaced = im->nrows - im->added;
	for (int k = 0; k < 2 && upsert && im->nflagged > 0; k++) {
		(void)import_run_sql(db,
		    import_stage_commit_sql[C_CLEAR_BY_ROW][k], 0);
		db_changes_flush(db);
	}
	if (im->nholds > 0)
		(void)import_write(im, C_HOLD, 0, 0);
	/* Gone with the import, which then leaves nothing behind. */
	import_exec(db, "DROP TABLE import_stage, import_extra");
	im->stage_table = 0;
	db_commit(db);
	return ROSTER_OK;
}

/*
 * The commit's writes, in the write transaction or, while rehearsing, on
 * the copies (import_target), into a roster that is empty or not: every
 * row is new in an empty one.  Sets added and replaced.
 */
static void
import_writes(struct roster_import *im, int empty)
{
	static const char *const count_held[2] = {
		"SELECT count(*) FROM main.holds_item",
		"SELECT count(*) FROM main.holds_power"
	};
	struct db *db = im->db;
	int64_t before, kept;
	char *index_sql = NULL;

	/* The copies keep their index (name_index_drop is the roster's). */
	if (empty) {
		/* The staged rows as they are, keyed by name. */
		if (!im->rehearsing)
			index_sql = name_index_drop(db, im->nrows, 0);
		(void)import_write(im, C_COPY, 0, 0);
		im->added = im->nrows;
	} else {
		/* An import only adds characters and changes them. */
		before = import_count_at(im, "SELECT count(*) FROM"
		    " main.character");
		if (!im->replace) {
			/* Every name is free (import_fault). */
			if (!im->rehearsing)
				index_sql = name_index_drop(db, im->nrows,
				    before);
			(void)import_write(im, C_INSERT, im->now, 0);
		} else {
			kept = import_write(im, C_UPDATE_KEPT, im->now, 0);
			/* With every row kept, there is nothing left. */
			if (kept != im->nkept)
				(void)import_write(im, C_UPSERT_REST,
				    im->now, 0);
			else if (kept < im->nrows)
				(void)import_write(im, C_UPSERT_NEW,
				    im->now, 0);
		}
		im->added = (long)(import_count_at(im, "SELECT count(*) FROM"
		    " main.character") - before);
	}
	/* The holdings find their characters by name. */
	name_index_build(im, index_sql);
	im->replaced = im->nrows - im->added;
	for (int k = 0; k < 2 && im->replace && im->nflagged > 0; k++) {
		int by_holding = import_count_at(im, count_held[k]) <
		    im->nflagged;

		(void)import_count_at(im, import_commit_sql[by_holding ?
		    C_CLEAR_BY_HOLDING : C_CLEAR_BY_ROW][k]);
		import_flush(im);
	}
	if (im->nholds > 0)
		(void)import_write(im, C_HOLD, 0, 0);
}

/*
 * The copies of the rows the commit changes, as the roster is now: only
 * an import with replace into a roster that is not empty changes rows
 * that are there, those whose ids staging found (a row whose name was
 * free then and is taken now would be a change since staging).  Their
 * index of names is built once they are in, from the rows sorted once.
 */
static void
import_copies(struct roster_import *im, int empty)
{
	struct db *db = im->db;

	for (int i = 0; rehearsal_tables[i] != NULL; i++)
		import_create_like(db, rehearsal_tables[i],
		    rehearsal_tables[i]);
	if (!empty && im->replace && im->nkept > 0) {
		import_exec(db, "INSERT INTO import.character SELECT c.*"
		    " FROM import.import_by_kept k JOIN main.character c"
		    " ON c.id = k.kept");
		if (im->nflagged > 0)
			import_exec(db, "INSERT INTO import.holds_item"
			    " SELECT h.* FROM main.holds_item h"
			    " WHERE h.character_id IN"
			    " (SELECT id FROM import.character);"
			    "INSERT INTO import.holds_power"
			    " SELECT h.* FROM main.holds_power h"
			    " WHERE h.character_id IN"
			    " (SELECT id FROM import.character)");
	}
	import_exec(db, "CREATE UNIQUE INDEX import.character_name"
	    " ON character(name)");
}

/*
 * Whether the commit only adds characters that hold nothing: into an
 * empty roster (C_COPY) or, without replace, beside it (C_INSERT, every
 * name free), with no holdings staged.  Such rows are known whole before
 * they are written, so the rehearsal keeps their record as it reads them
 * (import_keep_new) and writes no copy, and the play writes them from
 * the staged rows (import_play): the commit's own write, made once.
 * Returns that write's statement (C_COPY's or C_INSERT's), or NULL for
 * the copies.
 */
static const char *
import_direct_new(const struct roster_import *im, int empty)
{
	if (im->nholds > 0 || im->nflagged > 0 || (!empty && im->replace))
		return NULL;
	/*
	 * The record names every column in the table's order, which the
	 * write's SELECT lists (the id, CHAR_COLS, the times): a table with
	 * another column (a later schema) takes the copies.
	 */
	if (import_run_sql(im->db, "SELECT count(*) FROM"
	    " pragma_table_info('character')", 0) != CHAR_NCOLS + 3)
		return NULL;
	return import_commit_sql[empty ? C_COPY : C_INSERT][0];
}

/* The SELECT of im->direct's write: the rows it makes, column for column. */
static const char *
import_new_select(const struct roster_import *im)
{
	return strstr(im->direct, " SELECT ") + 1;
}

/*
 * The rehearsal of im->direct's write: the record of each chunk of the
 * staged rows (KEY_CHUNK) kept as the rows are read.  Returns the rows.
 */
static int64_t
import_keep_new(struct roster_import *im)
{
	struct db *db = im->db;
	int64_t n = 0, lo = INT64_C(1) << 62, hi;

	import_sort(im);
	for (;;) {
		struct db_stmt *st = db_prepare(db, import_new_select(im));

		hi = key_chunk_end(im, lo, 0);
		if (db_bind_count(st) >= 1)
			db_bind_int(st, 1, im->now);
		db_bind_int(st, 5, lo);
		db_bind_int(st, 6, hi);
		n += db_rehearsal_keep(im->rehearsal, "character", st);
		db_finalize(st);
		if (hi == INT64_MAX)
			break;
		lo = hi + 1;
	}
	return n;
}

/*
 * Outside the lock, in a read transaction of its own: the checks of the
 * commit, and its writes rehearsed on copies (rehearsal_tables).  Returns
 * what is wrong with the import, as the commit would say it, or
 * ROSTER_OK.  The copies' holdings name items and powers that only the
 * database has: their references are not enforced here, where no row of
 * the database is written.
 */
static enum roster_result
import_rehearse(struct roster_import *im)
{
	struct db *db = im->db;
	enum roster_result r = ROSTER_OK;
	int empty;

	import_exec(db, "PRAGMA foreign_keys = OFF");
	db_begin_read(db);
	empty = import_run_sql(db, import_sql[I_ANY_CHAR], 0) == 0;
	if (((!im->replace && !empty) || im->nholds > 0) &&
	    (r = import_fault(im, !im->replace && !empty)) != ROSTER_OK)
		goto out;
	db_rehearsal_free(im->rehearsal);
	im->direct = import_direct_new(im, empty);
	if (im->direct != NULL) {
		im->rehearsal = db_rehearsal_start(db, "import",
		    rehearsal_tables);
		im->ncopies = import_keep_new(im);
		im->added = (long)im->ncopies;
		im->replaced = im->nrows - im->added;
		db_rehearsal_stop(im->rehearsal);
		db_commit(db);
		goto out;
	}
	import_copies(im, empty);
	im->rehearsal = db_rehearsal_start(db, "import", rehearsal_tables);
	im->rehearsing = 1;
	import_writes(im, empty);
	im->rehearsing = 0;
	im->ncopies = import_run_sql(db, "SELECT count(*) FROM"
	    " import.character", 0);
	/* The characters whose holdings the rows set, by id. */
	import_exec(db, "CREATE TABLE import.import_flagged"
	    " (id INTEGER PRIMARY KEY);"
	    "INSERT OR IGNORE INTO import.import_flagged SELECT c.id"
	    " FROM import.import_meta m JOIN import.import_row r"
	    " ON r.id = m.id JOIN import.character c ON c.name = r.name"
	    " WHERE m.holdings");
	db_rehearsal_stop(im->rehearsal);
	db_commit(db);
out:
	import_exec(db, "PRAGMA foreign_keys = ON");
	return r;
}

/*
 * The tables whose change since staging began (im->mark) makes the
 * rehearsal stale: those the commit writes, and those it reads names in.
 */
static const char *const import_watched[] = {
	"character", "holds_item", "holds_power", "item", "power", NULL
};

/*
 * Whether a holding staged names an item or a power that is gone, which
 * only another program's write, one that refkit does not record, can
 * have done since staging; import_fault finds the first row at fault.
 */
static int
import_holding_gone(struct roster_import *im)
{
	struct db_stmt *st = db_prepare(im->db, import_fault_sql);
	int gone;

	db_bind_int(st, 1, 0);
	gone = db_step(im->db, st, 0) == DB_ROW;
	db_finalize(st);
	return gone;
}

/*
 * The play of a rehearsal: the rows as the rehearsal left them, written
 * over the roster's own in the order of their ids (a row there keeps its
 * name: setting it would write each into the index of names again, a
 * page of its own each), then the holdings of the characters whose rows
 * set them (import_flagged) made those the rehearsal left.
 */
static const char *const import_play_sql[] = {
	"INSERT INTO main.character (id, " CHAR_COLS ", created, updated)"
	" SELECT id, " CHAR_COLS ", created, updated FROM import.character"
	" WHERE true ON CONFLICT (id) DO UPDATE SET player = excluded.player,"
	" notes = excluded.notes, ene = excluded.ene, str = excluded.str,"
	" int = excluded.int, cun = excluded.cun, agi = excluded.agi,"
	" con = excluded.con, cha = excluded.cha, luc = excluded.luc,"
	" level = excluded.level,"
	" given_or = excluded.given_or, given_dr = excluded.given_dr,"
	" given_mind = excluded.given_mind, given_life = excluded.given_life,"
	" given_in = excluded.given_in, given_em = excluded.given_em,"
	" given_lb = excluded.given_lb, created = excluded.created,"
	" updated = excluded.updated WHERE character.name = excluded.name",
	"DELETE FROM main.holds_item WHERE character_id IN"
	" (SELECT id FROM import.import_flagged) AND NOT EXISTS"
	" (SELECT 1 FROM import.holds_item h WHERE"
	" h.character_id = holds_item.character_id AND"
	" h.item_id = holds_item.item_id)",
	"DELETE FROM main.holds_power WHERE character_id IN"
	" (SELECT id FROM import.import_flagged) AND NOT EXISTS"
	" (SELECT 1 FROM import.holds_power h WHERE"
	" h.character_id = holds_power.character_id AND"
	" h.power_id = holds_power.power_id)",
	"INSERT OR IGNORE INTO main.holds_item SELECT h.*"
	" FROM import.holds_item h WHERE h.character_id IN"
	" (SELECT id FROM import.import_flagged)",
	"INSERT OR IGNORE INTO main.holds_power SELECT h.*"
	" FROM import.holds_power h WHERE h.character_id IN"
	" (SELECT id FROM import.import_flagged)",
	NULL
};

/*
 * db_rehearsal_play's write: the rows the rehearsal made, written over
 * the roster's own (import_play_sql), in the write transaction.  Nothing
 * recorded since staging began changed what they were made from
 * (db_rehearsal_play looked), so they are what the commit's writes would
 * make now, unless a write that refkit does not record changed the
 * roster: then it returns nonzero, which the counts tell (a row the
 * rehearsal changed that is gone, or has another name; a new one that
 * is there), or a constraint (a name taken) or a holding gone.  Other
 * programs' changes to the rows it writes are written over, as the
 * commit's writes would have.  The index of names is built again after
 * many new rows, as the commit's writes do (name_index_drop).
 */
static int
import_play(void *arg)
{
	struct roster_import *im = arg;
	const int64_t v6[6] = { 0, 0, 0, 0, 0, 0 };
	const char *count = "SELECT count(*) FROM main.character";
	char *index_sql = NULL;
	int64_t before, written;
	int refused;

	if (im->nholds > 0 && import_holding_gone(im))
		return -1;
	im->playing = 1;
	im->refused = 0;
	before = import_run_sql(im->db, count, 0);
	index_sql = name_index_drop(im->db, im->added, before);
	if (im->direct != NULL) {
		/* The whole of im->direct's write, in one statement. */
		const int64_t all[6] = { im->now, 0, 0, 0,
		    INT64_MIN, INT64_MAX };

		written = import_run_at(im, im->direct, all);
	} else
		written = import_run_at(im, import_play_sql[0], v6);
	name_index_build(im, index_sql);
	if (written != im->ncopies ||
	    import_run_sql(im->db, count, 0) - before != im->added)
		im->refused = 1;
	for (int i = 1; import_play_sql[i] != NULL && im->nflagged > 0; i++)
		(void)import_run_at(im, import_play_sql[i], v6);
	refused = im->refused;
	im->playing = 0;
	im->refused = 0;
	return refused;
}

enum roster_result
roster_import_commit(struct roster_import *im)
{
	struct db *db = im->db;
	enum roster_result r;
	int empty;

	if (im->later)
		return commit_later(im);
	/* End the last read, then wait for the write lock. */
	db_bulk_end(im->bulk);
	im->bulk = NULL;
	db_commit(db);
	/*
	 * Outside the lock: the staged rows in key order (KEY_CHUNK), which
	 * every write of new rows reads.  When every row replaces a
	 * character staging found, only the update by id is likely to run:
	 * the rows are sorted later if a write needs them after all.
	 */
	if (!im->replace || im->nkept < im->nrows)
		import_sort(im);
	if (im->nkept > 0)
		import_sort_kept(im);
	if ((r = import_rehearse(im)) != ROSTER_OK)
		return r;
	/* Its changes too, but for a few bytes of each. */
	db_rehearsal_stage(im->rehearsal);
	db_begin(db);
	if (db_rehearsal_play(im->rehearsal, im->mark, import_watched,
	    import_play, im) == 0) {
		db_commit(db);
		return ROSTER_OK;
	}
	/*
	 * The roster changed since staging began (a row the import writes,
	 * a name it takes, an item it gives): the writes are made here,
	 * under the lock, as the roster is now, and recorded as they go.
	 */
	empty = import_run_sql(db, import_sql[I_ANY_CHAR], 0) == 0;
	/* Without replace, a name taken since staging is refused. */
	if (((!im->replace && !empty) || im->nholds > 0) &&
	    (r = import_fault(im, !im->replace && !empty)) != ROSTER_OK)
		return r;
	import_writes(im, empty);
	db_commit(db);
	return ROSTER_OK;
}

/* The sheet columns, then the id, then the item and power lists. */
#define SHEET_SELECT \
	"SELECT " CHAR_COLS ", c.id," \
	" (SELECT group_concat(i.name, ';') FROM holds_item h" \
	"  JOIN item i ON i.id = h.item_id WHERE h.character_id = c.id)," \
	" (SELECT group_concat(p.name, ';') FROM holds_power h" \
	"  JOIN power p ON p.id = h.power_id WHERE h.character_id = c.id)" \
	" FROM character c"
/* The same rows, for a roster in which no one holds anything. */
#define SHEET_SELECT_BARE \
	"SELECT " CHAR_COLS ", c.id, NULL, NULL FROM character c"

/*
 * Each table's names: a query with a row when ?1 is one exactly, a query
 * of them all, what a refusal says is missing, and a query with a row
 * when the table has none with what a refusal says then: a GM's first
 * command on a new database is told how to fill it, not that one name
 * is missing.
 */
static const struct {
	const char	*one, *all, *lead, *none, *none_why;
} names_of[] = {
	[ROSTER_CHARACTER] = { "SELECT name FROM character WHERE name = ?1",
	    "SELECT name FROM character", "no character named",
	    "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM character)",
	    "no characters in the database; load a roster with "
	    "'crs-stats import FILE' (examples/roster.csv is one) or add one "
	    "with 'crs-stats add NAME'" },
	[ROSTER_ITEM] = { "SELECT name FROM item WHERE name = ?1",
	    "SELECT name FROM item", "no item named",
	    "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM item)",
	    "no items in the database; add one with 'crs-stats item add "
	    "NAME' (examples/gear.sh adds the sample ones)" },
	[ROSTER_POWER] = { "SELECT name FROM power WHERE name = ?1",
	    "SELECT name FROM power", "no power named",
	    "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM power)",
	    "no powers in the database; add one with 'crs-stats power add "
	    "NAME' (examples/gear.sh adds the sample ones)" },
	[ROSTER_ITEM_OR_POWER] = { "SELECT name FROM item WHERE name = ?1"
	    " UNION ALL SELECT name FROM power WHERE name = ?1",
	    "SELECT name FROM item UNION SELECT name FROM power",
	    "no item or power named",
	    "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM item)"
	    " AND NOT EXISTS (SELECT 1 FROM power)",
	    "no items or powers in the database; add them with 'crs-stats "
	    "item add NAME' and 'crs-stats power add NAME' (examples/gear.sh "
	    "adds the sample ones)" },
};

char *
roster_name(struct db *db, enum roster_table table, const char *typed,
    char *why, size_t whysz)
{
	char *full = lookup_name(db, names_of[table].one, names_of[table].all,
	    typed, names_of[table].lead, why, whysz);
	struct db_stmt *st;

	if (full != NULL)
		return full;
	st = db_prepare(db, names_of[table].none);
	if (db_step(db, st, 0) == DB_ROW)
		snprintf(why, whysz, "%s", names_of[table].none_why);
	db_finalize(st);
	return NULL;
}

void
roster_names(struct db *db, enum roster_table table,
    void (*fn)(void *, const char *), void *arg)
{
	db_each_text(db, db_prepare(db, names_of[table].all), fn, arg);
}

enum roster_result
roster_get(struct db *db, const char *name, struct sheet *sh, int64_t *id)
{
	struct db_stmt *st = db_prepare(db, SHEET_SELECT " WHERE name = ?1");
	enum roster_result r = ROSTER_NOT_FOUND;

	db_bind_text(st, 1, name);
	if (db_step(db, st, 0) == DB_ROW) {
		read_sheet(st, 0, sh);
		if (id)
			*id = db_column_int(st, CHAR_NCOLS);
		read_list(st, CHAR_NCOLS + 1, sh, SHEET_F_ITEMS);
		read_list(st, CHAR_NCOLS + 2, sh, SHEET_F_POWERS);
		r = ROSTER_OK;
	}
	db_finalize(st);
	return r;
}

void
roster_each(struct db *db, int (*fn)(void *, const struct sheet *),
    void *ctx)
{
	struct db_stmt *st = db_prepare(db, "SELECT EXISTS (SELECT 1 FROM"
	    " holds_item) OR EXISTS (SELECT 1 FROM holds_power)");
	struct sheet sh;
	int stop = 0, holds;

	/*
	 * Two look-ups a character for holdings that no one has (a roster
	 * just imported from a file without items) were a fifth of the
	 * list: they are made only when someone holds something.
	 */
	holds = db_step(db, st, 0) == DB_ROW && db_column_int(st, 0) != 0;
	db_finalize(st);
	/*
	 * Sorted, not read along the index of names: ids are keys of the
	 * names (db_name_key), so the index visits the table's pages at
	 * random, each read again once the page cache has let it go (a
	 * million characters: 12.6 s under load, most of it pread), where
	 * one pass over the table and SQLite's sorter read each page once
	 * (3.5 s), in bounded memory.  "|| ''" keeps the same order (the
	 * column's collation is BINARY) on both backends, where SQLite's
	 * "+name" is not PostgreSQL.
	 */
	if (holds)
		st = db_prepare(db, SHEET_SELECT " ORDER BY c.name || ''");
	else
		st = db_prepare(db, SHEET_SELECT_BARE " ORDER BY c.name || ''");
	while (!stop && db_step(db, st, 0) == DB_ROW) {
		sheet_init(&sh);
		read_sheet(st, 0, &sh);
		read_list(st, CHAR_NCOLS + 1, &sh, SHEET_F_ITEMS);
		read_list(st, CHAR_NCOLS + 2, &sh, SHEET_F_POWERS);
		stop = fn(ctx, &sh);
		sheet_release(&sh);
	}
	db_finalize(st);
}

/* Runs a DELETE ... WHERE name = ?1; ROSTER_NOT_FOUND if nothing went. */
static enum roster_result
remove_named(struct db *db, const char *sql, const char *name)
{
	struct db_stmt *st = db_prepare(db, sql);
	int changed;

	db_bind_text(st, 1, name);
	db_step(db, st, 0);
	changed = db_changes(db);
	db_finalize(st);
	return changed ? ROSTER_OK : ROSTER_NOT_FOUND;
}

enum roster_result
roster_remove(struct db *db, const char *name)
{
	return remove_named(db, "DELETE FROM character WHERE name = ?1",
	    name);
}

/* Items. */

#define ITEM_COLS \
	"name, mod_or, mod_dr, mod_mind, mod_pick, mod_offense, " \
	"mod_defense, range, use, full_or, notes"

static void
read_item(struct db_stmt *st, struct item *it)
{
	const char *notes = db_column_text(st, 10);

	item_init(it, db_column_text(st, 0));
	for (int m = 0; m < ITEM_MOD_COUNT; m++)
		it->mod[m] = db_column_int(st, 1 + m);
	it->range = item_range_lookup(db_column_text(st, 7));
	it->use = item_use_lookup(db_column_text(st, 8));
	it->full_or = db_column_int(st, 9);
	it->notes = notes ? xstrdup(notes) : NULL;
}

struct item *
roster_held_items(struct db *db, int64_t id, size_t *n)
{
	struct db_stmt *st = db_prepare(db, "SELECT " ITEM_COLS " FROM item"
	    " WHERE id IN (SELECT item_id FROM holds_item"
	    " WHERE character_id = ?1) ORDER BY name");
	struct item *items = NULL;

	*n = 0;
	db_bind_int(st, 1, id);
	while (db_step(db, st, 0) == DB_ROW) {
		items = xreallocarray(items, *n + 1, sizeof *items);
		read_item(st, &items[(*n)++]);
	}
	db_finalize(st);
	return items;
}

void
roster_items_free(struct item *items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		item_release(&items[i]);
	free(items);
}

enum roster_result
roster_item_get(struct db *db, const char *name, struct item *it,
    int64_t *id)
{
	struct db_stmt *st = db_prepare(db, "SELECT " ITEM_COLS ", id"
	    " FROM item WHERE name = ?1");
	enum roster_result r = ROSTER_NOT_FOUND;

	db_bind_text(st, 1, name);
	if (db_step(db, st, 0) == DB_ROW) {
		item_release(it);
		read_item(st, it);
		if (id)
			*id = db_column_int(st, 11);
		r = ROSTER_OK;
	}
	db_finalize(st);
	return r;
}

enum roster_result
roster_item_put(struct db *db, const struct item *it, int64_t id)
{
	struct db_stmt *st = db_prepare(db, id == 0 ?
	    "INSERT INTO item (id, " ITEM_COLS ") VALUES ("
	    DB_NAME_KEY("?1") ", ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
	    " ?11)" :
	    "UPDATE item SET name = ?1, mod_or = ?2, mod_dr = ?3,"
	    " mod_mind = ?4, mod_pick = ?5, mod_offense = ?6,"
	    " mod_defense = ?7, range = ?8, use = ?9, full_or = ?10,"
	    " notes = ?11 WHERE id = ?12");
	int rc;

	bind_text(st, 1, it->name);
	for (int m = 0; m < ITEM_MOD_COUNT; m++)
		db_bind_int(st, 2 + m, it->mod[m]);
	bind_text(st, 8, item_range_name(it->range));
	bind_text(st, 9, item_use_name(it->use));
	db_bind_int(st, 10, it->full_or);
	bind_text(st, 11, it->notes);
	if (id != 0)
		db_bind_int(st, 12, id);
	rc = db_step(db, st, 1);
	db_finalize(st);
	if (rc == DB_CONSTRAINT || (id != 0 && db_rekey(db, item_rekey, id,
	    db_name_key(it->name)) != 0))
		return ROSTER_EXISTS;
	return ROSTER_OK;
}

enum roster_result
roster_item_remove(struct db *db, const char *name)
{
	return remove_named(db, "DELETE FROM item WHERE name = ?1", name);
}

void
roster_item_each(struct db *db, int (*fn)(void *, const struct item *),
    void *ctx)
{
	struct db_stmt *st = db_prepare(db, "SELECT " ITEM_COLS
	    " FROM item ORDER BY name");
	struct item it;
	int stop = 0;

	while (!stop && db_step(db, st, 0) == DB_ROW) {
		read_item(st, &it);
		stop = fn(ctx, &it);
		item_release(&it);
	}
	db_finalize(st);
}

/* Powers. */

#define POWER_COLS "name, em, picks, bonus, target, defend, notes"

static void
read_power(struct db_stmt *st, struct power *pw)
{
	const char *notes = db_column_text(st, 6);

	item_power_init(pw, db_column_text(st, 0));
	pw->em = db_column_int(st, 1);
	pw->picks = db_column_int(st, 2);
	pw->bonus = db_column_int(st, 3);
	pw->target = item_power_target_lookup(db_column_text(st, 4));
	pw->defend = item_power_defend_lookup(db_column_text(st, 5));
	pw->notes = notes ? xstrdup(notes) : NULL;
}

struct power *
roster_known_powers(struct db *db, int64_t id, size_t *n)
{
	struct db_stmt *st = db_prepare(db, "SELECT " POWER_COLS " FROM power"
	    " WHERE id IN (SELECT power_id FROM holds_power"
	    " WHERE character_id = ?1) ORDER BY name");
	struct power *powers = NULL;

	*n = 0;
	db_bind_int(st, 1, id);
	while (db_step(db, st, 0) == DB_ROW) {
		powers = xreallocarray(powers, *n + 1, sizeof *powers);
		read_power(st, &powers[(*n)++]);
	}
	db_finalize(st);
	return powers;
}

void
roster_powers_free(struct power *powers, size_t n)
{
	for (size_t i = 0; i < n; i++)
		item_power_release(&powers[i]);
	free(powers);
}

struct db_stmt *
roster_power_ask(struct db *db, const char *name)
{
	struct db_stmt *st = db_prepare(db, "SELECT " POWER_COLS ", id"
	    " FROM power WHERE name = ?1");

	db_bind_text(st, 1, name);
	db_ask(db, st);
	return st;
}

enum roster_result
roster_power_take(struct db *db, struct db_stmt *st, struct power *pw,
    int64_t *id)
{
	enum roster_result r = ROSTER_NOT_FOUND;

	if (db_step(db, st, 0) == DB_ROW) {
		item_power_release(pw);
		read_power(st, pw);
		if (id)
			*id = db_column_int(st, 7);
		r = ROSTER_OK;
	}
	db_finalize(st);
	return r;
}

enum roster_result
roster_power_get(struct db *db, const char *name, struct power *pw,
    int64_t *id)
{
	return roster_power_take(db, roster_power_ask(db, name), pw, id);
}

enum roster_result
roster_power_put(struct db *db, const struct power *pw, int64_t id)
{
	struct db_stmt *st = db_prepare(db, id == 0 ?
	    "INSERT INTO power (id, " POWER_COLS ") VALUES ("
	    DB_NAME_KEY("?1") ", ?1, ?2, ?3, ?4, ?5, ?6, ?7)" :
	    "UPDATE power SET name = ?1, em = ?2, picks = ?3, bonus = ?4,"
	    " target = ?5, defend = ?6, notes = ?7 WHERE id = ?8");
	int rc;

	bind_text(st, 1, pw->name);
	db_bind_int(st, 2, pw->em);
	db_bind_int(st, 3, pw->picks);
	db_bind_int(st, 4, pw->bonus);
	bind_text(st, 5, item_power_target_name(pw->target));
	bind_text(st, 6, item_power_defend_name(pw->defend));
	bind_text(st, 7, pw->notes);
	if (id != 0)
		db_bind_int(st, 8, id);
	rc = db_step(db, st, 1);
	db_finalize(st);
	if (rc == DB_CONSTRAINT || (id != 0 && db_rekey(db, power_rekey, id,
	    db_name_key(pw->name)) != 0))
		return ROSTER_EXISTS;
	return ROSTER_OK;
}

enum roster_result
roster_power_remove(struct db *db, const char *name)
{
	return remove_named(db, "DELETE FROM power WHERE name = ?1", name);
}

void
roster_power_each(struct db *db, int (*fn)(void *, const struct power *),
    void *ctx)
{
	struct db_stmt *st = db_prepare(db, "SELECT " POWER_COLS
	    " FROM power ORDER BY name");
	struct power pw;
	int stop = 0;

	while (!stop && db_step(db, st, 0) == DB_ROW) {
		read_power(st, &pw);
		stop = fn(ctx, &pw);
		item_power_release(&pw);
	}
	db_finalize(st);
}

struct db_stmt *
roster_holds_ask(struct db *db, const char *character, int power,
    const char *name)
{
	struct db_stmt *st = db_prepare(db, power ?
	    "SELECT 1 FROM holds_power h JOIN character c ON c.id ="
	    " h.character_id JOIN power p ON p.id = h.power_id"
	    " WHERE c.name = ?1 AND p.name = ?2" :
	    "SELECT 1 FROM holds_item h JOIN character c ON c.id ="
	    " h.character_id JOIN item i ON i.id = h.item_id"
	    " WHERE c.name = ?1 AND i.name = ?2");

	db_bind_text(st, 1, character);
	db_bind_text(st, 2, name);
	db_ask(db, st);
	return st;
}

int
roster_holds_take(struct db *db, struct db_stmt *st)
{
	int r = db_step(db, st, 0) == DB_ROW;

	db_finalize(st);
	return r;
}

int
roster_holds(struct db *db, const char *character, int power,
    const char *name)
{
	return roster_holds_take(db, roster_holds_ask(db, character, power,
	    name));
}
