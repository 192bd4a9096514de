/*
 * test_sheet.c - sheet fields, directly given stats, and effective stats
 * with always-on items.
 */
#include "tap.h"

#include "crs/sheet.h"

int
main(void)
{
	struct sheet sh;
	struct sheet_stat st[S_COUNT];
	struct item items[3];
	char why[160];

	sheet_init(&sh);
	ok(sheet_set_field(&sh, SHEET_F_NAME, "Fred", why, sizeof why) == 0,
	    "name set");
	ok(sheet_set_field(&sh, SHEET_F_NAME, "", why, sizeof why) != 0,
	    "empty name refused");
	is_str(why, "must not be empty", "reason for empty name");
	ok(sheet_set_field(&sh, SHEET_F_NAME, "a\nb", why, sizeof why) != 0,
	    "newline in a name refused");
	ok(sheet_set_field(&sh, SHEET_F_NOTES, "a\nb", why, sizeof why) == 0,
	    "newline in notes kept");
	ok(sheet_set_field(&sh, SHEET_F_PLAYER, "\xff", why, sizeof why) != 0,
	    "invalid UTF-8 refused");
	is_str(why, "is not valid UTF-8", "reason for bad UTF-8");
	is_int(sheet_field_lookup("str"), SHEET_F_PRIMARY + P_STR, "str");
	is_int(sheet_field_lookup("Or"), SHEET_F_GIVEN + S_OR, "Or");
	is_int(sheet_field_lookup("ITEMS"), SHEET_F_ITEMS, "ITEMS");
	is_int(sheet_field_lookup("bogus"), -1, "bogus");
	is_str(sheet_field_name(SHEET_F_GIVEN + S_LB), "LB", "LB's name");

	/* Only STR and AGI: OR computed, everything else absent. */
	sheet_set_field(&sh, SHEET_F_PRIMARY + P_STR, "12", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_PRIMARY + P_AGI, "16", why, sizeof why);
	sheet_secondary(&sh, STATS_ROUND_WHOLE, NULL, 0, st);
	is_int(st[S_OR].value, 9, "OR computed");
	is_int(st[S_OR].source, SHEET_COMPUTED, "OR's source");
	is_int(st[S_DR].value, STATS_ABSENT, "DR absent");
	is_int(st[S_DR].source, SHEET_ABSENT, "DR's source");

	/* A given value wins over the computed one. */
	sheet_set_field(&sh, SHEET_F_GIVEN + S_OR, "4", why, sizeof why);
	sheet_set_field(&sh, SHEET_F_GIVEN + S_DR, "12", why, sizeof why);
	sheet_secondary(&sh, STATS_ROUND_WHOLE, NULL, 0, st);
	is_int(st[S_OR].value, 4, "given OR wins");
	is_int(st[S_OR].source, SHEET_GIVEN, "given OR's source");
	is_int(st[S_DR].value, 12, "given DR with no primaries");
	/* Clearing a given value brings the computed one back. */
	sheet_set_field(&sh, SHEET_F_GIVEN + S_OR, "", why, sizeof why);
	sheet_secondary(&sh, STATS_ROUND_WHOLE, NULL, 0, st);
	is_int(st[S_OR].value, 9, "cleared OR is computed again");
	ok(sheet_set_field(&sh, SHEET_F_GIVEN + S_OR, "100001", why,
	    sizeof why) != 0, "given OR above the maximum refused");
	ok(sheet_set_field(&sh, SHEET_F_PRIMARY + P_CON, "1001", why,
	    sizeof why) != 0, "CON 1001 refused");

	/* Items: continuous and wearable count; supplemental does not. */
	item_init(&items[0], "Sword");
	items[0].mod[ITEM_OR] = 5;
	item_init(&items[1], "Ring");
	items[1].mod[ITEM_OR] = 2;
	items[1].mod[ITEM_DR] = -20;
	items[1].use = ITEM_CONTINUOUS;
	item_init(&items[2], "Mail");
	items[2].mod[ITEM_DR] = 3;
	items[2].mod[ITEM_MIND] = 1;
	items[2].use = ITEM_WEARABLE;
	sheet_secondary(&sh, STATS_ROUND_WHOLE, items, 3, st);
	is_int(st[S_OR].effective, 11, "OR 9 + ring 2, sword is supplemental");
	is_int(st[S_DR].effective, 0, "DR 12 - 20 + 3 stops at 0");
	is_int(st[S_MIND].effective, STATS_ABSENT, "absent MIND stays absent");
	is_int(st[S_LIFE].effective, STATS_ABSENT, "LIFE absent");
	for (int i = 0; i < 3; i++)
		item_release(&items[i]);

	/* Lists. */
	ok(sheet_set_field(&sh, SHEET_F_ITEMS, "Sword;Shield", why,
	    sizeof why) == 0, "two items");
	is_int(sh.nitems, 2, "two items held");
	is_str(sh.items[1], "Shield", "second item");
	ok(sheet_set_field(&sh, SHEET_F_ITEMS, "Sword;Sword", why,
	    sizeof why) != 0, "an item twice refused");
	ok(sheet_set_field(&sh, SHEET_F_ITEMS, "Sword;", why,
	    sizeof why) != 0, "an empty item name refused");
	ok(sheet_set_field(&sh, SHEET_F_POWERS, "", why, sizeof why) == 0 &&
	    sh.npowers == 0, "no powers");
	sheet_release(&sh);
	return tap_done();
}
