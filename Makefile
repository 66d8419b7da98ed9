# kanon: k-anonymity as Unix filters.  See README.md.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
CC ?= cc
CFLAGS ?= -O2 -g
KFLAGS = -std=c11 -D_XOPEN_SOURCE=700 -Wall -Wextra -Werror
LDLIBS = -lm -lpthread

PROGS = freqset score gendata extsort lattice-search recode partition
MAN1 = man/freqset.1 man/score.1 man/gendata.1 man/extsort.1 \
	man/lattice-search.1 man/recode.1 man/partition.1
MAN7 = man/kanon.7

all: $(PROGS)

# The core, in layers from the bottom (kanon.h, extsort.h; make layers),
# as a library: each program links only the members it uses.
CORE = kanon.o outfile.o dict.o date.o help.o progress.o rhead.o canon.o tsv.o block.o input.o hier.o req.o sortmem.o sortmerge.o extsort.o pcount.o \
	fset.o freq.o cvals.o tcdisk.o
# partition's own objects.
PART_OBJS = partition.o msens.o numkey.o mload.o mrank.o mondrian.o mpar.o rgroups.o rclose.o rcut.o rsens.o rothko.o cstream.o cdist.o csens.o cluster.o hypo.o rowpar.o

libkanon.a: $(CORE)
	rm -f $@
	$(AR) rcs $@ $(CORE)

freqset gendata: %: %.o libkanon.a
	$(CC) $(LDFLAGS) -o $@ $@.o libkanon.a $(LDLIBS)

recode: recode.o regions.o rstats.o keyset.o rowpar.o libkanon.a
	$(CC) $(LDFLAGS) -o $@ recode.o regions.o rstats.o keyset.o rowpar.o \
	    libkanon.a $(LDLIBS)

# score's own objects: the target column, the risk models, NCP and
# precision, and the release report.
SCORE_OBJS = score.o value.o target.o risk.o report.o sha256.o utility.o

score: $(SCORE_OBJS) libkanon.a
	$(CC) $(LDFLAGS) -o $@ $(SCORE_OBJS) libkanon.a $(LDLIBS)

extsort: extsort_main.o libkanon.a
	$(CC) $(LDFLAGS) -o $@ extsort_main.o libkanon.a $(LDLIBS)

lattice-search: lattice_search.o lattice.o lateval.o latinput.o latbudget.o \
    latdisk.o tagging.o libkanon.a
	$(CC) $(LDFLAGS) -o $@ lattice_search.o lattice.o lateval.o latinput.o \
	    latbudget.o latdisk.o tagging.o libkanon.a $(LDLIBS)

partition: $(PART_OBJS) libkanon.a
	$(CC) $(LDFLAGS) -o $@ $(PART_OBJS) libkanon.a $(LDLIBS)

