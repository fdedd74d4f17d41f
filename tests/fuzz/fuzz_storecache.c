// links: rd_core
/*
 * Fuzz target for the parse cache's reader (storecache.h): the input is
 * taken twice, (1) as a whole cache file, which the checks must refuse or
 * read without a fault, and (2) as the payload of one block of an
 * otherwise sound file (first byte: its record count; checksums made
 * right), so the record decoder sees every byte the fuzzer tries rather
 * than stopping at a checksum.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "rundown/storecache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Reads every record of a cache file's bytes, when its checks pass. */
static void read_all(const void *bytes, size_t len)
{
    int fd = memfd_create("fuzz-cache", MFD_CLOEXEC);
    if (fd < 0)
        return;
    if (len && write(fd, bytes, len) != (ssize_t)len) {
        close(fd);
        return;
    }
    struct rd_cache c;
    if (!rd_cache_check_fd(&c, fd)) {
        struct rd_cache_range r;
        rd_cache_range_open(&r, &c, "fuzz", 0, c.nblocks);
        struct rd_record rec;
        struct rd_diag d;
        rd_diag_init(&d, "fuzz");
        int got = 1;
        while (got && rd_cache_next(&r, &rec, &got, &d) == RD_OK)
            if (got) {
                /* what ingest reads of a record: every string and number */
                struct rd_buf b = RD_BUF_INIT;
                if (rd_record_to_json(&rec, &b) != RD_OK && b.len > (size_t)1 << 30)
                    abort();
                rd_buf_release(&b);
            }
        rd_cache_range_close(&r);
    }
    rd_cache_release(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_all(data, size);
    if (size < 1)
        return 0;
    uint32_t nrec = data[0];
    size_t plen = size - 1;
    /* the header: its fixed 80 bytes, then the store's identity (device,
     * inode, path length, path "/s") */
    enum { HDR = 80 + 20 + 2 };
    unsigned char *f = calloc(1, HDR + 40 + plen);
    if (!f)
        return 0;
    uint64_t lines = (uint64_t)nrec * 2 + 1, bytes = lines * 100;
    unsigned char *b = f + HDR;
    put32(b, 0x4b424452u);
    put32(b + 4, nrec);
    put64(b + 8, plen);
    put64(b + 16, bytes);
    put64(b + 24, lines);
    memcpy(b + 40, data + 1, plen);
    put64(b + 32, XXH3_64bits(b + 40, plen));
    memcpy(f, "RDCACHE\n", 8);
    put32(f + 8, RD_CACHE_VERSION);
    put32(f + 12, HDR);
    put64(f + 16, bytes);
    put64(f + 40, nrec);
    put64(f + 48, lines);
    put64(f + 56, 1);
    put64(f + 64, 40 + plen);
    put64(f + 80, 1);
    put64(f + 88, 2);
    put32(f + 96, 2);
    memcpy(f + 100, "/s", 2);
    put64(f + 72, XXH3_64bits_withSeed(f + 80, HDR - 80, XXH3_64bits(f, 72)));
    read_all(f, HDR + 40 + plen);
    free(f);
    return 0;
}
