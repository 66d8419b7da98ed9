/* tval-check: req.c's kn_tval_sort for the tests (tests/closeness.bats).
 * Each line of stdin is "POS COUNT"; the pairs are sorted by
 * kn_tval_sort and printed one a line, as read. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../kanon.h"

int
main(void)
{
	kn_tval *v = NULL;
	size_t n = 0, cap = 0, i;
	unsigned long p;
	uint64_t c;

	kn_init("tval-check");
	while (scanf("%lu %" SCNu64, &p, &c) == 2) {
		v = kn_grow(v, &cap, n, sizeof(kn_tval), 64);
		v[n].pos = (uint32_t)p;
		v[n++].cnt = c;
	}
	kn_tval_sort(v, n);
	for (i = 0; i < n; i++)
		printf("%" PRIu32 " %" PRIu64 "\n", v[i].pos, v[i].cnt);
	free(v);
	return 0;
}
