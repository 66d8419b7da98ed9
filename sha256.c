/*
 * sha256.c: SHA-256 as FIPS 180-4 §6.2 defines it, so that a release
 * report (score --report) names the tables it speaks of by a digest
 * anyone can recompute with sha256sum(1).  libc only: the core's hash
 * (kn_hash) is for dictionaries, not for this.
 */
#include <string.h>

#include "sha256.h"

/* The round constants: the first 32 bits of the fractional parts of
 * the cube roots of the first 64 primes (FIPS 180-4 §4.2.2). */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b,
	0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
	0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7,
	0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152,
	0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
	0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
	0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
	0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

static uint32_t
ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

/* Compresses one 64-byte block into the chaining value (§6.2.2). */
static void
sha256_block(uint32_t *h, const unsigned char *p)
{
	uint32_t w[64], s[8], t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^
		    (w[i - 2] >> 10)) + w[i - 7] + (ror(w[i - 15], 7) ^
		    ror(w[i - 15], 18) ^ (w[i - 15] >> 3)) + w[i - 16];
	memcpy(s, h, sizeof(s));
	for (i = 0; i < 64; i++) {
		t1 = s[7] + (ror(s[4], 6) ^ ror(s[4], 11) ^ ror(s[4], 25)) +
		    ((s[4] & s[5]) ^ (~s[4] & s[6])) + sha256_k[i] + w[i];
		t2 = (ror(s[0], 2) ^ ror(s[0], 13) ^ ror(s[0], 22)) +
		    ((s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]));
		memmove(s + 1, s, 7 * sizeof(uint32_t));
		s[4] += t1;
		s[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += s[i];
}

void
sha256_init(sha256_ctx *c)
{
	/* The initial hash value (§5.3.3). */
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
	};

	memcpy(c->h, h0, sizeof(h0));
	c->len = 0;
	c->nblk = 0;
}

void
sha256_update(sha256_ctx *c, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t m;

	c->len += n;
	if (c->nblk > 0) {
		m = 64 - c->nblk < n ? 64 - c->nblk : n;
		memcpy(c->blk + c->nblk, p, m);
		c->nblk += m;
		p += m;
		n -= m;
		if (c->nblk < 64)
			return;
		sha256_block(c->h, c->blk);
		c->nblk = 0;
	}
	for (; n >= 64; p += 64, n -= 64)
		sha256_block(c->h, p);
	memcpy(c->blk, p, n);
	c->nblk = n;
}

void
sha256_hex(sha256_ctx *c, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	uint64_t bits = c->len * 8;
	unsigned char pad[72];
	size_t npad;
	int i;

	/* A one bit, zeros to 56 mod 64 bytes, the length in bits
	 * (§5.1.1). */
	npad = (c->nblk < 56 ? 56 : 120) - c->nblk;
	memset(pad, 0, sizeof(pad));
	pad[0] = 0x80;
	for (i = 0; i < 8; i++)
		pad[npad + i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(c, pad, npad + 8);
	for (i = 0; i < 32; i++) {
		uint32_t b = c->h[i / 4] >> (24 - 8 * (i % 4)) & 0xff;

		hex[2 * i] = digits[b >> 4];
		hex[2 * i + 1] = digits[b & 15];
	}
	hex[64] = '\0';
}
