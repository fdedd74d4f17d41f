/*
 * verdict_words - the verdict and decision words (verdict_words.h).
 */
#include "rundown/verdict_words.h"

#include <string.h>

const char *const rd_verdict_words[RD_NVERDICT_WORDS] = {
    "best", "equivalent", "worse", "inconclusive", "disqualified"
};

const char *const rd_decision_words[RD_NDECISION_WORDS] = {
    "clear", "equivalent", "inconclusive", "no-data"
};

int rd_word_index(const char *const *words, size_t n, const char *word)
{
    for (size_t i = 0; word && i < n; i++)
        if (strcmp(word, words[i]) == 0)
            return (int)i;
    return -1;
}
