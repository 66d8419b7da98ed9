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

/* The tokens of --missing, as a dictionary; NULL: none given.  Those
 * that are numbers also by value (kn_value_canon: -9.0 and -09 are
 * the token -9). */
static kn_dict *missing_tokens;
static kn_dict missing_nums;
/* The empty value, with the 16 bytes a dictionary may read past it
 * (kn_value_canon's missing value); the first token. */
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

static size_t canon_text(const char *p, size_t n, char *out, size_t cap);

/* A token that is a number, by value. */
static void
missing_num(const char *p, size_t n)
{
	char buf[KN_CANONBUF];
	size_t c = canon_text(p, n, buf, sizeof(buf));

	if (c == (size_t)-1)
		return;
	if (missing_nums.slot == NULL)
		kn_dict_init(&missing_nums);
	kn_dict_intern(&missing_nums, buf, c);
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
			if (missing_tokens->n == 0)
				missing_first = kn_strndup(p, (size_t)(q - p));
			kn_dict_intern(missing_tokens, p, (size_t)(q - p));
			missing_num(p, (size_t)(q - p));
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
	return h == NULL || h->kind == KN_HINTERVAL ? KN_CANON_ALL :
	    KN_CANON_MISSING;
}

/* Dies if two leaves of h, a file, are one number: a value would be
 * two for -l (a row's value must be a leaf as written). */
static void
leaves_one(const kn_hier *h)
{
	char buf[KN_CANONBUF];
	kn_dict seen;
	uint32_t *of, i;
	int64_t j;

	kn_dict_init(&seen);
	of = kn_alloc(((size_t)h->nfile + 1) * sizeof(*of));
	for (i = 0; i < h->nfile && i < h->lab[0].n; i++) {
		kn_str v = kn_dict_get(&h->lab[0], i), w;
		size_t c = canon_text(v.p, v.n, buf, sizeof(buf));

		if (c == (size_t)-1 || kn_missing(v.p, v.n))
			continue;
		if ((j = kn_dict_find(&seen, buf, c)) >= 0) {
			w = kn_dict_get(&h->lab[0], of[j]);
			kn_die("-H %s=%s: the leaves '%.*s' and '%.*s' are one "
			    "number, which -l and --closeness count as one "
			    "value (kanon(7), Terms, sensitive values): list it "
			    "once, and write it one way in the table",
			    h->attr, h->src, (int)w.n, w.p, (int)v.n, v.p);
		}
		of[kn_dict_intern(&seen, buf, c)] = i;
	}
	free(of);
	kn_dict_free(&seen);
}

void
kn_table_canon_sens(kn_table *t, const size_t *sidx, size_t ns,
    kn_hier *const *shier)
{
	int modes[KN_CANONMAX];
	size_t i;

	if (ns > KN_CANONMAX)
		kn_die("more than %d sensitive columns", KN_CANONMAX);
	for (i = 0; i < ns; i++) {
		modes[i] = kn_canon_mode(shier != NULL ? shier[i] : NULL);
		if (shier != NULL && shier[i] != NULL &&
		    shier[i]->kind == KN_HFILE)
			leaves_one(shier[i]);
	}
	kn_table_canon(t, sidx, modes, ns);
}

/*
 * p[0..n) written as kn_dec_format writes a number, into out (cap
 * bytes, NUL-padded to the end): an optional minus, the integer part
 * without leading zeros (0 at least), the decimals without trailing
 * zeros, no point without them, no minus on 0; any number of digits.
 * Returns its length, or (size_t)-1 if p is not a decimal number (an
 * optional sign, digits and an optional point, at least one digit).
 * Dies if it does not fit cap less the 16 bytes a dictionary reads.
 */
static size_t
canon_text(const char *p, size_t n, char *out, size_t cap)
{
	size_t i = 0, ib, ie, fb, fe, k = 0, dig = 0;
	int neg = 0, zero = 1;

	if (i < n && (p[i] == '-' || p[i] == '+'))
		neg = p[i++] == '-';
	for (ib = i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
		dig++;
	ie = i;
	fb = fe = i;
	if (i < n && p[i] == '.') {
		for (fb = ++i; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			dig++;
		fe = i;
	}
	if (i != n || dig == 0)
		return (size_t)-1;
	while (ib < ie && p[ib] == '0')
		ib++;
	while (fe > fb && p[fe - 1] == '0')
		fe--;
	if (ib < ie || fe > fb)
		zero = 0;
	if ((size_t)(!zero && neg) + (ie - ib ? ie - ib : 1) +
	    (fe > fb ? fe - fb + 1 : 0) + 16 >= cap)
		kn_die("'%.*s': a sensitive value that is a number of more "
		    "than %zu characters, which -l and --closeness count by "
		    "value (kanon(7), Terms, sensitive values): round it",
		    (int)(n < 64 ? n : 64), p, cap - 17);
	if (!zero && neg)
		out[k++] = '-';
	if (ib == ie)
		out[k++] = '0';
	memcpy(out + k, p + ib, ie - ib);
	k += ie - ib;
	if (fe > fb) {
		out[k++] = '.';
		memcpy(out + k, p + fb, fe - fb);
		k += fe - fb;
	}
	memset(out + k, 0, cap - k);
	return k;
}

kn_str
kn_value_canon(kn_str v, int mode, char *buf)
{
	size_t n;

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
	if (mode == KN_CANON_MISSING ||
	    (n = canon_text(v.p, v.n, buf, KN_CANONBUF)) == (size_t)-1)
		return v;
	/* -9.0 of --missing -9. */
	if (missing_nums.slot != NULL &&
	    kn_dict_find(&missing_nums, buf, n) >= 0) {
		v.p = missing_none;
		v.n = 0;
		return v;
	}
	if (n != v.n || memcmp(buf, v.p, n) != 0) {
		v.p = buf;
		v.n = n;
	}
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
