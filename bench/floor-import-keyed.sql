-- The keyed floor of "crs-stats import" (bench/run.sh): the fair floor
-- (bench/floor-import.sql) making the rows refkit makes, each with its
-- name's key for its id (refkit_name_key, from bench/namekey.c), written
-- in the order of the keys, as refkit writes them.
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
INSERT INTO character (id, name, player, ene, str, int, cun, agi, con, cha, luc,
	level, s_or, s_dr, s_mind, s_life, s_in, s_em, s_lb)
SELECT refkit_name_key(name), name, player, ENE, STR, INT, CUN, AGI, CON, CHA, LUC, LEVEL,
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
	FROM temp.staging) ORDER BY 1;
.session s changeset keyed.changeset
.session s close
