/*
 * storecache - the incremental cache of a parsed run store (storecache.h).
 *
 * The digests are libxxhash's (XXH3: fast, well kept, Debian-packaged);
 * the record encoding is written here because it is the record struct's
 * own layout. Everything that reads a cache file checks bounds: the file
 * is outside rundown's control (tests/fuzz/fuzz_storecache.c). Files are
 * read with pread in blocks of bounded size, never mapped whole, so a
 * warm analysis holds one block of the cache at a time. The sweep reads
 * the headers alone (the store's identity is in them) and stats each
 * store: once a day, after a commit, so a folder of many caches costs an
 * analysis nothing on other days.
 */
#include "rundown/storecache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "rundown/array.h"
#include "rundown/strmap.h"

enum {
    /* The header's fixed part; the store's identity follows it (its
     * device, inode, path length, path), then the blocks. */
    HEADER_SIZE = 80,
    IDENT_FIXED = 20,
    IDENT_PATH_MAX = 65536,
    BLOCK_HEADER = 40,
    /* A block closes past this many payload bytes or records: small
     * enough to hold one at a time, big enough that a store has few. */
    BLOCK_TARGET = 256 * 1024,
    BLOCK_RECORDS = 8192,
    /* A block is never bigger (one record holds at most a 16 MiB line). */
    BLOCK_MAX = 64 * 1024 * 1024,
    IO_CHUNK = 1024 * 1024,
};
static const char MAGIC[8] = {'R', 'D', 'C', 'A', 'C', 'H', 'E', '\n'};
/* A cache file's name: 32 lower-case hex digits and this. */
#define CACHE_SUFFIX ".rdc"
enum { CACHE_NAME_LEN = 32 + 4, DAY = 24 * 60 * 60 };
#define BLOCK_TAG 0x4b424452u /* "RDBK" */

/* ---- little-endian fields (the cache is the host's own, but a file
 * from another host must fail its checks, not be misread) ---- */

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int read_full(int fd, void *buf, size_t len, uint64_t off)
{
    unsigned char *p = buf;
    while (len) {
        ssize_t n = pread(fd, p, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n, len -= (size_t)n, off += (uint64_t)n;
    }
    return 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
    const unsigned char *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n, len -= (size_t)n;
    }
    return 0;
}

/* Feeds the store's bytes [from, to) to the digest, read in chunks. */
static int digest_store(XXH3_state_t *st, int fd, uint64_t from, uint64_t to)
{
    unsigned char *buf = malloc(IO_CHUNK);
    if (!buf)
        return -1;
    int rc = 0;
    while (from < to && !rc) {
        size_t want = to - from < IO_CHUNK ? (size_t)(to - from) : IO_CHUNK;
        if ((rc = read_full(fd, buf, want, from)) == 0) {
            XXH3_128bits_update(st, buf, want);
            from += want;
        }
    }
    free(buf);
    return rc;
}

char *rd_cache_default_dir(void)
{
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    char *out = NULL;
    /* The XDG spec: a relative XDG_CACHE_HOME is invalid and ignored. */
    if (x && x[0] == '/')
        return asprintf(&out, "%s/rundown", x) < 0 ? NULL : out;
    if (h && *h)
        return asprintf(&out, "%s/.cache/rundown", h) < 0 ? NULL : out;
    return NULL;
}

/* mkdir -p with mode 0700 for what it makes. */
static int make_dir(const char *dir)
{
    char *p = strdup(dir);
    if (!p)
        return -1;
    int rc = 0;
    for (char *s = p + 1; !rc; s++) {
        if (*s != '/' && *s)
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST)
            rc = -1;
        *s = c;
        if (!c)
            break;
    }
    struct stat st;
    if (!rc && (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)))
        rc = -1;
    free(p);
    return rc;
}

void rd_cache_release(struct rd_cache *c)
{
    if (c->fd >= 0)
        close(c->fd);
    free(c->path);
    free(c->real);
    free(c->blocks);
    if (c->digest)
        XXH3_freeState(c->digest);
    memset(c, 0, sizeof *c);
    c->fd = -1;
}

/* Drops what was found of a cache file: the store is read whole. */
static void forget(struct rd_cache *c, const char *why)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->nblocks = 0;
    c->covered = c->records = c->lines = 0;
    XXH3_128bits_reset(c->digest);
    c->note = why;
}

