/*
 * verify.h - refkit verify (refkit(1), refkit(7) "Trust"): every hash
 * chain of a database checked (db/chain.h), every log replayed through
 * its game system's rules, a head written down earlier looked for, and
 * every sealed draw checked against a revealed seed or key
 * (core/seal.h).  Over the four systems' ledgers, so above them all.
 */
#ifndef REFKIT_TRUST_VERIFY_H
#define REFKIT_TRUST_VERIFY_H

#include <stddef.h>
#include <stdint.h>

/* What verify is asked. */
struct verify_ask {
	const char	*db;		/* the database, as --db names it */
	int		 json;		/* JSON output, else text */
	int		 no_replay;	/* the chains only */
	const char	*kind;		/* one log: "combat", "duel" or "game" */
	const char	*log;		/* ... and its key, as typed */
	const char	*head;		/* verify_head_digits' digits, or NULL */
	const char	*seed_text;	/* a seed file's text, or NULL */
	const char	*seed_name;	/* ... and the file, as messages name it */
};

/*
 * The digits of a head as typed ("1a2b 3c4d ..." as refkit head prints
 * them, spaces, dashes and colons left out, any case) into digits, lower
 * case; at least 16 of them.  Returns 0, or -1 with why.
 */
int verify_head_digits(const char *typed, char digits[65], char *why,
    size_t whysz);

/*
 * Verifies what a asks, printing each problem (a line, or a JSON object
 * of a "problems" array) and the summary to standard output.  The logs
 * are shared among a process per processor (up to 8), each on a
 * connection of its own; what they print comes out in the logs' order.
 * Returns 0 when everything holds, else 1; exits 1 with one line when
 * the database cannot be read, a named log does not exist, or the seed
 * is not the seal's.
 */
int verify_run(const struct verify_ask *a);

/* A log as users see it ("combat 3", "rolls 89abcdef"), into buf. */
const char *verify_log_text(const char *kind, int64_t log, char *buf,
    size_t sz);
/* The same for JSON: the log's key (a string for another station's). */
const char *verify_log_json(const char *kind, int64_t log, char *buf,
    size_t sz);

#endif
