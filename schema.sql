-- schema.sql: the refkit database, the single source of its schema.
--
-- The build turns this file into C strings (schema.c, by
-- tools/embed-sql.sh).  A new, empty database gets all of it in one
-- transaction.  An older one is brought to this version by the numbered
-- migration steps, cut from this same file at its section lines, in one
-- transaction; no table is written out anywhere else.  Every table is
-- STRICT and every value range is checked here too, so that a bug in a
-- tool cannot store what the rules forbid.  See refkit.db(5).
--
-- The section lines (at the start of a line, as below):
--
--   -- @since N: ...              what version N added.  Step N (from
--                                 version N - 1) runs it as it stands, so
--                                 it only creates and inserts.
--   -- @since N, rerun by M: ...  the same, and step M runs it again:
--                                 for a table that a later version
--                                 rebuilt ("rerun by M and L" when two
--                                 did).
--   -- @migrate N: ...            what only step N runs, never a new
--                                 database: the statements that change
--                                 an older layout (renames, copies).
--
-- A statement of a step that records its changes (11 and 15) may be
-- led by the line "-- in parts": it is then run again until it changes
-- no row, and the changes recorded so far may be stored as a part
-- between two runs (src/db/db.c), so that a step over millions of rows
-- keeps its memory flat.  Such a statement takes a bounded number of
-- the rows still to change, and changes them so that they are no longer.
--
-- A change SQLite cannot make in place (a column in the middle, a new
-- CHECK) is a rebuild: a migrate section moves the old table aside,
-- the table's own section (rerun) creates the new one, and a second
-- migrate section copies the rows over and drops the old table.  The
-- table is thus written once, in its current form; a migrated database
-- ends with the same CREATE statements as a new one.  A plain addition
-- (a column at the end) is an ALTER TABLE ... ADD COLUMN in the new
-- version's @since section, which a new database runs as well: SQLite
-- keeps the CREATE text with the column appended, so both end with the
-- same text (version 14's seen).  A new version
-- adds its sections at the end of the file and raises user_version
-- here and DB_SCHEMA_VERSION in src/db/db_base.h; the build refuses a
-- file whose steps do not reach its user_version.
--
-- The steps after version 13 also migrate a database on a PostgreSQL
-- server, translated by the build (tools/pgschema.c): CREATE TABLE and
-- CREATE INDEX, ALTER TABLE ... ADD (DROP, RENAME) COLUMN, DROP TABLE
-- and DROP INDEX, statements on rows, and SELECT f(...) FROM ... of a
-- function of refkit's own that db/dbpg.c lists.  Anything else (a
-- PRAGMA, a rebuild's RENAME TO) stops the build, named: a server's
-- foreign keys follow a table renamed.

PRAGMA application_id = 1380338516;	-- 0x52464b54, "RFKT"
PRAGMA user_version = 17;

-- @migrate 13: a character's name is unique by a named index (see @since
-- 13 below); the table is moved aside here, rebuilt by the section
-- below and its rows copied back after it.  legacy_alter_table keeps the
-- holdings' REFERENCES naming character, not the table moved aside
-- (the index is only there in a database that was made at version 13
-- and marked older, as a test does).
PRAGMA legacy_alter_table = ON;
ALTER TABLE character RENAME TO character_v12;
DROP INDEX IF EXISTS character_name;

-- @since 1, rerun by 13: characters, the first layout
-- (tests/fixtures/schema-v1.sql), whose names became unique by an index
-- of their own in version 13.

