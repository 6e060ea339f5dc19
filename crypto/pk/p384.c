/*
 * P-384 (FIPS 186-4 D.1.2.4, SP 800-186 3.2.1.4): 6 limbs of 64 bits.
 *
 * p = 2^384 - 2^128 - 2^96 + 2^32 - 1, so -p^-1 mod 2^64 = 2^32 + 1.
 * The derived constants (m0inv = -m^-1 mod 2^64, RR = 2^768 mod m,
 * ONE = 2^384 mod m, B = b 2^384 mod p) were computed with Python's
 * integers from the curve definition; tests/test_ecdsa.c checks them
 * indirectly (G on the curve, n G = infinity, known answers).
 */
#include <stdint.h>

#include <vouch/ecdsa.h>

#define EC_N 6
#define EC_P { 0x00000000ffffffffull, 0xffffffff00000000ull, 0xfffffffffffffffeull, \
	       0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull }
#define EC_P_M0INV 0x0000000100000001ull
#define EC_P_RR { 0xfffffffe00000001ull, 0x0000000200000000ull, 0xfffffffe00000000ull, \
		  0x0000000200000000ull, 0x0000000000000001ull, 0x0000000000000000ull }
#define EC_P_ONE { 0xffffffff00000001ull, 0x00000000ffffffffull, 0x0000000000000001ull, \
		   0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull }
#define EC_ORD { 0xecec196accc52973ull, 0x581a0db248b0a77aull, 0xc7634d81f4372ddfull, \
		 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull }
#define EC_ORD_M0INV 0x6ed46089e88fdc45ull
#define EC_ORD_RR { 0x2d319b2419b409a9ull, 0xff3d81e5df1aa419ull, 0xbc3e483afcb82947ull, \
		    0xd40d49174aab1cc5ull, 0x3fb05b7a28266895ull, 0x0c84ee012b39bf21ull }
#define EC_ORD_ONE { 0x1313e695333ad68dull, 0xa7e5f24db74f5885ull, 0x389cb27e0bc8d220ull, \
		     0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull }
#define EC_B_MONT { 0x081188719d412dccull, 0xf729add87a4c32ecull, 0x77f2209b1920022eull, \
		    0xe3374bee94938ae2ull, 0xb62b21f41f022094ull, 0xcd08114b604fbff9ull }
#define EC_GX { 0x3a545e3872760ab7ull, 0x5502f25dbf55296cull, 0x59f741e082542a38ull, \
		0x6e1d3b628ba79b98ull, 0x8eb1c71ef320ad74ull, 0xaa87ca22be8b0537ull }
#define EC_GY { 0x7a431d7c90ea0e5full, 0x0a60b1ce1d7e819dull, 0xe9da3113b5f0b8c0ull, \
		0xf8f41dbd289a147cull, 0x5d9e98bf9292dc29ull, 0x3617de4a96262c6full }
#define EC_ID VOUCH_EC_P384
#define EC_NAME "P-384"
#define EC_DESC vouch_ec_p384

/*
 * The portable field is ec_impl.h's Montgomery code on p's constant limbs;
 * the accelerated set (BMI2 and ADX) is p384_field_adx.h's, which uses p's
 * form (-p^-1 = 2^32 + 1, three all-ones limbs).
 */
#define EC_FE_MUL(r, a, b) ec_mont_mul(&ec_fp, r, a, b)
#define EC_FE_SQR(r, a) ec_mont_sqr(&ec_fp, r, a)
#include "p384_field_adx.h"
#ifdef P384_HAVE_ADX
#define EC_FE_ACCEL_FEATURES (VOUCH_CPU_BMI2 | VOUCH_CPU_ADX)
#define EC_FE_ACCEL_MUL p384_mul_adx
#define EC_FE_ACCEL_SQR(r, a) p384_mul_adx(r, a, a)
#define EC_FE_ACCEL_ADD p384_add_adx
#define EC_FE_ACCEL_SUB p384_sub_adx
#define EC_FE_ACCEL_MULK p384_mulk_adx
#endif

#include "ec_impl.h"
