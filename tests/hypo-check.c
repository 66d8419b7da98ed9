/* hypo-check: prints hypo.c's quantiles for the tests (tests/hypo.bats):
 * "z A" or "chi2 A DF" per argument pair/triple. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hypo.h"

int
main(int argc, char *argv[])
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "z") == 0 && i + 1 < argc) {
			printf("%.6f\n", hypo_z(atof(argv[i + 1])));
			i++;
		} else if (strcmp(argv[i], "chi2") == 0 && i + 2 < argc) {
			printf("%.6f\n", hypo_chi2(atof(argv[i + 1]),
			    atof(argv[i + 2])));
			i += 2;
		} else {
			fprintf(stderr, "usage: hypo-check (z a | chi2 a df)...\n");
			return 2;
		}
	}
	return 0;
}
