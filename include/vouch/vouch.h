/**
 * @file vouch/vouch.h
 * @brief The whole public API of libvouch in one include.
 */
#ifndef VOUCH_VOUCH_H
#define VOUCH_VOUCH_H

#include <vouch/common.h>
#include <vouch/error.h>
#include <vouch/mem.h>
#include <vouch/hash.h>
#include <vouch/sha3.h>
#include <vouch/hmac.h>
#include <vouch/aes.h>
#include <vouch/rsa.h>
#include <vouch/ecdsa.h>
#include <vouch/ed25519.h>
#include <vouch/mldsa.h>
#include <vouch/pubkey.h>
#include <vouch/x509.h>
#include <vouch/crl.h>
#include <vouch/pkcs7.h>
#include <vouch/pe.h>
#include <vouch/decompress.h>
#include <vouch/sandbox.h>
#include <vouch/keyring.h>
#include <vouch/verify.h>
#include <vouch/authenticode.h>
#include <vouch/fw.h>
#include <vouch/drbg.h>
#include <vouch/rng.h>

#endif /* VOUCH_VOUCH_H */
