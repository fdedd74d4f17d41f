/*
 * calibration_test.h - what the simulation tests share (test_verdict_,
 * test_looks_ and test_claims_calibration.c): how many simulated
 * workloads (or claims) a cell draws. make test runs the seeded default;
 * bench/verdict-calibration.sh sets RD_CALIBRATION_WORKLOADS for the
 * tables in docs/methods.md. Header-only: each test is one executable.
 */
#ifndef RUNDOWN_CALIBRATION_TEST_H
#define RUNDOWN_CALIBRATION_TEST_H

#include <stdlib.h>

/* RD_CALIBRATION_WORKLOADS when it is a positive number, else def. */
static inline int calibration_workloads(int def)
{
    const char *e = getenv("RD_CALIBRATION_WORKLOADS");
    int w = e ? atoi(e) : 0;
    return w > 0 ? w : def;
}

#endif
