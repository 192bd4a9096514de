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
	action		TEXT NOT NULL CHECK (action IN ('place', 'move',
			'power', 'die', 'pass', 'undo')),
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
