/*
 * outfile.c: the files a run writes and reads, as kanon(7) OUTPUT FILES
 * says: an output written to a temp file in its directory and renamed
 * over its target at the end (kn_open_out, kn_close_out), its path
 * walked one directory at a time without following a link another user
 * could have planted, its owner and mode kept; and the registry of the
 * files and pipes the run reads (kn_note_input), which no output may
 * replace, and which none may read twice.  Above kanon.c, whose temp
 * file registry (kn_tmp_register) removes an unfinished output on an
 * error or a signal.
 */
/* O_PATH (link_read) and fallocate's hole punching (kn_tmp_drop),
 * beside POSIX, where the system has them. */
#define _GNU_SOURCE 1

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kanon.h"

/* ---- output files (kanon(7), OUTPUT FILES) ------------------------ */

/* A file, as the system knows it: what a link or a second name of it
 * leads to as well. */
struct fileid {
	dev_t dev;
	ino_t ino;
};

/* The regular files the run reads (kn_note_input), which no output may
 * replace: their names for messages (NULL: the standard input). */
static struct infile {
	struct fileid id;
	char *name;
} *in_files;
static size_t in_n, in_cap;

/* An open output: a temp file that kn_close_out renames over base in
 * the directory dirfd, or a file written directly (tmp NULL): the
 * standard output, a descriptor named /dev/fd/N, a device, a FIFO. */
struct outfile {
	FILE *f;
	char *vbuf;		/* f's stdio buffer (kn_vbuf) */
	char *dst;		/* the name the user gave, for messages */
	char *tmp;		/* the temp file's path, registered */
	const char *tmpname;	/* its last name, in tmp */
	char *base;		/* the target's name in dirfd */
	int dirfd;
	int isreg;		/* the target is the regular file id */
	struct fileid id;
	struct fileid dirid;	/* dirfd's */
	struct fileid *allow;	/* inputs it may replace: the table's */
	size_t nallow;
	/* written directly (standard output, /dev/fd/N, a FIFO): the
	 * file, FIFO or socket its bytes go to, which no other output's
	 * may (a terminal or /dev/null may take several) */
	int direct;
	struct fileid wid;
	struct outfile *next;
};
static struct outfile *outs;

static int
same_id(const struct fileid *a, const struct fileid *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

/* Dies if the output o is the input in (written while it is read), or
 * would replace it (unless it is the table that o may replace). */
static void
out_clash(const struct outfile *o, const struct infile *in)
{
	const char *iname = in->name != NULL ? in->name : "stdin";
	size_t i;

	if (!o->isreg || !same_id(&o->id, &in->id))
		return;
	if (o->tmp == NULL) {
		/* What the output holds may not be flushed into the input
		 * on the way out: it goes to /dev/null. */
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, fileno(o->f));
		kn_die("%s: input file is output file (%s)", iname, o->dst);
	}
	for (i = 0; i < o->nallow; i++)
		if (same_id(&o->allow[i], &in->id))
			return;
	kn_die("%s: output file is input file (%s)", o->dst, iname);
}

/* The pipes the run reads (kn_note_input), each with what read it: a
 * pipe read a second time would give nothing, its data taken by the
 * first reading (--columns-file - with the table on stdin). */
static struct pipein {
	struct fileid id;
	char *name;
	int fifo;		/* a FIFO, not a socket (both ways) */
} *pipes;
static size_t pipe_n, pipe_cap;
static char *stdin_by;		/* what read descriptor 0 */

const char *kn_input_role;

/* Dies for the FIFO name read and written as the output shown: the run
 * would wait for its own bytes.  (A socket, say inetd's on both stdin
 * and stdout, goes both ways: no clash.) */
static void __attribute__((noreturn))
pipe_clash(const char *name, const char *shown)
{
	kn_die("%s: output file is input file (%s): a pipe the run both "
	    "reads and writes would wait on itself: give the output another "
	    "file", shown, name);
}

/* The FIFOs the run will read once its outputs are open
 * (kn_note_later). */
static struct infile *later;
static size_t later_n, later_cap;

void
kn_note_later(const char *path)
{
	struct stat st;

	if (path == NULL || strcmp(path, "-") == 0 || stat(path, &st) != 0 ||
	    !S_ISFIFO(st.st_mode))
		return;
	later = kn_grow(later, &later_cap, later_n, sizeof(*later), 4);
	later[later_n].id.dev = st.st_dev;
	later[later_n].id.ino = st.st_ino;
	later[later_n++].name = kn_strdup(path);
}