-- A CRS character.  Primary stats (ene ... level) are NULL when the game
-- does not use them; the given_* columns hold secondary stats given
-- directly, which win over the computed ones.  Computed secondary stats
-- are not stored: they are derived from these columns when read.
CREATE TABLE character (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL
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
CREATE UNIQUE INDEX character_name ON character(name);

-- @migrate 13: the rows of the version 12 table, which has the same
-- columns.
INSERT INTO character SELECT * FROM character_v12;
DROP TABLE character_v12;
PRAGMA legacy_alter_table = OFF;

-- @since 2: items and powers, and who holds which.

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

-- @since 3: combats (crs-combat).

-- A combat (crs-combat).  Its state is not stored: it is derived from its
-- events, which are only ever appended.
CREATE TABLE combat (
	id		INTEGER PRIMARY KEY,
	rules		TEXT NOT NULL DEFAULT 'crs'
			CHECK (rules IN ('crs', 'avatar')),
	created		INTEGER NOT NULL
) STRICT;

-- @migrate 4: version 4 gave event columns in the middle (aimed ...
-- negated) and more actions in its CHECK, which SQLite can only do by
-- building the table anew.  The old table and its indexes are moved
-- aside here; the section below creates the new ones, and the @migrate
-- section after it copies the rows.  (A database that steps 3 and 4
-- both run on rebuilds an empty table.)
ALTER TABLE event RENAME TO event_v3;
DROP INDEX event_by_actor;
DROP INDEX event_by_target;
DROP INDEX event_undone;

-- @migrate 12: the CHECKs of the event table become ORs (see @since 12
-- below); the table and its indexes are moved aside here, rebuilt by the
-- section below, and the rows copied back after it.
ALTER TABLE event RENAME TO event_v11;
DROP INDEX event_by_actor;
DROP INDEX event_by_target;
DROP INDEX event_undone;

-- @since 3, rerun by 4 and 12: the events of a combat.

-- One event of a combat: who did what to whom with which cards, every
-- part of each calculation, and the outcome.  seq counts 1, 2, 3 ... per
-- combat with no gaps.  cards and vs_cards are faces in the order drawn
-- ("10,7"); virt and vs_virt say they were drawn by the generator from
-- seed, else typed in from a player's deck.  An undo event names the seq
-- it reverses in undoes.  shares = 1 marks a further target of the
-- action just before it, which shares that action's offence (an
-- Intimidation or a group power).  aimed is the declared target when the
-- action struck someone else (a melee draw, Taking a Blow); item and
-- vs_item the supplemental items, power the power used, em_* the
-- actor's EM; feet a distance (range); until the end of a flee's
-- lockout; free a free action (after a Charge, or the free Flee at the
-- end); surprise a Surprise action; negated an action a reaction
-- negated.  detail holds, as JSON, what has no column: a join's stats,
-- the draws of an initiative or a flee's catches, a charge's new
-- distances, item and power figures as used, skills, the reaction's
-- calculation, the combat's rules and lockout (start).
CREATE TABLE event (
	id		INTEGER PRIMARY KEY,
	combat_id	INTEGER NOT NULL REFERENCES combat(id),
	seq		INTEGER NOT NULL CHECK (seq >= 1),
	round		INTEGER NOT NULL CHECK (round >= 1),
	action		TEXT NOT NULL CHECK (action = 'start'
			OR action = 'join' OR action = 'round'
			OR action = 'stance' OR action = 'initiative'
			OR action = 'attack' OR action = 'mental'
			OR action = 'pass' OR action = 'undo'
			OR action = 'end' OR action = 'dead'
			OR action = 'range' OR action = 'flee'
			OR action = 'charge' OR action = 'blow'
			OR action = 'power' OR action = 'swap'),
	actor		TEXT,
	target		TEXT,
	range		TEXT CHECK (range IN ('short', 'long')),
	kind		TEXT CHECK (kind = 'attack'
			OR kind = 'suggestion' OR kind = 'intimidation'
			OR kind = 'coercion'),
	use		INTEGER,
	mod		INTEGER NOT NULL DEFAULT 0,
	vs_mod		INTEGER NOT NULL DEFAULT 0,
	cards		TEXT,
	virt		INTEGER NOT NULL DEFAULT 0 CHECK (virt IN (0, 1)),
	vs_cards	TEXT,
	vs_virt		INTEGER NOT NULL DEFAULT 0 CHECK (vs_virt IN (0, 1)),
	special		TEXT,
	base		INTEGER,
	vs_base		INTEGER,
	offense		INTEGER CHECK (offense >= 0),
	defense		INTEGER CHECK (defense >= 0),
	hit		INTEGER CHECK (hit IN (0, 1)),
	damage		INTEGER CHECK (damage >= 0),
	life_before	INTEGER,
	life_after	INTEGER CHECK (life_after >= 0),
	fumble		INTEGER NOT NULL DEFAULT 0 CHECK (fumble IN (0, 1)),
	vs_fumble	INTEGER NOT NULL DEFAULT 0 CHECK (vs_fumble IN (0, 1)),
	undoes		INTEGER,
	shares		INTEGER NOT NULL DEFAULT 0 CHECK (shares IN (0, 1)),
	agreed		INTEGER NOT NULL DEFAULT 0 CHECK (agreed IN (0, 1)),
	aimed		TEXT,
	item		TEXT,
	vs_item		TEXT,
	power		TEXT,
	em_spent	INTEGER CHECK (em_spent >= 0),
	em_before	INTEGER,
	em_after	INTEGER CHECK (em_after >= 0),
	feet		INTEGER CHECK (feet >= 0),
	until		INTEGER,
	free		INTEGER NOT NULL DEFAULT 0 CHECK (free IN (0, 1)),
	surprise	INTEGER NOT NULL DEFAULT 0 CHECK (surprise IN (0, 1)),
	negated		INTEGER NOT NULL DEFAULT 0 CHECK (negated IN (0, 1)),
	detail		TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(detail)),
	seed		TEXT,
	gm		TEXT,
	time		INTEGER NOT NULL,
	UNIQUE (combat_id, seq)
) STRICT;
CREATE INDEX event_by_actor ON event(actor, combat_id);
CREATE INDEX event_by_target ON event(target, combat_id);
CREATE INDEX event_undone ON event(combat_id, undoes)
	WHERE undoes IS NOT NULL;

-- @migrate 4: the rows of the version 3 table, every column it had.
INSERT INTO event (id, combat_id, seq, round, action, actor, target,
	range, kind, use, mod, vs_mod, cards, virt, vs_cards, vs_virt,
	special, base, vs_base, offense, defense, hit, damage,
	life_before, life_after, fumble, vs_fumble, undoes, shares,
	agreed, detail, seed, gm, time)
SELECT id, combat_id, seq, round, action, actor, target, range, kind,
	use, mod, vs_mod, cards, virt, vs_cards, vs_virt, special, base,
	vs_base, offense, defense, hit, damage, life_before, life_after,
	fumble, vs_fumble, undoes, shares, agreed, detail, seed, gm,
	time
FROM event_v3;
DROP TABLE event_v3;

-- @migrate 12: the rows of the version 11 table, which has the same
-- columns.
INSERT INTO event SELECT * FROM event_v11;
DROP TABLE event_v11;

-- @since 5: the D6 System (d6-roll).

-- A D6 System character (seed 004): attributes and skills are die codes,
-- kept in d6_trait; Character, Force and Dark Side Points are counts.
CREATE TABLE d6_character (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL
			CHECK (length(name) BETWEEN 1 AND 200),
	cp		INTEGER NOT NULL DEFAULT 5 CHECK (cp BETWEEN 0 AND 10000),
	fp		INTEGER NOT NULL DEFAULT 1 CHECK (fp BETWEEN 0 AND 1000),
	dsp		INTEGER NOT NULL DEFAULT 0 CHECK (dsp BETWEEN 0 AND 1000),
	notes		TEXT CHECK (length(notes) <= 10000),
	created		INTEGER NOT NULL,
	updated		INTEGER NOT NULL
) STRICT;

