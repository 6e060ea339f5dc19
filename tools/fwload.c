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

#include <errno.h>

#include <vouch/vouch.h>

#include "toolcommon.h"

/* Names and paths come from the caller and the tree: every byte outside
 * printable ASCII (and '\\') is printed as \xHH, so none forges a line. */
static void put_escaped(FILE *out, const char *s)
{
	char shown[TOOL_ESCAPED_MAX];

	fputs(tool_escape(s, shown, sizeof(shown)), out);
}

/* Where a real loader would write to the device's loading interface. */
static void load_into_device(const char *name, const struct vouch_fw_blob *blob)
{
	put_escaped(stdout, name);
	printf(": loaded %zu bytes from ", blob->size);
	put_escaped(stdout, blob->path);
	putchar('\n');
}

/*
 * The sandbox the policy parses signatures in. A loader installed with
 * vouch uses the library's default worker (under libexecdir); this one
 * takes the tools' choice, so that it also runs from the build tree.
 */
static struct vouch_sandbox *make_sandbox(void)
{
	struct vouch_sandbox_opts opts;
	struct vouch_sandbox *sb = NULL;

	tool_sandbox_opts(&opts, 0);
	return vouch_sandbox_new(&sb, &opts) == 0 ? sb : NULL;
}

int main(int argc, char **argv)
{
	struct vouch_fw_policy *p;
	struct vouch_sandbox *sb;
	char err[512] = "";
	int first = 2, failed = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: fwload POLICY [ROOT] NAME...\n");
		return 64;
	}
	if (vouch_fw_policy_new(&p) != 0 || vouch_fw_policy_load(p, argv[1], err, sizeof(err)) != 0) {
		fputs("fwload: ", stderr);
		put_escaped(stderr, err);
		fputc('\n', stderr);
		vouch_fw_policy_free(p);
		return 1;
	}
	if (argc > 3 && argv[2][0] == '/') {   /* a root directory before the names */
		if (vouch_fw_policy_set_search(p, argv[2], NULL, NULL) != 0)
			failed = 1;
		first = 3;
	}
	sb = make_sandbox();
	if (failed || !sb || vouch_fw_policy_set_sandbox(p, sb) != 0 ||
	    vouch_fw_policy_finish(p) != 0) {
		fputs("fwload: ", stderr);
		put_escaped(stderr, argv[1]);
		fputs(": unusable policy\n", stderr);
		vouch_fw_policy_free(p);
		vouch_sandbox_free(sb);
		return 1;
	}
	for (int i = first; i < argc; i++) {
		struct vouch_fw_blob blob;
		struct vouch_fw_result res;
		int rc = vouch_fw_request(p, argv[i], &blob, &res);

		if (rc == 0) {
			load_into_device(argv[i], &blob);
		} else {
			char worker[TOOL_ESCAPED_MAX + 256];

			if (rc == -ECHILD || rc == -ETIMEDOUT)
				res.reason = tool_sandbox_reason(sb, rc, worker, sizeof(worker));
			fputs("fwload: ", stderr);
			put_escaped(stderr, argv[i]);
			fputs(": not loaded: ", stderr);
			put_escaped(stderr, res.reason);
			fprintf(stderr, " (%s)\n", vouch_strerror(rc));
			failed = 1;
		}
		vouch_fw_blob_free(&blob);
	}
	vouch_fw_policy_free(p);
	vouch_sandbox_free(sb);         /* after the policy, which borrows it */
	return failed;
}
