/**
 * @file vouch/common.h
 * @brief Macros shared by every public header of libvouch.
 *
 * Only symbols marked VOUCH_EXPORT leave the shared library; everything
 * else is hidden by the compiler's visibility and by libvouch.map.
 */
#ifndef VOUCH_COMMON_H
#define VOUCH_COMMON_H

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

#endif /* VOUCH_COMMON_H */
