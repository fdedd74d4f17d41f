/*
 * claims.h - a published study's relative claims checked against this
 * machine's runs (private to analyze/).
 *
 * A claim is a ratio between two configs ("Node's cold start is 3.2×
 * Bun's") or an order of configs on a metric ("Bun, then Deno, then
 * Node"), as docs/published.md's `claims` list states them. Ratios carry
 * across machines where absolute numbers do not, so each claim is judged
 * `consistent`, `contradicted` or `inconclusive` by the rules of
 * docs/methods.md ("Claims"): the two judge functions below are those
 * rules and nothing else, so they can be tested on hand-made numbers.
 */
#ifndef RUNDOWN_ANALYZE_CLAIMS_H
#define RUNDOWN_ANALYZE_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/status.h"

struct cJSON;
struct cfg;
struct jw;
struct rd_analysis;
struct rd_diag;

enum rd_claim_judgement {
    RD_CLAIM_NOT_EVALUATED = 0,  /* a config or the metric is missing here */
    RD_CLAIM_CONSISTENT,
    RD_CLAIM_CONTRADICTED,
    RD_CLAIM_INCONCLUSIVE,
};

/** "consistent", "contradicted", "inconclusive", or NULL (not evaluated). */
const char *rd_claim_judgement_name(enum rd_claim_judgement j);

/**
 * Judges a ratio claim. The study's ratio A/B lies in [claim_lo,
 * claim_hi] (claim_lo == claim_hi for a ratio it gave; claim_hi INFINITY
 * for "at least claim_lo", claim_lo 0 for "at most claim_hi"); margin is
 * the workload's relative equivalence margin; [ci_low, ci_high] is this
 * machine's interval of the ratio of means (Fieller). The claim's band is
 * [claim_lo (1 - margin), claim_hi (1 + margin)]:
 *   the CI misses the band                               contradicted
 *   the band lies above 1 and the CI overlaps it, above 1  consistent
 *   the band lies below 1 and the CI overlaps it, below 1  consistent
 *   the band holds 1 and the CI lies inside it           consistent
 *   anything else, or no CI (NaN)                         inconclusive
 */
enum rd_claim_judgement rd_claim_judge_ratio(double claim_lo, double claim_hi, double margin,
                                             double ci_low, double ci_high);

/**
 * Judges an order claim from its n pairs (claimed better, claimed worse):
 * agrees[i] says this machine's means put pair i the claimed way,
 * p_holm[i] is its Welch p adjusted by Holm over the n pairs (NaN: no
 * test), and alike[i] (NULL: none) that pair i is shown within the
 * margin here where the study's own figures put it further apart (see
 * rd_claim_pair_alike). Contradicted when some pair is reversed with
 * p_holm < alpha or alike; consistent when every pair agrees with
 * p_holm < alpha; else inconclusive (also for n == 0).
 */
enum rd_claim_judgement rd_claim_judge_order(const bool *agrees, const double *p_holm,
                                             const bool *alike, size_t n, double alpha);

/**
 * Whether a pair of an order claim is shown alike where the study had it
 * apart: published is the study's ratio of the pair (claimed better over
 * claimed worse, from the claim's `values`; NaN: none), [ci_low, ci_high]
 * this machine's interval of the same ratio at the claim's Bonferroni
 * level. True when the published ratio's band [R (1 - margin), R (1 +
 * margin)] lies wholly on one side of 1 and the interval lies wholly on
 * the near side of 1 ± margin: below 1 + margin for R above 1, above
 * 1 - margin for R below 1 (so a significant reversal counts too).
 */
bool rd_claim_pair_alike(double published, double margin, double ci_low, double ci_high);

/** Does config c carry every label of the object labels (string values;
 *  labels only c has are ignored)? Figures and claims match configs so. */
bool rd_cfg_has_labels(const struct cfg *c, const struct cJSON *labels);

struct wl;

