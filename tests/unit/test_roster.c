/*
 * test_roster.c - characters, items, powers and holdings in a real
 * database file.
 */
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

#include "roster.h"
#include "util.h"

static int
count(void *arg, const struct sheet *sh)
{
	(void)sh;
	++*(int *)arg;
	return 0;
}

int
main(void)
{
	char path[] = "/tmp/refkit-test-roster-XXXXXX";
	int fd = mkstemp(path);
	struct db *db;
	struct roster_writer w;
	struct sheet sh, got;
	struct item it, *held;
	struct power pw;
	const char *missing = NULL;
	char why[160];
	int64_t id;
	size_t n;
	int k = 0;

	if (fd < 0)
		return 1;
	close(fd);
	db = db_open(path);
	db_begin(db);
	item_init(&it, "Sword");
	it.mod[ITEM_OR] = 5;
	is_int(roster_item_put(db, &it, 0), ROSTER_OK, "item added");
	is_int(roster_item_put(db, &it, 0), ROSTER_EXISTS, "item name taken");
	item_release(&it);
	item_init(&it, "Mail");
	it.mod[ITEM_DR] = 3;
	it.use = ITEM_WEARABLE;
	roster_item_put(db, &it, 0);
	item_release(&it);
	power_init(&pw, "Fire Dart");
	pw.em = 5;
	is_int(roster_power_put(db, &pw, 0), ROSTER_OK, "power added");
	power_release(&pw);

	roster_writer_init(&w, db);
	sheet_init(&sh);
	sheet_set_field(&sh, SHEET_F_NAME, "Fred", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_PRIMARY + P_STR, "12", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_ITEMS, "Sword;Mail", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_POWERS, "Fire Dart", why, sizeof why);
	is_int(roster_write(&w, &sh, ROSTER_INSERT, 0, 1, &missing),
	    ROSTER_OK, "Fred written");
	is_int(roster_write(&w, &sh, ROSTER_INSERT, 0, 1, &missing),
	    ROSTER_EXISTS, "Fred twice refused");
	sheet_set_field(&sh, SHEET_F_PRIMARY + P_STR, "14", why, sizeof why);
	is_int(roster_write(&w, &sh, ROSTER_UPSERT, 0, 1, &missing),
	    ROSTER_OK, "Fred replaced");
	sheet_set_field(&sh, SHEET_F_NAME, "Mary", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_ITEMS, "Axe", why, sizeof why);
	is_int(roster_write(&w, &sh, ROSTER_INSERT, 0, 1, &missing),
	    ROSTER_NO_ITEM, "unknown item refused");
	is_str(missing, "Axe", "the missing item named");
	roster_writer_release(&w);
	sheet_release(&sh);
	db_rollback(db);
	is_int(roster_get(db, "Fred", &got, NULL), ROSTER_NOT_FOUND,
	    "rollback undid it all");

	/* Again, committed this time. */
	db_begin(db);
	item_init(&it, "Sword");
	roster_item_put(db, &it, 0);
	item_release(&it);
	roster_writer_init(&w, db);
	sheet_init(&sh);
	sheet_set_field(&sh, SHEET_F_NAME, "Fred", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_PRIMARY + P_STR, "12", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_GIVEN + S_DR, "7", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_ITEMS, "Sword", why, sizeof why);
	roster_write(&w, &sh, ROSTER_INSERT, 0, 1, &missing);
	sheet_release(&sh);
	roster_writer_release(&w);
	db_commit(db);

	sheet_init(&got);
	is_int(roster_get(db, "Fred", &got, &id), ROSTER_OK, "Fred read");
	is_int(got.primary[P_STR], 12, "STR read back");
	is_int(got.primary[P_AGI], STATS_ABSENT, "AGI absent");
	is_int(got.given[S_DR], 7, "given DR read back");
	is_int(got.nitems, 1, "one item");
	held = roster_held_items(db, id, &n);
	is_int(n, 1, "one item record");
	is_int(held[0].mod[ITEM_OR], 0, "its modifier");
	roster_items_free(held, n);
	sheet_release(&got);
	roster_each(db, count, &k);
	is_int(k, 1, "one character in the roster");
	db_begin(db);
	is_int(roster_item_remove(db, "Sword"), ROSTER_OK, "item removed");
	db_commit(db);
	sheet_init(&got);
	roster_get(db, "Fred", &got, NULL);
	is_int(got.nitems, 0, "its holding went with it");
	sheet_release(&got);
	db_begin(db);
	is_int(roster_remove(db, "Fred"), ROSTER_OK, "Fred removed");
	is_int(roster_remove(db, "Fred"), ROSTER_NOT_FOUND, "gone");
	db_commit(db);
	db_close(db);
	unlink(path);
	{
		char *p = xasprintf("%s-wal", path);

		unlink(p);
		free(p);
		p = xasprintf("%s-shm", path);
		unlink(p);
		free(p);
	}
	return tap_done();
}
