// links: rd_collect
/*
 * test_httpprobe - URL parsing, free and taken ports, and the readiness GET
 * against a listener of the test's own that answers HTTP, answers
 * something else, or is not there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "httpprobe.h"

static void test_url_parse(void **state)
{
    (void)state;
    char host[64], path[64];
    int port;
    struct rd_diag d;
    rd_diag_init(&d, NULL);
    assert_int_equal(rd_url_parse("http://127.0.0.1:8080/a?b", host, sizeof host, &port, path,
                                  sizeof path, &d), RD_OK);
    assert_string_equal(host, "127.0.0.1");
    assert_int_equal(port, 8080);
    assert_string_equal(path, "/a?b");
    assert_int_equal(rd_url_parse("http://localhost", host, sizeof host, &port, path,
                                  sizeof path, &d), RD_OK);
    assert_int_equal(port, 80);
    assert_string_equal(path, "/");
    assert_int_equal(rd_url_parse("http://[::1]:9/x", host, sizeof host, &port, path,
                                  sizeof path, &d), RD_OK);
    assert_string_equal(host, "::1");
    assert_int_equal(port, 9);
    assert_int_equal(rd_url_parse("https://x/", host, sizeof host, &port, path, sizeof path, &d),
                     RD_ERR_USAGE);
    assert_int_equal(rd_url_parse("http://x:0/", host, sizeof host, &port, path, sizeof path, &d),
                     RD_ERR_USAGE);
    assert_int_equal(rd_url_parse("http://x:80a/", host, sizeof host, &port, path, sizeof path,
                                  &d), RD_ERR_USAGE);
    assert_int_equal(rd_url_parse("http://:80/", host, sizeof host, &port, path, sizeof path, &d),
                     RD_ERR_USAGE);
}

/* A listener on a free loopback port; *port receives the port. */
static int listen_loopback(int *port)
{
    *port = rd_port_pick_free();
    assert_true(*port > 0);
    assert_true(rd_port_is_free("127.0.0.1", *port));
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)*port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(s, 1), 0);
    return s;
}

/* Serves one connection in a child: reads the request's first bytes,
 * writes 'answer', closes. Returns the child's pid. */
static pid_t serve_once(int listener, const char *answer)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int c = accept(listener, NULL, NULL);
        char buf[1024];
        if (c >= 0 && read(c, buf, sizeof buf) > 0 &&
            write(c, answer, strlen(answer)) == (ssize_t)strlen(answer))
            close(c);
        _exit(0);
    }
    return pid;
}

static void test_ports(void **state)
{
    (void)state;
    int port;
    int s = listen_loopback(&port);
    assert_false(rd_port_is_free("127.0.0.1", port));
    close(s);
    assert_true(rd_port_is_free("127.0.0.1", port));
}

static void test_probe(void **state)
{
    (void)state;
    int port, status;
    int s = listen_loopback(&port);
    pid_t pid = serve_once(s, "HTTP/1.0 204 No Content\r\nServer: t\r\n\r\n");
    assert_int_equal(rd_http_probe("127.0.0.1", port, "/ready", 2.0), 204);
    waitpid(pid, &status, 0);
    pid = serve_once(s, "SSH-2.0-OpenSSH_9.2\r\n");
    assert_int_equal(rd_http_probe("127.0.0.1", port, "/", 2.0), -1);
    waitpid(pid, &status, 0);
    close(s);
    /* Nobody listens any more: refused, not a status. */
    assert_int_equal(rd_http_probe("127.0.0.1", port, "/", 0.5), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_url_parse),
        cmocka_unit_test(test_ports),
        cmocka_unit_test(test_probe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
