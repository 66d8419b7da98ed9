/* peak-rss: runs a command and writes its peak resident set size, in
 * KB, to a file, for the tests of -S (tests/memory.bats): the card
 * allows no GNU time.  Usage: peak-rss FILE COMMAND [ARG ...]; exits
 * with the command's status, 128 + N when a signal N ended it, and 2
 * when it cannot run it.  The figure is getrusage's ru_maxrss of the
 * children, which here is the one command and what it ran. */
#include <sys/resource.h>
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	struct rusage ru;
	FILE *f;
	pid_t pid;
	int st;

	if (argc < 3) {
		fprintf(stderr, "usage: peak-rss FILE COMMAND [ARG ...]\n");
		return 2;
	}
	if ((pid = fork()) == -1) {
		perror("peak-rss: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "peak-rss: %s: ", argv[2]);
		perror(NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) == -1 || getrusage(RUSAGE_CHILDREN, &ru)) {
		perror("peak-rss: wait");
		return 2;
	}
	if ((f = fopen(argv[1], "w")) == NULL ||
	    fprintf(f, "%ld\n", ru.ru_maxrss) < 0 || fclose(f) == EOF) {
		fprintf(stderr, "peak-rss: %s: ", argv[1]);
		perror(NULL);
		return 2;
	}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