/**
 * The configs of ratio claim cl (already checked) in workload wl: out[0]
 * its a, out[1] its b, each NULL when no config or several match. False
 * (both NULL) when cl is not a ratio claim.
 */
bool rd_claim_ratio_configs(const struct rd_analysis *a, const struct wl *wl,
                            const struct cJSON *cl, const struct cfg *out[2]);

/* One config as a claim names it: the claim's shared labels, this side's
 * own, and the value of its 'by' label (each may be absent). The cJSON
 * parts are the published document's. */
struct rd_claim_want {
    const struct cJSON *common, *side;
    const char *by, *value;
};

/* One pair of an order or best claim: its claimed better config a over
 * the claimed worse b on this machine. */
struct rd_claim_pair {
    const char *a, *b;           /* config ids */
    double ratio, ci_low, ci_high, p, p_holm;
    double published;            /* the study's ratio of the pair (NaN: no values) */
    double alike_low, alike_high; /* the interval at the Bonferroni level (NaN: no values) */
    bool agrees;                 /* this machine's means put them the claimed way */
    bool alike;                  /* rd_claim_pair_alike */
    /* compared within rounds (a workload with blocks "round" and 2 rounds
     * or more with both): ratio the geometric mean of the within-round
     * ratios, the intervals and p the paired t's; rounds: those rounds */
    bool paired;
    double rounds;
};

/* One claim judged: everything its "replication_claims" entry says. The
 * strings and cJSON parts are the published document's, the analysis's
 * or the judged claims' own (freed by rd_claims_release). */
struct rd_claim_result {
    const struct cJSON *doc, *cl; /* the study and the claim */
    const char *file;            /* the name the output gives the study */
    size_t idx;                  /* the claim's place in the study, from 1 */
    const char *kind, *metric, *statistic;
    const char *better;          /* "higher", "lower" or NULL */
    double margin;
    bool params_differ;          /* the study measured with other parameters */
    bool ratio_kind;             /* a ratio claim (else order or best) */
    double claimed, claimed_min, claimed_max; /* ratio claims: as written */
    struct rd_claim_want *labels; /* [nconfigs]: each config as the claim names it */
    const char **configs;        /* [nconfigs]: its id here, NULL: none or several */
    size_t nconfigs;
    double ratio, ci_low, ci_high, p; /* ratio claims: this machine's a over b */
    /* The workload compares its configs within rounds (blocks "round"):
     * the claim is judged on the within-round log ratios (paired: every
     * comparison could be; a ratio claim's over 'rounds' rounds), else
     * on the means as elsewhere, and the reason says which. */
    bool blocks_round, paired;
    double rounds;
    struct rd_claim_pair *pairs; /* order and best claims */
    size_t npairs;
    enum rd_claim_judgement judgement;
    char *reason;                /* NULL: none */
};

/* Every claim of the published documents judged, and each study's counts
 * by judgement. */
struct rd_claims {
    struct rd_claim_result *items;
    size_t n, cap;
    struct cJSON *const *docs;
    size_t ndocs;
    size_t (*counts)[5];         /* [ndocs]: by judgement, then the total */
};

/**
 * Judges every claim of a workload this analysis has, in the n parsed
 * rundown.published/1 documents docs (read from paths[i], named files[i]
 * in the output), into out: judged, or not evaluated with the reason.
 * docs and files must outlive out. Errors: RD_ERR_NOMEM; RD_ERR_PARSE,
 * naming paths[i] and the claim, for a claim without workload, metric or
 * a kind's members. Release out with rd_claims_release, also on failure.
 */
rd_status rd_claims_judge(struct rd_analysis *a, struct cJSON *const *docs,
                          const char *const *paths, const char *const *files, size_t n,
                          struct rd_claims *out, struct rd_diag *d);

/** Writes the judged claims as "replication_claims":[...] and
 *  "replication_summary":[...] (each study that has claims here: its
 *  counts); only writes. */
rd_status rd_claims_write(const struct rd_claims *c, struct jw *w);

void rd_claims_release(struct rd_claims *c);

#endif
