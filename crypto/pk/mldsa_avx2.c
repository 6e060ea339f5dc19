/*
 * ML-DSA's polynomial arithmetic for x86-64 with AVX2 (see
 * mldsa_internal.h): the NTT, the inverse NTT and the pointwise products
 * over eight 32-bit lanes. Same representation, same Montgomery factor
 * (R = 2^32), same lazy bounds as the portable code in mldsa.c, and
 * canonical results: outputs are bit-identical to the portable ones.
 *
 * Montgomery products: _mm256_mul_epu32 multiplies the even 32-bit lanes
 * into 64-bit products; the odd lanes go through a second set after a
 * 32-bit shift, and a blend puts the high halves back together.
 *
 * The layers with len >= 8 work on eight consecutive coefficients at a
 * time. The last three (len 4, 2, 1) work inside blocks of eight: eight
 * blocks are loaded into eight registers and transposed, so that register
 * i holds coefficient i of each block and every butterfly is again a
 * lane-wise operation, with a different twiddle per lane (per block);
 * those twiddles are the tables below, in that order. The inverse NTT
 * starts with these three layers.
 *
 * ExpandA runs four SHAKE128 streams through vouch_keccak4x_permute()
 * (crypto/hash/keccak_avx2.c) and samples each eight candidates at a
 * time: the same streams, the same coefficients as the portable code.
 *
 * Chosen at run time when CPUID and XGETBV report AVX2.
 * Everything here handles public values.
 */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "keccak.h"
#include "mldsa_internal.h"

#define TARGET __attribute__((target("avx2")))

#define N 256
#define Q 8380417u
#define QINV_NEG 4236238847u
#define INVNTT_F 41978u

/* Made by crypto/pk/gen-mldsa-avx2-tables.py (the recipe is there): for
 * each group g of eight blocks, the len-4 twiddles, the len-2 ones (first
 * and second half of a block) and the len-1 ones (pairs 0..3), lane k for
 * block 8 g + k; the inverse's are negated, in the inverse's order. Then
 * rej_idx[mask]: the lanes set in mask, in order. The unit test checks
 * everything here against the portable code. */
