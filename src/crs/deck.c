/*
 * deck.c - the Action Card deck and the pick engine; see deck.h.
 */
#include "crs/deck.h"

#include "base/util.h"

#include <stdio.h>
#include <string.h>

static const char *const face_names[11] = {
	"?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10"
};

const char *
deck_face_name(int face)
{
	return face >= 1 && face <= 10 ? face_names[face] : "?";
}

void
deck_init(struct deck *d, int lb)
{
	d->lb = lb;
	deck_clean_up(d);
}

void
deck_clean_up(struct deck *d)
{
	d->avail[0] = 0;
	for (int f = 1; f <= 9; f++)
		d->avail[f] = 1;
	d->avail[DECK_TEN] = 1 + d->lb;
}

int
deck_size(const struct deck *d)
{
	int n = 0;

	for (int f = 1; f <= 10; f++)
		n += d->avail[f];
	return n;
}

/* Why a face cannot be drawn from d now. */
static void
unavailable(const struct deck *d, int face, char *why, size_t whysz)
{
	if (face == DECK_TEN)
		snprintf(why, whysz, "no 10 is left in the deck (LB %d gives "
		    "%d; the rest are drawn or set aside)", d->lb, 1 + d->lb);
	else
		snprintf(why, whysz, "the %s is not in the deck (drawn or set "
		    "aside this round)", deck_face_name(face));
}

int
deck_set_aside(struct deck *d, const int *faces, int n, char *why,
    size_t whysz)
{
	struct deck t = *d;

	for (int i = 0; i < n; i++) {
		int f = faces[i];

		if (f == DECK_ACE) {
			snprintf(why, whysz, "an Ace is never set aside: it "
			    "goes back into the deck at once");
			return -1;
		}
		if (t.avail[f] == 0) {
			if (f == DECK_TEN)
				snprintf(why, whysz, "more 10s set aside than "
				    "the %d in a deck of LB %d", 1 + d->lb,
				    d->lb);
			else
				snprintf(why, whysz, "the %s is set aside "
				    "twice", deck_face_name(f));
			return -1;
		}
		t.avail[f]--;
	}
	*d = t;
	return 0;
}

/* Virtual source: the k-th available card, k uniform. */
static int
virtual_draw(void *ctx, const struct deck *d, int ace_out, char *why,
    size_t whysz)
{
	int n = deck_size(d) - (ace_out ? d->avail[DECK_ACE] : 0);
	uint64_t k;

	(void)why;
	(void)whysz;
	if (n == 0)
		return 0;
	k = rng_below(ctx, (uint64_t)n);
	for (int f = 1; f <= 10; f++) {
		int have = f == DECK_ACE && ace_out ? 0 : d->avail[f];

		if (k < (uint64_t)have)
			return f;
		k -= (uint64_t)have;
	}
	return 0;
}

struct deck_source
deck_virtual(struct rng *r)
{
	struct deck_source s = { virtual_draw, r };

	return s;
}

/*
 * Physical source: hands out the typed cards in order; the engine checks
 * them.  A special draw takes the separately typed special card.
 */
static int
physical_draw(void *ctx, const struct deck *d, int ace_out, char *why,
    size_t whysz)
{
	struct deck_typed *t = ctx;
	int face;

	if (ace_out) {
		/* The special draw of a defensive fumble. */
		if (t->special == 0) {
			if (deck_size(d) - d->avail[DECK_ACE] == 0)
				return 0;
			snprintf(why, whysz, "the defence drew an Ace: give "
			    "the special card drawn with the Ace held out");
			return -1;
		}
		face = t->special;
		t->special_used = 1;
		if (face == DECK_ACE) {
			snprintf(why, whysz, "the special card cannot be the "
			    "Ace: it is held out of that draw");
			return -1;
		}
		if (d->avail[face] == 0) {
			unavailable(d, face, why, whysz);
			return -1;
		}
		return face;
	}
	if (t->next >= t->n) {
		if (deck_size(d) == 0)
			return 0;
		if (t->n > 0 && t->faces[t->n - 1] == DECK_TEN)
			snprintf(why, whysz, "the pick stops right after a "
			    "10: a 10 must be followed by another card");
		else
			snprintf(why, whysz, "the pick needs another card");
		return -1;
	}
	face = t->faces[t->next];
	if (d->avail[face] == 0) {
		snprintf(why, whysz, "card %d: ", t->next + 1);
		unavailable(d, face, why + strlen(why), whysz - strlen(why));
		return -1;
	}
	t->next++;
	return face;
}

