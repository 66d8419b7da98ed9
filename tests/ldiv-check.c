/* ldiv-check: the l-diversity verdicts of req.c for the tests
 * (tests/ldiv.bats).  Each line of stdin is "KIND L C COUNT..." (KIND
 * distinct, entropy or recursive; C the c of recursive, else -); it
 * prints the verdict of kn_ldiv_ok on the counts sorted descending and
 * that of kn_ldiv_add given them one by one, "1 1", "0 0" or, when they
 * differ, both and "DIFFER". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kanon.h"

int
main(void)
{
	char line[1 << 20], *tok, *save;
	uint64_t *v = malloc(sizeof(uint64_t) * (1 << 15)), n;
	size_t m, i;
	kn_ldiv ld;
	kn_ldiv_acc a;
	int x, y;

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
		kn_counts_desc(v, m);
		x = kn_ldiv_ok(&ld, v, m, n);
		kn_ldiv_begin(&a, &ld, n);
		for (i = 0; i < m; i++)
			kn_ldiv_add(&a, v[i]);
		y = kn_ldiv_end(&a);
		printf("%d %d%s\n", x, y, x == y ? "" : " DIFFER");
	}
	free(v);
	return 0;
}
