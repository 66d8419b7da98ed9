/*
 * canon.c: what a value is, beside its bytes.  The missing values
 * (kanon(7), MISSING VALUES): the empty field and the tokens of
 * --missing.  The identity of a sensitive column's values, by which
 * l-diversity and t-closeness count them in every program (kanon(7),
 * Terms, sensitive values): a number by its value, written as
 * kn_dec_format writes it, every missing value as the empty one, other
 * values by their bytes; the columns of a table read so (kn_table_canon,
 * whose fields tsv.c's readers rewrite with kn_canon_fields).  Above
 * kanon.c and dict.c, below tsv.c.
 */
#include <stdlib.h>
#include <string.h>

#include "kanon.h"

/* The tokens of --missing, as a dictionary; NULL: none given. */
static kn_dict *missing_tokens;
/* The first token, with the 16 bytes a dictionary may read past it. */
static const char missing_none[17];
static const char *missing_first = missing_none;

int
kn_missing(const char *p, size_t n)
{
	return n == 0 || (missing_tokens != NULL &&
	    kn_dict_find(missing_tokens, p, n) >= 0);
}

const kn_dict *
kn_missing_tokens(void)
{
	return missing_tokens;
}

const char *
kn_missing_token(void)
{
	return missing_first;
}

void
kn_missing_opt(const char *arg)
{
	const char *p = arg, *q;

	if (missing_tokens == NULL) {
		missing_tokens = kn_alloc(sizeof(*missing_tokens));
		kn_dict_init(missing_tokens);
	}
	for (;;) {
		q = strchr(p, ',');
		if (q == NULL)
			q = p + strlen(p);
		if (memchr(p, '\t', (size_t)(q - p)) != NULL)
			kn_die("--missing %s: a token may not hold a tab", arg);
		if (q > p && kn_dict_find(missing_tokens, p,
		    (size_t)(q - p)) < 0) {
			if (missing_tokens->n == 0) {
				char *m = kn_zalloc((size_t)(q - p) + 17);

				memcpy(m, p, (size_t)(q - p));
				missing_first = m;
			}
			kn_dict_intern(missing_tokens, p, (size_t)(q - p));
		}
		if (*q == '\0')
			break;
		p = q + 1;
	}
}

void
kn_table_canon(kn_table *t, const size_t *cols, const int *modes, size_t n)
{
	size_t i;

	if (n > KN_CANONMAX)
		kn_die("more than %d sensitive columns", KN_CANONMAX);
	for (i = t->ncanon = 0; i < n; i++)
		if (modes == NULL || modes[i] != KN_CANON_BYTES) {
			t->canonmode[t->ncanon] = modes != NULL ? modes[i] :
			    KN_CANON_ALL;
			t->canon[t->ncanon++] = cols[i];
		}
}

int
kn_canon_mode(const kn_hier *h)
{
	if (h == NULL || h->kind == KN_HINTERVAL)
		return KN_CANON_ALL;
	return h->kind == KN_HFILE ? KN_CANON_BYTES : KN_CANON_MISSING;
}

void
kn_table_canon_sens(kn_table *t, const size_t *sidx, size_t ns,
    kn_hier *const *shier)
{
	int modes[KN_CANONMAX];
	size_t i;

	if (ns > KN_CANONMAX)
		kn_die("more than %d sensitive columns", KN_CANONMAX);
	for (i = 0; i < ns; i++)
		modes[i] = kn_canon_mode(shier != NULL ? shier[i] : NULL);
	kn_table_canon(t, sidx, modes, ns);
}

/* Whether p[0..n) is a number as kn_dec_format writes it: no sign but
 * a minus (and not of 0), no leading zero, no trailing zero or point
 * after the decimals. */
static int
canon_number(const char *p, size_t n)
{
	size_t i = 0, d;

	if (i < n && p[i] == '-')
		i++;
	if (i == n || p[i] < '0' || p[i] > '9')
		return 0;
	if (p[i] == '0') {
		if (++i == n)
			return p[0] != '-';
	} else
		while (i < n && p[i] >= '0' && p[i] <= '9')
			i++;
	if (i == n)
		return 1;
	if (p[i] != '.')
		return 0;
	for (d = ++i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
		;
	return i == n && i > d && p[n - 1] != '0';
}

kn_str
kn_value_canon(kn_str v, int mode, char *buf)
{
	kn_i128 m;
	size_t n;
	int sc;

	if (mode == KN_CANON_BYTES)
		return v;
	/* A token first: --missing may name a number (-1).  Every missing
	 * value is the empty one, which no other value or number can be
	 * (16 NUL bytes after it, which a dictionary may read). */
	if (kn_missing(v.p, v.n)) {
		v.p = missing_none;
		v.n = 0;
		return v;
	}
	if (mode == KN_CANON_MISSING || canon_number(v.p, v.n) ||
	    !kn_dec_parse(v.p, v.n, &m, &sc))
		return v;
	n = kn_dec_format(m, sc, buf);
	if (n == v.n && memcmp(buf, v.p, n) == 0)
		return v;
	memset(buf + n, 0, KN_CANONBUF - n);
	v.p = buf;
	v.n = n;
	return v;
}

void
kn_canon_fields(const kn_table *t, kn_str *f, char (*buf)[KN_CANONBUF])
{
	size_t i;

	for (i = 0; i < t->ncanon; i++)
		f[t->canon[i]] = kn_value_canon(f[t->canon[i]],
		    t->canonmode[i], buf[i]);
}
