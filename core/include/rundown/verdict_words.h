/*
 * verdict_words.h - the one spelling of the verdict and decision words of
 * analysis.json (docs/analysis.md, "Verdicts"): analyze writes them
 * (stats/verdict.c), render reads and prints them (render/model.c,
 * render/verdicts.c). Never rename one: other tools read them.
 */
#ifndef RUNDOWN_VERDICT_WORDS_H
#define RUNDOWN_VERDICT_WORDS_H

#include <stddef.h>

enum { RD_NVERDICT_WORDS = 5, RD_NDECISION_WORDS = 4 };

/** "best", "equivalent", "worse", "inconclusive", "disqualified": the
 *  order of stats/verdict.h's enum rd_verdict. */
extern const char *const rd_verdict_words[RD_NVERDICT_WORDS];

/** "clear", "equivalent", "inconclusive", "no-data": the order of
 *  stats/verdict.h's enum rd_decision. */
extern const char *const rd_decision_words[RD_NDECISION_WORDS];

/** The index of word in words[0..n), or -1 (also for NULL). */
int rd_word_index(const char *const *words, size_t n, const char *word);

#endif
