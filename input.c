/*
 * input.c: an input read once or twice (kn_input): partition and
 * recode with a first pass read a pipe, a FIFO or a terminal twice by
 * copying it to a spool as its first pass reads it (kn_tee, in tsv.c's
 * reader), and a regular file again, refusing one that changed between
 * or during the passes.  Above tsv.c.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kanon.h"

void
kn_input_init(kn_input *in, const char *path, int twice,
    const char *tmpdir)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	in->path = path == NULL || strcmp(path, "-") == 0 ? NULL : path;
	in->name = in->path != NULL ? in->path : "stdin";
	in->tmpdir = tmpdir;
	in->sfd = -1;
	in->kfd = -1;
	if (in->path == NULL)
		kn_stdin_check();
	if (!twice)
		return;
	if (in->path == NULL || (stat(in->path, &st) == 0 &&
	    !S_ISREG(st.st_mode))) {
		in->sfd = kn_mktemp(in->tmpdir, &in->spool);
		in->tee.fd = in->sfd;
		in->tee.name = in->spool;
	}
}

/* Dies if st is not the regular file the first pass opened, as it
 * was: its size, its inode, its times of change (the status change
 * time too, which no one can set back). */
static void
input_same(const kn_input *in, const struct stat *st)
{
	if ((uint64_t)st->st_size != in->size ||
	    (uint64_t)st->st_ino != in->ino ||
	    (uint64_t)st->st_dev != in->dev ||
	    (int64_t)st->st_mtim.tv_sec != in->msec ||
	    (int64_t)st->st_mtim.tv_nsec != in->mnsec ||
	    /* A file renamed over or removed changed its link count,
	     * hence its status change time, not its bytes. */
	    (st->st_nlink > 0 && ((int64_t)st->st_ctim.tv_sec != in->csec ||
	    (int64_t)st->st_ctim.tv_nsec != in->cnsec)))
		kn_die("%s: the file changed between or during the two "
		    "passes (kanon(7), Operands and output)", in->name);
}

void
kn_input_open(kn_input *in, kn_table *t, const char *columns)
{
	char *paths[1];
	struct stat st;

	paths[0] = (char *)(in->path != NULL ? in->path : "-");
	if (in->spool != NULL && in->opened == 0) {
		/* The first pass copies what it reads to the spool: an
		 * input the reader refuses (a line or a record past the
		 * limit, binary data) is refused before more is copied. */
		kn_table_open_as(t, paths, 1, columns, NULL, kn_csv.in,
		    &in->tee);
		in->opened++;
		return;
	}
	if (in->spool != NULL) {
		/* Read the spool as standard input, named as the input. */
		if (!in->tee.eof)
			kn_die("%s: internal error: the first pass did not "
			    "read to the end", in->name);
		if (lseek(in->sfd, 0, SEEK_SET) != 0 || dup2(in->sfd, 0) < 0)
			kn_die_sys("%s", in->spool);
		kn_table_open_as(t, NULL, 0, columns, in->name, kn_csv.in,
		    NULL);
		in->opened++;
		return;
	}
	kn_table_open(t, paths, 1, columns);
	if (in->path != NULL && fstat(t->r.fd, &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		/* A file that changes between the passes would make the
		 * second disagree with what the first decided. */
		if (in->opened > 0) {
			input_same(in, &st);
			if (in->kfd >= 0)
				close(in->kfd);
			if ((in->kfd = dup(t->r.fd)) < 0)
				kn_die_sys("%s", in->name);
		}
		in->size = (uint64_t)st.st_size;
		in->ino = (uint64_t)st.st_ino;
		in->dev = (uint64_t)st.st_dev;
		in->msec = (int64_t)st.st_mtim.tv_sec;
		in->mnsec = (int64_t)st.st_mtim.tv_nsec;
		in->csec = (int64_t)st.st_ctim.tv_sec;
		in->cnsec = (int64_t)st.st_ctim.tv_nsec;
		in->again = 1;
	}
	in->opened++;
}

int
kn_input_tee(kn_input *in, kn_table *t)
{
	kn_reader *r = &t->r;
	size_t i, n, c;
	char *hd;

	if (in->spool != NULL || in->again || in->opened != 1 ||
	    r->tee != NULL || r->shifted || t->npaths != 1 || r->buf == NULL)
		return 0;
	in->sfd = kn_mktemp(in->tmpdir, &in->spool);
	in->tee.fd = in->sfd;
	in->tee.name = in->spool;
	in->tee.eof = r->eof;
	if (t->csv && r->beg > 0) {
		/* A CSV header read is decoded in place: written again,
		 * each name quoted, which reads back as the same names. */
		n = 0;
		for (c = 0; c < t->ncols; c++)
			n += 2 * strlen(t->names[c]) + 2 + kn_csv.ifslen;
		hd = kn_alloc(n + 1);
		for (n = 0, c = 0; c < t->ncols; c++) {
			if (c > 0) {
				memcpy(hd + n, kn_csv.ifs, kn_csv.ifslen);
				n += kn_csv.ifslen;
			}
			hd[n++] = '"';
			for (i = 0; t->names[c][i] != '\0'; i++)
				if ((hd[n++] = t->names[c][i]) == '"')
					hd[n++] = '"';
			hd[n++] = '"';
		}
		hd[n++] = '\n';
	} else {
		/* The lines read end in a NUL where their LF, or the CR
		 * before it, was (a NUL in the input is an error). */
		hd = kn_alloc(r->beg + 1);
		for (n = r->beg, i = 0; i < r->beg; i++)
			hd[i] = r->buf[i] != '\0' ? r->buf[i] :
			    i + 1 < r->end && r->buf[i + 1] == '\n' ? '\r' :
			    '\n';
	}
	if (kn_write_all(in->sfd, hd, n) != 0 ||
	    kn_write_all(in->sfd, r->buf + r->beg, r->end - r->beg) != 0)
		kn_die_sys("%s: write error", in->spool);
	free(hd);
	r->tee = t->tee = &in->tee;
	return 1;
}

void
kn_input_end(const kn_input *in)
{
	struct stat st;

	if (in->kfd < 0)
		return;
	if (fstat(in->kfd, &st) != 0)
		kn_die_sys("%s", in->name);
	input_same(in, &st);
}

void
kn_input_done(kn_input *in)
{
	if (in->kfd >= 0) {
		close(in->kfd);
		in->kfd = -1;
	}
	if (in->spool != NULL) {
		close(in->sfd);
		kn_rmtemp(in->spool);
		in->spool = NULL;
	}
}