/* The header's checksum: its fixed part but the checksum, then the
 * store's identity (h holds the whole header, len bytes). */
static uint64_t header_sum(const unsigned char *h, size_t len)
{
    return XXH3_64bits_withSeed(h + HEADER_SIZE, len - HEADER_SIZE,
                                XXH3_64bits(h, HEADER_SIZE - 8));
}

/* The store a cache file was made for. */
struct ident {
    uint64_t dev, ino;
    char *path; /* malloc'd */
};

/* What read_header found. The sweep acts on the kind (orphan: another
 * version's file serves no store), never on the words, which only say
 * it (header_why): a message reworded cannot change which files a sweep
 * removes. */
enum header_fault {
    HEADER_SOUND = 0,
    HEADER_TRUNCATED,
    HEADER_FOREIGN,       /* another magic: not a file of ours */
    HEADER_OTHER_VERSION, /* ours, of another RD_CACHE_VERSION */
    HEADER_DAMAGED,
    HEADER_NOMEM,
};

static const char *header_why(enum header_fault f)
{
    static const char *const why[] = {
        [HEADER_SOUND] = NULL,
        [HEADER_TRUNCATED] = "truncated",
        [HEADER_FOREIGN] = "not a rundown cache",
        [HEADER_OTHER_VERSION] = "another version",
        [HEADER_DAMAGED] = "damaged header",
        [HEADER_NOMEM] = "out of memory",
    };
    return why[f];
}

/* Reads the header of the cache file open at fd (size bytes): its fixed
 * part into hdr, its length into *len, the store's identity into *id
 * (free id->path) when id is not NULL. HEADER_SOUND when it is sound,
 * else what is wrong (HEADER_FOREIGN and HEADER_OTHER_VERSION before any
 * other check but the length). */
static enum header_fault read_header(int fd, uint64_t size, unsigned char *hdr, uint32_t *len,
                                     struct ident *id)
{
    if (size < HEADER_SIZE || read_full(fd, hdr, HEADER_SIZE, 0))
        return HEADER_TRUNCATED;
    if (memcmp(hdr, MAGIC, 8) != 0)
        return HEADER_FOREIGN;
    if (get32(hdr + 8) != RD_CACHE_VERSION)
        return HEADER_OTHER_VERSION;
    uint32_t n = get32(hdr + 12);
    if (n < HEADER_SIZE + IDENT_FIXED || n - HEADER_SIZE - IDENT_FIXED > IDENT_PATH_MAX)
        return HEADER_DAMAGED;
    if (n > size)
        return HEADER_TRUNCATED;
    unsigned char *h = malloc(n + 1);
    if (!h)
        return HEADER_NOMEM;
    memcpy(h, hdr, HEADER_SIZE);
    enum header_fault f = HEADER_SOUND;
    if (read_full(fd, h + HEADER_SIZE, n - HEADER_SIZE, HEADER_SIZE))
        f = HEADER_TRUNCATED;
    else if (header_sum(h, n) != get64(hdr + HEADER_SIZE - 8) ||
             get32(h + HEADER_SIZE + 16) != n - HEADER_SIZE - IDENT_FIXED)
        f = HEADER_DAMAGED;
    if (!f && id) {
        id->dev = get64(h + HEADER_SIZE);
        id->ino = get64(h + HEADER_SIZE + 8);
        /* the path's bytes, NUL-terminated in place */
        h[n] = '\0';
        id->path = strdup((char *)h + HEADER_SIZE + IDENT_FIXED);
        if (!id->path)
            f = HEADER_NOMEM;
    }
    free(h);
    *len = n;
    return f;
}

/* Checks the cache file's header and blocks (their checksums too): a
 * damaged file is found here, before any of it is used. NULL when it
 * is sound, else why not. */
