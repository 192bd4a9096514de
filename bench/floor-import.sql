-- The fair floor of "crs-stats import" (issue #40): the sqlite3 shell
-- doing the same work refkit does.  Every refkit write is recorded as a
-- changeset, so the shell records one too: a session on the table the
-- import writes (refkit's import of a roster without items or powers
-- records only "character"), the CSV loaded into a temporary table (not
-- recorded, as refkit's staging is not), the seven secondary stats
-- computed in one INSERT ... SELECT (bench/peer-import.sql's formulas),
-- and the session's changeset written to a file.
CREATE TABLE character (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE, player TEXT,
	ene INTEGER, str INTEGER, int INTEGER, cun INTEGER, agi INTEGER,
	con INTEGER, cha INTEGER, luc INTEGER, level INTEGER,
	s_or INTEGER, s_dr INTEGER, s_mind INTEGER, s_life INTEGER,
	s_in INTEGER, s_em INTEGER, s_lb INTEGER
) STRICT;
.session open main s
.session s attach character
.import --csv --schema temp roster.csv staging
INSERT INTO character (name, player, ene, str, int, cun, agi, con, cha, luc,
	level, s_or, s_dr, s_mind, s_life, s_in, s_em, s_lb)
SELECT name, player, ENE, STR, INT, CUN, AGI, CON, CHA, LUC, LEVEL,
	(4 * STR + AGI + 8) / 8,
	(4 * AGI + STR + 2 * CUN + 8) / 8,
	(3 * CHA + 2 * INT + CUN + 6) / 6,
	2 * CON,
	(2 * CUN + AGI) / 8,
	ENE / 3 + LEVEL,
	LUC / 6
FROM (SELECT name, player, CAST(ENE AS INTEGER) AS ENE,
	CAST(STR AS INTEGER) AS STR, CAST(INT AS INTEGER) AS INT,
	CAST(CUN AS INTEGER) AS CUN, CAST(AGI AS INTEGER) AS AGI,
	CAST(CON AS INTEGER) AS CON, CAST(CHA AS INTEGER) AS CHA,
	CAST(LUC AS INTEGER) AS LUC, CAST(LEVEL AS INTEGER) AS LEVEL
	FROM temp.staging);
.session s changeset floor.changeset
.session s close
