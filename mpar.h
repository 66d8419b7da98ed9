/*
 * mpar.h: partition's in-memory Mondrian on the threads of -j (mpar.c).
 */
#ifndef MPAR_H
#define MPAR_H

#include "mondrian.h"

/* Tables of fewer than twice this many rows are cut on one thread,
 * and parts this small are not cut further before they are shared. */
#define MPAR_MIN_ROWS 32

/* Partitions all rows in memory as mond_partition() does, the parts of
 * the tree on jobs threads: the same classes, numbered the same way,
 * and the same regions in the same order. */
void mpar_partition(struct part *pt, int jobs);

#endif