static const char *check_file(struct rd_cache *c, unsigned char *hdr, struct ident *id)
{
    struct stat st;
    if (fstat(c->fd, &st) != 0 || !S_ISREG(st.st_mode))
        return "not a regular file";
    uint32_t hlen;
    enum header_fault hf = read_header(c->fd, (uint64_t)st.st_size, hdr, &hlen, id);
    if (hf)
        return header_why(hf);
    uint64_t nblocks = get64(hdr + 56), total = get64(hdr + 64);
    if (total != (uint64_t)st.st_size - hlen)
        return "truncated";
    if (nblocks > total / BLOCK_HEADER)
        return "damaged header";
    c->hdr_len = hlen;
    uint64_t off = hlen, bytes = 0, lines = 0, records = 0;
    unsigned char bh[BLOCK_HEADER];
    unsigned char *buf = NULL;
    size_t cap = 0;
    const char *why = NULL;
    for (uint64_t i = 0; i < nblocks && !why; i++) {
        if (off + BLOCK_HEADER > (uint64_t)st.st_size || read_full(c->fd, bh, BLOCK_HEADER, off)) {
            why = "truncated";
            break;
        }
        struct rd_cache_block b = {.off = off + BLOCK_HEADER, .len = get64(bh + 8),
                                   .bytes = get64(bh + 16), .lines = get64(bh + 24),
                                   .nrec = get32(bh + 4)};
        if (get32(bh) != BLOCK_TAG || b.len > BLOCK_MAX || b.len > (uint64_t)st.st_size - b.off ||
            b.nrec > b.len || b.lines > b.bytes || b.nrec > b.lines) {
            why = "damaged block";
            break;
        }
        if (b.len > cap) {
            unsigned char *n = realloc(buf, (size_t)b.len);
            if (!n) {
                why = "out of memory";
                break;
            }
            buf = n, cap = (size_t)b.len;
        }
        if (read_full(c->fd, buf, (size_t)b.len, b.off) ||
            XXH3_64bits(buf, (size_t)b.len) != get64(bh + 32)) {
            why = "damaged block";
            break;
        }
        if (RD_ARRAY_GROW(c->blocks, c->capblocks, c->nblocks + 1)) {
            why = "out of memory";
            break;
        }
        c->blocks[c->nblocks++] = b;
        off = b.off + b.len, bytes += b.bytes, lines += b.lines, records += b.nrec;
    }
    free(buf);
    if (why)
        return why;
    if (off != (uint64_t)st.st_size || bytes != get64(hdr + 16) || records != get64(hdr + 40) ||
        lines != get64(hdr + 48) || lines > UINT_MAX)
        return "damaged header";
    c->covered = bytes, c->records = records, c->lines = lines;
    return NULL;
}

const char *rd_cache_check_fd(struct rd_cache *c, int fd)
{
    memset(c, 0, sizeof *c);
    c->fd = fd;
    unsigned char hdr[HEADER_SIZE];
    const char *why = check_file(c, hdr, NULL);
    if (why)
        c->nblocks = 0;
    return why;
}

rd_status rd_cache_open(struct rd_cache *c, const char *dir, const char *store,
                        struct rd_diag *d)
{
    memset(c, 0, sizeof *c);
    c->fd = -1;
    char *real = realpath(store, NULL);
    struct stat st;
    if (!real || stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(real);
        return rd_diag_set(d, RD_ERR_IO, store, 0, 0, "no cache: not a regular file");
    }
    if (make_dir(dir) != 0) {
        free(real);
        return rd_diag_set(d, RD_ERR_IO, dir, 0, 0, "no cache: cannot make the directory: %s",
                           strerror(errno));
    }
    /* The name: the store's real path, device and inode (a store replaced
     * by another file of the same name gets another cache). */
    XXH3_state_t *h = XXH3_createState();
    if (!h) {
        free(real);
        return RD_ERR_NOMEM;
    }
    XXH3_128bits_reset(h);
    XXH3_128bits_update(h, real, strlen(real) + 1);
    uint64_t ids[2] = {(uint64_t)st.st_dev, (uint64_t)st.st_ino};
    XXH3_128bits_update(h, ids, sizeof ids);
    XXH128_hash_t name = XXH3_128bits_digest(h);
    c->real = real;
    c->dev = ids[0], c->ino = ids[1];
    c->digest = h;
    if (asprintf(&c->path, "%s/%016llx%016llx.rdc", dir, (unsigned long long)name.high64,
                 (unsigned long long)name.low64) < 0) {
        c->path = NULL;
        rd_cache_release(c);
        return RD_ERR_NOMEM;
    }
    XXH3_128bits_reset(h);
    c->fd = open(c->path, O_RDONLY | O_CLOEXEC);
    if (c->fd < 0) {
        c->note = "no cache yet";
        return RD_OK;
    }
    unsigned char hdr[HEADER_SIZE];
    struct ident id = {0};
    const char *why = check_file(c, hdr, &id);
    /* a digest's collision, in theory */
    if (!why && (id.dev != c->dev || id.ino != c->ino || strcmp(id.path, c->real) != 0))
        why = "another store's cache";
    free(id.path);
    if (!why && c->covered > (uint64_t)st.st_size)
        why = "the store is shorter than the cache";
    if (!why) {
        int sfd = open(store, O_RDONLY | O_CLOEXEC);
        if (sfd < 0 || digest_store(h, sfd, 0, c->covered) != 0)
            why = "the store cannot be read";
        if (sfd >= 0)
            close(sfd);
        XXH128_hash_t dg = XXH3_128bits_digest(h);
        if (!why && (dg.low64 != get64(hdr + 24) || dg.high64 != get64(hdr + 32)))
            why = "the store's prefix changed";
    }
    if (why)
        forget(c, why);
    return RD_OK;
}

