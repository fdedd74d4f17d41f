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

/** A free TCP port on the loopback interface, or 0. */
int rd_port_pick_free(void);

#endif