static const uint32_t zetas_fwd[4][56] = {
	{
		2706023, 95776, 3077325, 3530437, 6718724, 4788269, 5842901, 3915439,
		4450022, 4702672, 6927966, 2176455, 7122806, 4296819, 5190273, 4747489,
		6851714, 5339162, 3475950, 6795196, 1939314, 7380215, 5223087, 126922,
		2091667, 5037939, 266997, 4860065, 900702, 495491, 7725090, 4823422,
		3407706, 2244091, 2434439, 4621053, 1859098, 6767243, 5257975, 7855319,
		2316500, 5933984, 7144689, 7183191, 909542, 8337157, 2031748, 7611795,
		3817976, 4817955, 3513181, 5187039, 819034, 7857917, 3207046, 4784579,
	},
	{
		4519302, 5336701, 3574422, 5512770, 3539968, 8079950, 2348700, 7841118,
		3412210, 2147896, 5412772, 7969390, 7709315, 8357436, 7998430, 1852771,
		7396998, 2715295, 4686924, 5903370, 7151892, 7072248, 1349076, 6949987,
		342297, 3437287, 2842341, 4055324, 4613401, 5386378, 7047359, 7929317,
		286988, 5038140, 2691481, 1247620, 1250494, 1869119, 1237275, 1312455,
		5942594, 1735879, 5790267, 2486353, 2635921, 1903435, 5062207, 3306115,
		4108315, 203044, 1265009, 1595974, 4832145, 7329447, 6950192, 6417775,
	},
	{
		6681150, 6736599, 3505694, 4558682, 3507263, 6239768, 6779997, 3699596,
		5037034, 508951, 44288, 904516, 4656075, 1653064, 2389356, 759969,
		264944, 3097992, 7280319, 3958618, 8371839, 5130689, 8169440, 7063561,
		7100756, 1500165, 7838005, 5796124, 6366809, 1957272, 5196991, 810149,
		1917081, 777191, 5548557, 4656147, 2432395, 3369112, 162844, 1652634,
		5834105, 2235880, 6709241, 594136, 2454455, 185531, 1616392, 4686184,
		7005614, 3406031, 6533464, 4603424, 8215696, 7173032, 3014001, 6581310,
	},
	{
		811944, 531354, 954230, 3881043, 3900724, 5823537, 2071892, 5582638,
		189548, 3159746, 5971092, 1315589, 1285669, 7567685, 5361315, 4751448,
		4827145, 6529015, 8202977, 1341330, 6795489, 6940675, 4499357, 3839961,
		5341501, 2213111, 7953734, 6712985, 5441381, 183443, 7826001, 3937738,
		3523897, 7404533, 1723600, 7276084, 6144432, 7403526, 3919660, 1400424,
		3866901, 1717735, 6577327, 8119771, 7959518, 1612842, 8332111, 7534263,
		269760, 472078, 1910376, 4546524, 6094090, 4834730, 7018208, 1976782,
	},
};
static const uint32_t zetas_inv[4][56] = {
	{
		6403635, 1362209, 3545687, 2286327, 3833893, 6470041, 7908339, 8110657,
		846154, 48306, 6767575, 420899, 260646, 1803090, 6662682, 4513516,
		6979993, 4460757, 976891, 2235985, 1104333, 6656817, 975884, 4856520,
		4442679, 554416, 8196974, 2939036, 1667432, 426683, 6167306, 3038916,
		4540456, 3881060, 1439742, 1584928, 7039087, 177440, 1851402, 3553272,
		3628969, 3019102, 812732, 7094748, 7064828, 2409325, 5220671, 8190869,
		2797779, 6308525, 2556880, 4479693, 4499374, 7426187, 7849063, 7568473,
	},
	{
		1799107, 5366416, 1207385, 164721, 3776993, 1846953, 4974386, 1374803,
		3694233, 6764025, 8194886, 5925962, 7786281, 1671176, 6144537, 2546312,
		6727783, 8217573, 5011305, 5948022, 3724270, 2831860, 7603226, 6463336,
		7570268, 3183426, 6423145, 2013608, 2584293, 542412, 6880252, 1279661,
		1316856, 210977, 3249728, 8578, 4421799, 1100098, 5282425, 8115473,
		7620448, 5991061, 6727353, 3724342, 7475901, 8336129, 7871466, 3343383,
		4680821, 1600420, 2140649, 4873154, 3821735, 4874723, 1643818, 1699267,
	},
	{
		1962642, 1430225, 1050970, 3548272, 6784443, 7115408, 8177373, 4272102,
		5074302, 3318210, 6476982, 5744496, 5894064, 2590150, 6644538, 2437823,
		7067962, 7143142, 6511298, 7129923, 7132797, 5688936, 3342277, 8093429,
		451100, 1333058, 2994039, 3767016, 4325093, 5538076, 4943130, 8038120,
		1430430, 7031341, 1308169, 1228525, 2477047, 3693493, 5665122, 983419,
		6527646, 381987, 22981, 671102, 411027, 2967645, 6232521, 4968207,
		539299, 6031717, 300467, 4840449, 2867647, 4805995, 3043716, 3861115,
	},
	{
		3595838, 5173371, 522500, 7561383, 3193378, 4867236, 3562462, 4562441,
		768622, 6348669, 43260, 7470875, 1197226, 1235728, 2446433, 6063917,
		525098, 3122442, 1613174, 6521319, 3759364, 5945978, 6136326, 4972711,
		3556995, 655327, 7884926, 7479715, 3520352, 8113420, 3342478, 6288750,
		8253495, 3157330, 1000202, 6441103, 1585221, 4904467, 3041255, 1528703,
		3632928, 3190144, 4083598, 1257611, 6203962, 1452451, 3677745, 3930395,
		4464978, 2537516, 3592148, 1661693, 4849980, 5303092, 8284641, 5674394,
	},
};
static const uint8_t rej_idx[256][8] = {
	{ 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 1, 0, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 0, 0, 0, 0, 0, 0 },
	{ 2, 0, 0, 0, 0, 0, 0, 0 },
	{ 0, 2, 0, 0, 0, 0, 0, 0 },
	{ 1, 2, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 2, 0, 0, 0, 0, 0 },
	{ 3, 0, 0, 0, 0, 0, 0, 0 },
	{ 0, 3, 0, 0, 0, 0, 0, 0 },
	{ 1, 3, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 3, 0, 0, 0, 0, 0 },
	{ 2, 3, 0, 0, 0, 0, 0, 0 },
	{ 0, 2, 3, 0, 0, 0, 0, 0 },
	{ 1, 2, 3, 0, 0, 0, 0, 0 },
	{ 0, 1, 2, 3, 0, 0, 0, 0 },
	{ 4, 0, 0, 0, 0, 0, 0, 0 },
	{ 0, 4, 0, 0, 0, 0, 0, 0 },
	{ 1, 4, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 4, 0, 0, 0, 0, 0 },
	{ 2, 4, 0, 0, 0, 0, 0, 0 },
	{ 0, 2, 4, 0, 0, 0, 0, 0 },
	{ 1, 2, 4, 0, 0, 0, 0, 0 },
	{ 0, 1, 2, 4, 0, 0, 0, 0 },
	{ 3, 4, 0, 0, 0, 0, 0, 0 },
	{ 0, 3, 4, 0, 0, 0, 0, 0 },
	{ 1, 3, 4, 0, 0, 0, 0, 0 },
	{ 0, 1, 3, 4, 0, 0, 0, 0 },
	{ 2, 3, 4, 0, 0, 0, 0, 0 },
	{ 0, 2, 3, 4, 0, 0, 0, 0 },
	{ 1, 2, 3, 4, 0, 0, 0, 0 },
	{ 0, 1, 2, 3, 4, 0, 0, 0 },
	{ 5, 0, 0, 0, 0, 0, 0, 0 },
	{ 0, 5, 0, 0, 0, 0, 0, 0 },
	{ 1, 5, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 5, 0, 0, 0, 0, 0 },
	{ 2, 5, 0, 0, 0, 0, 0, 0 },
	{ 0, 2, 5, 0, 0, 0, 0, 0 },
	{ 1, 2, 5, 0, 0, 0, 0, 0 },
	{ 0, 1, 2, 5, 0, 0, 0, 0 },
	{ 3, 5, 0, 0, 0, 0, 0, 0 },
	{ 0, 3, 5, 0, 0, 0, 0, 0 },
	{ 1, 3, 5, 0, 0, 0, 0, 0 },
	{ 0, 1, 3, 5, 0, 0, 0, 0 },
	{ 2, 3, 5, 0, 0, 0, 0, 0 },
	{ 0, 2, 3, 5, 0, 0, 0, 0 },
	{ 1, 2, 3, 5, 0, 0, 0, 0 },
	{ 0, 1, 2, 3, 5, 0, 0, 0 },
	{ 4, 5, 0, 0, 0, 0, 0, 0 },
	{ 0, 4, 5, 0, 0, 0, 0, 0 },
	{ 1, 4, 5, 0, 0, 0, 0, 0 },
	{ 0, 1, 4, 5, 0, 0, 0, 0 },
	{ 2, 4, 5, 0, 0, 0, 0, 0 },
	{ 0, 2, 4, 5, 0, 0, 0, 0 },
	{ 1, 2, 4, 5, 0, 0, 0, 0 },
	{ 0, 1, 2, 4, 5, 0, 0, 0 },
	{ 3, 4, 5, 0, 0, 0, 0, 0 },
	{ 0, 3, 4, 5, 0, 0, 0, 0 },
	{ 1, 3, 4, 5, 0, 0, 0, 0 },
	{ 0, 1, 3, 4, 5, 0, 0, 0 },
	{ 2, 3, 4, 5, 0, 0, 0, 0 },
	{ 0, 2, 3, 4, 5, 0, 0, 0 },
	{ 1, 2, 3, 4, 5, 0, 0, 0 },
	{ 0, 1, 2, 3, 4, 5, 0, 0 },
	{ 6, 0, 0, 0, 0, 0, 0, 0 },
	{ 0, 6, 0, 0, 0, 0, 0, 0 },
	{ 1, 6, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 6, 0, 0, 0, 0, 0 },
	{ 2, 6, 0, 0, 0, 0, 0, 0 },
	{ 0, 2, 6, 0, 0, 0, 0, 0 },
	{ 1, 2, 6, 0, 0, 0, 0, 0 },
	{ 0, 1, 2, 6, 0, 0, 0, 0 },
	{ 3, 6, 0, 0, 0, 0, 0, 0 },
	{ 0, 3, 6, 0, 0, 0, 0, 0 },
	{ 1, 3, 6, 0, 0, 0, 0, 0 },
	{ 0, 1, 3, 6, 0, 0, 0, 0 },
	{ 2, 3, 6, 0, 0, 0, 0, 0 },
	{ 0, 2, 3, 6, 0, 0, 0, 0 },
	{ 1, 2, 3, 6, 0, 0, 0, 0 },
	{ 0, 1, 2, 3, 6, 0, 0, 0 },
	{ 4, 6, 0, 0, 0, 0, 0, 0 },
	{ 0, 4, 6, 0, 0, 0, 0, 0 },
	{ 1, 4, 6, 0, 0, 0, 0, 0 },
	{ 0, 1, 4, 6, 0, 0, 0, 0 },
	{ 2, 4, 6, 0, 0, 0, 0, 0 },
	{ 0, 2, 4, 6, 0, 0, 0, 0 },
	{ 1, 2, 4, 6, 0, 0, 0, 0 },
	{ 0, 1, 2, 4, 6, 0, 0, 0 },
	{ 3, 4, 6, 0, 0, 0, 0, 0 },
	{ 0, 3, 4, 6, 0, 0, 0, 0 },
	{ 1, 3, 4, 6, 0, 0, 0, 0 },
	{ 0, 1, 3, 4, 6, 0, 0, 0 },
	{ 2, 3, 4, 6, 0, 0, 0, 0 },
	{ 0, 2, 3, 4, 6, 0, 0, 0 },
	{ 1, 2, 3, 4, 6, 0, 0, 0 },
	{ 0, 1, 2, 3, 4, 6, 0, 0 },
	{ 5, 6, 0, 0, 0, 0, 0, 0 },
	{ 0, 5, 6, 0, 0, 0, 0, 0 },
	{ 1, 5, 6, 0, 0, 0, 0, 0 },
	{ 0, 1, 5, 6, 0, 0, 0, 0 },
	{ 2, 5, 6, 0, 0, 0, 0, 0 },
	{ 0, 2, 5, 6, 0, 0, 0, 0 },
	{ 1, 2, 5, 6, 0, 0, 0, 0 },
	{ 0, 1, 2, 5, 6, 0, 0, 0 },
	{ 3, 5, 6, 0, 0, 0, 0, 0 },
	{ 0, 3, 5, 6, 0, 0, 0, 0 },
	{ 1, 3, 5, 6, 0, 0, 0, 0 },
	{ 0, 1, 3, 5, 6, 0, 0, 0 },
	{ 2, 3, 5, 6, 0, 0, 0, 0 },
	{ 0, 2, 3, 5, 6, 0, 0, 0 },
	{ 1, 2, 3, 5, 6, 0, 0, 0 },
	{ 0, 1, 2, 3, 5, 6, 0, 0 },
	{ 4, 5, 6, 0, 0, 0, 0, 0 },
	{ 0, 4, 5, 6, 0, 0, 0, 0 },
	{ 1, 4, 5, 6, 0, 0, 0, 0 },
	{ 0, 1, 4, 5, 6, 0, 0, 0 },
	{ 2, 4, 5, 6, 0, 0, 0, 0 },
	{ 0, 2, 4, 5, 6, 0, 0, 0 },
	{ 1, 2, 4, 5, 6, 0, 0, 0 },
	{ 0, 1, 2, 4, 5, 6, 0, 0 },
	{ 3, 4, 5, 6, 0, 0, 0, 0 },
	{ 0, 3, 4, 5, 6, 0, 0, 0 },
	{ 1, 3, 4, 5, 6, 0, 0, 0 },
	{ 0, 1, 3, 4, 5, 6, 0, 0 },
	{ 2, 3, 4, 5, 6, 0, 0, 0 },
	{ 0, 2, 3, 4, 5, 6, 0, 0 },
	{ 1, 2, 3, 4, 5, 6, 0, 0 },
	{ 0, 1, 2, 3, 4, 5, 6, 0 },
	{ 7, 0, 0, 0, 0, 0, 0, 0 },
	{ 0, 7, 0, 0, 0, 0, 0, 0 },
	{ 1, 7, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 7, 0, 0, 0, 0, 0 },
	{ 2, 7, 0, 0, 0, 0, 0, 0 },
	{ 0, 2, 7, 0, 0, 0, 0, 0 },
	{ 1, 2, 7, 0, 0, 0, 0, 0 },
	{ 0, 1, 2, 7, 0, 0, 0, 0 },
	{ 3, 7, 0, 0, 0, 0, 0, 0 },
	{ 0, 3, 7, 0, 0, 0, 0, 0 },
	{ 1, 3, 7, 0, 0, 0, 0, 0 },
	{ 0, 1, 3, 7, 0, 0, 0, 0 },
	{ 2, 3, 7, 0, 0, 0, 0, 0 },
	{ 0, 2, 3, 7, 0, 0, 0, 0 },
	{ 1, 2, 3, 7, 0, 0, 0, 0 },
	{ 0, 1, 2, 3, 7, 0, 0, 0 },
	{ 4, 7, 0, 0, 0, 0, 0, 0 },
	{ 0, 4, 7, 0, 0, 0, 0, 0 },
	{ 1, 4, 7, 0, 0, 0, 0, 0 },
	{ 0, 1, 4, 7, 0, 0, 0, 0 },
	{ 2, 4, 7, 0, 0, 0, 0, 0 },
	{ 0, 2, 4, 7, 0, 0, 0, 0 },
	{ 1, 2, 4, 7, 0, 0, 0, 0 },
	{ 0, 1, 2, 4, 7, 0, 0, 0 },
	{ 3, 4, 7, 0, 0, 0, 0, 0 },
	{ 0, 3, 4, 7, 0, 0, 0, 0 },
	{ 1, 3, 4, 7, 0, 0, 0, 0 },
	{ 0, 1, 3, 4, 7, 0, 0, 0 },
	{ 2, 3, 4, 7, 0, 0, 0, 0 },
	{ 0, 2, 3, 4, 7, 0, 0, 0 },
	{ 1, 2, 3, 4, 7, 0, 0, 0 },
	{ 0, 1, 2, 3, 4, 7, 0, 0 },
	{ 5, 7, 0, 0, 0, 0, 0, 0 },
	{ 0, 5, 7, 0, 0, 0, 0, 0 },
	{ 1, 5, 7, 0, 0, 0, 0, 0 },
	{ 0, 1, 5, 7, 0, 0, 0, 0 },
	{ 2, 5, 7, 0, 0, 0, 0, 0 },
	{ 0, 2, 5, 7, 0, 0, 0, 0 },
	{ 1, 2, 5, 7, 0, 0, 0, 0 },
	{ 0, 1, 2, 5, 7, 0, 0, 0 },
	{ 3, 5, 7, 0, 0, 0, 0, 0 },
	{ 0, 3, 5, 7, 0, 0, 0, 0 },
	{ 1, 3, 5, 7, 0, 0, 0, 0 },
	{ 0, 1, 3, 5, 7, 0, 0, 0 },
	{ 2, 3, 5, 7, 0, 0, 0, 0 },
	{ 0, 2, 3, 5, 7, 0, 0, 0 },
	{ 1, 2, 3, 5, 7, 0, 0, 0 },
	{ 0, 1, 2, 3, 5, 7, 0, 0 },
	{ 4, 5, 7, 0, 0, 0, 0, 0 },
	{ 0, 4, 5, 7, 0, 0, 0, 0 },
	{ 1, 4, 5, 7, 0, 0, 0, 0 },
	{ 0, 1, 4, 5, 7, 0, 0, 0 },
	{ 2, 4, 5, 7, 0, 0, 0, 0 },
	{ 0, 2, 4, 5, 7, 0, 0, 0 },
	{ 1, 2, 4, 5, 7, 0, 0, 0 },
	{ 0, 1, 2, 4, 5, 7, 0, 0 },
	{ 3, 4, 5, 7, 0, 0, 0, 0 },
	{ 0, 3, 4, 5, 7, 0, 0, 0 },
	{ 1, 3, 4, 5, 7, 0, 0, 0 },
	{ 0, 1, 3, 4, 5, 7, 0, 0 },
	{ 2, 3, 4, 5, 7, 0, 0, 0 },
	{ 0, 2, 3, 4, 5, 7, 0, 0 },
	{ 1, 2, 3, 4, 5, 7, 0, 0 },
	{ 0, 1, 2, 3, 4, 5, 7, 0 },
	{ 6, 7, 0, 0, 0, 0, 0, 0 },
	{ 0, 6, 7, 0, 0, 0, 0, 0 },
	{ 1, 6, 7, 0, 0, 0, 0, 0 },
	{ 0, 1, 6, 7, 0, 0, 0, 0 },
	{ 2, 6, 7, 0, 0, 0, 0, 0 },
	{ 0, 2, 6, 7, 0, 0, 0, 0 },
	{ 1, 2, 6, 7, 0, 0, 0, 0 },
	{ 0, 1, 2, 6, 7, 0, 0, 0 },
	{ 3, 6, 7, 0, 0, 0, 0, 0 },
	{ 0, 3, 6, 7, 0, 0, 0, 0 },
	{ 1, 3, 6, 7, 0, 0, 0, 0 },
	{ 0, 1, 3, 6, 7, 0, 0, 0 },
	{ 2, 3, 6, 7, 0, 0, 0, 0 },
	{ 0, 2, 3, 6, 7, 0, 0, 0 },
	{ 1, 2, 3, 6, 7, 0, 0, 0 },
	{ 0, 1, 2, 3, 6, 7, 0, 0 },
	{ 4, 6, 7, 0, 0, 0, 0, 0 },
	{ 0, 4, 6, 7, 0, 0, 0, 0 },
	{ 1, 4, 6, 7, 0, 0, 0, 0 },
	{ 0, 1, 4, 6, 7, 0, 0, 0 },
	{ 2, 4, 6, 7, 0, 0, 0, 0 },
	{ 0, 2, 4, 6, 7, 0, 0, 0 },
	{ 1, 2, 4, 6, 7, 0, 0, 0 },
	{ 0, 1, 2, 4, 6, 7, 0, 0 },
	{ 3, 4, 6, 7, 0, 0, 0, 0 },
	{ 0, 3, 4, 6, 7, 0, 0, 0 },
	{ 1, 3, 4, 6, 7, 0, 0, 0 },
	{ 0, 1, 3, 4, 6, 7, 0, 0 },
	{ 2, 3, 4, 6, 7, 0, 0, 0 },
	{ 0, 2, 3, 4, 6, 7, 0, 0 },
	{ 1, 2, 3, 4, 6, 7, 0, 0 },
	{ 0, 1, 2, 3, 4, 6, 7, 0 },
	{ 5, 6, 7, 0, 0, 0, 0, 0 },
	{ 0, 5, 6, 7, 0, 0, 0, 0 },
	{ 1, 5, 6, 7, 0, 0, 0, 0 },
	{ 0, 1, 5, 6, 7, 0, 0, 0 },
	{ 2, 5, 6, 7, 0, 0, 0, 0 },
	{ 0, 2, 5, 6, 7, 0, 0, 0 },
	{ 1, 2, 5, 6, 7, 0, 0, 0 },
	{ 0, 1, 2, 5, 6, 7, 0, 0 },
	{ 3, 5, 6, 7, 0, 0, 0, 0 },
	{ 0, 3, 5, 6, 7, 0, 0, 0 },
	{ 1, 3, 5, 6, 7, 0, 0, 0 },
	{ 0, 1, 3, 5, 6, 7, 0, 0 },
	{ 2, 3, 5, 6, 7, 0, 0, 0 },
	{ 0, 2, 3, 5, 6, 7, 0, 0 },
	{ 1, 2, 3, 5, 6, 7, 0, 0 },
	{ 0, 1, 2, 3, 5, 6, 7, 0 },
	{ 4, 5, 6, 7, 0, 0, 0, 0 },
	{ 0, 4, 5, 6, 7, 0, 0, 0 },
	{ 1, 4, 5, 6, 7, 0, 0, 0 },
	{ 0, 1, 4, 5, 6, 7, 0, 0 },
	{ 2, 4, 5, 6, 7, 0, 0, 0 },
	{ 0, 2, 4, 5, 6, 7, 0, 0 },
	{ 1, 2, 4, 5, 6, 7, 0, 0 },
	{ 0, 1, 2, 4, 5, 6, 7, 0 },
	{ 3, 4, 5, 6, 7, 0, 0, 0 },
	{ 0, 3, 4, 5, 6, 7, 0, 0 },
	{ 1, 3, 4, 5, 6, 7, 0, 0 },
	{ 0, 1, 3, 4, 5, 6, 7, 0 },
	{ 2, 3, 4, 5, 6, 7, 0, 0 },
	{ 0, 2, 3, 4, 5, 6, 7, 0 },
	{ 1, 2, 3, 4, 5, 6, 7, 0 },
	{ 0, 1, 2, 3, 4, 5, 6, 7 },
};

