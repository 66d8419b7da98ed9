/* ldiv-check: the l-diversity verdicts of req.c for the tests
 * (tests/ldiv.bats).  Each line of stdin is "KIND L C COUNT..." (KIND
 * distinct, entropy or recursive; C the c of recursive, else -); it
 * prints the verdict of kn_ldiv_ok on the counts sorted descending and
 * that of kn_ldiv_add given them one by one, "1 1", "0 0" or, when they
 * differ, both and "DIFFER" (also when kn_ldiv_ok_any, given them in
 * the order of the line, rotated, and with its table of c ln c, says
 * otherwise).  Then, for entropy, what
 * kn_ldiv_entropy_sure tells from the counts' sums of c ln c in units
 * of 2^-62 (as partition's rsens.c rounds them), and for recursive
 * kn_ldiv_recursive_ok from the largest count and the tail: " WRONG"
 * when either contradicts kn_ldiv_ok; with LDIV_SURE set, the sure
 * verdict (1, -1, or 0 when only the counts tell) as a third field. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kanon.h"

static kn_i128
xlx(uint64_t c)
{
	return c < 2 ? 0 : (kn_i128)roundl((long double)c *
	    logl((long double)c) * 0x1p62L);
}

int
main(void)
{
	char line[1 << 20], *tok, *save;
	uint64_t *v = malloc(sizeof(uint64_t) * (1 << 16)), n;
	size_t m, i;
	kn_ldiv ld;
	kn_ldiv_acc a;
	int x, y, z;

	kn_init("ldiv-check");
	while (fgets(line, sizeof(line), stdin) != NULL) {
		kn_ldiv_init(&ld);
		tok = strtok_r(line, " \t\n", &save);
		if (tok == NULL)
			continue;
		kn_ldiv_opt(&ld, 'd', tok);
		kn_ldiv_opt(&ld, 'l', strtok_r(NULL, " \t\n", &save));
		tok = strtok_r(NULL, " \t\n", &save);
		if (strcmp(tok, "-") != 0)
			kn_ldiv_opt(&ld, 'c', tok);
		ld.on = 1;
		for (m = 0, n = 0; (tok = strtok_r(NULL, " \t\n", &save)) !=
		    NULL && m < (1 << 15); m++)
			n += v[m] = strtoull(tok, NULL, 10);
		for (i = 0; i < m; i++)
			v[(1 << 15) + i] = v[(i + n % 7) % m];
		/* The table whole, of a few counts, or none. */
		kn_ldiv_table(&ld, n, n % 3 == 0 ? SIZE_MAX : n % 3 == 1 ?
		    (n % 50) * sizeof(kn_i128) : 0);
		z = kn_ldiv_ok_any(&ld, v + (1 << 15), m, n);
		free(ld.x62);
		kn_counts_desc(v, m);
		x = kn_ldiv_ok(&ld, v, m, n);
		kn_ldiv_begin(&a, &ld, n);
		for (i = 0; i < m; i++)
			kn_ldiv_add(&a, v[i]);
		y = kn_ldiv_end(&a);
		printf("%d %d%s", x, y, x == y && x == z ? "" : " DIFFER");
		if (strcmp(line, "entropy") == 0 && m > 0) {
			kn_i128 sum = 0;
			int sure;

			for (i = 0; i < m; i++)
				sum += xlx(v[i]);
			sure = kn_ldiv_entropy_sure(&ld, xlx(n), sum, n, m);
			if (sure != 0 && (sure > 0) != x)
				printf(" WRONG");
			if (getenv("LDIV_SURE") != NULL)
				printf(" %d", sure);
		} else if (strcmp(line, "recursive") == 0) {
			unsigned __int128 tail = 0;

			for (i = ld.l >= 1 ? (size_t)ld.l - 1 : 0; i < m; i++)
				tail += v[i];
			if (kn_ldiv_recursive_ok(&ld, m > 0 ? v[0] : 0, tail,
			    m) != x)
				printf(" WRONG");
		}
		printf("\n");
	}
	free(v);
	return 0;
}
