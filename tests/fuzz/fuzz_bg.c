/*
 * fuzz_bg.c - bg-board's text forms.  The first byte, '0' to '2', picks
 * the mode:
 *   0: the input is a team file (figure specs, one a line), which must
 *      print back to itself and then pass or fail the line-up check;
 *   1, 2: a basic or advanced game between two built-in teams, the input
 *      its actions, one a line ("move Hulk c3 --roll 4", "place ...",
 *      "power ...", "die 1 3", "pass"), each applied as the ledger
 *      replays it.  A refused action must leave the game as it was; an
 *      accepted one's canonical text, replayed on the game before it,
 *      must give the same game.
 */
#include "common.h"

#include "bg/bg.h"
#include "bg/text.h"
#include "bg/ledger.h"
#include "base/rng.h"

/* Line-up counts, SA to III, basic then advanced. */
static const int counts[2][BG_NLEVEL] = { { 2, 4, 4, 2 }, { 2, 6, 4, 4 } };

static struct bg_team
team(const char *name, int advanced)
{
	struct bg_team t;
	int k = 0;

	memset(&t, 0, sizeof t);
	snprintf(t.name, sizeof t.name, "%s", name);
	for (int l = BG_III; l >= BG_SA; l--)
		for (int i = 0; i < counts[advanced][l]; i++, k++) {
			struct bg_figure *f = &t.f[t.n++];

			snprintf(f->name, sizeof f->name, "%s%d", name, k);
			f->level = l;
			f->cosmic = l == BG_III && i == 0;
			for (int c = 0; c < BG_NSTAT; c++)
				f->stat[c] = (k * 7 + c * 3) % 10 + 1;
			if (k % 3 == 0)
				f->powers = 1u << (k / 3 % BG_NPOWER);
		}
	return t;
}

static void
ignore(void *arg, const char *m)
{
	(void)arg;
	FUZZ_CHECK(m[0] != '\0');
}

static void
team_text(const char *text)
{
	static struct bg_team t, back;
	char why[BG_WHYSZ] = "", *canon, *again;

	memset(&t, 0, sizeof t);
	if (bgtext_team_parse(text, &t, why, sizeof why) != 0) {
		FUZZ_WHY(why);
		return;
	}
	canon = bgtext_team_format(&t);
	memset(&back, 0, sizeof back);
	FUZZ_CHECK(bgtext_team_parse(canon, &back, why, sizeof why) == 0);
	again = bgtext_team_format(&back);
	FUZZ_CHECK(strcmp(canon, again) == 0);
	(void)bg_team_check(&t, 0, ignore, NULL);
	(void)bg_team_check(&t, 1, ignore, NULL);
	free(canon);
	free(again);
}

static void
game(char *text, int advanced, uint64_t seed)
{
	static struct bg_game g, before, replay;
	struct bg_team a = team("A", advanced), b = team("B", advanced);
	struct bg_report r;
	struct rng rng, fixed;
	char why[BG_WHYSZ], *line, *next, *input, *canon;

	bg_start(&g, &a, &b, advanced, (int)(seed & 1));
	rng_seed(&rng, seed);
	for (line = text; line; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		input = strchr(line, ' ');
		if (input)
			*input++ = '\0';
		else
			input = line + strlen(line);
		before = g;
		why[0] = '\0';
		canon = NULL;
		if (bgledger_apply(&g, line, input, &rng, &r, &canon, why,
		    sizeof why) != 0) {
			FUZZ_WHY(why);
			FUZZ_CHECK(memcmp(&g, &before, sizeof g) == 0);
			free(canon);
			continue;
		}
		if (canon == NULL)
			continue;
		/* The canonical text gives every die: no roll is needed. */
		replay = before;
		rng_seed(&fixed, ~seed);
		FUZZ_CHECK(bgledger_apply(&replay, line, canon, &fixed, &r,
		    NULL,
		    why, sizeof why) == 0);
		FUZZ_CHECK(memcmp(&g, &replay, sizeof g) == 0);
		free(canon);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 1)
		return 0;
	s = fuzz_str(data + 1, size - 1);
	switch ((uint8_t)(data[0] - '0') % 3) {
	case 0: team_text(s); break;
	case 1: game(s, 0, size); break;
	default: game(s, 1, size); break;
	}
	free(s);
	return 0;
}
