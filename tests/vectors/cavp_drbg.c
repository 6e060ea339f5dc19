/*
 * cavp-drbg: run NIST CAVP DRBGVS response files against vouch's DRBGs.
 *
 *     cavp-drbg FILE.rsp|DIR...
 *
 * A directory is searched (recursively, in name order) for *.rsp files;
 * a missing directory is skipped (exit 77, meson's "skipped") unless
 * CI=true, where it is a failure.
 * The mechanism comes from the file name, as in NIST's distribution
 * (Hash_DRBG.rsp, HMAC_DRBG.rsp, CTR_DRBG.rsp); a section header names the
 * variant ([SHA-256], [AES-256 use df], [AES-128 no df]); the procedure
 * follows from each case's fields:
 *   EntropyInputReseed  instantiate, reseed, generate, generate;
 *   EntropyInputPR      instantiate with prediction resistance, then two
 *                       generates, each reseeding from EntropyInputPR;
 *   neither             instantiate, generate, generate.
 * ReturnedBits is the second generate's output. Entropy reaches the DRBG
 * through its seed-source interface, from a source that replays the
 * case's EntropyInput, Nonce and reseed inputs in order and refuses a
 * request of any other length.
 *
 * Prints one line per failure and a closing "N passed, M failed, K skipped";
 * exits 1 if anything failed or could not be read.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <vouch/drbg.h>
#include <vouch/error.h>

#include "rsp.h"

#define MAX_CHUNKS 8

/* A case as read: byte strings by field name, in file order. */
struct drbg_case {
	int count;
	uint8_t *entropy, *nonce, *pers, *reseed_addin, *returned;
	size_t entropy_len, nonce_len, pers_len, reseed_addin_len, returned_len;
	uint8_t *reseed[2];        /* EntropyInputReseed, or the two EntropyInputPR */
	size_t reseed_len[2];
	int n_reseed, pr;
	uint8_t *addin[2];
	size_t addin_len[2];
	int n_addin;
};

/* The replay seed source: hands out chunks in order, exact lengths only. */
struct replay {
	const uint8_t *chunk[MAX_CHUNKS];
	size_t len[MAX_CHUNKS];
	int n, next;
};

static int replay_get(void *ctx, uint8_t *buf, size_t len, unsigned flags)
{
	struct replay *r = ctx;

	(void)flags;
	if (r->next >= r->n || r->len[r->next] != len)
		return -EINVAL;
	memcpy(buf, r->chunk[r->next++], len);
	return 0;
}

static void replay_add(struct replay *r, const uint8_t *p, size_t len)
{
	if (r->n < MAX_CHUNKS && len) {
		r->chunk[r->n] = p;
		r->len[r->n++] = len;
	}
}

/* "SHA-256" -> "hash-SHA-256"; "AES-128 no df" -> "ctr-aes128-nodf". */
static int mechanism_name(const char *file_mech, const char *section, char *out, size_t size)
{
	if (strcmp(file_mech, "ctr") == 0) {
		unsigned bits;
		char df[8];

		if (sscanf(section, "AES-%u %7s df", &bits, df) != 2)
			return -1;
		snprintf(out, size, "ctr-aes%u%s", bits, strcmp(df, "no") == 0 ? "-nodf" : "");
		return 0;
	}
	snprintf(out, size, "%s-%s", file_mech, section);
	return 0;
}

static const char *file_mechanism(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (strcmp(base, "Hash_DRBG.rsp") == 0)
		return "hash";
	if (strcmp(base, "HMAC_DRBG.rsp") == 0)
		return "hmac";
	if (strcmp(base, "CTR_DRBG.rsp") == 0)
		return "ctr";
	return NULL;
}

static void case_free(struct drbg_case *c)
{
	free(c->entropy);
	free(c->nonce);
	free(c->pers);
	free(c->reseed_addin);
	free(c->returned);
	for (int i = 0; i < 2; i++) {
		free(c->reseed[i]);
		free(c->addin[i]);
	}
	memset(c, 0, sizeof(*c));
}

/* Run one case; 0 when the output matches, else a message in @why. */
static int run_case(const char *mech, const struct drbg_case *c, char *why, size_t why_len)
{
	struct vouch_drbg_params params = { .mechanism = mech, .prediction_resistance = c->pr };
	struct replay rep = { .n = 0 };
	struct vouch_seed_source src = { replay_get, &rep };
	struct vouch_drbg *d = NULL;
	uint8_t *out = malloc(c->returned_len ? c->returned_len : 1);
	int rc;

	replay_add(&rep, c->entropy, c->entropy_len);
	replay_add(&rep, c->nonce, c->nonce_len);
	for (int i = 0; i < c->n_reseed; i++)
		replay_add(&rep, c->reseed[i], c->reseed_len[i]);

	rc = out ? vouch_drbg_new(&d, &params) : -ENOMEM;
	if (rc == 0)
		rc = vouch_drbg_instantiate(d, &src, c->pers, c->pers_len, 0);
	if (rc == 0 && !c->pr && c->n_reseed)
		rc = vouch_drbg_reseed(d, c->reseed_addin, c->reseed_addin_len, 0);
	for (int i = 0; rc == 0 && i < 2; i++)
		rc = vouch_drbg_generate(d, out, c->returned_len, c->addin[i], c->addin_len[i], c->pr, 0);
	if (rc)
		snprintf(why, why_len, "%s", vouch_strerror(rc));
	else if (rep.next != rep.n)
		snprintf(why, why_len, "%d of %d entropy inputs used", rep.next, rep.n), rc = -1;
	else if (memcmp(out, c->returned, c->returned_len) != 0)
		snprintf(why, why_len, "ReturnedBits differ"), rc = -1;
	vouch_drbg_free(d);
	free(out);
	return rc;
}