# The tests of sha256.c against known digests (tests/sha256.bats).
tests/sha256-check: tests/sha256-check.c sha256.o
	$(CC) $(KFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/sha256-check.c sha256.o

# The peak RSS of a command, for the tests of -S (tests/memory.bats).
tests/peak-rss: tests/peak-rss.c
	$(CC) $(KFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/peak-rss.c

# The unit tests of hypo.c's quantiles (tests/hypo.bats).
tests/hypo-check: tests/hypo-check.c hypo.o
	$(CC) $(KFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/hypo-check.c hypo.o -lm

# partition with the sensitive values' hashes cut to 8 bits, so that
# two values share one (tests/memory-partition.bats).
tests/partition-h8: mload.c $(PART_OBJS) libkanon.a
	$(CC) $(KFLAGS) $(CFLAGS) -DMOND_HASH_BITS=8 -c -o tests/mload-h8.o \
	    mload.c
	$(CC) $(LDFLAGS) -o $@ $$(echo $(PART_OBJS) | sed \
	    's| mload.o | tests/mload-h8.o |') libkanon.a $(LDLIBS)

# partition with a node's cut on threads from 8 rows a thread (mondrian.c,
# CUT_PAR_ROWS), so that small tables take that way
# (tests/partition-jobs.bats).
tests/partition-cut8: mondrian.c $(PART_OBJS) libkanon.a
	$(CC) $(KFLAGS) $(CFLAGS) -DCUT_PAR_ROWS=8 -c -o \
	    tests/mondrian-cut8.o mondrian.c
	$(CC) $(LDFLAGS) -o $@ $$(echo $(PART_OBJS) | sed \
	    's| mondrian.o | tests/mondrian-cut8.o |') libkanon.a $(LDLIBS)

# The l-diversity verdicts of req.c, whole and count by count
# (tests/ldiv.bats).
tests/ldiv-check: tests/ldiv-check.c libkanon.a
	$(CC) $(KFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/ldiv-check.c \
	    libkanon.a $(LDLIBS)

# kn_dict_order against sort(1) (tests/dict.bats).
tests/dict-check: tests/dict-check.c libkanon.a
	$(CC) $(KFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/dict-check.c \
	    libkanon.a $(LDLIBS)

# kn_tval_sort against sort(1) (tests/closeness.bats).
tests/tval-check: tests/tval-check.c libkanon.a
	$(CC) $(KFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/tval-check.c \
	    libkanon.a $(LDLIBS)

# pcount.c's counting hash and its forms against awk (tests/pcount.bats).
tests/pcount-check: tests/pcount-check.c libkanon.a
	$(CC) $(KFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/pcount-check.c \
	    libkanon.a $(LDLIBS)

.c.o:
	$(CC) $(KFLAGS) $(CFLAGS) -c $<

# The headers each object includes, directly or through another header.
$(CORE) extsort_main.o freqset.o score.o gendata.o lattice.o recode.o \
    lattice_search.o partition.o msens.o numkey.o mload.o mrank.o mondrian.o mpar.o rgroups.o rclose.o rcut.o rsens.o rothko.o cstream.o cdist.o csens.o cluster.o tagging.o \
    latbudget.o latdisk.o latinput.o lateval.o: kanon.h
lattice.o latinput.o latbudget.o lateval.o: latbudget.h
lattice.o latinput.o latdisk.o lateval.o: latdisk.h
lattice.o latinput.o lateval.o: latinput.h
lattice.o lateval.o: lateval.h
latdisk.o: extsort.h
lattice.o tagging.o: tagging.h
lattice.o lattice_search.o lateval.o latinput.o: lattice.h
extsort.o freq.o extsort_main.o mload.o rcut.o rsens.o rothko.o sortmem.o sortmerge.o \
    partition.o msens.o numkey.o mrank.o mondrian.o mpar.o rgroups.o rclose.o \
    cstream.o cdist.o csens.o cluster.o: extsort.h
sortmem.o sortmerge.o extsort.o: sortmem.h
partition.o msens.o numkey.o mload.o mrank.o mondrian.o mpar.o rgroups.o rclose.o rcut.o rsens.o rothko.o cstream.o cdist.o csens.o cluster.o: mondrian.h
partition.o mpar.o rothko.o: mpar.h
partition.o rgroups.o rclose.o rcut.o rsens.o rothko.o cstream.o cdist.o csens.o cluster.o: rothko.h
partition.o cstream.o cdist.o csens.o cluster.o: cluster.h
rothko.o hypo.o: hypo.h
sha256.o report.o tests/sha256-check: sha256.h
recode.o regions.o rstats.o: recode.h rowpar.h
partition.o: rowpar.h
rowpar.o: rowpar.h
recode.o regions.o rstats.o keyset.o: keyset.h extsort.h
score.o value.o utility.o: value.h
score.o risk.o report.o utility.o: report.h
score.o utility.o: utility.h
score.o risk.o: risk.h
score.o target.o: target.h extsort.h
score.o target.o recode.o cvals.o: cvals.h extsort.h
score.o recode.o tcdisk.o lateval.o latdisk.o mload.o: tcdisk.h extsort.h
value.o target.o risk.o report.o regions.o rstats.o keyset.o rowpar.o \
    utility.o: kanon.h
tests/hypo-check: hypo.h
tests/ldiv-check tests/dict-check tests/pcount-check tests/tval-check: kanon.h

# The layers (tests/layers): no object uses a symbol of a layer above its
# own, and no .c file passes 2,000 lines.
layers: all
	@sh tests/layers

test: layers all tests/hypo-check tests/sha256-check tests/peak-rss \
    tests/ldiv-check tests/dict-check tests/pcount-check tests/tval-check
	@tests/run

# The whole suite built with ASan and UBSan, in a copy of the tree.
sanitize:
	@sh tests/sanitize

# Fuzzing (fuzz/README): the targets built with clang's libFuzzer, ASan
# and UBSan, each run for FUZZ_SECONDS on a copy of its seed corpus.
FUZZ_SECONDS ?= 60
FUZZCC = clang
FUZZFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
FUZZ = fuzz/fuzz-tsv fuzz/fuzz-csv fuzz/fuzz-hier fuzz/fuzz-parse fuzz/fuzz-merge

fuzz:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) sh fuzz/run

fuzz-build: $(FUZZ)

# The core built for fuzzing, as fuzz/obj/libkanon.a.
FUZZ_CORE = $(CORE:%=fuzz/obj/%)

$(FUZZ_CORE): fuzz/obj/%.o: %.c kanon.h
	@mkdir -p fuzz/obj
	$(FUZZCC) $(KFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer-no-link -DRBUF=4096 \
	    -c -o $@ $<
fuzz/obj/extsort.o fuzz/obj/freq.o: extsort.h
fuzz/obj/sortmem.o fuzz/obj/sortmerge.o fuzz/obj/extsort.o: sortmem.h extsort.h

fuzz/obj/libkanon.a: $(FUZZ_CORE)
	rm -f $@
	$(AR) rcs $@ $(FUZZ_CORE)

$(FUZZ): fuzz/fuzz-%: fuzz/%.c fuzz/harness.c fuzz/harness.h kanon.h \
    fuzz/obj/libkanon.a
	$(FUZZCC) $(KFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer -o $@ fuzz/$*.c fuzz/harness.c \
	    fuzz/obj/libkanon.a $(LDLIBS)

# The targets without libFuzzer, built with $(CC) (fuzz/replay.c's main),
# each run on its seed corpus: make sanitize runs this under ASan and
# UBSan, which the harness needs (tests/sanitize).
REPLAY = $(FUZZ:fuzz/fuzz-%=fuzz/replay-%)

fuzz-replay: $(REPLAY)
	@for t in $(REPLAY:fuzz/replay-%=%); do \
		fuzz/replay-$$t fuzz/corpus/$$t/* 2> fuzz/replay-$$t.err || \
		    { tail -n 5 fuzz/replay-$$t.err; exit 1; }; done

$(REPLAY): fuzz/replay-%: fuzz/%.c fuzz/harness.c fuzz/harness.h fuzz/replay.c \
    kanon.h libkanon.a
	$(CC) $(KFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ fuzz/$*.c fuzz/harness.c \
	    fuzz/replay.c libkanon.a $(LDLIBS)

# fuzz/parse.c compiles recode.c and the files it needs into itself.
fuzz/fuzz-parse fuzz/replay-parse: recode.c regions.c rstats.c keyset.c \
    rowpar.c recode.h keyset.h rowpar.h extsort.h

demo: all
	@sh demo.sh

bench: all tests/peak-rss
	@sh bench/threads.sh && echo && sh bench/parallel.sh && echo && sh bench/lattice.sh && \
	    echo && sh bench/wide.sh && echo && sh bench/rothko.sh && echo && sh bench/run && \
	    echo && sh bench/extsort.sh && echo && sh bench/mondrian.sh && echo && sh bench/csv.sh && \
	    echo && sh bench/numkey.sh && echo && sh bench/memory-score.sh && \
	    echo && sh bench/memory-recode.sh && echo && sh bench/memory.sh

lint-man:
	@for m in $(MAN1) $(MAN7); do groff -ww -z -mandoc $$m || exit 1; done

# The sh scripts, with shellcheck (not needed to build or test).
lint-sh:
	@shellcheck -s sh mapred bench/cluster.sh bench/csv.sh bench/wide.sh \
	    bench/memory.sh bench/memory-score.sh bench/memory-recode.sh \
	    bench/numkey.sh bench/threads.sh bench/parallel.sh

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7
	cp $(PROGS) $(DESTDIR)$(BINDIR)/
	cp $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	cp $(MAN7) $(DESTDIR)$(MANDIR)/man7/

clean:
	rm -f $(PROGS) *.o libkanon.a tests/hypo-check tests/sha256-check tests/peak-rss \
	    tests/ldiv-check tests/dict-check tests/pcount-check tests/tval-check \
	    tests/partition-h8 \
	    tests/mload-h8.o tests/partition-cut8 tests/mondrian-cut8.o $(FUZZ) \
	    $(REPLAY) $(REPLAY:=.err)
	rm -rf fuzz/obj fuzz/work

.PHONY: all layers test sanitize fuzz fuzz-build fuzz-replay demo bench lint-man \
	lint-sh install clean
