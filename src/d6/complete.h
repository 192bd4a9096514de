/*
 * d6/complete.h - the grammar of d6-roll for shell completion
 * (term/complete.h), with the names it completes: D6 characters and
 * their traits, the charts, weapons and actions.
 */
#ifndef REFKIT_D6_COMPLETE_H
#define REFKIT_D6_COMPLETE_H

#include "term/complete.h"

extern const struct complete_tool d6complete_roll;

#endif