/* ---- reading ---- */

void rd_cache_range_open(struct rd_cache_range *r, const struct rd_cache *c,
                         const char *path, size_t first, size_t last)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->block = first;
    r->last = last;
    r->path = path;
    rd_arena_init(&r->arena);
}

void rd_cache_range_close(struct rd_cache_range *r)
{
    free(r->buf);
    free(r->strs);
    for (int i = 0; i < 3; i++)
        free(r->kvs[i]);
    free(r->metrics);
    rd_arena_release(&r->arena);
    memset(r, 0, sizeof *r);
}

static int get_varint(struct rd_cache_range *r, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (r->pos >= r->len)
            return -1;
        unsigned char b = r->buf[r->pos++];
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 0;
    }
    return -1;
}

static int get_str(struct rd_cache_range *r, const char **s)
{
    uint64_t v, len;
    if (get_varint(r, &v))
        return -1;
    if (v == 0) {
        *s = NULL;
        return 0;
    }
    if (v <= r->nstrs) {
        *s = r->strs[v - 1];
        return 0;
    }
    /* A string new to the block, NUL-terminated in the payload. */
    if (v != r->nstrs + 1 || get_varint(r, &len) || len >= r->len - r->pos ||
        r->buf[r->pos + len] != '\0' || RD_ARRAY_GROW(r->strs, r->capstrs, r->nstrs + 1))
        return -1;
    *s = r->strs[r->nstrs++] = (const char *)r->buf + r->pos;
    r->pos += (size_t)len + 1;
    return 0;
}

static int get_kvs(struct rd_cache_range *r, struct rd_kvlist *l, int which)
{
    uint64_t n;
    if (get_varint(r, &n) || n > (r->len - r->pos) / 2 ||
        RD_ARRAY_GROW(r->kvs[which], r->capkvs[which], (size_t)n + 1))
        return -1;
    l->items = r->kvs[which];
    l->len = l->cap = (size_t)n;
    for (size_t i = 0; i < n; i++)
        if (get_str(r, &l->items[i].key) || get_str(r, &l->items[i].value) ||
            !l->items[i].key || !l->items[i].value)
            return -1;
    return 0;
}

static int load_block(struct rd_cache_range *r)
{
    const struct rd_cache_block *b = &r->c->blocks[r->block];
    if (b->len > r->cap) {
        unsigned char *n = realloc(r->buf, (size_t)b->len);
        if (!n)
            return -1;
        r->buf = n, r->cap = (size_t)b->len;
    }
    if (read_full(r->c->fd, r->buf, (size_t)b->len, b->off))
        return -1;
    r->len = (size_t)b->len;
    r->pos = 0;
    r->left = b->nrec;
    r->nstrs = 0;
    return 0;
}

