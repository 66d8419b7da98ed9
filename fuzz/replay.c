/*
 * replay.c: a fuzz target's checks without libFuzzer: runs its
 * LLVMFuzzerTestOneInput once on each file named, as libFuzzer runs a
 * corpus.  make fuzz-replay links it to each target with the C compiler
 * and its flags, and make sanitize runs the targets so on their seed
 * corpus under ASan and UBSan (tests/sanitize), so that a target that
 * no longer builds, or whose model no longer agrees with the core, is
 * seen on a machine without clang.  A check that fails aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t n = 0, cap = 0, got;

		if (f == NULL) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (n == cap) {
				cap = cap ? 2 * cap : 4096;
				if ((buf = realloc(buf, cap)) == NULL) {
					perror("realloc");
					return 2;
				}
			}
			got = fread(buf + n, 1, cap - n, f);
			n += got;
		} while (got > 0);
		if (ferror(f)) {
			perror(argv[i]);
			return 2;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	printf("%s: %d inputs\n", argv[0], argc - 1);
	return 0;
}
