/*
 * bg/pack.c - a Battle Grounds game's state as bytes and back; see
 * bg/pack.h.
 *
 * The order below is the byte form: a field added to struct bg_game or
 * struct bg_piece that play can change is added here too, and
 * BGPACK_FORMAT raised.  On the common 64-bit ABIs the size checks fail
 * the build when a struct grows and this file did not.
 *
 * What play changes, from bg.c: a piece's ctrl (Hypnotize, a release, a
 * returned loser), square and holder; the squares (derived here from the
 * pieces' squares, never stored, so that two pieces can never claim one
 * square); the turn, the moves, started, the Dice Zones, the credits,
 * over and the winner.  A piece's owner and the teams' figures never
 * change (Swap Powers swaps squares, not powers).
 */
#include "bg/pack.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(struct bg_piece) == 16,
    "struct bg_piece changed: pack its new field");
_Static_assert(sizeof(struct bg_game) == 3068,
    "struct bg_game changed: pack its new field");
#endif

void
bgpack_write(const struct bg_game *g, struct pack *p)
{
	pack_int(p, BGPACK_FORMAT);
	pack_int(p, g->team[0].n);
	pack_int(p, g->team[1].n);
	pack_int(p, g->turn);
	pack_int(p, g->moves);
	pack_int(p, g->started);
	pack_int(p, g->over);
	pack_int(p, g->winner);
	for (int k = 0; k < 2; k++) {
		pack_int(p, g->dicezone[k]);
		pack_int(p, g->credit[k]);
	}
	/* The pieces of figures a team fields; the rest never move. */
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < g->team[k].n; i++) {
			const struct bg_piece *pc = &g->pc[k * BG_MAXFIG + i];

			pack_int(p, pc->ctrl);
			pack_int(p, pc->sq);
			pack_int(p, pc->held);
		}
}

/*
 * Reads the pieces and sets the squares from them; 0, or -1 if two
 * pieces stand on one square or one on the board is held too.
 */
static int
read_pieces(struct unpack *u, struct bg_game *g)
{
	int nsq = g->w * g->h;

	for (int s = 0; s < BG_MAXSQ; s++)
		g->at[s] = -1;
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < g->team[k].n && !u->bad; i++) {
			int piece = k * BG_MAXFIG + i;
			struct bg_piece *pc = &g->pc[piece];

			pc->ctrl = (int)unpack_range(u, 0, 1);
			pc->sq = (int)unpack_range(u, -1, nsq - 1);
			pc->held = (int)unpack_range(u, -1, 1);
			if (u->bad || pc->sq < 0)
				continue;
			if (g->at[pc->sq] >= 0 || pc->held >= 0)
				return -1;
			g->at[pc->sq] = piece;
		}
	return 0;
}

int
bgpack_read(const void *buf, size_t len, const struct bg_team *a,
    const struct bg_team *b, int advanced, int safe_attack,
    struct bg_game *g)
{
	struct unpack u;
	int bad;

	bg_start(g, a, b, advanced, safe_attack);
	unpack_init(&u, buf, len);
	unpack_range(&u, BGPACK_FORMAT, BGPACK_FORMAT);
	unpack_range(&u, a->n, a->n);
	unpack_range(&u, b->n, b->n);
	g->turn = (int)unpack_range(&u, 0, 1);
	g->moves = (int)unpack_range(&u, 0, INT32_MAX);
	g->started = (int)unpack_range(&u, 0, 1);
	g->over = (int)unpack_range(&u, 0, 1);
	g->winner = (int)unpack_range(&u, -1, 1);
	for (int k = 0; k < 2; k++) {
		g->dicezone[k] = (unsigned)unpack_range(&u, 0,
		    (1 << BG_NDICE) - 1);
		g->credit[k] = (int)unpack_range(&u, 0, INT32_MAX);
	}
	bad = read_pieces(&u, g) != 0 || unpack_done(&u) != 0 ||
	    g->over != (g->winner >= 0);
	if (!bad)
		return 0;
	bg_start(g, a, b, advanced, safe_attack);
	return -1;
}