rd_status rd_cache_next(struct rd_cache_range *r, struct rd_record *rec, int *got,
                        struct rd_diag *d)
{
    *got = 0;
    while (r->left == 0) {
        if (r->loaded) {
            /* The block read is done: the next starts after its lines. */
            r->block_line += (unsigned)r->c->blocks[r->block].lines;
            r->line = r->block_line;
            r->block++;
            r->loaded = 0;
        }
        if (r->block >= r->last)
            return RD_OK;
        if (load_block(r))
            goto bad;
        r->loaded = 1;
    }
    rd_record_init(rec, &r->arena);
    uint64_t delta, run, ec = 0, sline, nm;
    int flags;
    if (get_varint(r, &delta) || delta == 0 || r->pos >= r->len)
        goto bad;
    flags = r->buf[r->pos++];
    if (get_str(r, &rec->suite) || get_str(r, &rec->workload) || get_str(r, &rec->phase) ||
        get_str(r, &rec->tool) || get_str(r, &rec->status) || get_str(r, &rec->started_at) ||
        get_str(r, &rec->env) || get_varint(r, &run) ||
        ((flags & 1) && get_varint(r, &ec)) || get_varint(r, &sline) ||
        get_kvs(r, &rec->config, 0) || get_kvs(r, &rec->info, 1) ||
        get_kvs(r, &rec->source, 2) || get_varint(r, &nm) || nm > (r->len - r->pos) / 9 ||
        RD_ARRAY_GROW(r->metrics, r->capmetrics, (size_t)nm + 1))
        goto bad;
    /* zigzag: small negative numbers stay short */
    rec->run = (long)((run >> 1) ^ -(run & 1));
    if (flags & 1) {
        rec->has_exit_code = true;
        rec->exit_code = (int)((ec >> 1) ^ -(ec & 1));
    }
    rec->contended = (flags & 2) != 0;
    rec->source_line = (unsigned)sline;
    rec->metrics = r->metrics;
    rec->nmetrics = rec->metrics_cap = (size_t)nm;
    for (size_t i = 0; i < nm; i++) {
        if (get_str(r, &r->metrics[i].name) || !r->metrics[i].name || r->len - r->pos < 8)
            goto bad;
        memcpy(&r->metrics[i].value, r->buf + r->pos, 8);
        r->pos += 8;
    }
    r->line += (unsigned)delta;
    r->left--;
    if (r->left == 0 && r->pos != r->len)
        goto bad;
    *got = 1;
    return RD_OK;
bad:
    return rd_diag_set(d, RD_ERR_PARSE, r->path, r->line + 1, 0,
                       "the parse cache of this store is damaged (changed while it was "
                       "read?); run again, or with --no-cache");
}

/* ---- writing ---- */

static void put_varint(struct rd_cache_writer *w, uint64_t v)
{
    do {
        unsigned char b = v & 0x7f;
        v >>= 7;
        w->buf[w->len++] = b | (v ? 0x80 : 0);
    } while (v);
}

static int room(struct rd_cache_writer *w, size_t need)
{
    if (w->len + need <= w->cap)
        return 0;
    size_t ncap = w->cap ? w->cap : BLOCK_TARGET + 4096;
    while (ncap < w->len + need)
        ncap *= 2;
    unsigned char *n = realloc(w->buf, ncap);
    if (!n)
        return -1;
    w->buf = n, w->cap = ncap;
    return 0;
}

static int put_str(struct rd_cache_writer *w, const char *s)
{
    if (!s)
        return room(w, 1) ? -1 : (put_varint(w, 0), 0);
    size_t len = strlen(s);
    struct rd_strmap *m = w->strmap;
    const int64_t *f = rd_strmap_findn(m, s, len);
    if (room(w, len + 21))
        return -1;
    if (f) {
        put_varint(w, (uint64_t)*f + 1);
        return 0;
    }
    if (rd_strmap_putn(m, s, len, (int64_t)w->nstrs, NULL))
        return -1;
    put_varint(w, ++w->nstrs);
    put_varint(w, len);
    memcpy(w->buf + w->len, s, len + 1);
    w->len += len + 1;
    return 0;
}

static int put_kvs(struct rd_cache_writer *w, const struct rd_kvlist *l)
{
    if (room(w, 10))
        return -1;
    put_varint(w, l->len);
    for (size_t i = 0; i < l->len; i++)
        if (put_str(w, l->items[i].key) || put_str(w, l->items[i].value))
            return -1;
    return 0;
}

static void fail(struct rd_cache_writer *w)
{
    w->failed = 1;
    free(w->buf);
    w->buf = NULL;
    w->cap = w->len = 0;
}

/* Writes the open block (nrec records) as covering the store up to
 * (line, end), and opens the next one there. */
static void close_block(struct rd_cache_writer *w, unsigned line, unsigned long long end)
{
    if (w->failed)
        return;
    if (w->nrec == 0 && end == w->block_off)
        return;
    unsigned char *h = w->buf;
    size_t plen = w->len - BLOCK_HEADER;
    put32(h, BLOCK_TAG);
    put32(h + 4, w->nrec);
    put64(h + 8, plen);
    put64(h + 16, end - w->block_off);
    put64(h + 24, (uint64_t)(line - w->block_line));
    put64(h + 32, XXH3_64bits(h + BLOCK_HEADER, plen));
    if (write_full(w->fd, h, w->len)) {
        fail(w);
        return;
    }
    w->written += w->len;
    w->bytes += end - w->block_off;
    w->lines += line - w->block_line;
    w->records += w->nrec;
    w->block_off = end;
    w->block_line = w->last_line = line;
    w->nrec = 0;
    w->len = BLOCK_HEADER;
    rd_strmap_release(w->strmap);
    rd_strmap_init(w->strmap);
    w->nstrs = 0;
}

