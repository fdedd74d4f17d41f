/*
 * slurm - the job scripts of `rundown-collect slurm`, DIR/slurm.json, and
 * the text sinfo, scontrol and sbatch answer with (see slurm.h).
 *
 * The scripts are written for a reader: one step per paragraph, each with
 * the reason in a comment, every value from input single-quoted for the
 * shell, so that a site can restyle them like the charts' .gp files. No
 * Debian library writes Slurm job scripts or reads sinfo's columns; both
 * are small and done by hand here.
 */
#include "slurm.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rundown/array.h"
#include "rundown/json.h"
#include "rundown/units.h"

/* Appends s single-quoted for a POSIX shell: 'it'\''s'. */
static rd_status shell_quote(struct rd_buf *b, const char *s)
{
    RD_TRY(rd_buf_addch(b, '\''));
    for (; *s; s++)
        RD_TRY(*s == '\'' ? rd_buf_addstr(b, "'\\''") : rd_buf_addch(b, *s));
    return rd_buf_addch(b, '\'');
}

/* Appends "name=<quoted value>\n". */
static rd_status shell_var(struct rd_buf *b, const char *name, const char *value)
{
    RD_TRY(rd_buf_addf(b, "%s=", name));
    RD_TRY(shell_quote(b, value));
    return rd_buf_addch(b, '\n');
}

/* Appends a path for an #SBATCH filename pattern: '%' is Slurm's escape
 * character there (%j, %a), written "%%" for itself. */
static rd_status sbatch_path(struct rd_buf *b, const char *path)
{
    for (; *path; path++)
        RD_TRY(*path == '%' ? rd_buf_addstr(b, "%%") : rd_buf_addch(b, *path));
    return RD_OK;
}

/* The #SBATCH lines both jobs share: where they run and who pays. */
static rd_status sbatch_common(struct rd_buf *b, const struct rd_slurm_job *j)
{
    RD_TRY(rd_buf_addstr(b, "#SBATCH --nodes=1\n#SBATCH --ntasks=1\n"));
    if (j->partition)
        RD_TRY(rd_buf_addf(b, "#SBATCH --partition=%s\n", j->partition));
    if (j->account)
        RD_TRY(rd_buf_addf(b, "#SBATCH --account=%s\n", j->account));
    return RD_OK;
}

