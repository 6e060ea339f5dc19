/* The shared test harness (see harness.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cpu.h"
#include "harness.h"
#include "rsp.h"

const char *vt_vectors(const char *sub)
{
	static char path[4096];
	const char *dir = getenv("VOUCH_VECTORS");
	const char *ci = getenv("CI");
	struct stat st;

#ifdef VT_VECTORS_DEFAULT
	/* Run by hand, a test finds the directory meson resolved. */
	if (!dir || !*dir)
		dir = VT_VECTORS_DEFAULT;
#endif
	if (!dir || !*dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		if (ci && strcmp(ci, "true") == 0)
			fail_msg("CI=true but the vectors directory '%s' is missing", dir ? dir : "(unset)");
		print_message("[  SKIP    ] vectors directory '%s' not found: set VOUCH_VECTORS\n",
			      dir ? dir : "(unset)");
		skip();
	}
	if (sub)
		snprintf(path, sizeof(path), "%s/%s", dir, sub);
	else
		snprintf(path, sizeof(path), "%s", dir);
	return path;
}

const char *vt_data(const char *sub)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", VT_DATA_DIR, sub);
	return path;
}

uint8_t *vt_unhex(const char *hex, size_t *len)
{
	uint8_t *out = vt_hex_decode(hex, len);

	if (!out)
		fail_msg("bad hex string '%.40s'", hex);
	return out;
}

uint8_t *vt_read_file(const char *path, size_t *len)
{
	char *text = vt_slurp(path, len);

	if (!text)
		fail_msg("cannot read %s: %s", path, strerror(errno));
	return (uint8_t *)text;
}

void vt_rsp_open(struct vt_rsp *r, const char *path)
{
	int rc = vt_rsp_load(r, path);

	if (rc)
		fail_msg("cannot read %s: %s", path, strerror(-rc));
}

static void print_hex(const char *label, const uint8_t *p, size_t len)
{
	print_error("%s", label);
	for (size_t i = 0; i < len; i++)
		print_error("%02x", p[i]);
	print_error("\n");
}

void vt_assert_bytes(const uint8_t *got, const uint8_t *want, size_t len,
		     const char *file, int line)
{
	if (len && memcmp(got, want, len) != 0) {
		print_hex("   got: ", got, len);
		print_hex("  want: ", want, len);
		_fail(file, line);
	}
}

int vt_impl_count(void)
{
	return vouch_cpu_features_detected() ? 2 : 1;
}

const char *vt_impl_pin(int index)
{
	if (index == 0) {
		vouch_cpu_features_restrict(0);
		return "portable";
	}
	vouch_cpu_features_restrict(UINT32_MAX);
	return "accelerated";
}

void vt_impl_unpin(void)
{
	vouch_cpu_features_restrict(UINT32_MAX);
}

int vt_aes_impl_count(void)
{
	return vt_impl_count() > 1 ? 3 : 1;
}

const char *vt_aes_impl_pin(int index)
{
	if (index == 0)
		return vt_impl_pin(0);
	vt_impl_pin(1);
	if (index == 1) {
		vouch_cpu_features_restrict(UINT32_MAX & ~(uint32_t)VOUCH_CPU_VAES);
		return "aes-ni";
	}
	return "accelerated";
}

void vt_prng_seed(struct vt_prng *p, const char *what)
{
	const char *env = getenv("VOUCH_TEST_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) * 2654435761u;

	if (!seed)
		seed = 1;
	print_message("[ SEED     ] %s: VOUCH_TEST_SEED=%llu\n", what, (unsigned long long)seed);
	p->s = seed;
}

uint64_t vt_prng_next(struct vt_prng *p)
{
	p->s ^= p->s >> 12;
	p->s ^= p->s << 25;
	p->s ^= p->s >> 27;
	return p->s * 0x2545f4914f6cdd1dULL;
}

void vt_prng_fill(struct vt_prng *p, uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(vt_prng_next(p) >> 56);
}

void vt_apply_filter(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : getenv("VOUCH_TEST_FILTER");

	if (filter && *filter)
		cmocka_set_test_filter(filter);
}