struct deck_source
deck_physical(struct deck_typed *t)
{
	struct deck_source s = { physical_draw, t };

	t->next = 0;
	t->special_used = 0;
	return s;
}

int
deck_pick(struct deck *d, int kind, int ncards, struct deck_source *src,
    struct deck_pick *p, char *why, size_t whysz)
{
	struct deck work = *d;
	int face, sum = 0;

	memset(p, 0, sizeof *p);
	p->kind = kind;
	p->special = -1;
	for (int i = 0; i < ncards && !p->fumble && !p->empty; i++) {
		/* One card, then one more after every 10. */
		do {
			face = src->draw(src->ctx, &work, 0, why, whysz);
			if (face < 0)
				return -1;
			if (face == 0) {
				p->empty = 1;
				break;
			}
			p->cards[p->ncards++] = face;
			work.avail[face]--;
			if (face == DECK_ACE) {
				p->fumble = 1;
				break;
			}
			sum += face;
		} while (face == DECK_TEN);
	}
	if (src->draw == physical_draw) {
		struct deck_typed *t = src->ctx;

		if (t->next < t->n) {
			snprintf(why, whysz, "card %d: the %s comes after the "
			    "pick was over (%s)", t->next + 1,
			    deck_face_name(t->faces[t->next]), p->fumble ?
			    "an Ace ends it" : p->empty ? "the deck ran out" :
			    "every card and every 10 had its card");
			return -1;
		}
		if (t->special != 0 && !(kind == DECK_DEFENSE && p->fumble)) {
			snprintf(why, whysz, "a special card is drawn only "
			    "after an Ace in a defence");
			return -1;
		}
	}
	if (kind == DECK_DEFENSE && p->fumble) {
		/* The Ace stays out for this one draw; a 10 here forces
		 * nothing. */
		face = src->draw(src->ctx, &work, 1, why, whysz);
		if (face < 0)
			return -1;
		p->special = face;
		if (face > 0)
			work.avail[face]--;
	}
	p->value = p->fumble || p->empty ? 0 : sum;
	/* Aces go back at once; initiative cards all go back. */
	if (kind == DECK_INITIATIVE)
		work = *d;
	else
		work.avail[DECK_ACE] = d->avail[DECK_ACE];
	*d = work;
	return 0;
}

int
deck_total(const struct deck_pick *p, int base)
{
	int t;

	if (p->kind == DECK_DEFENSE && p->fumble) {
		if (p->special == 0)
			return 0;
		t = base - (p->special == DECK_TEN ? 0 : p->special);
		return t < 0 ? 0 : t;
	}
	if (p->fumble || p->empty)
		return 0;
	t = base + p->value;
	return t < 0 ? 0 : t;
}

int
deck_parse_list(const char *s, int *faces, int max, char *why,
    size_t whysz)
{
	int n = 0;
	const char *p = s;

	if (*s == '\0')
		return 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		char tok[8];
		long v;

		if (len == 0 || len >= sizeof tok) {
			util_say(why, whysz, "'%.*s' is not a card (A or 1, "
			    "2 to 10)", len >= sizeof tok ? 7 : (int)len, p);
			return -1;
		}
		memcpy(tok, p, len);
		tok[len] = '\0';
		if (util_streq_ci(tok, "A"))
			v = DECK_ACE;
		else if (util_parse_int(tok, 1, 10, &v) != UTIL_INT_OK ||
		    tok[0] == '+' || tok[0] == '-') {
			util_say(why, whysz, "'%s' is not a card (A or 1, 2 "
			    "to 10)", tok);
			return -1;
		}
		if (n == max) {
			snprintf(why, whysz, "more than %d cards", max);
			return -1;
		}
		faces[n++] = (int)v;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	return n;
}
