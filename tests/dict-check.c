/* dict-check: dict.c's byte order of a dictionary's values for the
 * tests (tests/dict.bats).  Each line of stdin is a value (any bytes
 * but the newline); the distinct values are printed one a line in the
 * order of kn_dict_order, after checking that kn_dict_ranks is its
 * inverse (else "RANKS DIFFER" and exit 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kanon.h"

int
main(void)
{
	char *line = NULL;
	size_t cap = 0, i;
	ssize_t len;
	kn_dict d;
	uint32_t *ord, *rank;
	kn_str s;

	kn_init("dict-check");
	kn_dict_init(&d);
	while ((len = getline(&line, &cap, stdin)) > 0) {
		if (line[len - 1] == '\n')
			len--;
		kn_dict_intern(&d, line, (size_t)len);
	}
	ord = kn_dict_order(&d);
	rank = kn_dict_ranks(&d);
	for (i = 0; i < d.n; i++)
		if (rank[ord[i]] != i) {
			puts("RANKS DIFFER");
			return 1;
		}
	for (i = 0; i < d.n; i++) {
		s = kn_dict_get(&d, ord[i]);
		fwrite(s.p, 1, s.n, stdout);
		putchar('\n');
	}
	free(ord);
	free(rank);
	free(line);
	kn_dict_free(&d);
	return fclose(stdout) != 0;
}