/* a b R^-1 mod q, lazily (below 2q) for a < q, per lane; @a_odd is @a
 * shifted right by 32 bits (hoisted by the callers when @a is fixed). */
TARGET static inline __m256i mont_lazy(__m256i a, __m256i a_odd, __m256i b)
{
	const __m256i qinv = _mm256_set1_epi32((int)QINV_NEG), q = _mm256_set1_epi32((int)Q);
	__m256i te = _mm256_mul_epu32(a, b);
	__m256i to = _mm256_mul_epu32(a_odd, _mm256_srli_epi64(b, 32));
	__m256i me = _mm256_mul_epu32(te, qinv), mo = _mm256_mul_epu32(to, qinv);

	/* t + m q < 2^32 q + 2^32 q: no 64-bit overflow; the low halves are 0. */
	te = _mm256_add_epi64(te, _mm256_mul_epu32(me, q));
	to = _mm256_add_epi64(to, _mm256_mul_epu32(mo, q));
	return _mm256_blend_epi32(_mm256_srli_epi64(te, 32), to, 0xaa);
}

/* x - k q if x >= k q (unsigned, per lane): the wrapped difference is larger. */
TARGET static inline __m256i sub_if_ge(__m256i x, uint32_t kq)
{
	return _mm256_min_epu32(x, _mm256_sub_epi32(x, _mm256_set1_epi32((int)kq)));
}

