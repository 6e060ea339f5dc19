/**
 * @file vouch/error.h
 * @brief The error vocabulary of libvouch.
 *
 * Every function that can fail returns an int: 0 on success, or a negative
 * errno value from <errno.h> with exactly one meaning across the library:
 *
 * | value         | meaning                                                      |
 * |---------------|--------------------------------------------------------------|
 * | -EBADMSG      | malformed input (bad DER/BER, missing fields, limits)        |
 * | -E2BIG        | the input as a whole is larger than the configured limit     |
 * | -ENOPKG       | algorithm, key size or content type not implemented/disabled |
 * | -EKEYREJECTED | a signature, digest or attribute rule does not match         |
 * | -EKEYREVOKED  | content, signer or chain certificate is on a deny list       |
 * | -EKEYEXPIRED  | outside a validity period, when time is checked              |
 * | -EPERM        | refused by a policy rule                                     |
 * | -ENOKEY       | no chain to a trusted key; signer certificate not found      |
 * | -EINVAL       | caller mistake (bad argument, missing detached content)      |
 * | -ENOMEM       | out of memory                                                |
 * | -ETIMEDOUT, -ECHILD | sandbox worker timed out / died or lied              |
 * | -EAGAIN       | a non-blocking call would have to wait (seed source)         |
 * | -EFAULT       | a self-test or health test failed: the module refuses to work|
 * | -EIO          | the OS entropy source failed its health test (vouch/rng.h)   |
 * | -ENODEV       | no OS entropy source at all (vouch/rng.h)                    |
 * | -ESTALE       | a DRBG must be reseeded before it can generate again        |
 *
 * Thread-safety: vouch_strerror() is thread-safe (it returns static strings).
 */
#ifndef VOUCH_ERROR_H
#define VOUCH_ERROR_H

#include <vouch/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Describe a libvouch return value in one human line.
 *
 * @param[in] err  a value returned by a libvouch function (0 or a negative errno).
 * @return a static, NUL-terminated string, never NULL. Positive or unknown
 *         values get a generic description that names the number.
 *         The string is owned by the library and must not be freed.
 */
VOUCH_EXPORT const char *vouch_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif /* VOUCH_ERROR_H */
