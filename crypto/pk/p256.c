/*
 * P-256 (FIPS 186-4 D.1.2.3, SP 800-186 3.2.1.3): 4 limbs of 64 bits.
 *
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1, whose lowest limb is all ones, so
 * -p^-1 mod 2^64 = 1 and the Montgomery quotient digit is the limb itself.
 * The derived constants (m0inv = -m^-1 mod 2^64, RR = 2^512 mod m,
 * ONE = 2^256 mod m, B = b 2^256 mod p) were computed with Python's
 * integers from the curve definition; tests/test_ecdsa.c checks them
 * indirectly (G on the curve, n G = infinity, known answers).
 */
#include <stdint.h>

#include <vouch/ecdsa.h>

#define EC_N 4
#define EC_P { 0xffffffffffffffffull, 0x00000000ffffffffull, 0x0000000000000000ull, \
	       0xffffffff00000001ull }
#define EC_P_M0INV 0x0000000000000001ull
#define EC_P_RR { 0x0000000000000003ull, 0xfffffffbffffffffull, 0xfffffffffffffffeull, \
		  0x00000004fffffffdull }
#define EC_P_ONE { 0x0000000000000001ull, 0xffffffff00000000ull, 0xffffffffffffffffull, \
		   0x00000000fffffffeull }
#define EC_ORD { 0xf3b9cac2fc632551ull, 0xbce6faada7179e84ull, 0xffffffffffffffffull, \
		 0xffffffff00000000ull }
#define EC_ORD_M0INV 0xccd1c8aaee00bc4full
#define EC_ORD_RR { 0x83244c95be79eea2ull, 0x4699799c49bd6fa6ull, 0x2845b2392b6bec59ull, \
		    0x66e12d94f3d95620ull }
#define EC_ORD_ONE { 0x0c46353d039cdaafull, 0x4319055258e8617bull, 0x0000000000000000ull, \
		     0x00000000ffffffffull }
#define EC_B_MONT { 0xd89cdf6229c4bddfull, 0xacf005cd78843090ull, 0xe5a220abf7212ed6ull, \
		    0xdc30061d04874834ull }
#define EC_GX { 0xf4a13945d898c296ull, 0x77037d812deb33a0ull, 0xf8bce6e563a440f2ull, \
		0x6b17d1f2e12c4247ull }
#define EC_GY { 0xcbb6406837bf51f5ull, 0x2bce33576b315eceull, 0x8ee7eb4a7c0f9e16ull, \
		0x4fe342e2fe1a7f9bull }
#define EC_ID VOUCH_EC_P256
#define EC_NAME "P-256"
#define EC_DESC vouch_ec_p256

/* The field: p256_field.h in portable C, p256_field_adx.h with BMI2 and
 * ADX (both using p's form), chosen at run time by ec_impl.h. */
#include "p256_field.h"
#include "p256_field_adx.h"
#define EC_FE_MUL p256_mul_port
#define EC_FE_SQR p256_sqr_port
#ifdef P256_HAVE_ADX
#define EC_FE_ACCEL_FEATURES (VOUCH_CPU_BMI2 | VOUCH_CPU_ADX)
#define EC_FE_ACCEL_MUL p256_mul_adx
#define EC_FE_ACCEL_SQR p256_sqr_adx
#define EC_FE_ACCEL_ADD p256_add_adx
#define EC_FE_ACCEL_SUB p256_sub_adx
#define EC_FE_ACCEL_MULK p256_mulk_adx
#endif

#include "ec_impl.h"
