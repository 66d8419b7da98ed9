/*
 * rhead.c: the header of a regions file (partition -r, recode -r;
 * partition(1), REGIONS): after class and count, per quasi-identifier
 * either its name (a hierarchy's nodes) or Q_min, Q_max and Q_mean (a
 * range), with Q_missing after them when its column has missing values.
 * Read against the columns of a table, such a header can mean two
 * things: a column named a_missing after a range of a, or columns
 * x_min, x_max, x_mean beside a column x, are a hierarchy's nodes in
 * one reading and a range in another.  kn_rhead_read counts the
 * readings, so that partition refuses to write such a header and
 * recode to read one.  Above kanon.c.
 */
#include <stdlib.h>
#include <string.h>

#include "kanon.h"

/* Whether name is one of cols[0..nc). */
static int
rh_col(const char *name, size_t n, char *const *cols, size_t nc)
{
	size_t c;

	for (c = 0; c < nc; c++)
		if (strncmp(cols[c], name, n) == 0 && cols[c][n] == '\0')
			return 1;
	return 0;
}

int
kn_rhead_stemmed(const char *name, const char *stem, size_t n,
    const char *suffix)
{
	return strncmp(name, stem, n) == 0 && strcmp(name + n, suffix) == 0;
}

/* The fields a range takes at f[i] (3, or 4 with Q_missing; with both
 * set, the first in *r3 and *r4), 0 in both if f[i] starts none. */
static void
rh_range(char *const *f, size_t n, size_t i, char *const *cols, size_t nc,
    int *r3, int *r4)
{
	size_t len = strlen(f[i]), s = len - 4;

	*r3 = *r4 = 0;
	if (len <= 4 || strcmp(f[i] + s, "_min") != 0 || i + 2 >= n ||
	    !kn_rhead_stemmed(f[i + 1], f[i], s, "_max") ||
	    !kn_rhead_stemmed(f[i + 2], f[i], s, "_mean") ||
	    !rh_col(f[i], s, cols, nc))
		return;
	*r3 = 1;
	*r4 = i + 3 < n && kn_rhead_stemmed(f[i + 3], f[i], s, "_missing");
}

int
kn_rhead_read(char *const *f, size_t n, char *const *cols, size_t nc,
    int *kind, size_t *nq)
{
	unsigned char *ways = kn_alloc(n + 1);
	size_t i, k;
	int r3, r4, w;

	/* ways[i]: the readings of f[i..n), counted up to 2. */
	ways[n] = 1;
	for (i = n; i-- > 0;) {
		rh_range(f, n, i, cols, nc, &r3, &r4);
		w = rh_col(f[i], strlen(f[i]), cols, nc) ? ways[i + 1] : 0;
		if (r3)
			w += ways[i + 3];
		if (r4)
			w += ways[i + 4];
		ways[i] = (unsigned char)(w > 2 ? 2 : w);
	}
	w = ways[0];
	if (w == 1 && kind != NULL) {
		/* The one reading: at each field the one way on. */
		for (i = 0, k = 0; i < n; k++) {
			rh_range(f, n, i, cols, nc, &r3, &r4);
			if (r4 && ways[i + 4] == 1) {
				kind[k] = 2;
				i += 4;
			} else if (r3 && ways[i + 3] == 1) {
				kind[k] = 1;
				i += 3;
			} else {
				kind[k] = 0;
				i++;
			}
		}
		*nq = k;
	}
	free(ways);
	return w;
}