void rd_cache_writer_open(struct rd_cache_writer *w, const struct rd_cache *c, unsigned line,
                          unsigned long long off)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    w->block_off = off;
    w->block_line = w->last_line = line;
    w->block_records = c && c->block_records ? c->block_records : BLOCK_RECORDS;
    w->strmap = malloc(sizeof(struct rd_strmap));
    if (w->strmap)
        rd_strmap_init(w->strmap);
    char *dir = c && c->path ? strdup(c->path) : NULL;
    char *slash = dir ? strrchr(dir, '/') : NULL;
    if (slash) {
        *slash = '\0';
        /* unnamed: nothing is left behind when the process dies */
        w->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    }
    free(dir);
    if (!w->strmap || w->fd < 0 || room(w, BLOCK_HEADER)) {
        fail(w);
        return;
    }
    w->len = BLOCK_HEADER;
}

void rd_cache_writer_add(struct rd_cache_writer *w, const struct rd_record *r, unsigned line,
                         unsigned long long end)
{
    if (w->failed)
        return;
    if (line <= w->last_line || room(w, 64)) {
        fail(w);
        return;
    }
    put_varint(w, line - w->last_line);
    w->buf[w->len++] = (unsigned char)((r->has_exit_code ? 1 : 0) | (r->contended ? 2 : 0));
    if (put_str(w, r->suite) || put_str(w, r->workload) || put_str(w, r->phase) ||
        put_str(w, r->tool) || put_str(w, r->status) || put_str(w, r->started_at) ||
        put_str(w, r->env) || room(w, 40)) {
        fail(w);
        return;
    }
    long run = r->run;
    put_varint(w, ((uint64_t)run << 1) ^ (uint64_t)(run >> (sizeof run * 8 - 1)));
    if (r->has_exit_code) {
        int64_t ec = r->exit_code;
        put_varint(w, ((uint64_t)ec << 1) ^ (uint64_t)(ec >> 63));
    }
    put_varint(w, r->source_line);
    if (put_kvs(w, &r->config) || put_kvs(w, &r->info) || put_kvs(w, &r->source) ||
        room(w, 10)) {
        fail(w);
        return;
    }
    put_varint(w, r->nmetrics);
    for (size_t i = 0; i < r->nmetrics; i++) {
        if (put_str(w, r->metrics[i].name) || room(w, 8)) {
            fail(w);
            return;
        }
        memcpy(w->buf + w->len, &r->metrics[i].value, 8);
        w->len += 8;
    }
    w->last_line = line;
    w->nrec++;
    if (w->len - BLOCK_HEADER >= BLOCK_TARGET || w->nrec >= w->block_records)
        close_block(w, line, end);
    else if (w->len > BLOCK_MAX)
        fail(w);
}

void rd_cache_writer_finish(struct rd_cache_writer *w, unsigned line, unsigned long long end)
{
    if (!w->failed && (line < w->last_line || end < w->block_off))
        fail(w);
    close_block(w, line, end);
}

void rd_cache_writer_release(struct rd_cache_writer *w)
{
    if (w->fd >= 0)
        close(w->fd);
    if (w->strmap)
        rd_strmap_release(w->strmap);
    free(w->strmap);
    free(w->buf);
    memset(w, 0, sizeof *w);
    w->fd = -1;
}

/* Copies len bytes of fd from off to out's end. */
static int copy_part(int out, int fd, uint64_t off, uint64_t len)
{
    while (len) {
        loff_t in = (loff_t)off;
        ssize_t n = copy_file_range(fd, &in, out, NULL, len, 0);
        if (n <= 0) {
            /* not on this file system: by hand */
            unsigned char *buf = malloc(IO_CHUNK);
            if (!buf)
                return -1;
            while (len) {
                size_t want = len < IO_CHUNK ? (size_t)len : IO_CHUNK;
                if (read_full(fd, buf, want, off) || write_full(out, buf, want)) {
                    free(buf);
                    return -1;
                }
                off += want, len -= want;
            }
            free(buf);
            return 0;
        }
        off += (uint64_t)n, len -= (uint64_t)n;
    }
    return 0;
}

