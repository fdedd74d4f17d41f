/*
 * gnuplot - the one gnuplot process of a render: started in the charts
 * folder over the staged script (in UTC, dying with the render), its stderr
 * kept for the message, killed when it takes too long; and the PDF dates
 * made fixed, so reruns give the same bytes.
 */
#include "gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rundown/fsutil.h"

extern char **environ;

#define GNUPLOT_TIMEOUT_MS 120000

rd_status rd_gnuplot_run(const char *gnuplot, const char *dir, const char *script,
                         bool *started, struct rd_diag *d)
{
    if (started)
        *started = false;
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot create a pipe: %s", strerror(errno));
    /* gnuplot starts in the charts folder, so a relative path to the
     * binary ("./gnuplot") must be made absolute first. */
    const char *shown = gnuplot;
    char abs[4096];
    if (strchr(gnuplot, '/') && gnuplot[0] != '/') {
        char cwd[2048];
        if (getcwd(cwd, sizeof cwd) && (size_t)snprintf(abs, sizeof abs, "%s/%s", cwd, gnuplot) < sizeof abs)
            gnuplot = abs;
    }
    /* -d: no ~/.gnuplot, so a user's settings cannot change the charts. */
    char *argv[] = { (char *)gnuplot, "-d", (char *)script, NULL };
    /* gnuplot runs in UTC: cairo writes the local offset into each PDF's
     * /CreationDate ("+14'00" under TZ=Pacific/Kiritimati), and the bytes
     * of a report must not depend on where it was rendered. */
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **envp = calloc(nenv + 2, sizeof *envp);
    if (!envp) {
        close(pipefd[0]);
        close(pipefd[1]);
        return RD_ERR_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < nenv; i++)
        if (strncmp(environ[i], "TZ=", 3) != 0)
            envp[k++] = environ[i];
    envp[k++] = "TZ=UTC0";
    envp[k] = NULL;
    /* fork + PR_SET_PDEATHSIG + exec rather than posix_spawn (which has no
     * parent-death attribute): a SIGKILLed render must not leave gnuplot
     * writing into the abandoned staging folder. A second close-on-exec
     * pipe brings back the errno of a failed exec. gnuplot is registered
     * as the child a signal kills before the staging folder goes; signals
     * wait until it is, and gnuplot itself starts with none blocked. */
    int execpipe[2];
    if (pipe2(execpipe, O_CLOEXEC) != 0) {
        int e = errno;
        free(envp);
        close(pipefd[0]);
        close(pipefd[1]);
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot create a pipe: %s", strerror(e));
    }
    sigset_t saved;
    pid_t parent = getpid();
    rd_signals_hold(&saved);
    pid_t pid = fork();
    if (pid == 0) {
        int e = 0;
        sigset_t none;
        sigemptyset(&none);
        /* A file-size limit must end gnuplot rather than leave it writing a
         * truncated SVG it thinks is whole. */
        signal(SIGXFSZ, SIG_DFL);
        int in = open("/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent || in < 0 ||
            out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(pipefd[1], 2) < 0 ||
            chdir(dir) != 0)
            e = errno ? errno : ECHILD;
        if (!e) {
            sigprocmask(SIG_SETMASK, &none, NULL);
            execvpe(gnuplot, argv, envp);
            e = errno;
        }
        ssize_t w = write(execpipe[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    int rc = pid < 0 ? errno : 0;
    if (pid > 0)
        rd_cleanup_child(pid);
    rd_signals_release(&saved);
    free(envp);
    close(execpipe[1]);
    if (pid > 0) {
        int e = 0;
        ssize_t n;
        while ((n = read(execpipe[0], &e, sizeof e)) < 0 && errno == EINTR)
            ;
        if (n == (ssize_t)sizeof e) {
            rc = e;
            while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
            rd_cleanup_child(0);
        }
    }
    close(execpipe[0]);
    close(pipefd[1]);
    if (rc != 0) {
        close(pipefd[0]);
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot run '%s': %s%s", shown,
                           strerror(rc),
                           rc == ENOENT || rc == EACCES
                               ? " (install gnuplot-nox, or leave 'charts' out of --formats)"
                               : "");
    }
    if (started)
        *started = true;
    char err[4096];
    size_t elen = 0;
    /* gnuplot waits for nothing (stdin is /dev/null), but a broken font
     * setup or a huge plot must not hang a CI job forever. */
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool timed_out = false;
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left = GNUPLOT_TIMEOUT_MS - ((now.tv_sec - t0.tv_sec) * 1000L +
                                          (now.tv_nsec - t0.tv_nsec) / 1000000L);
        struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };
        int pr = left > 0 ? poll(&pfd, 1, (int)left) : 0;
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr == 0) {
            timed_out = true;
            kill(pid, SIGKILL);
            break;
        }
        char tmp[1024];
        ssize_t n = read(pipefd[0], tmp, sizeof tmp);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        size_t take = (size_t)n < sizeof err - 1 - elen ? (size_t)n : sizeof err - 1 - elen;
        memcpy(err + elen, tmp, take);
        elen += take;
    }
    while (elen > 0 && (err[elen - 1] == '\n' || err[elen - 1] == ' ' || err[elen - 1] == '\r'))
        elen--;
    err[elen] = '\0';
    close(pipefd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            rd_cleanup_child(0);
            return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "waiting for gnuplot: %s", strerror(errno));
        }
    }
    rd_cleanup_child(0);
    if (timed_out)
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "gnuplot did not finish within %d s",
                           GNUPLOT_TIMEOUT_MS / 1000);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        /* The first non-blank lines of gnuplot's complaint say what broke. */
        for (char *p = err; *p; p++)
            if (*p == '\n' || *p == '\r' || *p == '\t')
                *p = ' ';
        char ex[300];
        rd_excerpt(err, elen, 240, ex, sizeof ex);
        return rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "gnuplot failed (%s %d): %s",
                           WIFEXITED(status) ? "exit" : "signal",
                           WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), ex);
    }
    return RD_OK;
}

rd_status rd_gnuplot_fix_pdf_date(const char *path, const char *date, struct rd_diag *d)
{
    struct rd_buf pdf = RD_BUF_INIT;
    rd_status st = rd_read_file(path, 0, &pdf, d);
    /* cairo 1.16 writes "/CreationDate (D:YYYYMMDDhhmmssZ)": the same
     * number of digits in, so every offset of the file stays right. */
    static const char key[] = "/CreationDate (D:";
    char *at = st == RD_OK ? memmem(pdf.ptr, pdf.len, key, sizeof key - 1) : NULL;
    if (at && (size_t)(at - pdf.ptr) + sizeof key - 1 + 14 <= pdf.len) {
        memcpy(at + sizeof key - 1, date, 14);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(pdf.ptr, 1, pdf.len, f) != pdf.len)
            st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot rewrite a chart PDF: %s",
                             strerror(errno));
        if (f && fclose(f) != 0 && st == RD_OK)
            st = rd_diag_set(d, RD_ERR_IO, NULL, 0, 0, "cannot rewrite a chart PDF: %s",
                             strerror(errno));
    }
    rd_buf_release(&pdf);
    return st;
}
