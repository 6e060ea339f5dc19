/*
 * fwload: an example firmware loader built on libvouch, as a program that
 * feeds blobs to devices would use it: the policy is loaded and frozen
 * once, then each blob is requested by name (vouch_fw_request() searches
 * the kernel's path, stays in the tree, checks) and only bytes that were
 * accepted ever reach the "device", here a line on stdout.
 *
 *     fwload POLICY [ROOT] NAME...
 *
 * Exit status: 0 if every blob was loaded, 1 otherwise.
 */
#include <stdio.h>
#include <string.h>

#include <vouch/vouch.h>

/* Where a real loader would write to the device's loading interface. */
static void load_into_device(const char *name, const struct vouch_fw_blob *blob)
{
	printf("%s: loaded %zu bytes from %s\n", name, blob->size, blob->path);
}

int main(int argc, char **argv)
{
	struct vouch_fw_policy *p;
	char err[512];
	int first = 2, failed = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: fwload POLICY [ROOT] NAME...\n");
		return 64;
	}
	if (vouch_fw_policy_new(&p) != 0 || vouch_fw_policy_load(p, argv[1], err, sizeof(err)) != 0) {
		fprintf(stderr, "fwload: %s\n", err);
		vouch_fw_policy_free(p);
		return 1;
	}
	if (argc > 3 && argv[2][0] == '/') {   /* a root directory before the names */
		if (vouch_fw_policy_set_search(p, argv[2], NULL, NULL) != 0)
			failed = 1;
		first = 3;
	}
	if (failed || vouch_fw_policy_finish(p) != 0) {
		fprintf(stderr, "fwload: %s: unusable policy\n", argv[1]);
		vouch_fw_policy_free(p);
		return 1;
	}
	for (int i = first; i < argc; i++) {
		struct vouch_fw_blob blob;
		struct vouch_fw_result res;
		int rc = vouch_fw_request(p, argv[i], &blob, &res);

		if (rc == 0) {
			load_into_device(argv[i], &blob);
		} else {
			fprintf(stderr, "fwload: %s: not loaded: %s (%s)\n", argv[i], res.reason,
				vouch_strerror(rc));
			failed = 1;
		}
		vouch_fw_blob_free(&blob);
	}
	vouch_fw_policy_free(p);
	return failed;
}
