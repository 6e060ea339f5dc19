/*
 * Without libFuzzer: run a fuzz target once over each file named on the
 * command line, so that every corpus entry (and every reproducer of a
 * past finding) is replayed by `meson test --suite fuzz-smoke` in any
 * build, sanitizers included when the build has them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			uint8_t *grown = realloc(buf, cap ? 2 * cap : 4096);

			if (!grown) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = grown;
			cap = cap ? 2 * cap : 4096;
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		size_t len;
		uint8_t *buf = read_all(argv[i], &len);

		if (!buf) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			return 2;
		}
		/* An exact-size copy, so that sanitizers see any over-read. */
		uint8_t *exact = malloc(len ? len : 1);

		if (!exact) {
			free(buf);
			return 2;
		}
		for (size_t j = 0; j < len; j++)
			exact[j] = buf[j];
		free(buf);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	printf("replayed %d inputs\n", argc - 1);
	return 0;
}