/* Dies if id, an output written directly, is a FIFO read so far or to
 * be read. */
static void
pipe_out(const struct fileid *id, const char *shown)
{
	size_t i;

	for (i = 0; i < pipe_n; i++)
		if (pipes[i].fifo && same_id(&pipes[i].id, id))
			pipe_clash(pipes[i].name, shown);
	for (i = 0; i < later_n; i++)
		if (same_id(&later[i].id, id))
			pipe_clash(later[i].name, shown);
}

void
kn_note_input(int fd, const char *name)
{
	struct outfile *o;
	struct infile in;
	struct stat st;
	size_t i;

	if (fstat(fd, &st) != 0)
		return;
	/* Descriptor 0 is read from where the last reading left it, a
	 * file's end too: a second reading of it found nothing (a spool
	 * put there for a second pass starts at 0, a pipe is below). */
	if (fd == 0 && stdin_by != NULL && S_ISREG(st.st_mode) &&
	    lseek(0, 0, SEEK_CUR) > 0)
		kn_die("stdin: read already (as %s): give one of them a file "
		    "of its own", stdin_by);
	if (fd == 0 && stdin_by == NULL)
		stdin_by = kn_strdup(kn_input_role != NULL ? kn_input_role :
		    "stdin");
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		struct fileid id = { st.st_dev, st.st_ino };
		const char *nm = name != NULL ? name : "stdin";

		for (i = 0; i < pipe_n; i++)
			if (same_id(&pipes[i].id, &id))
				kn_die("%s: a pipe read already (as %s), "
				    "which gives its data once: give one of "
				    "them a file of its own", nm,
				    pipes[i].name);
		for (o = outs; S_ISFIFO(st.st_mode) && o != NULL; o = o->next)
			if (o->direct && same_id(&o->wid, &id))
				pipe_clash(nm, o->dst);
		pipes = kn_grow(pipes, &pipe_cap, pipe_n, sizeof(*pipes), 4);
		pipes[pipe_n].fifo = S_ISFIFO(st.st_mode);
		pipes[pipe_n].id = id;
		pipes[pipe_n++].name = kn_input_role != NULL ?
		    kn_strdup(kn_input_role) : kn_strdup(nm);
		return;
	}
	if (!S_ISREG(st.st_mode))
		return;
	in.id.dev = st.st_dev;
	in.id.ino = st.st_ino;
	for (i = 0; i < in_n; i++)
		if (same_id(&in_files[i].id, &in.id))
			return;	/* read before (the second pass) */
	in.name = name != NULL ? kn_strdup(name) : NULL;
	for (o = outs; o != NULL; o = o->next)
		out_clash(o, &in);
	in_files = kn_grow(in_files, &in_cap, in_n, sizeof(*in_files), 8);
	in_files[in_n++] = in;
}

void
kn_forget_inputs(void)
{
	size_t i;

	for (i = 0; i < in_n; i++)
		free(in_files[i].name);
	free(in_files);
	in_files = NULL;
	in_n = in_cap = 0;
	for (i = 0; i < pipe_n; i++)
		free(pipes[i].name);
	free(pipes);
	pipes = NULL;
	pipe_n = pipe_cap = 0;
	free(stdin_by);
	stdin_by = NULL;
}

/* Takes o, open on f, as an output; dies if it clashes with an input
 * read so far. */
static FILE *
out_add(struct outfile *o, FILE *f)
{
	size_t i;

	o->f = f;
	for (i = 0; i < in_n; i++)
		out_clash(o, &in_files[i]);
	o->vbuf = kn_vbuf(f);
	o->next = outs;
	outs = o;
	return f;
}

/* Dies if an output opened before writes the file id directly or, with
 * renamed, through a temp file renamed over it (score --report
 * /dev/stdout, its table on the standard output): their bytes would
 * mix, or one replace the other.  Output shown is the one opened. */
static void
out_shared(const struct fileid *id, int renamed, const char *shown)
{
	const struct outfile *q;

	for (q = outs; q != NULL; q = q->next)
		if ((q->direct && same_id(&q->wid, id)) || (renamed &&
		    q->isreg && q->tmp != NULL && same_id(&q->id, id)))
			kn_die("%s: the file of another output too (%s): "
			    "their bytes would mix, or one replace the "
			    "other", shown, q->dst);
}

