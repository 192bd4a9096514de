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
	action		TEXT NOT NULL CHECK (action IN ('start', 'geas',
			'init', 'aim', 'round', 'restance', 'undo')),
	actor		TEXT,
	input		TEXT NOT NULL,
	outcome		TEXT CHECK (outcome IN ('pass', 'hit-block',
			'botch-block', 'double-botch', 'hit', 'kick',
			'choke')),
	ended		TEXT CHECK (ended IN ('maimed', 'cut-off', 'legs',
			'converted')),
	winner		TEXT,
	seed		TEXT,
	undoes		INTEGER,
	detail		TEXT NOT NULL CHECK (json_valid(detail)),
	time		INTEGER NOT NULL,
	UNIQUE (duel_id, seq)
) STRICT;

