/*
 * sha256.h - SHA-256 (FIPS 180-4), for the digest an imported run keeps of
 * its source bytes, so that the same output imported twice is recognised.
 *
 * Written by hand (about a hundred lines): no library rundown depends on
 * has one, and a crypto library for one hash is not worth a dependency.
 * Not constant-time and not meant for secrets.
 */
#ifndef RUNDOWN_SHA256_H
#define RUNDOWN_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct rd_sha256 {
    uint32_t h[8];
    uint64_t bytes;          /* message length so far */
    unsigned char block[64];
    size_t used;             /* bytes of block filled */
};

/** Starts a digest. */
void rd_sha256_init(struct rd_sha256 *c);

/** Adds len bytes of the message (any number of calls, any lengths). */
void rd_sha256_add(struct rd_sha256 *c, const void *data, size_t len);

/** Ends the message: the 32-byte digest goes to out; c must be
 *  re-initialised before it is used again. */
void rd_sha256_end(struct rd_sha256 *c, unsigned char out[32]);

/** The digest of data[0..len) as 64 lower-case hex digits and a NUL. */
void rd_sha256_hex(const void *data, size_t len, char out[65]);

/** The 32-byte digest in out as 64 lower-case hex digits and a NUL. */
void rd_sha256_to_hex(const unsigned char digest[32], char out[65]);

#endif