-- An attribute (attribute IS NULL) or a skill of one (the attribute's
-- name).  A skill's code is its whole code, not the dice over the
-- attribute.
CREATE TABLE d6_trait (
	character_id	INTEGER NOT NULL
			REFERENCES d6_character(id) ON DELETE CASCADE,
	name		TEXT NOT NULL COLLATE NOCASE
			CHECK (length(name) BETWEEN 1 AND 100
			       AND instr(name, '.') = 0
			       AND instr(name, '=') = 0),
	attribute	TEXT COLLATE NOCASE,
	dice		INTEGER NOT NULL CHECK (dice BETWEEN 1 AND 100),
	pips		INTEGER NOT NULL CHECK (pips BETWEEN -100 AND 100),
	PRIMARY KEY (character_id, name)
) STRICT;

-- Every roll made for a stored character, with what it spent.  The name
-- is kept as text so that the record outlives the sheet.
CREATE TABLE d6_roll (
	id		INTEGER PRIMARY KEY,
	character	TEXT NOT NULL,
	round		TEXT CHECK (length(round) <= 100),
	trait		TEXT NOT NULL,
	code		TEXT NOT NULL,		-- as rolled
	seed		TEXT NOT NULL,		-- decimal, 64 bits
	total		INTEGER NOT NULL,
	cp		INTEGER NOT NULL DEFAULT 0 CHECK (cp BETWEEN 0 AND 5),
	fp		INTEGER NOT NULL DEFAULT 0 CHECK (fp IN (0, 1)),
	detail		TEXT NOT NULL CHECK (json_valid(detail)),
	time		INTEGER NOT NULL
) STRICT;
CREATE INDEX d6_roll_by_round ON d6_roll(character, round);

-- @since 6: Force Battles (fb-duel).  Migration 5 -> 6 runs this part of
-- the file as it stands, so it only creates and inserts.

-- A Force Battles board: its six targets (one per role) with their faces
-- on the two target tables, and its spheres, each touching some targets.
-- The default board is RULINGS 2; a group may add its own.
CREATE TABLE fb_board (
	name		TEXT PRIMARY KEY COLLATE NOCASE
			CHECK (length(name) BETWEEN 1 AND 23
			       AND name NOT GLOB '*[^A-Za-z0-9_.-]*')
) STRICT;

CREATE TABLE fb_target (
	board		TEXT NOT NULL REFERENCES fb_board(name)
			ON DELETE CASCADE,
	role		TEXT NOT NULL CHECK (role IN ('head', 'left-arm',
			'right-arm', 'torso', 'left-leg', 'right-leg')),
	name		TEXT NOT NULL COLLATE NOCASE
			CHECK (length(name) BETWEEN 1 AND 23
			       AND name NOT GLOB '*[^A-Za-z0-9_.-]*'),
	face		INTEGER NOT NULL CHECK (face BETWEEN 1 AND 6),
	alt		INTEGER NOT NULL CHECK (alt BETWEEN 1 AND 6),
	PRIMARY KEY (board, role),
	UNIQUE (board, name), UNIQUE (board, face), UNIQUE (board, alt)
) STRICT;

-- pos orders the spheres (1 to 8); role marks the center sphere and the
-- bottom ones.
CREATE TABLE fb_sphere (
	board		TEXT NOT NULL REFERENCES fb_board(name)
			ON DELETE CASCADE,
	pos		INTEGER NOT NULL CHECK (pos BETWEEN 1 AND 8),
	name		TEXT NOT NULL COLLATE NOCASE
			CHECK (length(name) BETWEEN 1 AND 23
			       AND name NOT GLOB '*[^A-Za-z0-9_.-]*'),
	role		TEXT CHECK (role IN ('center', 'lower')),
	PRIMARY KEY (board, pos),
	UNIQUE (board, name)
) STRICT;

CREATE TABLE fb_touch (
	board		TEXT NOT NULL,
	pos		INTEGER NOT NULL,
	role		TEXT NOT NULL,
	PRIMARY KEY (board, pos, role),
	FOREIGN KEY (board, pos) REFERENCES fb_sphere(board, pos)
	    ON DELETE CASCADE,
	FOREIGN KEY (board, role) REFERENCES fb_target(board, role)
	    ON DELETE CASCADE
) STRICT;

INSERT INTO fb_board VALUES ('default');
INSERT INTO fb_target VALUES
	('default', 'head', 'head', 1, 1),
	('default', 'left-arm', 'left-arm', 2, 3),
	('default', 'right-arm', 'right-arm', 3, 2),
	('default', 'torso', 'torso', 4, 4),
	('default', 'left-leg', 'left-leg', 5, 6),
	('default', 'right-leg', 'right-leg', 6, 5);
INSERT INTO fb_sphere VALUES
	('default', 1, 'upper-left', NULL),
	('default', 2, 'upper-right', NULL),
	('default', 3, 'center', 'center'),
	('default', 4, 'left', NULL),
	('default', 5, 'right', NULL),
	('default', 6, 'lower-left', 'lower'),
	('default', 7, 'lower-right', 'lower');
INSERT INTO fb_touch VALUES
	('default', 1, 'head'), ('default', 1, 'left-arm'),
	('default', 2, 'head'), ('default', 2, 'right-arm'),
	('default', 3, 'head'), ('default', 3, 'left-arm'),
	('default', 3, 'right-arm'), ('default', 3, 'torso'),
	('default', 4, 'left-arm'), ('default', 4, 'torso'),
	('default', 5, 'right-arm'), ('default', 5, 'torso'),
	('default', 6, 'torso'), ('default', 6, 'left-leg'),
	('default', 7, 'torso'), ('default', 7, 'right-leg');

