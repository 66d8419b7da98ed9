/*
 * target.h: score's target column -t (target.c): the label entropy of
 * the target given the classes and the squared error of the target
 * estimated by its class mean (paper 004 §5.5), streamed within the
 * memory budget; score's own.
 */
#ifndef TARGET_H
#define TARGET_H

#include "kanon.h"
#include "cvals.h"

typedef struct {
	int sorted;		/* the targets of a class arrive in order */
	/* the totals */
	long double hsum;	/* sum of |E| H(T, E), in bits */
	long double sse;	/* sum of the squared errors */
	int allnum;		/* every target value is a decimal number */
	/* the class being read */
	uint64_t n;
	long double clog;	/* sum of c log2 c over its distinct values */
	char *run;		/* the value of the run of equal values */
	size_t runlen, runcap;
	uint64_t runcnt;
	int haverun;
	kn_i128 s1, s2;		/* sum of c m at scale sc, of c m^2 at 2 sc */
	int sc;
	int big;		/* they passed 128 bits: in b1 (sign b1neg), b2 */
	kn_big b1, b2;
	int b1neg;
	/* without sorted: the class's targets brought into order */
	cvals_ctx cv;
} targ_ctx;

/* Starts t; sorted when a class's targets arrive in byte order of
 * their labels (as a frequency set keyed by QI..., T has them), else
 * they are sorted within budget bytes (half held, half the external
 * sort's when they outgrow it), spilling to tmpdir. */
void targ_init(targ_ctx *t, int sorted, size_t budget, const char *tmpdir);
/* Adds cnt rows of target value p[0..len) to the class being read. */
void targ_add(targ_ctx *t, const char *p, size_t len, uint64_t cnt);
/* Ends the class being read: adds its entropy and squared error. */
void targ_class(targ_ctx *t);
/* The label entropy H(T | class), in bits, over rows rows. */
long double targ_entropy(const targ_ctx *t, uint64_t rows);
/* The root mean squared error over rows rows (when t->allnum). */
long double targ_rmse(const targ_ctx *t, uint64_t rows);
void targ_free(targ_ctx *t);

#endif