TARGET static inline __m256i load(const uint32_t *p)
{
	return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

TARGET static inline void store(uint32_t *p, __m256i v)
{
	_mm256_storeu_si256((__m256i *)(void *)p, v);
}

/* Rows r[0..7] to columns, in place (the 8 x 8 transpose is an involution). */
TARGET static inline void transpose8(__m256i r[8])
{
	__m256i t[8], u[8];

	for (int i = 0; i < 8; i += 2) {
		t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
		t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
	}
	for (int i = 0; i < 8; i += 4) {
		u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
		u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
		u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
		u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
	}
	for (int i = 0; i < 4; i++) {
		r[i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
		r[i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
	}
}

/* The forward butterfly of mldsa.c: t = z b R^-1 (below 2q), a + t, a + 2q - t. */
TARGET static inline void fwd_bf(__m256i *a, __m256i *b, __m256i z, __m256i zo)
{
	const __m256i q2 = _mm256_set1_epi32((int)(2 * Q));
	__m256i t = mont_lazy(z, zo, *b);

	*b = _mm256_sub_epi32(_mm256_add_epi32(*a, q2), t);
	*a = _mm256_add_epi32(*a, t);
}

/* The inverse butterfly of mldsa.c: a + b below 2q, z (a + 2q - b) R^-1. */
TARGET static inline void inv_bf(__m256i *a, __m256i *b, __m256i z, __m256i zo)
{
	const __m256i q2 = _mm256_set1_epi32((int)(2 * Q));
	__m256i s = _mm256_add_epi32(*a, *b);
	__m256i d = _mm256_sub_epi32(_mm256_add_epi32(*a, q2), *b);

	*a = sub_if_ge(s, 2 * Q);
	*b = mont_lazy(z, zo, d);
}

/* see mldsa_internal.h; the bounds are mldsa.c's (below 17 q before the end). */
TARGET static void ntt_avx2(uint32_t w[N])
{
	unsigned m = 0;

	for (unsigned len = 128; len >= 8; len >>= 1) {
		for (unsigned start = 0; start < N; start += 2 * len) {
			__m256i z = _mm256_set1_epi32((int)vouch_mldsa_zetas[++m]);

			for (unsigned j = start; j < start + len; j += 8) {
				__m256i a = load(w + j), b = load(w + j + len);

				fwd_bf(&a, &b, z, z);
				store(w + j, a);
				store(w + j + len, b);
			}
		}
	}
	for (unsigned g = 0; g < 4; g++) {
		const uint32_t *zt = zetas_fwd[g];
		uint32_t *p = w + 64 * g;
		__m256i r[8], z, zo;

		for (int i = 0; i < 8; i++)
			r[i] = load(p + 8 * i);
		transpose8(r);
		z = load(zt);                                   /* len 4 */
		zo = _mm256_srli_epi64(z, 32);
		for (int i = 0; i < 4; i++)
			fwd_bf(&r[i], &r[i + 4], z, zo);
		for (int h = 0; h < 2; h++) {                   /* len 2 */
			z = load(zt + 8 + 8 * h);
			zo = _mm256_srli_epi64(z, 32);
			fwd_bf(&r[4 * h], &r[4 * h + 2], z, zo);
			fwd_bf(&r[4 * h + 1], &r[4 * h + 3], z, zo);
		}
		for (int k = 0; k < 4; k++) {                   /* len 1 */
			z = load(zt + 24 + 8 * k);
			zo = _mm256_srli_epi64(z, 32);
			fwd_bf(&r[2 * k], &r[2 * k + 1], z, zo);
		}
		for (int i = 0; i < 8; i++) {                   /* < 17 q to [0, q) */
			r[i] = sub_if_ge(r[i], 16 * Q);
			r[i] = sub_if_ge(r[i], 8 * Q);
			r[i] = sub_if_ge(r[i], 4 * Q);
			r[i] = sub_if_ge(r[i], 2 * Q);
			r[i] = sub_if_ge(r[i], Q);
		}
		transpose8(r);
		for (int i = 0; i < 8; i++)
			store(p + 8 * i, r[i]);
	}
}

/* see mldsa_internal.h; values stay below 2q as in mldsa.c. */
TARGET static void invntt_avx2(uint32_t w[N])
{
	const __m256i f = _mm256_set1_epi32((int)INVNTT_F);
	unsigned m = N / 8;

	for (unsigned g = 0; g < 4; g++) {
		const uint32_t *zt = zetas_inv[g];
		uint32_t *p = w + 64 * g;
		__m256i r[8], z, zo;

		for (int i = 0; i < 8; i++)
			r[i] = load(p + 8 * i);
		transpose8(r);
		for (int k = 0; k < 4; k++) {                   /* len 1 */
			z = load(zt + 8 * k);
			zo = _mm256_srli_epi64(z, 32);
			inv_bf(&r[2 * k], &r[2 * k + 1], z, zo);
		}
		for (int h = 0; h < 2; h++) {                   /* len 2 */
			z = load(zt + 32 + 8 * h);
			zo = _mm256_srli_epi64(z, 32);
			inv_bf(&r[4 * h], &r[4 * h + 2], z, zo);
			inv_bf(&r[4 * h + 1], &r[4 * h + 3], z, zo);
		}
		z = load(zt + 48);                              /* len 4 */
		zo = _mm256_srli_epi64(z, 32);
		for (int i = 0; i < 4; i++)
			inv_bf(&r[i], &r[i + 4], z, zo);
		transpose8(r);
		for (int i = 0; i < 8; i++)
			store(p + 8 * i, r[i]);
	}
	/* Layers len = 8 .. 128: the twiddle of block u is -zeta^brv(N / len - 1 - u). */
	for (unsigned len = 8; len < N; len <<= 1) {
		for (unsigned start = 0; start < N; start += 2 * len) {
			__m256i z = _mm256_set1_epi32((int)(Q - vouch_mldsa_zetas[--m]));

			for (unsigned j = start; j < start + len; j += 8) {
				__m256i a = load(w + j), b = load(w + j + len);

				inv_bf(&a, &b, z, z);
				store(w + j, a);
				store(w + j + len, b);
			}
		}
	}
	for (unsigned j = 0; j < N; j += 8)
		store(w + j, sub_if_ge(mont_lazy(f, f, load(w + j)), Q));
}

/* see mldsa_internal.h */
TARGET static void pointwise_acc_avx2(uint32_t acc[N], const uint32_t a[N], const uint32_t b[N])
{
	for (unsigned j = 0; j < N; j += 8) {
		__m256i x = load(a + j);
		__m256i p = sub_if_ge(mont_lazy(x, _mm256_srli_epi64(x, 32), load(b + j)), Q);

		store(acc + j, sub_if_ge(_mm256_add_epi32(load(acc + j), p), Q));
	}
}

/* see mldsa_internal.h */
TARGET static void pointwise_sub_avx2(uint32_t acc[N], const uint32_t a[N], const uint32_t b[N])
{
	const __m256i q = _mm256_set1_epi32((int)Q);

	for (unsigned j = 0; j < N; j += 8) {
		__m256i x = load(a + j);
		__m256i p = sub_if_ge(mont_lazy(x, _mm256_srli_epi64(x, 32), load(b + j)), Q);

		p = _mm256_sub_epi32(_mm256_add_epi32(load(acc + j), q), p);
		store(acc + j, sub_if_ge(p, Q));
	}
}

/*
 * see mldsa_internal.h: vouch_mldsa_rej_uniform() eight candidates at a
 * time. 24 bytes make eight 3-byte candidates: a dword permutation puts
 * bytes 0-11 in the low 128-bit half and 12-23 in the high one, a byte
 * shuffle spreads each candidate over a 32-bit lane, the mask drops the
 * top bit. The lanes below q are moved to the front (rej_idx) and stored
 * as a whole vector; the count of accepted ones advances j. Whole
 * vectors are read only while 32 bytes remain and stored only while 8
 * slots remain; the portable loop does the rest. POPCNT: every AVX2 CPU
 * has it.
 */
__attribute__((target("avx2,popcnt")))
unsigned vouch_mldsa_rej_uniform_avx2(uint32_t a[N], unsigned j, const uint8_t *buf, size_t len)
{
	const __m256i perm = _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6);
	const __m256i shuf = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
					      0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
	const __m256i mask = _mm256_set1_epi32(0x7fffff), q = _mm256_set1_epi32((int)Q);
	size_t pos = 0;

	while (j + 8 <= N && pos + 32 <= len) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(buf + pos));
		unsigned m;
		uint64_t idx;

		v = _mm256_permutevar8x32_epi32(v, perm);
		v = _mm256_and_si256(_mm256_shuffle_epi8(v, shuf), mask);
		m = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, v)));
		memcpy(&idx, rej_idx[m], 8);
		v = _mm256_permutevar8x32_epi32(v, _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)idx)));
		store(a + j, v);
		j += (unsigned)__builtin_popcount(m);
		pos += 24;
	}
	return vouch_mldsa_rej_uniform(a, j, buf + pos, len - pos);
}