/* ---- sweeping ---- */

/* A cache file's name (32 lower-case hex digits and ".rdc"): 1; a
 * commit's temporary of one (that and ".XXXXXX"): 2; else 0. */
static int cache_name(const char *name)
{
    size_t n = strlen(name);
    if (n != CACHE_NAME_LEN && n != CACHE_NAME_LEN + 7)
        return 0;
    for (size_t i = 0; i < 32; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return 0;
    if (memcmp(name + 32, CACHE_SUFFIX, 4) != 0)
        return 0;
    return n == CACHE_NAME_LEN ? 1 : name[CACHE_NAME_LEN] == '.' ? 2 : 0;
}

/* Whether the cache file 'name' in dfd can serve no store: of another
 * version, or its store gone or another file now. */
static int orphan(int dfd, const char *name, struct stat *st)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int gone = 0;
    unsigned char hdr[HEADER_SIZE];
    uint32_t len;
    struct ident id = {0};
    if (fstat(fd, st) == 0 && S_ISREG(st->st_mode)) {
        enum header_fault f = read_header(fd, (uint64_t)st->st_size, hdr, &len, &id);
        if (f == HEADER_OTHER_VERSION) {
            gone = 1;
        } else if (f == HEADER_SOUND) {
            struct stat ss;
            /* a store that cannot be looked at (no permission, an I/O
             * error) may still be there: its cache stays */
            if (stat(id.path, &ss) != 0)
                gone = errno == ENOENT || errno == ENOTDIR;
            else
                gone = !S_ISREG(ss.st_mode) || (uint64_t)ss.st_dev != id.dev ||
                       (uint64_t)ss.st_ino != id.ino;
        }
    }
    free(id.path);
    close(fd);
    return gone;
}

rd_status rd_cache_sweep(const char *dir, size_t *removed, struct rd_diag *d)
{
    if (removed)
        *removed = 0;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *ds = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!ds) {
        int e = errno;
        if (dfd >= 0)
            close(dfd);
        return rd_diag_set(d, RD_ERR_IO, dir, 0, 0, "cannot read the cache directory: %s",
                           strerror(e));
    }
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(ds))) {
        int kind = cache_name(e->d_name);
        struct stat st;
        if (kind == 1) {
            if (!orphan(dfd, e->d_name, &st))
                continue;
        } else if (kind == 2) {
            /* a commit lasts seconds: a day-old temporary's writer died */
            if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
                !S_ISREG(st.st_mode) || now - st.st_mtime < DAY)
                continue;
        } else {
            continue;
        }
        /* Still the file judged (not renamed over by a commit since)? */
        struct stat again;
        if (fstatat(dfd, e->d_name, &again, AT_SYMLINK_NOFOLLOW) == 0 &&
            again.st_dev == st.st_dev && again.st_ino == st.st_ino &&
            unlinkat(dfd, e->d_name, 0) == 0 && removed)
            (*removed)++;
    }
    closedir(ds);
    return RD_OK;
}

/* Sweeps the directory of the cache file 'path' when the last sweep
 * (the mtime of its .sweep) is a day old or more, or in the future: a
 * sweep stats every cache's store, so not at every commit. */
static void sweep_when_due(const char *path)
{
    char *dir = strdup(path), *slash = dir ? strrchr(dir, '/') : NULL;
    if (!slash) {
        free(dir);
        return;
    }
    *slash = '\0';
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat st;
    time_t now = time(NULL);
    if (dfd >= 0 && (fstatat(dfd, ".sweep", &st, AT_SYMLINK_NOFOLLOW) != 0 ||
                     now - st.st_mtime >= DAY || st.st_mtime > now)) {
        /* the stamp first: of two analyses that commit at once, the
         * second finds it new and leaves the sweep to the first */
        int fd = openat(dfd, ".sweep", O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            (void)futimens(fd, NULL);
            close(fd);
            (void)rd_cache_sweep(dir, NULL, NULL);
        }
    }
    if (dfd >= 0)
        close(dfd);
    free(dir);
}

