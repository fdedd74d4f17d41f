/*
 * loadjudge.c - see loadjudge.h.
 */
#include "rundown/loadjudge.h"

#include <math.h>

const char *rd_machine_load_judgement(double load, int ncpus)
{
    if (ncpus <= 0 || !isfinite(load) || load < 0)
        return "unknown";
    double per = load / ncpus;
    return per <= 0.25 ? "quiet" : per <= 0.75 ? "some load" : "busy";
}
