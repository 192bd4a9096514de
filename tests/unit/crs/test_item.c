/*
 * test_item.c - item and power fields.
 */
#include "tap.h"

#include "crs/item.h"

int
main(void)
{
	struct item it;
	struct power pw;
	char why[200];

	item_init(&it, "Sword");
	is_int(it.range, ITEM_BOTH, "default range both");
	is_int(it.use, ITEM_SUPPLEMENTAL, "default use supplemental");
	is_int(item_set(&it, "or", "+5", why, sizeof why), ITEM_SET_OK, "or");
	is_int(it.mod[ITEM_OR], 5, "or=+5");
	is_int(item_set(&it, "DR", "-2", why, sizeof why), ITEM_SET_OK, "DR");
	is_int(it.mod[ITEM_DR], -2, "DR=-2");
	is_int(item_set(&it, "pick", "1001", why, sizeof why), ITEM_SET_BAD,
	    "pick out of range");
	is_str(why, "must be a whole number from -1000 to 1000", "why");
	is_int(item_set(&it, "range", "SHORT", why, sizeof why), ITEM_SET_OK,
	    "range");
	is_int(it.range, ITEM_SHORT, "range short");
	is_int(item_set(&it, "range", "far", why, sizeof why), ITEM_SET_BAD,
	    "range far");
	is_str(why, "must be 'short', 'long' or 'both'", "range's why");
	is_int(item_set(&it, "use", "wearable", why, sizeof why), ITEM_SET_OK,
	    "use");
	ok(item_always_on(&it), "wearable is always on");
	is_int(item_set(&it, "full-or", "yes", why, sizeof why), ITEM_SET_OK,
	    "full-or");
	is_int(it.full_or, 1, "full-or yes");
	is_int(item_set(&it, "colour", "red", why, sizeof why),
	    ITEM_SET_UNKNOWN, "unknown key");
	is_int(item_set(&it, "name", "A;B", why, sizeof why), ITEM_SET_BAD,
	    "';' in a name");
	item_release(&it);

	item_power_init(&pw, "Fireball");
	is_int(pw.picks, 1, "default picks 1");
	is_int(item_power_set(&pw, "em", "10", why, sizeof why), ITEM_SET_OK,
	    "em");
	is_int(item_power_set(&pw, "picks", "2", why, sizeof why), ITEM_SET_OK,
	    "picks");
	is_int(item_power_set(&pw, "picks", "21", why, sizeof why),
	    ITEM_SET_BAD,
	    "picks 21");
	is_int(item_power_set(&pw, "em", "-1", why, sizeof why), ITEM_SET_BAD,
	    "em -1");
	is_int(item_power_set(&pw, "target", "group", why, sizeof why),
	    ITEM_SET_OK, "target");
	is_int(pw.target, POWER_GROUP, "group");
	is_int(item_power_set(&pw, "defend", "mind", why, sizeof why),
	    ITEM_SET_OK,
	    "defend");
	is_int(pw.defend, POWER_VS_MIND, "vs mind");
	is_int(item_power_set(&pw, "defend", "AC", why, sizeof why),
	    ITEM_SET_BAD,
	    "defend AC");
	is_int(item_power_set(&pw, "bonus", "3", why, sizeof why), ITEM_SET_OK,
	    "bonus");
	is_int(item_power_set(&pw, "range", "3", why, sizeof why),
	    ITEM_SET_UNKNOWN, "range is not a power field");
	item_power_release(&pw);
	return tap_done();
}
