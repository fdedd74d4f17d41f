/*
 * httpprobe.c - the loopback client that asks a server under test whether
 * it is ready, and whether a port is free.
 *
 * Readiness is a hand-written HTTP/1.0 GET on a plain socket: it needs no
 * client library and answers "does the server serve HTTP" rather than "is
 * the port open", which a runtime may do long before its handler is
 * installed. The same GET is the built-in warm-up traffic.
 */
#include "httpprobe.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

rd_status rd_url_parse(const char *url, char *host, size_t hostsize, int *port,
                       char *path, size_t pathsize, struct rd_diag *d)
{
    const char *p = url;
    if (strncmp(p, "http://", 7) != 0)
        return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                           "expected a URL starting with 'http://', got '%s'", url);
    p += 7;
    const char *hend;
    if (*p == '[') {
        hend = strchr(p, ']');
        if (!hend)
            return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0, "bad IPv6 host in '%s'", url);
        p++;
    } else {
        hend = p + strcspn(p, ":/");
    }
    size_t hl = (size_t)(hend - p);
    if (hl == 0 || hl >= hostsize)
        return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0, "expected a host in '%s'", url);
    memcpy(host, p, hl);
    host[hl] = '\0';
    p = hend;
    if (*p == ']')
        p++;
    *port = 80;
    if (*p == ':') {
        char *end;
        long v = strtol(p + 1, &end, 10);
        if (end == p + 1 || v <= 0 || v > 65535 || (*end && *end != '/'))
            return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0, "expected a port 1-65535 in '%s'",
                               url);
        *port = (int)v;
        p = end;
    }
    snprintf(path, pathsize, "%s", *p ? p : "/");
    return RD_OK;
}

/* *sock_err (when not NULL) receives the errno of a socket() that failed:
 * no connection because none could be tried (EMFILE), not because nothing
 * listens. */
static int tcp_connect_err(const char *host, int port, double timeout_s, int *sock_err)
{
    struct addrinfo hints, *res = NULL;
    char ps[16];
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    snprintf(ps, sizeof ps, "%d", port);
    if (getaddrinfo(host, ps, &hints, &res) != 0)
        return -1;
    int fd = -1;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            if (sock_err)
                *sock_err = errno;
            continue;
        }
        struct timeval tv = {(time_t)timeout_s,
                             (suseconds_t)((timeout_s - (double)(time_t)timeout_s) * 1e6)};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        if (connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    return fd;
}

static int tcp_connect(const char *host, int port, double timeout_s)
{
    return tcp_connect_err(host, port, timeout_s, NULL);
}

int rd_http_probe(const char *host, int port, const char *path, double timeout_s)
{
    int fd = tcp_connect(host, port, timeout_s);
    if (fd < 0)
        return -1;
    char req[1024];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.0\r\nHost: %s:%d\r\nUser-Agent: rundown\r\n"
                     "Connection: close\r\n\r\n", path, host, port);
    int code = -1;
    if (n > 0 && (size_t)n < sizeof req && write(fd, req, (size_t)n) == n) {
        char buf[4096];
        size_t got = 0;
        ssize_t k;
        while (got < 12 && (k = read(fd, buf + got, sizeof buf - 1 - got)) > 0)
            got += (size_t)k;
        buf[got] = '\0';
        int c;
        if (got >= 12 && strncmp(buf, "HTTP/", 5) == 0 && sscanf(buf + 8, " %3d", &c) == 1)
            code = c;
        /* Read the rest so the server sees an orderly close, as clients do. */
        while (code >= 0 && (k = read(fd, buf, sizeof buf)) > 0)
            ;
    }
    close(fd);
    return code;
}

int rd_port_check(const char *host, int port)
{
    int sock_err = 0;
    int fd = tcp_connect_err(host, port, 0.5, &sock_err);
    if (fd >= 0) {
        close(fd);
        return RD_PORT_IN_USE;
    }
    if (sock_err)
        return sock_err;
    struct addrinfo hints, *res = NULL;
    char ps[16];
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    snprintf(ps, sizeof ps, "%d", port);
    if (getaddrinfo(host, ps, &hints, &res) != 0)
        return RD_PORT_IN_USE;
    int state = RD_PORT_IN_USE;
    int s = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
    if (s >= 0) {
        /* Servers set SO_REUSEADDR, so TIME_WAIT leftovers do not count. */
        int one = 1;
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(s, res->ai_addr, res->ai_addrlen) == 0)
            state = 0;
        else if (errno != EADDRINUSE)
            state = errno;
        close(s);
    } else {
        state = errno;
    }
    freeaddrinfo(res);
    return state;
}

bool rd_port_is_free(const char *host, int port)
{
    return rd_port_check(host, port) == 0;
}

const char *rd_port_problem(int state, int port, char *buf, size_t size)
{
    if (state == RD_PORT_IN_USE)
        snprintf(buf, size, "port %d is in use", port);
    else if (state == EMFILE || state == ENFILE)
        snprintf(buf, size, "port %d cannot be checked: %s (the limit of open files, "
                 "ulimit -n, is reached)", port, strerror(state));
    else
        snprintf(buf, size, "port %d cannot be checked: %s", port, strerror(state));
    return buf;
}

int rd_port_pick_free(void)
{
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return 0;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 0;
    if (bind(s, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(s, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    close(s);
    return port;
}