rd_status rd_slurm_task_script(const struct rd_slurm_job *j, struct rd_buf *b)
{
    RD_TRY(rd_buf_addf(b,
        "#!/bin/bash\n"
        "# The suite '%s' as a Slurm job array: task I of %u runs shard I/%u of\n"
        "# the suite's plan on a node of its own, into its own store and\n"
        "# environment file, DIR/shards/task<I>.<host>/. Written by\n"
        "# `rundown-collect slurm` (rundown %s); restyle it freely.\n"
        "#\n"
        "# Exclusive: two benchmarks on one node slow each other down, so a task\n"
        "# has its node to itself",
        j->suite_name, j->tasks, j->tasks, RD_VERSION));
    if (j->throttle)
        RD_TRY(rd_buf_addf(b, ", and no more tasks run at once than the\n"
                              "# partition has nodes (%u)", j->throttle));
    RD_TRY(rd_buf_addf(b, ".\n#SBATCH --job-name=rundown-%s\n#SBATCH --array=1-%u",
                       j->suite_name, j->tasks));
    if (j->throttle)
        RD_TRY(rd_buf_addf(b, "%%%u", j->throttle));
    RD_TRY(rd_buf_addstr(b, "\n#SBATCH --exclusive\n"));
    RD_TRY(sbatch_common(b, j));
    if (j->time)
        RD_TRY(rd_buf_addf(b, "#SBATCH --time=%s\n", j->time));
    RD_TRY(rd_buf_addstr(b, "#SBATCH --output="));
    RD_TRY(sbatch_path(b, j->dir));
    RD_TRY(rd_buf_addstr(b, "/slurm/task%a-%A.out\n\n"));

    RD_TRY(shell_var(b, "suite", j->suite_path));
    RD_TRY(shell_var(b, "suite_sha256", j->suite_sha256));
    RD_TRY(shell_var(b, "dir", j->dir));
    RD_TRY(shell_var(b, "collect", j->collect));
    RD_TRY(rd_buf_addf(b,
        "tasks=%u\n"
        "task=$SLURM_ARRAY_TASK_ID\n"
        "host=$(hostname -s)\n"
        "out=\"$dir/shards/task$task.$host\"\n"
        "store=\"$out/%s.jsonl\"\n"
        "\n"
        "# Every task must plan the same runs: the suite file is the one planned.\n"
        "if [ \"$(sha256sum < \"$suite\" | cut -d' ' -f1)\" != \"$suite_sha256\" ]; then\n"
        "    echo \"rundown: $suite changed since it was planned: task $task stops\" >&2\n"
        "    exit 1\n"
        "fi\n",
        j->tasks, j->suite_name));
    if (j->check)
        RD_TRY(rd_buf_addstr(b,
            "\n"
            "# Measure only on a quiet node: the pre-flight of the contention guard.\n"
            "if ! \"$collect\" check; then\n"
            "    echo \"rundown: $host is not quiet: task $task stops; queue it again\" \\\n"
            "         \"with rundown-collect slurm --resume\" >&2\n"
            "    exit 1\n"
            "fi\n"));
    else
        RD_TRY(rd_buf_addstr(b, "\n# (no `rundown-collect check`: left out with --no-check)\n"));
    RD_TRY(rd_buf_addf(b,
        "\n"
        "# The runs an earlier attempt of this task stored on another node are done.\n"
        "done_elsewhere=()\n"
        "for other in \"$dir\"/shards/task$task.*/%s.jsonl; do\n"
        "    if [ -e \"$other\" ] && [ \"$other\" != \"$store\" ]; then\n"
        "        done_elsewhere+=(--resume-from \"$other\")\n"
        "    fi\n"
        "done\n"
        "\n"
        "\"$collect\" suite --resume --shard \"$task/$tasks\"",
        j->suite_name));
    if (j->seed_given)
        RD_TRY(rd_buf_addf(b, " --seed %llu", j->seed));
    RD_TRY(rd_buf_addstr(b,
        " \"${done_elsewhere[@]}\" \\\n"
        "    -o \"$out\" \"$suite\"\n"
        "status=$?\n"
        "# 4: runs failed or timed out. They are stored and the report shows them:\n"
        "# the merge job still runs.\n"
        "if [ $status -eq 4 ]; then\n"
        "    exit 0\n"
        "fi\n"
        "exit $status\n"));
    return RD_OK;
}

rd_status rd_slurm_merge_script(const struct rd_slurm_job *j, struct rd_buf *b)
{
    RD_TRY(rd_buf_addf(b,
        "#!/bin/bash\n"
        "# Merges the shards of the suite '%s' and renders the report: submitted\n"
        "# with --dependency=afterok on the array job, so it runs once every task\n"
        "# has ended well. Written by `rundown-collect slurm` (rundown %s).\n"
        "#SBATCH --job-name=rundown-%s-merge\n",
        j->suite_name, RD_VERSION, j->suite_name));
    RD_TRY(sbatch_common(b, j));
    RD_TRY(rd_buf_addstr(b, "#SBATCH --output="));
    RD_TRY(sbatch_path(b, j->dir));
    RD_TRY(rd_buf_addstr(b, "/slurm/merge-%j.out\n\n"));
    RD_TRY(shell_var(b, "dir", j->dir));
    RD_TRY(shell_var(b, "analyze", j->analyze));
    RD_TRY(shell_var(b, "render", j->render));
    RD_TRY(rd_buf_addf(b,
        "set -e\n"
        "\n"
        "# One analysis of every task's store: runs keep their environment, so\n"
        "# runs of different machines are never pooled into one config.\n"
        "mkdir -p \"$dir/report\"\n"
        "\"$analyze\" -o \"$dir/report/analysis.json\" \"$dir\"/shards/task*/%s.jsonl\n"
        "\"$render\" -o \"$dir/report\" \"$dir/report/analysis.json\"\n",
        j->suite_name));
    return RD_OK;
}