struct tally {
	int passed, failed, skipped;
};

/* Store a hex field; 0 or -1 on bad hex. */
static int take(uint8_t **dst, size_t *len, const char *hex)
{
	free(*dst);
	*dst = vt_hex_decode(hex, len);
	return *dst ? 0 : -1;
}

static int read_field(struct drbg_case *c, const char *key, const char *value)
{
	if (strcmp(key, "COUNT") == 0) {
		case_free(c);
		c->count = atoi(value);
		return 0;
	}
	if (strcmp(key, "EntropyInput") == 0)
		return take(&c->entropy, &c->entropy_len, value);
	if (strcmp(key, "Nonce") == 0)
		return take(&c->nonce, &c->nonce_len, value);
	if (strcmp(key, "PersonalizationString") == 0)
		return take(&c->pers, &c->pers_len, value);
	if (strcmp(key, "AdditionalInputReseed") == 0)
		return take(&c->reseed_addin, &c->reseed_addin_len, value);
	if (strcmp(key, "ReturnedBits") == 0)
		return take(&c->returned, &c->returned_len, value);
	if (strcmp(key, "EntropyInputReseed") == 0 || strcmp(key, "EntropyInputPR") == 0) {
		int i = c->n_reseed++;

		if (i >= 2)
			return -1;
		c->pr = key[12] == 'P';
		return take(&c->reseed[i], &c->reseed_len[i], value);
	}
	if (strcmp(key, "AdditionalInput") == 0) {
		int i = c->n_addin++;

		if (i >= 2)
			return -1;
		return take(&c->addin[i], &c->addin_len[i], value);
	}
	return 0;   /* other fields: none in DRBGVS files we do not handle */
}

static void run_file(const char *path, struct tally *t)
{
	const char *file_mech = file_mechanism(path);
	struct vt_rsp r;
	struct vt_rsp_item it;
	struct drbg_case c = { 0 };
	char section[64] = "", mech[64] = "";
	int section_ok = 0;

	if (!file_mech) {
		printf("SKIP %s: not a DRBGVS file name (Hash_DRBG.rsp, HMAC_DRBG.rsp, CTR_DRBG.rsp)\n", path);
		t->skipped++;
		return;
	}
	if (vt_rsp_load(&r, path) != 0) {
		printf("FAIL %s: %s\n", path, strerror(errno));
		t->failed++;
		return;
	}
	do {
		it = vt_rsp_next(&r);
		if (it.kind == VT_RSP_SECTION && !strchr(it.key, '=')) {
			snprintf(section, sizeof(section), "%s", it.key);
			section_ok = mechanism_name(file_mech, section, mech, sizeof(mech)) == 0;
			if (!section_ok)
				printf("SKIP %s [%s]: no such mechanism\n", path, section);
		} else if (it.kind == VT_RSP_FIELD) {
			if (read_field(&c, it.key, it.value) != 0) {
				printf("FAIL %s:%d: unreadable field %s\n", path, it.line, it.key);
				t->failed++;
			} else if (strcmp(it.key, "ReturnedBits") == 0) {
				char why[128];

				if (!section_ok) {
					t->skipped++;
				} else if (run_case(mech, &c, why, sizeof(why)) == 0) {
					t->passed++;
				} else {
					printf("FAIL %s [%s] COUNT = %d: %s\n", path, section, c.count, why);
					t->failed++;
				}
			}
		}
	} while (it.kind != VT_RSP_END);
	case_free(&c);
	vt_rsp_close(&r);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every *.rsp below @dir, in name order. */
static void run_dir(const char *dir, struct tally *t)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);

	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (name[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				run_dir(path, t);
			else if (len > 4 && strcmp(name + len - 4, ".rsp") == 0)
				run_file(path, t);
		}
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	struct tally t = { 0, 0, 0 };
	const char *ci = getenv("CI");

	if (argc < 2) {
		fprintf(stderr, "usage: cavp-drbg FILE.rsp|DIR...\n");
		return 64;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) != 0) {
			if (ci && strcmp(ci, "true") == 0) {
				printf("FAIL %s: %s (CI=true: vectors must be present)\n", argv[i], strerror(errno));
				t.failed++;
				continue;
			}
			printf("SKIP %s: %s; set VOUCH_VECTORS or -Dvectors\n", argv[i], strerror(errno));
			printf("0 passed, 0 failed, 1 skipped\n");
			return 77;
		}
		if (S_ISDIR(st.st_mode))
			run_dir(argv[i], &t);
		else
			run_file(argv[i], &t);
	}
	printf("%d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped);
	return t.failed || t.passed == 0 ? 1 : 0;
}
