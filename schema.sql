-- schema.sql: the refkit database, the single source of its schema.
--
-- The build turns this file into a C string (src/schema.c).  A new, empty
-- database gets all of it in one transaction; an older one is brought to
-- this version by the numbered migrations in src/db.c.  Every table is
-- STRICT and every value range is checked here too, so that a bug in a
-- tool cannot store what the rules forbid.  See refkit.db(5).

PRAGMA application_id = 1380338516;	-- 0x52464b54, "RFKT"
PRAGMA user_version = 2;

-- A CRS character.  Primary stats (ene ... level) are NULL when the game
-- does not use them; the given_* columns hold secondary stats given
-- directly, which win over the computed ones.  Computed secondary stats
-- are not stored: they are derived from these columns when read.
CREATE TABLE character (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE
			CHECK (length(name) BETWEEN 1 AND 200),
	player		TEXT CHECK (length(player) <= 200),
	notes		TEXT CHECK (length(notes) <= 10000),
	ene		INTEGER CHECK (ene BETWEEN 0 AND 1000),
	str		INTEGER CHECK (str BETWEEN 0 AND 1000),
	int		INTEGER CHECK (int BETWEEN 0 AND 1000),
	cun		INTEGER CHECK (cun BETWEEN 0 AND 1000),
	agi		INTEGER CHECK (agi BETWEEN 0 AND 1000),
	con		INTEGER CHECK (con BETWEEN 0 AND 1000),
	cha		INTEGER CHECK (cha BETWEEN 0 AND 1000),
	luc		INTEGER CHECK (luc BETWEEN 0 AND 1000),
	level		INTEGER CHECK (level BETWEEN 0 AND 1000),
	given_or	INTEGER CHECK (given_or BETWEEN 0 AND 100000),
	given_dr	INTEGER CHECK (given_dr BETWEEN 0 AND 100000),
	given_mind	INTEGER CHECK (given_mind BETWEEN 0 AND 100000),
	given_life	INTEGER CHECK (given_life BETWEEN 0 AND 100000),
	given_in	INTEGER CHECK (given_in BETWEEN 0 AND 100000),
	given_em	INTEGER CHECK (given_em BETWEEN 0 AND 100000),
	given_lb	INTEGER CHECK (given_lb BETWEEN 0 AND 100000),
	created		INTEGER NOT NULL,	-- Unix time, seconds
	updated		INTEGER NOT NULL
) STRICT;

-- An item (seed 002, "Integrating Additional Game Mechanics"; Avatar 2.6).
-- Modifiers apply to OR, DR, MIND, the AC pick, the offense and the
-- defense.  Supplemental items are declared one per attack and one per
-- defense; continuous and wearable ones are always in effect.
CREATE TABLE item (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE
			CHECK (length(name) BETWEEN 1 AND 200
			       AND instr(name, ';') = 0),
	mod_or		INTEGER NOT NULL DEFAULT 0
			CHECK (mod_or BETWEEN -1000 AND 1000),
	mod_dr		INTEGER NOT NULL DEFAULT 0
			CHECK (mod_dr BETWEEN -1000 AND 1000),
	mod_mind	INTEGER NOT NULL DEFAULT 0
			CHECK (mod_mind BETWEEN -1000 AND 1000),
	mod_pick	INTEGER NOT NULL DEFAULT 0
			CHECK (mod_pick BETWEEN -1000 AND 1000),
	mod_offense	INTEGER NOT NULL DEFAULT 0
			CHECK (mod_offense BETWEEN -1000 AND 1000),
	mod_defense	INTEGER NOT NULL DEFAULT 0
			CHECK (mod_defense BETWEEN -1000 AND 1000),
	range		TEXT NOT NULL DEFAULT 'both'
			CHECK (range IN ('short', 'long', 'both')),
	use		TEXT NOT NULL DEFAULT 'supplemental'
			CHECK (use IN ('supplemental', 'continuous',
			               'wearable')),
	full_or		INTEGER NOT NULL DEFAULT 0 CHECK (full_or IN (0, 1)),
	notes		TEXT CHECK (length(notes) <= 10000)
) STRICT;

-- A power: costs at least em EM; its effect is picks AC picks plus the EM
-- spent plus bonus; it hits one target or a group; DR, MIND or nothing
-- defends against it.
CREATE TABLE power (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE
			CHECK (length(name) BETWEEN 1 AND 200
			       AND instr(name, ';') = 0),
	em		INTEGER NOT NULL DEFAULT 0
			CHECK (em BETWEEN 0 AND 100000),
	picks		INTEGER NOT NULL DEFAULT 1
			CHECK (picks BETWEEN 0 AND 20),
	bonus		INTEGER NOT NULL DEFAULT 0
			CHECK (bonus BETWEEN -1000 AND 1000),
	target		TEXT NOT NULL DEFAULT 'one'
			CHECK (target IN ('one', 'group')),
	defend		TEXT NOT NULL DEFAULT 'none'
			CHECK (defend IN ('dr', 'mind', 'none')),
	notes		TEXT CHECK (length(notes) <= 10000)
) STRICT;

-- Which character holds which item, and knows which power.  Removing a
-- character or an item removes the holding with it.
CREATE TABLE holds_item (
	character_id	INTEGER NOT NULL
			REFERENCES character(id) ON DELETE CASCADE,
	item_id		INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
	PRIMARY KEY (character_id, item_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX holds_item_by_item ON holds_item(item_id);

CREATE TABLE holds_power (
	character_id	INTEGER NOT NULL
			REFERENCES character(id) ON DELETE CASCADE,
	power_id	INTEGER NOT NULL
			REFERENCES power(id) ON DELETE CASCADE,
	PRIMARY KEY (character_id, power_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX holds_power_by_power ON holds_power(power_id);