-- A duelist's sheet.  stance holds the counters as KEY=VALUE words
-- ("center=4 att=6 rage=2"); slots not named hold 0, and what the stance
-- does not place is the pool.  Names are single words, so that the
-- ledger's inputs can name them.
CREATE TABLE fb_duelist (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE COLLATE NOCASE
			CHECK (length(name) BETWEEN 1 AND 40
			       AND name NOT GLOB '*[^A-Za-z0-9_.-]*'),
	side		TEXT NOT NULL CHECK (side IN ('light', 'dark')),
	hand		TEXT NOT NULL CHECK (hand IN ('left', 'right')),
	colour		TEXT NOT NULL CHECK (colour IN ('green', 'orange',
			'blue', 'red', 'purple', 'yellow')),
	level		TEXT NOT NULL CHECK (level IN ('learner', 'initiate',
			'templar', 'diamedes')),
	free_geas	TEXT CHECK (free_geas IN ('push', 'pull', 'jump',
			'sight', 'speed', 'hide', 'mind-trick', 'heal',
			'protect', 'absorb', 'lightning', 'rage', 'choke')),
	board		TEXT NOT NULL DEFAULT 'default'
			REFERENCES fb_board(name),
	stance		TEXT NOT NULL CHECK (length(stance) <= 1000),
	notes		TEXT CHECK (length(notes) <= 10000),
	created		INTEGER NOT NULL,
	updated		INTEGER NOT NULL
) STRICT;

-- A duel.  Its start event holds the board and both sheets as they were,
-- so that later edits never change a recorded duel.
CREATE TABLE fb_duel (
	id		INTEGER PRIMARY KEY,
	a		TEXT NOT NULL,
	b		TEXT NOT NULL,
	board		TEXT NOT NULL,
	created		INTEGER NOT NULL
) STRICT;

-- @migrate 12: fb_event is rebuilt as event is (@since 12 below).
ALTER TABLE fb_event RENAME TO fb_event_v11;

-- @since 6, rerun by 12: the events of a duel.

-- One event of a duel, appended and never changed; the duel's state is
-- derived by running the inputs again.  input holds the command's
-- options with every die filled in (fb-duel(1) gives the syntax); outcome,
-- ended and winner repeat what the event produced, for queries; detail
-- holds the whole report as JSON.  An undo event names the seq it
-- reverses in undoes.
CREATE TABLE fb_event (
	id		INTEGER PRIMARY KEY,
	duel_id		INTEGER NOT NULL REFERENCES fb_duel(id),
	seq		INTEGER NOT NULL CHECK (seq >= 1),
	round		INTEGER NOT NULL CHECK (round >= 1),
	action		TEXT NOT NULL CHECK (action = 'start'
			OR action = 'geas' OR action = 'init'
			OR action = 'aim' OR action = 'round'
			OR action = 'restance' OR action = 'undo'),
	actor		TEXT,
	input		TEXT NOT NULL,
	outcome		TEXT CHECK (outcome = 'pass'
			OR outcome = 'hit-block'
			OR outcome = 'botch-block'
			OR outcome = 'double-botch' OR outcome = 'hit'
			OR outcome = 'kick' OR outcome = 'choke'),
	ended		TEXT CHECK (ended = 'maimed'
			OR ended = 'cut-off' OR ended = 'legs'
			OR ended = 'converted'),
	winner		TEXT,
	seed		TEXT,
	undoes		INTEGER,
	detail		TEXT NOT NULL CHECK (json_valid(detail)),
	time		INTEGER NOT NULL,
	UNIQUE (duel_id, seq)
) STRICT;

-- @migrate 12: the rows of the version 11 table.
INSERT INTO fb_event SELECT * FROM fb_event_v11;
DROP TABLE fb_event_v11;

-- @since 7: Battle Grounds (bg-board).  Migration 6 -> 7 runs this part
-- of the file as it stands, so it only creates and inserts.

-- The names of the six Battle Stats, one per colour; red is Fighting
-- Skills by the rules, the others are the group's to name.
CREATE TABLE bg_stat (
	colour		TEXT PRIMARY KEY CHECK (colour IN ('red', 'orange',
			'yellow', 'green', 'blue', 'purple')),
	name		TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40)
) STRICT;

INSERT INTO bg_stat VALUES
	('red', 'Fighting Skills'), ('orange', 'Strength'),
	('yellow', 'Agility'), ('green', 'Intelligence'),
	('blue', 'Energy'), ('purple', 'Durability');

-- A team of figures.  pos keeps the team's order, which the setup
-- follows; powers holds attack power names joined with '+'.
CREATE TABLE bg_team (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE COLLATE NOCASE
			CHECK (length(name) BETWEEN 1 AND 31
			       AND name NOT GLOB '*[^A-Za-z0-9_.-]*'),
	created		INTEGER NOT NULL
) STRICT;

CREATE TABLE bg_figure (
	team_id		INTEGER NOT NULL REFERENCES bg_team(id)
			ON DELETE CASCADE,
	pos		INTEGER NOT NULL CHECK (pos BETWEEN 1 AND 16),
	name		TEXT NOT NULL COLLATE NOCASE
			CHECK (length(name) BETWEEN 1 AND 31
			       AND name NOT GLOB '*[^A-Za-z0-9_.-]*'),
	level		TEXT NOT NULL CHECK (level IN ('SA', 'I', 'II', 'III')),
	cosmic		INTEGER NOT NULL CHECK (cosmic IN (0, 1)),
	red		INTEGER NOT NULL CHECK (red BETWEEN 0 AND 99),
	orange		INTEGER NOT NULL CHECK (orange BETWEEN 0 AND 99),
	yellow		INTEGER NOT NULL CHECK (yellow BETWEEN 0 AND 99),
	green		INTEGER NOT NULL CHECK (green BETWEEN 0 AND 99),
	blue		INTEGER NOT NULL CHECK (blue BETWEEN 0 AND 99),
	purple		INTEGER NOT NULL CHECK (purple BETWEEN 0 AND 99),
	powers		TEXT NOT NULL DEFAULT '' CHECK (length(powers) <= 100),
	PRIMARY KEY (team_id, pos),
	UNIQUE (team_id, name)
) STRICT;