rd_status rd_slurm_check_path(const char *path, const char *what, struct rd_diag *d)
{
    for (const char *p = path; *p; p++) {
        unsigned char c = (unsigned char)*p;
        const char *why = c == ' ' || c == '\t' ? "a blank"
                        : c == '\'' || c == '"' ? "a quote"
                        : c == '\\'             ? "a backslash"
                        : c < 0x20 || c == 0x7f ? "a control character"
                                                : NULL;
        if (why)
            return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                               "%s '%s' holds %s, which a #SBATCH line cannot hold; "
                               "choose a path without", what, path, why);
    }
    return RD_OK;
}

rd_status rd_slurm_check_name(const char *name, const char *what, struct rd_diag *d)
{
    bool ok = *name != '\0' && strlen(name) < 128;
    for (const char *p = name; ok && *p; p++)
        ok = isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.';
    if (!ok)
        return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                           "expected %s NAME of letters, digits, '_', '-' and '.', got '%s'",
                           what, name);
    return RD_OK;
}

/* Reads up to 'max' ':'-separated whole numbers; false past max or on
 * anything else. */
static bool read_fields(const char *s, long *v, int max, int *n)
{
    *n = 0;
    for (;;) {
        if (*n == max || !isdigit((unsigned char)*s))
            return false;
        char *end;
        v[(*n)++] = strtol(s, &end, 10);
        if (end - s > 6)
            return false;  /* a million days and more: a mistake */
        s = end;
        if (*s == '\0')
            return true;
        if (*s++ != ':')
            return false;
    }
}

bool rd_slurm_parse_time(const char *s, long *minutes)
{
    if (strcasecmp(s, "unlimited") == 0 || strcasecmp(s, "infinite") == 0) {
        *minutes = -1;
        return true;
    }
    long days = 0, v[3];
    int n;
    const char *dash = strchr(s, '-');
    if (dash) {
        char *end;
        if (!isdigit((unsigned char)*s) || dash - s > 6)
            return false;
        days = strtol(s, &end, 10);
        if (end != dash || !read_fields(dash + 1, v, 3, &n))
            return false;
        /* D-H, D-H:M, D-H:M:S */
        long h = v[0], m = n > 1 ? v[1] : 0, sec = n > 2 ? v[2] : 0;
        *minutes = days * 1440 + h * 60 + m + (sec > 0);
    } else {
        if (!read_fields(s, v, 3, &n))
            return false;
        /* M, M:S, H:M:S */
        *minutes = n == 1 ? v[0] : n == 2 ? v[0] + (v[1] > 0) : v[0] * 60 + v[1] + (v[2] > 0);
    }
    return *minutes > 0;
}

void rd_slurm_partitions_init(struct rd_slurm_partitions *p)
{
    memset(p, 0, sizeof *p);
}

void rd_slurm_partitions_release(struct rd_slurm_partitions *p)
{
    free(p->items);
    rd_slurm_partitions_init(p);
}

/* sinfo's time limit: "infinite", "n/a" (none) or [D-]H:M:S. */
static bool sinfo_time(const char *s, long *minutes)
{
    if (strcmp(s, "n/a") == 0) {
        *minutes = -1;
        return true;
    }
    return rd_slurm_parse_time(s, minutes);
}

