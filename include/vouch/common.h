/**
 * @file vouch/common.h
 * @brief Macros shared by every public header of libvouch.
 *
 * Only symbols marked VOUCH_EXPORT leave the shared library; everything
 * else is hidden by the compiler's visibility and by libvouch.map.
 */
#ifndef VOUCH_COMMON_H
#define VOUCH_COMMON_H

#include <stddef.h>

#if defined(VOUCH_BUILDING_LIBRARY) && defined(__GNUC__)
#define VOUCH_EXPORT __attribute__((visibility("default")))
#else
#define VOUCH_EXPORT
#endif

#if defined(__GNUC__)
/** The result must be checked: ignoring it is a security bug. */
#define VOUCH_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define VOUCH_WARN_UNUSED
#endif

/**
 * A part of a caller's input: an offset from its start and a length.
 * Parsed objects describe their fields this way instead of copying them
 * (docs/contracts.md), so that a result is flat and can cross a process boundary.
 */
struct vouch_span {
	size_t off;  /**< offset from the start of the input */
	size_t len;  /**< length in bytes */
};

#endif /* VOUCH_COMMON_H */