/*
 * see mldsa_internal.h: four SHAKE128(rho || s || r) (FIPS 202 §6.2) side
 * by side. The 34-byte seed fits in the first 168-byte block: lanes 0-3
 * are rho, lane 4 holds s, r and SHAKE's suffix and first pad bit 0x1f,
 * lane 20 the last pad bit 0x80 of byte 167. Five blocks of each are
 * squeezed first (enough almost always), then one more of all four
 * while any entry is short. Unused streams (n < 4) repeat entry 0's
 * seed and are dropped.
 */
TARGET static void expand_a_avx2(uint32_t a[4][N], const uint8_t rho[32], const uint16_t nonce[4],
				 unsigned n)
{
	uint64_t st[100] = { 0 };
	uint8_t buf[4][5 * 168];
	unsigned j[4] = { 0, 0, 0, 0 }, short_any;

	for (unsigned k = 0; k < 4; k++) {
		uint16_t v = nonce[k < n ? k : 0];

		for (unsigned i = 0; i < 4; i++)
			st[4 * i + k] = vouch_keccak_load_le64(rho + 8 * i);
		st[4 * 4 + k] = (uint64_t)v | (uint64_t)0x1f << 16;
		st[4 * 20 + k] = (uint64_t)0x80 << 56;
	}
	for (unsigned b = 0; b < 5; b++) {
		vouch_keccak4x_permute(st);
		for (unsigned k = 0; k < 4; k++)
			for (unsigned i = 0; i < 21; i++)
				memcpy(buf[k] + 168 * b + 8 * i, &st[4 * i + k], 8);
	}
	short_any = 0;
	for (unsigned k = 0; k < n; k++) {
		j[k] = vouch_mldsa_rej_uniform_avx2(a[k], 0, buf[k], sizeof(buf[k]));
		short_any |= j[k] < N;
	}
	while (short_any) {
		vouch_keccak4x_permute(st);
		short_any = 0;
		for (unsigned k = 0; k < n; k++) {
			if (j[k] == N)
				continue;
			for (unsigned i = 0; i < 21; i++)
				memcpy(buf[k] + 8 * i, &st[4 * i + k], 8);
			j[k] = vouch_mldsa_rej_uniform_avx2(a[k], j[k], buf[k], 168);
			short_any |= j[k] < N;
		}
	}
}

const struct vouch_mldsa_poly_ops vouch_mldsa_avx2 = {
	.name = "avx2",
	.ntt = ntt_avx2,
	.invntt = invntt_avx2,
	.pointwise_acc = pointwise_acc_avx2,
	.pointwise_sub = pointwise_sub_avx2,
	.expand_a = expand_a_avx2,
};