rd_status rd_slurm_parse_sinfo(const char *text, size_t len, struct rd_slurm_partitions *out,
                               struct rd_diag *d)
{
    unsigned line = 0;
    for (const char *t = text, *end = text + len; t < end;) {
        const char *nl = memchr(t, '\n', (size_t)(end - t));
        const char *le = nl ? nl : end;
        line++;
        char buf[512], name[256], nodes[64], limit[64], extra[8];
        size_t n = (size_t)(le - t);
        if (n >= sizeof buf)
            return rd_diag_set(d, RD_ERR_PARSE, NULL, line, 0, "sinfo: line too long");
        memcpy(buf, t, n);
        buf[n] = '\0';
        t = nl ? nl + 1 : end;
        int got = sscanf(buf, "%255s %63s %63s %7s", name, nodes, limit, extra);
        if (got <= 0)
            continue;  /* a blank line */
        unsigned long long count;
        long minutes;
        size_t nl_name = strlen(name);
        bool is_default = name[nl_name - 1] == '*';
        if (is_default)
            name[--nl_name] = '\0';
        if (got != 3 || nl_name == 0 || nl_name >= sizeof out->items[0].name ||
            rd_parse_uint(nodes, strlen(nodes), &count) != RD_OK || count > 1000000 ||
            !sinfo_time(limit, &minutes))
            return rd_diag_set(d, RD_ERR_PARSE, NULL, line, 0,
                               "sinfo: expected 'PARTITION NODES TIMELIMIT', got '%s'", buf);
        struct rd_slurm_partition *p = NULL;
        for (size_t i = 0; i < out->len && !p; i++)
            if (strcmp(out->items[i].name, name) == 0)
                p = &out->items[i];
        if (!p) {
            RD_TRY(RD_ARRAY_GROW(out->items, out->cap, out->len + 1));
            p = &out->items[out->len++];
            memset(p, 0, sizeof *p);
            memcpy(p->name, name, nl_name + 1);
            p->max_minutes = minutes;
        }
        p->nodes += (long)count;
        p->is_default = p->is_default || is_default;
    }
    return RD_OK;
}

const struct rd_slurm_partition *rd_slurm_partition_find(const struct rd_slurm_partitions *p,
                                                         const char *name)
{
    for (size_t i = 0; i < p->len; i++)
        if (name ? strcmp(p->items[i].name, name) == 0 : p->items[i].is_default)
            return &p->items[i];
    return NULL;
}

bool rd_slurm_config_number(const char *text, size_t len, const char *key, long *out)
{
    size_t klen = strlen(key);
    for (const char *t = text, *end = text + len; t < end;) {
        const char *nl = memchr(t, '\n', (size_t)(end - t));
        const char *le = nl ? nl : end;
        const char *p = t;
        t = nl ? nl + 1 : end;
        if ((size_t)(le - p) <= klen || memcmp(p, key, klen) != 0 ||
            (p[klen] != ' ' && p[klen] != '='))
            continue;
        for (p += klen; p < le && (*p == ' ' || *p == '='); p++)
            ;
        const char *v = p;
        while (p < le && isdigit((unsigned char)*p))
            p++;
        unsigned long long n;
        if (p == v || p - v > 12 || rd_parse_uint(v, (size_t)(p - v), &n) != RD_OK)
            return false;
        *out = (long)n;
        return true;
    }
    return false;
}

bool rd_slurm_parse_job_id(const char *text, size_t len, char *id, size_t size)
{
    size_t n = 0;
    while (n < len && isdigit((unsigned char)text[n]))
        n++;
    if (n == 0 || n >= size || n > 20 ||
        (n < len && text[n] != ';' && text[n] != '\n' && text[n] != '\r'))
        return false;
    memcpy(id, text, n);
    id[n] = '\0';
    return true;
}

/* Copies a string member of o into out; false when absent or too long. */
static bool copy_str(const cJSON *o, const char *key, char *out, size_t size)
{
    const char *s = rd_json_str(o, key);
    if (!s || strlen(s) >= size)
        return false;
    memcpy(out, s, strlen(s) + 1);
    return true;
}

