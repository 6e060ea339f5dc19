/*
 * One line per error code, in the words of docs/contracts.md's table: what the
 * code means for a caller of libvouch, not what the C library says of the
 * errno in general.
 */
#include <errno.h>
#include <string.h>

#include <vouch/error.h>

static const struct {
	int err;
	const char *text;
} messages[] = {
	{ 0,             "success" },
	{ -EBADMSG,      "malformed input" },
	{ -E2BIG,        "input larger than the configured limit" },
	{ -ENOPKG,       "algorithm, key size or content type not supported or disabled by policy" },
	{ -EKEYREJECTED, "signature or digest does not match" },
	{ -EKEYREVOKED,  "revoked: on the deny list, or listed by a CRL" },
	{ -EKEYEXPIRED,  "certificate outside its validity period" },
	{ -EPERM,        "refused by policy" },
	{ -ENOKEY,       "no trusted key: no chain to the keyring, signer certificate not found, or a required CRL missing" },
	{ -EINVAL,       "invalid argument" },
	{ -ENAMETOOLONG, "name too long: no such file can exist" },
	{ -ENOMEM,       "out of memory" },
	{ -ETIMEDOUT,    "sandbox worker timed out" },
	{ -ECHILD,       "sandbox worker failed: not started, died or sent an invalid reply" },
	{ -EAGAIN,       "entropy not available yet (would block)" },
	{ -EFAULT,       "self-test or entropy health test failed: module disabled" },
	{ -EIO,          "entropy source failed its health test or misbehaved" },
	{ -ENODEV,       "no entropy source: getrandom(2) refused and /dev/urandom unusable" },
	{ -ESTALE,       "DRBG must be reseeded before it can generate" },
	{ -ENODATA,      "no signature: a module without an appended signature, or a PE image without a certificate table" },
};

/* see vouch/error.h */
const char *vouch_strerror(int err)
{
	for (size_t i = 0; i < sizeof(messages) / sizeof(messages[0]); i++) {
		if (messages[i].err == err)
			return messages[i].text;
	}
	if (err < 0) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
		/* I/O errors (-ENOENT, -EACCES, ...) keep the C library's wording. */
		const char *text = strerrordesc_np(-err);

		if (text)
			return text;
#endif
	}
	return "unknown error";
}