rd_status rd_cache_commit(struct rd_cache *c, const char *store, struct rd_cache_writer *const *ws,
                          size_t n, struct rd_diag *d)
{
    uint64_t bytes = c->covered, lines = c->lines, records = c->records, nblocks = c->nblocks;
    uint64_t old_len = 0;
    for (size_t i = 0; i < c->nblocks; i++)
        old_len += BLOCK_HEADER + c->blocks[i].len;
    uint64_t total = old_len;
    for (size_t i = 0; i < n; i++) {
        if (ws[i]->failed)
            return rd_diag_set(d, RD_ERR_IO, c->path, 0, 0, "cache not written");
        bytes += ws[i]->bytes, lines += ws[i]->lines, records += ws[i]->records;
        total += ws[i]->written;
    }
    if (lines > UINT_MAX)
        return rd_diag_set(d, RD_ERR_IO, c->path, 0, 0, "cache not written: too many lines");
    int sfd = open(store, O_RDONLY | O_CLOEXEC);
    if (sfd < 0 || digest_store(c->digest, sfd, c->covered, bytes)) {
        if (sfd >= 0)
            close(sfd);
        return rd_diag_set(d, RD_ERR_IO, store, 0, 0, "cache not written: cannot read store");
    }
    close(sfd);
    XXH128_hash_t dg = XXH3_128bits_digest(c->digest);
    size_t plen = c->real ? strlen(c->real) : 0;
    if (!c->real || plen > IDENT_PATH_MAX)
        return rd_diag_set(d, RD_ERR_IO, c->path, 0, 0, "cache not written: no store path");
    uint32_t hlen = (uint32_t)(HEADER_SIZE + IDENT_FIXED + plen);
    unsigned char *hdr = calloc(1, hlen);
    if (!hdr)
        return RD_ERR_NOMEM;
    memcpy(hdr, MAGIC, 8);
    put32(hdr + 8, RD_CACHE_VERSION);
    put32(hdr + 12, hlen);
    put64(hdr + HEADER_SIZE, c->dev);
    put64(hdr + HEADER_SIZE + 8, c->ino);
    put32(hdr + HEADER_SIZE + 16, (uint32_t)plen);
    memcpy(hdr + HEADER_SIZE + IDENT_FIXED, c->real, plen);
    put64(hdr + 16, bytes);
    put64(hdr + 24, dg.low64);
    put64(hdr + 32, dg.high64);
    put64(hdr + 40, records);
    put64(hdr + 48, lines);
    char *tmp = NULL;
    if (asprintf(&tmp, "%s.XXXXXX", c->path) < 0) {
        free(hdr);
        return RD_ERR_NOMEM;
    }
    int out = mkostemp(tmp, O_CLOEXEC);
    if (out < 0) {
        int e = errno;
        free(tmp);
        free(hdr);
        return rd_diag_set(d, RD_ERR_IO, c->path, 0, 0, "cache not written: %s", strerror(e));
    }
    int rc = write_full(out, hdr, hlen);
    if (!rc && old_len)
        rc = copy_part(out, c->fd, c->hdr_len, old_len);
    for (size_t i = 0; i < n && !rc; i++)
        rc = copy_part(out, ws[i]->fd, 0, ws[i]->written);
    if (!rc) {
        /* The writers' block count: walk their headers in the new file. */
        uint64_t off = hlen + old_len;
        unsigned char bh[BLOCK_HEADER];
        while (!rc && off < hlen + total) {
            if ((rc = read_full(out, bh, BLOCK_HEADER, off)) == 0) {
                off += BLOCK_HEADER + get64(bh + 8);
                nblocks++;
            }
        }
        put64(hdr + 56, nblocks);
        put64(hdr + 64, total);
        put64(hdr + HEADER_SIZE - 8, header_sum(hdr, hlen));
        rc = pwrite(out, hdr, hlen, 0) == (ssize_t)hlen ? 0 : -1;
    }
    free(hdr);
    /* No fsync: a cache lost or torn by a crash fails its checks and is
     * rebuilt; the rename alone keeps readers from a half-written file. */
    if (close(out) != 0)
        rc = -1;
    if (!rc && rename(tmp, c->path) != 0)
        rc = -1;
    int e = errno;
    if (rc)
        unlink(tmp);
    free(tmp);
    if (rc)
        return rd_diag_set(d, RD_ERR_IO, c->path, 0, 0, "cache not written: %s", strerror(e));
    sweep_when_due(c->path);
    return RD_OK;
}
