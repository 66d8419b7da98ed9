/* sha256-check: the SHA-256 of sha256.c over its standard input, as
 * sha256sum prints it without the name, for tests/sha256.bats.  With
 * an argument N, the input is fed in pieces of N bytes (N >= 1), to
 * try every way a block may be split. */
#include <stdio.h>
#include <stdlib.h>

#include "../sha256.h"

int
main(int argc, char *argv[])
{
	unsigned char buf[8192];
	size_t n, step = sizeof(buf), i;
	sha256_ctx c;
	char hex[65];

	if (argc > 1 && (step = (size_t)atol(argv[1])) == 0) {
		fprintf(stderr, "usage: sha256-check [piece]\n");
		return 2;
	}
	if (step > sizeof(buf))
		step = sizeof(buf);
	sha256_init(&c);
	while ((n = fread(buf, 1, step, stdin)) > 0)
		for (i = 0; i < n; i += step)
			sha256_update(&c, buf + i, n - i < step ? n - i : step);
	if (ferror(stdin)) {
		perror("sha256-check");
		return 2;
	}
	sha256_hex(&c, hex);
	puts(hex);
	return 0;
}