/* Sets o's id from the descriptor fd when it is a regular file, and
 * what it writes to directly, which no other output may write
 * (out_shared). */
static void
out_id(struct outfile *o, int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return;
	if (S_ISREG(st.st_mode)) {
		o->isreg = 1;
		o->id.dev = st.st_dev;
		o->id.ino = st.st_ino;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
	    !S_ISSOCK(st.st_mode))
		return;
	o->direct = 1;
	o->wid.dev = st.st_dev;
	o->wid.ino = st.st_ino;
	out_shared(&o->wid, 1, o->dst);
	pipe_out(&o->wid, o->dst);
}

/* An output written directly to the descriptor fd. */
static FILE *
out_direct(const char *shown, int fd)
{
	struct outfile *o = kn_zalloc(sizeof(*o));
	FILE *f;

	o->dst = kn_strdup(shown);
	o->dirfd = -1;
	out_id(o, fd);
	if ((f = fdopen(fd, "w")) == NULL)
		kn_die_sys("%s", shown);
	return out_add(o, f);
}

/* The descriptor that path names (/dev/stdin, /dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N), or -1.  Such an output is written
 * through a copy of the descriptor, as the shell writes it: opening the
 * name again would truncate a file opened for appending, or an input. */
static int
fd_name(const char *path)
{
	static const char *const std[] = {
		"/dev/stdin", "/dev/stdout", "/dev/stderr"
	};
	char self[48];
	const char *p = NULL;
	int i, n = 0;

	for (i = 0; i < 3; i++)
		if (strcmp(path, std[i]) == 0)
			return i;
	snprintf(self, sizeof(self), "/proc/%ld/fd/", (long)getpid());
	if (strncmp(path, "/dev/fd/", 8) == 0)
		p = path + 8;
	else if (strncmp(path, "/proc/self/fd/", 14) == 0)
		p = path + 14;
	else if (strncmp(path, self, strlen(self)) == 0)
		p = path + strlen(self);
	if (p == NULL || *p == '\0')
		return -1;
	for (; *p >= '0' && *p <= '9' && n < 1000000; p++)
		n = n * 10 + (*p - '0');
	return *p == '\0' ? n : -1;
}

/* dir/name, or name when dir is empty (the current directory). */
static char *
path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = kn_alloc(n);

	snprintf(p, n, "%s%s%s", dir, *dir == '\0' ||
	    dir[strlen(dir) - 1] == '/' ? "" : "/", name);
	return p;
}

/* Stats link comp in dfd into *st and reads its target into buf (cap
 * bytes, not ended): both of one link, held open where the system can
 * (O_PATH), so that an entry swapped between the two is not read for
 * the one checked.  Elsewhere only a link in a directory that no other
 * user can change (ds: its owner us or root, and not writable by others
 * but sticky) is read, by its name: in one that others can change, a
 * swap there and back between a stat and the read cannot be seen.  The
 * target's length, or -1 (errno 0 for a directory others can change). */