-- A game.  spec1 and spec2 hold both teams' figures as they were (one
-- figure spec a line, bg-board(1)), so that later edits never change a
-- recorded game; the setup follows from them.
CREATE TABLE bg_game (
	id		INTEGER PRIMARY KEY,
	team1		TEXT NOT NULL,
	team2		TEXT NOT NULL,
	advanced	INTEGER NOT NULL CHECK (advanced IN (0, 1)),
	safe_attack	INTEGER NOT NULL CHECK (safe_attack IN (0, 1)),
	spec1		TEXT NOT NULL,
	spec2		TEXT NOT NULL,
	created		INTEGER NOT NULL
) STRICT;

-- @migrate 12: bg_event is rebuilt as event is (@since 12 below).
ALTER TABLE bg_event RENAME TO bg_event_v11;

-- @since 7, rerun by 12: the events of a game.

-- One event of a game, appended and never changed; the game's state is
-- derived by running the inputs again from the setup.  input holds the
-- command's arguments with every die and choice filled in (bg-board(1)
-- gives the syntax); battle, ended and winner repeat what the event did,
-- for queries; detail holds the whole report as JSON.  An undo event
-- names the seq it reverses in undoes.
CREATE TABLE bg_event (
	id		INTEGER PRIMARY KEY,
	game_id		INTEGER NOT NULL REFERENCES bg_game(id),
	seq		INTEGER NOT NULL CHECK (seq >= 1),
	turn		INTEGER NOT NULL CHECK (turn >= 0),
	action		TEXT NOT NULL CHECK (action = 'place'
			OR action = 'move' OR action = 'power'
			OR action = 'die' OR action = 'pass'
			OR action = 'undo'),
	actor		TEXT,
	input		TEXT NOT NULL,
	battle		TEXT CHECK (battle IN ('won', 'lost')),
	ended		INTEGER NOT NULL DEFAULT 0 CHECK (ended IN (0, 1)),
	winner		TEXT,
	seed		TEXT,
	undoes		INTEGER,
	detail		TEXT NOT NULL CHECK (json_valid(detail)),
	time		INTEGER NOT NULL,
	UNIQUE (game_id, seq)
) STRICT;

-- @migrate 12: the rows of the version 11 table.
INSERT INTO bg_event SELECT * FROM bg_event_v11;
DROP TABLE bg_event_v11;

-- @since 8: each character's history of combats, kept as events are
-- appended.

-- What "crs-combat history" adds up, per character and combat, kept up
-- to date by the ledger in the transaction that appends each event, so
-- that a history need not read the events.  A row counts the events of
-- the combat, not undone, that name acted in (join, attack, mental,
-- power) or was the target of (attack, mental, power): how many
-- (events), the damage dealt and taken, how often an attack took name's
-- LIFE to 0 (downed), and name's fumbles in attack and defense.  An undo
-- takes its event's share away again; a row whose events are all undone
-- goes.  first_time and last_time bound the times of the events counted:
-- an undo leaves them as they were, so they may be wider than the events
-- left, never narrower.
CREATE TABLE history_combat (
	name		TEXT NOT NULL,
	combat_id	INTEGER NOT NULL REFERENCES combat(id),
	events		INTEGER NOT NULL CHECK (events >= 1),
	dealt		INTEGER NOT NULL CHECK (dealt >= 0),
	taken		INTEGER NOT NULL CHECK (taken >= 0),
	downed		INTEGER NOT NULL CHECK (downed >= 0),
	fumbles		INTEGER NOT NULL CHECK (fumbles >= 0),
	first_time	INTEGER NOT NULL,
	last_time	INTEGER NOT NULL CHECK (last_time >= first_time),
	PRIMARY KEY (name, combat_id)
) STRICT, WITHOUT ROWID;
-- A history since a time reads only the rows of the combats since.
CREATE INDEX history_combat_since ON history_combat(name, last_time);

