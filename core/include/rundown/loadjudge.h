/*
 * loadjudge.h - a load average judged against the CPUs that carry it, as
 * `rundown-collect check` and the report's machine table say it.
 */
#ifndef RUNDOWN_LOADJUDGE_H
#define RUNDOWN_LOADJUDGE_H

/**
 * "quiet" up to 0.25 runnable tasks per CPU, "some load" up to 0.75,
 * "busy" above ("2.53 on 2 CPUs: busy"); "unknown" without CPUs or a
 * finite load. A measurement itself keeps about one CPU busy, so on 2
 * CPUs a load near 1 during a collection is its own.
 */
const char *rd_machine_load_judgement(double load, int ncpus);

#endif
