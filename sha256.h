/*
 * sha256.h: SHA-256 (FIPS 180-4), for the digests of the tables a
 * release report names (score --report).  libc only.
 */
#ifndef SHA256_H
#define SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint32_t h[8];		/* the chaining value */
	uint64_t len;		/* bytes hashed so far */
	unsigned char blk[64];	/* the block being filled */
	size_t nblk;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
/* Hashes p[0..n) after what came before. */
void sha256_update(sha256_ctx *c, const void *p, size_t n);
/* Ends the message and writes the digest as 64 lowercase hex digits
 * and a NUL into hex (65 bytes). */
void sha256_hex(sha256_ctx *c, char *hex);

#endif
