/*
 * httpprobe.h - a minimal HTTP client for the loopback servers rundown
 * measures: parsing their URLs, asking whether one serves HTTP yet, and
 * whether a port is free before a server is started or after it stopped.
 */
#ifndef RUNDOWN_HTTPPROBE_H
#define RUNDOWN_HTTPPROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "rundown/status.h"

/**
 * Splits an http:// URL into host, port (default 80) and path (default
 * "/"). RD_ERR_USAGE for anything else.
 */
rd_status rd_url_parse(const char *url, char *host, size_t hostsize, int *port,
                       char *path, size_t pathsize, struct rd_diag *d);

/**
 * One GET of path from host:port with Connection: close, each socket step
 * bounded by timeout_s: the HTTP status the server answered, or -1 when no
 * status line came (refused, reset, timed out, not HTTP). The rest of the
 * answer is read, so the server sees an orderly close.
 */
int rd_http_probe(const char *host, int port, const char *path, double timeout_s);

/** True when nothing accepts connections on host:port and it can be bound. */
bool rd_port_is_free(const char *host, int port);

#define RD_PORT_IN_USE (-1)
/**
 * 0 when host:port is free, RD_PORT_IN_USE when something accepts
 * connections there or holds it, or the errno that kept the check from
 * being made (EMFILE under a low `ulimit -n`: the port may well be free).
 */
int rd_port_check(const char *host, int port);

/** "port N is in use", or "port N cannot be checked: <why>", for a state of
 * rd_port_check() other than 0; returns buf. */
const char *rd_port_problem(int state, int port, char *buf, size_t size);

/** A free TCP port on the loopback interface, or 0. */
int rd_port_pick_free(void);

#endif