static ssize_t
link_read(int dfd, const char *comp, const struct stat *ds, struct stat *st,
    char *buf, size_t cap)
{
#ifdef O_PATH
	int fd = openat(dfd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;

	(void)ds;
	if (fd < 0)
		return -1;
	n = fstat(fd, st) != 0 ? -1 : !S_ISLNK(st->st_mode) ? 0 :
	    readlinkat(fd, "", buf, cap);
	close(fd);
	return n;
#else
	if ((ds->st_uid != geteuid() && ds->st_uid != 0) ||
	    ((ds->st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    (ds->st_mode & S_ISVTX) == 0)) {
		errno = 0;
		return -1;
	}
	if (fstatat(dfd, comp, st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	return readlinkat(dfd, comp, buf, cap);
#endif
}

/* Where the output path leads: the last name, returned, in the
 * directory open on *dirfd, whose path is *dir.  Symbolic links are
 * followed as open(2) follows them when they are ours or root's (read
 * by link_read): not another user's, whose owner could point it
 * anywhere; in a sticky world-writable directory (/tmp) one of neither
 * us nor the directory's owner is refused with the message of Linux's
 * fs.protected_symlinks, which the kernel applies only where it is
 * set.  The directories are opened
 * one by one without following links, so that none can turn into a
 * link after it is checked.  Returns NULL, with the rest of the path in
 * *proc, when a link leads into /proc, to a name of an open file. */
static char *
out_walk(const char *shown, const char *path, int *dirfd, char **dir,
    char **proc)
{
	char *rest = kn_strdup(path), *p = rest, *comp, *cur, *t, *name;
	char buf[4096];
	struct stat st, ds;
	int dfd, nfd, hops = 0, last;
	ssize_t n;

	cur = kn_strdup(*p == '/' ? "/" : "");
	if ((dfd = open(*p == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) < 0)
		kn_die_sys("%s: cannot create output", shown);
	for (;;) {
		while (*p == '/')
			p++;
		if (*p == '\0') {
			name = kn_strdup(".");	/* a directory */
			break;
		}
		comp = p;
		p += strcspn(p, "/");
		last = *p == '\0';
		if (last) {
			/* The last name: the file, or a link to it. */
			if (fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
			    !S_ISLNK(st.st_mode)) {
				name = kn_strdup(comp);
				break;
			}
		} else
			*p++ = '\0';
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") != 0 && (last ||
		    (fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode)))) {
			/* The owner and the target of one link (st again):
			 * not swapped for another between the two. */
			if (fstat(dfd, &ds) != 0)
				kn_die_sys("%s", shown);
			n = link_read(dfd, comp, &ds, &st, buf,
			    sizeof(buf) - 1);
			if (n < 0 && errno == 0) {
				t = path_join(cur, comp);
				kn_die("%s%s%s: a symbolic link in a directory "
				    "another user can change, which this "
				    "system cannot read safely: not followed: "
				    "give the path it leads to",
				    strcmp(t, shown) == 0 ? "" : shown,
				    strcmp(t, shown) == 0 ? "" : ": ", t);
			}
			if (n < 0 || !S_ISLNK(st.st_mode))
				kn_die("%s: changed while its path was read: "
				    "not written", shown);
			if ((ds.st_mode & (S_ISVTX | S_IWOTH)) ==
			    (S_ISVTX | S_IWOTH) && st.st_uid != geteuid() &&
			    st.st_uid != ds.st_uid) {
				t = path_join(cur, comp);
				kn_die("%s%s%s: a symbolic link in a sticky "
				    "world-writable directory, owned by "
				    "neither you nor the directory's owner: "
				    "not followed", strcmp(t, shown) == 0 ? "" :
				    shown, strcmp(t, shown) == 0 ? "" : ": ",
				    t);
			}
			/* Nor another user's anywhere: its owner may point
			 * it at any file (root's job writing through a
			 * user's link). */
			if (st.st_uid != geteuid() && st.st_uid != 0) {
				t = path_join(cur, comp);
				kn_die("%s%s%s: a symbolic link owned by "
				    "another user (uid %lu), neither you nor "
				    "root: not followed: give the path it "
				    "leads to", strcmp(t, shown) == 0 ? "" :
				    shown,
				    strcmp(t, shown) == 0 ? "" : ": ", t,
				    (unsigned long)st.st_uid);
			}
			if (++hops > 40)
				kn_die("%s: too many levels of symbolic links",
				    shown);
			buf[n] = '\0';
			t = kn_alloc((size_t)n + strlen(p) + 2);
			sprintf(t, "%s%s%s", buf, *p != '\0' ? "/" : "", p);
			free(rest);
			rest = p = t;
			if (*p != '/')
				continue;
			close(dfd);
			free(cur);
			if (strncmp(p, "/proc/", 6) == 0) {
				*proc = rest;
				return NULL;
			}
			cur = kn_strdup("/");
			if ((dfd = open("/", O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC)) < 0)
				kn_die_sys("%s: cannot create output", shown);
			continue;
		}
		if ((nfd = openat(dfd, comp, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) < 0)
			kn_die_sys("%s: cannot create output", shown);
		close(dfd);
		dfd = nfd;
		t = path_join(cur, comp);
		free(cur);
		cur = t;
	}
	free(rest);
	*dirfd = dfd;
	*dir = cur;
	return name;
}

/* Creates the temp file of o, .base.XXXXXX beside the target, with
 * O_EXCL and mode 0600 (so never through a link), and registers it. */
static int
out_mktemp(struct outfile *o, const char *dir)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789";
	static uint64_t seed;
	char *p = path_join(dir, "");
	size_t dlen = strlen(p), len;
	sigset_t all, old;
	uint64_t x;
	int fd = -1, tries, i, e = EEXIST;

	o->tmp = kn_realloc(p, dlen + strlen(o->base) + 9);
	o->tmpname = o->tmp + dlen;
	if (seed == 0)
		seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32 ^
		    (uint64_t)(uintptr_t)o->tmp;
	for (tries = 0; tries < 100 && fd < 0 && e == EEXIST; tries++) {
		/* ".base.XXXXXX", the base cut so that it is a name the
		 * system takes (of 255 bytes at most, as the target). */
		len = dlen + (size_t)sprintf(o->tmp + dlen, ".%.*s.",
		    (int)(strlen(o->base) > 255 - 8 ? 255 - 8 :
		    strlen(o->base)), o->base);
		for (x = kn_splitmix64(&seed), i = 0; i < 6; i++, x /= 62)
			o->tmp[len++] = chars[x % 62];
		o->tmp[len] = '\0';
		/* No signal may strike between creating and registering. */
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, &old);
		fd = openat(o->dirfd, o->tmpname, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
		e = errno;
		if (fd >= 0)
			kn_tmp_register(o->tmp);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	errno = e;
	return fd;
}

/* Dies if o's target, base in dirfd, is the target of another output
 * of the run (say -o and -r through a link to one name): the second
 * rename would replace the first output. */
static void
out_twice(struct outfile *o, const struct stat *ds, const char *shown)
{
	const struct outfile *q;

	o->dirid.dev = ds->st_dev;
	o->dirid.ino = ds->st_ino;
	for (q = outs; q != NULL; q = q->next)
		if (q->base != NULL && same_id(&q->dirid, &o->dirid) &&
		    strcmp(q->base, o->base) == 0)
			kn_die("%s: the file of another output too (given as "
			    "%s): one would replace the other", shown, q->dst);
}

/* Dies if the existing target st is in a sticky directory ds that
 * others may write to (/tmp) and belongs to neither us nor the
 * directory's owner: another user's file or FIFO there would take the
 * output (a file keeps its owner and mode when replaced).  The rule of
 * Linux's fs.protected_regular and fs.protected_fifos, applied whether
 * the system sets them or not. */
static void
out_owner(const struct stat *ds, const struct stat *st, const char *shown)
{
	if ((ds->st_mode & S_ISVTX) != 0 &&
	    (ds->st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
	    st->st_uid != geteuid() && st->st_uid != ds->st_uid &&
	    !S_ISDIR(st->st_mode))
		kn_die("%s: a file in a sticky directory that others may "
		    "write to, owned by neither you nor the directory's "
		    "owner: not written (kanon(7), OUTPUT FILES)", shown);
}

/* stat(2) of the table's operand i of ops[0..nops), the standard input
 * for "-" or none. */
static int
op_stat(char *const *ops, size_t nops, size_t i, struct stat *st)
{
	return nops == 0 || strcmp(ops[i], "-") == 0 ? fstat(0, st) :
	    stat(ops[i], st);
}

/* Opens the output path (named shown in messages), which may replace
 * the table read from ops[0..nops) (none: stdin) if inplace is set. */
static FILE *
open_out(const char *path, const char *shown, char *const *ops,
    size_t nops, int inplace)
{
	struct outfile *o;
	struct stat st, ds;
	char *dir, *proc = NULL;
	FILE *f;
	size_t i;
	int fd, got;

	if (*path == '\0')
		kn_die("an output named by an empty file name: give a file, "
		    "or - for the standard output");
	if ((fd = fd_name(path)) >= 0) {
		/* A name of an open descriptor: written as it is; not one
		 * the caller closed, held on /dev/null. */
		int fl;

		if (fd < 3 && kn_std_closed[fd])
			kn_die("%s: the standard %s is closed: nothing written "
			    "there would be kept", shown, fd == 0 ? "input" :
			    fd == 1 ? "output" : "error");
		if ((fl = fcntl(fd, F_GETFL)) >= 0 &&
		    (fl & O_ACCMODE) == O_RDONLY)
			kn_die("%s: open for reading only, not an output",
			    shown);
		if ((fd = fcntl(fd, F_DUPFD_CLOEXEC, 3)) < 0)
			kn_die_sys("%s", shown);
		return out_direct(shown, fd);
	}
	if (strncmp(path, "/proc/", 6) == 0)
		/* /proc/self/cwd/x, /proc/self/root/x: links that the
		 * checks below could not follow safely. */
		kn_die("%s%s%s: a name under /proc, not a file to write: give "
		    "the file's own path (or /dev/fd/N for a descriptor)",
		    shown, strcmp(shown, path) == 0 ? "" : ": leads to ",
		    strcmp(shown, path) == 0 ? "" : path);
	o = kn_zalloc(sizeof(*o));
	if ((o->base = out_walk(shown, path, &o->dirfd, &dir, &proc)) ==
	    NULL) {
		free(o);
		f = open_out(proc, shown, ops, nops, inplace);
		free(proc);
		return f;
	}
	if (fstat(o->dirfd, &ds) != 0)
		kn_die_sys("%s", shown);
	out_twice(o, &ds, shown);
	if ((got = fstatat(o->dirfd, o->base, &st, AT_SYMLINK_NOFOLLOW)) != 0 &&
	    errno == ENAMETOOLONG)
		/* Now, not at the rename after all the work. */
		kn_die_sys("%s: cannot create output", shown);
	if (got == 0) {
		struct fileid id = { st.st_dev, st.st_ino };

		out_owner(&ds, &st, shown);
		/* Named outputs are compared by their names (out_twice). */
		out_shared(&id, 0, shown);
		if (!S_ISREG(st.st_mode)) {
			/* A device or a FIFO (/dev/null, a named pipe):
			 * written directly, there is nothing to replace
			 * atomically.  Not a pipe the run reads: opening it
			 * would wait for a reader, or give one that waits
			 * on itself. */
			pipe_out(&id, shown);
			for (i = 0; S_ISFIFO(st.st_mode) && inplace &&
			    i < (nops > 0 ? nops : 1); i++) {
				struct stat is;

				if (op_stat(ops, nops, i, &is) == 0 &&
				    is.st_dev == st.st_dev &&
				    is.st_ino == st.st_ino)
					pipe_clash(nops == 0 ||
					    strcmp(ops[i], "-") == 0 ?
					    "stdin" : ops[i], shown);
			}
			fd = openat(o->dirfd, o->base, O_WRONLY | O_NOFOLLOW |
			    O_NOCTTY | O_CLOEXEC);
			if (fd < 0)
				kn_die_sys("%s", shown);
			close(o->dirfd);
			free(o->base);
			free(o);
			free(dir);
			return out_direct(shown, fd);
		}
		/* Replaced only where it could be written, as sort -o
		 * writes it: a file made read-only, or another user's,
		 * is kept (root may write any). */
		if (faccessat(o->dirfd, o->base, W_OK, AT_EACCESS) != 0 &&
		    errno == EACCES)
			kn_die("%s: not writable by you: not replaced "
			    "(kanon(7), OUTPUT FILES)", shown);
		o->isreg = 1;
		o->id.dev = st.st_dev;
		o->id.ino = st.st_ino;
	}
	o->dst = kn_strdup(shown);
	if (inplace) {
		/* The table's files: its operands, or stdin. */
		o->allow = kn_alloc((nops + 1) * sizeof(*o->allow));
		for (i = 0; i < (nops > 0 ? nops : 1); i++)
			if (op_stat(ops, nops, i, &st) == 0 &&
			    S_ISREG(st.st_mode)) {
				o->allow[o->nallow].dev = st.st_dev;
				o->allow[o->nallow++].ino = st.st_ino;
			}
	}
	if ((fd = out_mktemp(o, dir)) < 0)
		kn_die_sys("%s: cannot create output", shown);
	free(dir);
	if ((f = fdopen(fd, "w")) == NULL)
		kn_die_sys("%s", shown);
	return out_add(o, f);
}

/* Opens path (NULL or "-": stdout), which may replace the files of
 * ops[0..nops) if inplace is set. */
static FILE *
out_open(const char *path, char *const *ops, size_t nops, int inplace)
{
	struct outfile *o;

	if (path != NULL && strcmp(path, "-") != 0)
		return open_out(path, path, ops, nops, inplace);
	for (o = outs; o != NULL; o = o->next)
		if (o->f == stdout)
			kn_die("-: the standard output of another output too: "
			    "their bytes would mix");
	o = kn_zalloc(sizeof(*o));
	o->dst = kn_strdup("standard output");
	o->dirfd = -1;
	out_id(o, 1);
	return out_add(o, stdout);
}

FILE *
kn_open_out(const char *path)
{
	return out_open(path, NULL, 0, 0);
}

FILE *
kn_open_out_inplace(const char *path, char *const *ops, size_t nops)
{
	return out_open(path, ops, nops, 1);
}

/* Gives the temp file fd of o the owner, group and mode of the file it
 * replaces, as far as we may (a set-user-ID or set-group-ID bit goes
 * with an owner or group we cannot give), or for a new file 0666 less
 * the umask; dies if the target is an input now. */
static void
out_keep(struct outfile *o, int fd)
{
	struct stat st;
	mode_t mode;
	size_t i;

	o->isreg = 0;
	if (fstatat(o->dirfd, o->base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode)) {
		o->isreg = 1;
		o->id.dev = st.st_dev;
		o->id.ino = st.st_ino;
		for (i = 0; i < in_n; i++)
			out_clash(o, &in_files[i]);
		mode = st.st_mode & 07777;
		if (fchown(fd, st.st_uid, st.st_gid) != 0) {
			if (st.st_uid != geteuid())
				mode &= ~(mode_t)S_ISUID;
			if (fchown(fd, (uid_t)-1, st.st_gid) != 0)
				mode &= ~(mode_t)S_ISGID;
		}
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (fchmod(fd, mode) != 0)
		kn_die_sys("%s", o->dst);
}

int
kn_out_private(FILE *f)
{
	struct outfile *o;

	for (o = outs; o != NULL; o = o->next)
		if (o->f == f)
			return o->tmp != NULL;
	return 0;
}

void
kn_close_out(FILE *f)
{
	struct outfile **pp, *o;

	if (f == stdout) {
		if (fflush(stdout) == EOF || ferror(stdout))
			kn_die_sys("standard output: write error");
		return;
	}
	for (pp = &outs; *pp != NULL && (*pp)->f != f; pp = &(*pp)->next)
		;
	if ((o = *pp) == NULL)
		kn_die("internal error: unknown output stream");
	if (o->tmp == NULL) {
		if (fflush(f) == EOF || ferror(f) || fclose(f) == EOF)
			kn_die_sys("%s: write error", o->dst);
	} else {
		if (fflush(f) == EOF || ferror(f))
			kn_die_sys("%s: write error", o->dst);
		out_keep(o, fileno(f));
		if (fsync(fileno(f)) != 0 && errno != EINVAL)
			kn_die_sys("%s: write error", o->dst);
		if (fclose(f) != 0)
			kn_die_sys("%s: write error", o->dst);
		if (renameat(o->dirfd, o->tmpname, o->dirfd, o->base) != 0)
			kn_die_sys("%s: cannot rename into place", o->dst);
		kn_tmp_forget(o->tmp);
		close(o->dirfd);
	}
	*pp = o->next;
	free(o->vbuf);
	free(o->dst);
	free(o->base);
	free(o->allow);
	free(o);
}

/* The canonical name of path: realpath(3) of the file, or of its
 * directory when the file does not exist yet; NULL if neither works. */
static char *
canon_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *rd, *p, *r;

	if ((r = realpath(path, NULL)) != NULL)
		return r;
	dir = slash == NULL ? kn_strdup(".") : slash == path ?
	    kn_strdup("/") : kn_strndup(path, (size_t)(slash - path));
	rd = realpath(dir, NULL);
	free(dir);
	if (rd == NULL)
		return NULL;
	p = kn_alloc(strlen(rd) + strlen(path) + 2);
	sprintf(p, "%s/%s", rd, slash == NULL ? path : slash + 1);
	free(rd);
	return p;
}

int
kn_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ca, *cb;
	int same;

	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ca = canon_path(a);
	cb = canon_path(b);
	same = ca != NULL && cb != NULL ? strcmp(ca, cb) == 0 :
	    strcmp(a, b) == 0;
	free(ca);
	free(cb);
	return same;
}

void
kn_tmp_drop(int fd, uint64_t off, uint64_t len)
{
#if defined(FALLOC_FL_PUNCH_HOLE) && defined(FALLOC_FL_KEEP_SIZE)
	if (len > 0)
		(void)fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		    (off_t)off, (off_t)len);
#else
	(void)fd;
	(void)off;
	(void)len;
#endif
}