rd_status rd_slurm_manifest_parse(const char *text, size_t len, const char *path,
                                  struct rd_slurm_manifest *m, struct rd_diag *d)
{
    memset(m, 0, sizeof *m);
    cJSON *root;
    RD_TRY(rd_json_parse(text, len, path, 1, &root, d));
    rd_status st = RD_OK;
    double tasks, seed;
    const char *schema = rd_json_str(root, "schema");
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(root, "jobs");
    if (!cJSON_IsObject(root) || !schema || strcmp(schema, RD_SLURM_SCHEMA) != 0 ||
        !copy_str(root, "suite", m->suite, sizeof m->suite) ||
        !copy_str(root, "suite_file", m->suite_file, sizeof m->suite_file) ||
        !copy_str(root, "suite_sha256", m->suite_sha256, sizeof m->suite_sha256) ||
        strlen(m->suite_sha256) != 64 || !rd_json_num(root, "tasks", &tasks) ||
        !(tasks >= 1 && tasks <= 1000000) || tasks != (double)(unsigned)tasks) {
        st = rd_diag_set(d, RD_ERR_PARSE, path, 0, 0,
                         "expected a " RD_SLURM_SCHEMA " object with suite, suite_file, "
                         "suite_sha256 and tasks >= 1");
        goto out;
    }
    m->tasks = (unsigned)tasks;
    if (rd_json_num(root, "seed", &seed)) {
        if (!(seed >= 0 && seed <= 9007199254740992.0) || seed != (double)(unsigned long long)seed) {
            st = rd_diag_set(d, RD_ERR_PARSE, path, 0, 0,
                             "expected 'seed' to be a whole number >= 0");
            goto out;
        }
        m->seed_given = true;
        m->seed = (unsigned long long)seed;
    }
    const cJSON *job, *list = cJSON_IsArray(jobs) ? jobs : NULL;
    cJSON_ArrayForEach(job, list) {
        char id[32];
        if (!cJSON_IsString(job) ||
            !rd_slurm_parse_job_id(job->valuestring, strlen(job->valuestring), id, sizeof id) ||
            strlen(id) != strlen(job->valuestring)) {
            st = rd_diag_set(d, RD_ERR_PARSE, path, 0, 0, "expected 'jobs' to hold job ids");
            goto out;
        }
        rd_slurm_manifest_add_job(m, id);
    }
out:
    cJSON_Delete(root);
    return st;
}

void rd_slurm_manifest_add_job(struct rd_slurm_manifest *m, const char *id)
{
    if (m->njobs == RD_SLURM_MAX_JOBS) {
        memmove(m->jobs[0], m->jobs[1], (RD_SLURM_MAX_JOBS - 1) * sizeof m->jobs[0]);
        m->njobs--;
    }
    snprintf(m->jobs[m->njobs++], sizeof m->jobs[0], "%s", id);
}

rd_status rd_slurm_manifest_json(const struct rd_slurm_manifest *m, struct rd_buf *out)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *jobs = cJSON_CreateArray();
    rd_status st = RD_ERR_NOMEM;
    if (!root || !jobs) {
        cJSON_Delete(root);
        cJSON_Delete(jobs);
        return st;
    }
    cJSON_AddItemToObject(root, "jobs", jobs);
    bool ok = cJSON_AddStringToObject(root, "schema", RD_SLURM_SCHEMA) &&
              cJSON_AddStringToObject(root, "suite", m->suite) &&
              cJSON_AddStringToObject(root, "suite_file", m->suite_file) &&
              cJSON_AddStringToObject(root, "suite_sha256", m->suite_sha256) &&
              rd_json_add_num(root, "tasks", m->tasks) &&
              (!m->seed_given || rd_json_add_num(root, "seed", (double)m->seed));
    for (size_t i = 0; ok && i < m->njobs; i++) {
        cJSON *s = cJSON_CreateString(m->jobs[i]);
        ok = s && cJSON_AddItemToArray(jobs, s);
    }
    if (ok && (st = rd_json_write(root, out, false)) == RD_OK)
        st = rd_buf_addch(out, '\n');
    cJSON_Delete(root);
    return st;
}

unsigned rd_slurm_shard_task(const char *folder)
{
    if (strncmp(folder, "task", 4) != 0 || !isdigit((unsigned char)folder[4]) ||
        folder[4] == '0')
        return 0;
    char *end;
    unsigned long v = strtoul(folder + 4, &end, 10);
    if (*end != '.' || end[1] == '\0' || end - (folder + 4) > 7)
        return 0;
    return (unsigned)v;
}

rd_status rd_slurm_array_spec(const bool *want, unsigned n, unsigned throttle,
                              struct rd_buf *out)
{
    bool first = true;
    for (unsigned i = 1; i <= n; i++) {
        if (!want[i])
            continue;
        unsigned last = i;
        while (last < n && want[last + 1])
            last++;
        RD_TRY(rd_buf_addf(out, first ? "%u" : ",%u", i));
        if (last > i)
            RD_TRY(rd_buf_addf(out, "-%u", last));
        first = false;
        i = last;
    }
    if (throttle)
        RD_TRY(rd_buf_addf(out, "%%%u", throttle));
    return RD_OK;
}