-- The same over all of a character's combats: combats is the number of
-- its history_combat rows, the others their sums; first_time is at most
-- the time of its earliest event counted.
CREATE TABLE history (
	name		TEXT PRIMARY KEY,
	combats		INTEGER NOT NULL CHECK (combats >= 1),
	dealt		INTEGER NOT NULL CHECK (dealt >= 0),
	taken		INTEGER NOT NULL CHECK (taken >= 0),
	downed		INTEGER NOT NULL CHECK (downed >= 0),
	fumbles		INTEGER NOT NULL CHECK (fumbles >= 0),
	first_time	INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- @migrate 8: the histories of the events a version 7 database holds,
-- added up the way crs-combat history did it from the events themselves.
INSERT INTO history_combat (name, combat_id, events, dealt, taken, downed,
	fumbles, first_time, last_time)
WITH d AS (
	SELECT actor AS name, combat_id, damage AS dealt, 0 AS taken,
	    0 AS downed, fumble AS fumbles, time FROM event ev
	WHERE actor IS NOT NULL
	    AND action IN ('join', 'attack', 'mental', 'power')
	    AND NOT EXISTS (SELECT 1 FROM event u WHERE
	    u.combat_id = ev.combat_id AND u.undoes = ev.seq)
	UNION ALL
	SELECT target, combat_id, 0, damage,
	    life_after = 0 AND life_before > 0, vs_fumble, time FROM event ev
	WHERE target IS NOT NULL
	    AND action IN ('attack', 'mental', 'power')
	    AND NOT EXISTS (SELECT 1 FROM event u WHERE
	    u.combat_id = ev.combat_id AND u.undoes = ev.seq))
SELECT name, combat_id, count(*), sum(coalesce(dealt, 0)),
    sum(coalesce(taken, 0)), sum(coalesce(downed, 0)),
    sum(coalesce(fumbles, 0)), min(time), max(time)
FROM d GROUP BY name, combat_id;
INSERT INTO history (name, combats, dealt, taken, downed, fumbles,
	first_time)
SELECT name, count(*), sum(dealt), sum(taken), sum(downed), sum(fumbles),
    min(first_time)
FROM history_combat GROUP BY name;

-- @since 9: snapshots of derived state, a cache for the ledgers.

-- The state of a log (kind 'combat', 'duel' or 'game'; log the id in
-- that kind's table) after its event seq, in the kind's compact byte
-- form, written in the transaction that appends the event, so that a
-- command derives its state from here and the events after rather than
-- from the first event.  A cache, never a record: version names the
-- byte form and the rules that derived it, and a row of another version
-- than the tool's is never read; an undo that reaches back to or before
-- seq deletes the row; replays derive everything from the events and
-- compare.  Deleting every row loses nothing.
CREATE TABLE snapshot (
	kind		TEXT NOT NULL CHECK (kind IN ('combat', 'duel',
			    'game')),
	log		INTEGER NOT NULL CHECK (log >= 1),
	seq		INTEGER NOT NULL CHECK (seq >= 1),
	version		INTEGER NOT NULL,
	state		BLOB NOT NULL,
	PRIMARY KEY (kind, log, seq)
) STRICT, WITHOUT ROWID;

-- @since 10: stations (refkit station).  Every database is a station, a
-- place where records are made that may later be merged with another's
-- (refkit(1), refkit(7)).

-- The stations this database knows of: its own, and those whose records
-- it has received.  id is 128 random bits from the operating system as
-- 32 lowercase hexadecimal digits, made when the database is created
-- (or when an older one is migrated); name is for people ("table-2"),
-- from --station or $REFKIT_STATION, else the host name.
CREATE TABLE station (
	id		TEXT PRIMARY KEY
			CHECK (length(id) = 32 AND id NOT GLOB '*[^0-9a-f]*'),
	name		TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
	created		INTEGER NOT NULL
) STRICT;

-- Which of them this database is: one row, never merged.
CREATE TABLE station_self (
	one		INTEGER PRIMARY KEY CHECK (one = 1),
	id		TEXT NOT NULL REFERENCES station(id)
) STRICT;

INSERT INTO station (id, name, created)
VALUES (refkit_new_station_id(), refkit_station_name(), refkit_now());
INSERT INTO station_self (one, id) SELECT 1, id FROM station;

-- @since 11: keys unique across stations, and the record of changes
-- that stations exchange (refkit changes, refkit merge).

-- Every change a write made here, or that came from another station, as
-- one SQLite changeset (the session extension's binary form) per write
-- transaction.  origin is the station that made it and oseq counts that
-- station's changes 1, 2, 3 ...; no is this database's own order of
-- arrival, which "refkit changes export --since" counts in.  Rows are
-- only ever appended; a change that arrives twice is kept once.
CREATE TABLE change (
	no		INTEGER PRIMARY KEY,
	origin		TEXT NOT NULL REFERENCES station(id),
	oseq		INTEGER NOT NULL CHECK (oseq >= 1),
	time		INTEGER NOT NULL,
	data		BLOB NOT NULL CHECK (length(data) >= 1),
	UNIQUE (origin, oseq)
) STRICT;

-- @migrate 11: the rows of an older database take keys (refkit.db(5)).
-- A named record's is its name's (refkit_name_key), and the columns that
-- name it follow, children first; a log's and an event's id (every id
-- below 2^62, all an older refkit made) gain the station's tag times
-- 2^31, and so do the columns that name them.  Snapshots are a cache and
-- go; the next command writes them again.
CREATE TEMP TABLE key_base AS
SELECT refkit_station_tag(id) * 2147483648 AS b FROM station_self;
UPDATE holds_item SET character_id = (SELECT refkit_name_key(p.name) FROM
    character p WHERE p.id = holds_item.character_id);
UPDATE holds_power SET character_id = (SELECT refkit_name_key(p.name) FROM
    character p WHERE p.id = holds_power.character_id);
UPDATE character SET id = refkit_name_key(name);
UPDATE holds_item SET item_id = (SELECT refkit_name_key(p.name) FROM item p
    WHERE p.id = holds_item.item_id);
UPDATE item SET id = refkit_name_key(name);
UPDATE holds_power SET power_id = (SELECT refkit_name_key(p.name) FROM power
    p WHERE p.id = holds_power.power_id);
UPDATE power SET id = refkit_name_key(name);
UPDATE d6_trait SET character_id = (SELECT refkit_name_key(p.name) FROM
    d6_character p WHERE p.id = d6_trait.character_id);
UPDATE d6_character SET id = refkit_name_key(name);
UPDATE fb_duelist SET id = refkit_name_key(lower(name));
UPDATE bg_figure SET team_id = (SELECT refkit_name_key(lower(p.name)) FROM
    bg_team p WHERE p.id = bg_figure.team_id);
UPDATE bg_team SET id = refkit_name_key(lower(name));
-- The logs and their events, which may be millions, take their keys
-- 10,000 at a time: a statement after a line "-- in parts" is run again
-- until it changes no row (each run takes rows below 2^62 and gives them
-- keys above), and what the step has recorded may be taken as a part of
-- its change between two runs (db/db.c), so that the record of the
-- step does not grow with the database.
-- in parts
UPDATE combat SET id = id + (SELECT b FROM temp.key_base) WHERE id IN
    (SELECT id FROM combat WHERE id < 4611686018427387904 ORDER BY id
    LIMIT 10000);
-- in parts
UPDATE event SET id = id + (SELECT b FROM temp.key_base), combat_id =
    combat_id + (SELECT b FROM temp.key_base) WHERE id IN (SELECT id FROM
    event WHERE id < 4611686018427387904 ORDER BY id LIMIT 10000);
UPDATE history_combat SET combat_id = combat_id + (SELECT b FROM
    temp.key_base) WHERE combat_id < 4611686018427387904;
-- in parts
UPDATE d6_roll SET id = id + (SELECT b FROM temp.key_base) WHERE id IN
    (SELECT id FROM d6_roll WHERE id < 4611686018427387904 ORDER BY id
    LIMIT 10000);
-- in parts
UPDATE fb_duel SET id = id + (SELECT b FROM temp.key_base) WHERE id IN
    (SELECT id FROM fb_duel WHERE id < 4611686018427387904 ORDER BY id
    LIMIT 10000);
-- in parts
UPDATE fb_event SET id = id + (SELECT b FROM temp.key_base), duel_id =
    duel_id + (SELECT b FROM temp.key_base) WHERE id IN (SELECT id FROM
    fb_event WHERE id < 4611686018427387904 ORDER BY id LIMIT 10000);
-- in parts
UPDATE bg_game SET id = id + (SELECT b FROM temp.key_base) WHERE id IN
    (SELECT id FROM bg_game WHERE id < 4611686018427387904 ORDER BY id
    LIMIT 10000);
-- in parts
UPDATE bg_event SET id = id + (SELECT b FROM temp.key_base), game_id =
    game_id + (SELECT b FROM temp.key_base) WHERE id IN (SELECT id FROM
    bg_event WHERE id < 4611686018427387904 ORDER BY id LIMIT 10000);
DELETE FROM snapshot;
DROP TABLE temp.key_base;

-- @since 12: the ledgers' events check their lists of words with ORs.
-- SQLite turns an IN list of more than two values into a temporary
-- index each time a statement runs, so that every event inserted paid
-- for building two of them: a third of the time of applying another
-- station's events row by row.  The lists of event, fb_event and bg_event
-- are therefore written as ORs, which allow the same values; their
-- tables are rebuilt by the @migrate 12 sections above.  Nothing else
-- changes.

-- @since 13: a character's name is unique by the index character_name
-- instead of a UNIQUE in its column.  The two allow the same rows, but
-- an index of its own can be dropped and built again: a large import
-- (crs-stats import) writes its rows in the order of their keys, which
-- is no order of their names, and building the index afterwards from
-- the rows sorted once costs a tenth of keeping it up to date row by
-- row.  The table is rebuilt by the @migrate 13 sections above with the
-- same rows.  Nothing else changes.

-- @since 14: removals that every station settles alike (refkit(7), "A
-- record removed at one station").  A change records, in seen, what its
-- station had of every other station's changes when it was made: for
-- each station in increasing order of id, its 32-digit id and the number
-- (oseq) of the last of its changes, 8 bytes big-endian; empty when it
-- had none.  NULL for the changes made before this version, which
-- nobody knew then.
ALTER TABLE change ADD COLUMN seen BLOB;

-- The key of every row a change held here removed from a table that
-- travels (key: the primary key's values, each as its SQLite type, then
-- 8 bytes big-endian of a number, or the length and bytes of a text or
-- blob), and that change's origin and number.  An insert that another
-- station's change brings of such a key is passed over when that
-- station had not seen the removal: the record had been made there
-- without knowing it was removed.  This station's own; never merged.
CREATE TABLE gone (
	tbl		TEXT NOT NULL,
	key		BLOB NOT NULL,
	origin		TEXT NOT NULL REFERENCES station(id),
	oseq		INTEGER NOT NULL CHECK (oseq >= 1),
	PRIMARY KEY (tbl, key, origin, oseq)
) STRICT, WITHOUT ROWID;

-- @migrate 14: the removals in the changes an older database holds.
SELECT refkit_gone_note(origin, oseq, data) FROM change ORDER BY no;

-- @since 15: hash chains over the ledgers (refkit(7), "Trust"; db/chain.h).

-- Every event of a log, and every D6 roll, carries hash: SHA-256, as 64
-- lowercase hexadecimal digits, over the previous event's hash and the
-- event's own columns (all but hash, in the table's order, each with its
-- type), so that an event edited, removed, added or moved breaks the
-- chain where it was.  NULL only in a row that some other program
-- inserted.
ALTER TABLE event ADD COLUMN hash TEXT CHECK (length(hash) = 64);
ALTER TABLE fb_event ADD COLUMN hash TEXT CHECK (length(hash) = 64);
ALTER TABLE bg_event ADD COLUMN hash TEXT CHECK (length(hash) = 64);
ALTER TABLE d6_roll ADD COLUMN hash TEXT CHECK (length(hash) = 64);

-- The head of every chain: log kind's log (a combat, duel or game id;
-- for 'rolls', the D6 rolls a station made, the station's tag), its
-- last event's seq (for rolls, the roll's number at its station) and
-- hash.  Written in the transaction that appends the event, by the
-- station that owns the log, and travels with it, so that the log's
-- last events removed, or the whole log, are missed.  migrated is the
-- seq of the last event that the migration to this version chained
-- after the fact (NULL when every event was chained as it was written):
-- those events prove only that nothing changed after the migration.
CREATE TABLE chain (
	kind		TEXT NOT NULL CHECK (kind IN ('combat', 'duel',
			    'game', 'rolls')),
	log		INTEGER NOT NULL,
	seq		INTEGER NOT NULL CHECK (seq >= 1),
	hash		TEXT NOT NULL CHECK (length(hash) = 64),
	migrated	INTEGER CHECK (migrated BETWEEN 1 AND seq),
	PRIMARY KEY (kind, log)
) STRICT;

-- Sealed draws (refkit seal, refkit reveal; refkit(7), "Trust"; core/seal.h).
-- While a station is sealed, every virtual card and die that a ledger
-- records is derived from a secret seed: its commitment is published
-- first, the seed revealed after the event, and then anyone can check
-- every such draw.

-- The station's secret seeds, the newest last: seed is 32 random bytes
-- as 64 lowercase hexadecimal digits, commitment the SHA-256 of those
-- bytes followed by the station's 32-digit id (as text), in hex.
-- revealed is when refkit reveal printed the seed, NULL while it is
-- secret; refkit seal keeps at most one unrevealed.  This station's
-- own: never merged, since it holds the secret.
CREATE TABLE seal_secret (
	id		INTEGER PRIMARY KEY,
	seed		TEXT NOT NULL UNIQUE
			CHECK (length(seed) = 64 AND seed NOT GLOB '*[^0-9a-f]*'),
	commitment	TEXT NOT NULL UNIQUE
			CHECK (length(commitment) = 64),
	created		INTEGER NOT NULL,
	revealed	INTEGER
) STRICT;

-- Every seal, as the stations tell one another: the commitment, the
-- station that sealed, when, and when its seed was revealed (NULL
-- before).  The seed itself never travels here.
CREATE TABLE seal (
	commitment	TEXT PRIMARY KEY CHECK (length(commitment) = 64),
	station		TEXT NOT NULL REFERENCES station(id),
	created		INTEGER NOT NULL,
	revealed	INTEGER
) STRICT;

-- Which logs draw under which seal: the log's kind ('combat', 'duel',
-- 'game', or 'rolls' for a station's D6 rolls, whose log is the
-- station's tag and whose seq is a roll's number), the log's key, the
-- first seq drawn under the seal and the last (NULL while the seal is
-- unrevealed: every later one), the seal's commitment, and key_hash, the
-- SHA-256 of the log's own key, against which a key revealed for that
-- log alone is checked.
CREATE TABLE seal_log (
	kind		TEXT NOT NULL CHECK (kind = 'combat' OR kind = 'duel'
			    OR kind = 'game' OR kind = 'rolls'),
	log		INTEGER NOT NULL,
	first_seq	INTEGER NOT NULL CHECK (first_seq >= 1),
	last_seq	INTEGER,
	commitment	TEXT NOT NULL REFERENCES seal(commitment),
	key_hash	TEXT NOT NULL CHECK (length(key_hash) = 64),
	PRIMARY KEY (kind, log, first_seq)
) STRICT;

-- @migrate 15: the events an older database holds, chained in order,
-- each log's head marked as made by the migration.
SELECT refkit_chain_log('combat', id) FROM combat;
SELECT refkit_chain_log('duel', id) FROM fb_duel;
SELECT refkit_chain_log('game', id) FROM bg_game;
SELECT refkit_chain_log('rolls', t) FROM (SELECT DISTINCT id / 2147483648
    AS t FROM d6_roll) AS r;

-- @since 16: whose log it is (issue #37; refkit(7), "Many GMs, one
-- record").  A command that names no combat, duel or game acts on the
-- one its GM last started or acted in that is still open, which these
-- find.  Every event of a duel and of a game records its GM as a
-- combat's does (gm; NULL in the events written before this version),
-- and a game, which starts with no event, the GM who made it.
-- The hash chain leaves a NULL out of a column added after hash, so the
-- events chained before keep their hashes (db/chain.h).
ALTER TABLE fb_event ADD COLUMN gm TEXT;
ALTER TABLE bg_event ADD COLUMN gm TEXT;
ALTER TABLE bg_game ADD COLUMN gm TEXT;
CREATE INDEX event_by_gm ON event(gm, id) WHERE gm IS NOT NULL;
CREATE INDEX fb_event_by_gm ON fb_event(gm, id) WHERE gm IS NOT NULL;
CREATE INDEX bg_event_by_gm ON bg_event(gm, id) WHERE gm IS NOT NULL;

-- @since 17: a large change written before the transaction that makes
-- it (issue #37; refkit.db(5), "The record of changes").  An import of
-- many characters rehearses its writes outside the write lock; the
-- changes it will record, megabytes of them, are written beforehand in
-- short transactions of their own into change_rest, where nothing reads
-- them until a change names them, so that the write lock is held only
-- for the rows.  A change's changeset is its data followed, when rest is
-- set, by the data of that row of change_rest.  change_staged lists the
-- rows of change_rest that no change names yet, with when they were
-- written: the transaction that records the change takes its row out;
-- one left for an hour was written by an import that did not finish,
-- and the next large import removes it with its row of change_rest.
-- Neither table travels; both stay empty on a server.
ALTER TABLE change ADD COLUMN rest INTEGER;

CREATE TABLE change_rest (
	id		INTEGER PRIMARY KEY,
	data		BLOB NOT NULL CHECK (length(data) >= 1)
) STRICT;

CREATE TABLE change_staged (
	rest		INTEGER PRIMARY KEY REFERENCES change_rest(id),
	staged		INTEGER NOT NULL	-- Unix time, seconds
) STRICT, WITHOUT ROWID;
