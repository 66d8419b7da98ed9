/* pcount-check: pcount.c's counting hash for the tests
 * (tests/pcount.bats).  Argument: d, the ids in a key.  Each line of
 * stdin is d ids and a count, separated by spaces; every line is added
 * with kn_pcount_add (a key that cannot be packed: "UNPACKABLE" and
 * exit 1), and the table is then printed, a line per key in the order
 * of its slots (the ids and the count), and last "form narrow", "form
 * wide" or "form direct", the form its table ended in. */
#include <stdio.h>
#include <stdlib.h>

#include "../kanon.h"

int
main(int argc, char **argv)
{
	kn_pcount pc;
	uint32_t key[KN_PMAX];
	unsigned long long cnt;
	uint64_t pk, n;
	size_t d, c, i;

	kn_init("pcount-check");
	if (argc != 2 || (d = strtoul(argv[1], NULL, 10)) == 0 || d > KN_PMAX)
		kn_die("usage: pcount-check d (1 to %d)", KN_PMAX);
	kn_pcount_init(&pc, d);
	for (;;) {
		for (c = 0; c < d; c++) {
			unsigned long v;

			if (scanf("%lu", &v) != 1)
				break;
			key[c] = (uint32_t)v;
		}
		if (c < d || scanf("%llu", &cnt) != 1)
			break;
		if (!kn_pcount_add(&pc, key, cnt)) {
			puts("UNPACKABLE");
			return 1;
		}
	}
	kn_pcount_flush(&pc);
	for (i = 0; i < pc.nslot; i++) {
		if (!kn_pcount_slot(&pc, i, &pk, &n))
			continue;
		for (c = 0; c < d; c++)
			printf("%lu ", (unsigned long)kn_pcount_field(&pc, pk,
			    c));
		printf("%llu\n", (unsigned long long)n);
	}
	printf("form %s\n", pc.wide ? "wide" : pc.direct ? "direct" :
	    "narrow");
	free(pc.tab);
	return fclose(stdout) != 0;
}
