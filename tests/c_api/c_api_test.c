/* The C ABI, compiled as C99: every entry of minifloat/c_api.h against the
 * C++ function it wraps (reference.h, called by name), on every encoding of
 * every format, the edge set around each encoding (the value, the midpoint
 * to the next one, one float ulp either side) and a random float32/float64
 * sample, for each rounding mode and both overflow modes; MX blocks; every
 * status code; and a few values written down from the specs (OCP OFP8 and
 * MX v1.0, IEEE 754, Random123's Philox known answers), which do not come
 * from the library at all; and the format names of the registry. Exit
 * status 0 when every check holds. */
#include <minifloat/c_api.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "reference.h"

static long checks;
static long failures;

#define CHECK(cond, ...)                 \
  do {                                   \
    ++checks;                            \
    if (!(cond)) {                       \
      if (++failures <= 20) {            \
        fprintf(stderr, "FAIL: ");       \
        fprintf(stderr, __VA_ARGS__);    \
        fprintf(stderr, "\n");           \
      }                                  \
    }                                    \
  } while (0)

struct format_row {
  int id;
  const char* name;
  int bits;
};

static const struct format_row formats[] = {
    {MF_FORMAT_E4M3FN, "e4m3fn", 8},     {MF_FORMAT_E4M3FNUZ, "e4m3fnuz", 8},
    {MF_FORMAT_E5M2, "e5m2", 8},         {MF_FORMAT_E5M2FNUZ, "e5m2fnuz", 8},
    {MF_FORMAT_E2M1FN, "e2m1fn", 4},     {MF_FORMAT_E2M3FN, "e2m3fn", 6},
    {MF_FORMAT_E3M2FN, "e3m2fn", 6},     {MF_FORMAT_E8M0FNU, "e8m0fnu", 8},
    {MF_FORMAT_E4M3, "e4m3", 8},         {MF_FORMAT_E3M4, "e3m4", 8},
    {MF_FORMAT_E4M3B11FNUZ, "e4m3b11fnuz", 8},
    {MF_FORMAT_BINARY16, "binary16", 16}, {MF_FORMAT_BFLOAT16, "bfloat16", 16},
};
#define FORMAT_COUNT ((int)(sizeof formats / sizeof formats[0]))

struct rounding_row {
  int id;
  const char* name;
};

static const struct rounding_row roundings[] = {
    {MF_ROUND_NEAREST_EVEN, "nearest_even"},
    {MF_ROUND_TOWARD_ZERO, "toward_zero"},
    {MF_ROUND_TOWARD_POSITIVE, "toward_positive"},
    {MF_ROUND_TOWARD_NEGATIVE, "toward_negative"},
};

static const int stochastic_widths[] = {32, 12, 3};

/* splitmix64: the test's own random source. */
static unsigned long long rng_state = 0x243F6A8885A308D3ull;
static unsigned long long next_random(void) {
  unsigned long long z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static unsigned long long stream_index;
static const unsigned long long stream_seed = 0x0123456789ABCDEFull;

/* One float32 input, every rounding mode and overflow mode of `f`. */
static void check_f32(const struct format_row* f, unsigned int x) {
  int r, saturate, w;
  for (saturate = 0; saturate <= 1; ++saturate) {
    for (r = 0; r < 4; ++r) {
      unsigned int got = 0xDEADu, want = 0xBEEFu;
      const int status = mf_encode_f32(f->id, x, roundings[r].id, saturate, 0, 0, 0, &got);
      ref_encode_f32(f->name, x, roundings[r].name, saturate, &want);
      CHECK(status == MF_OK && got == want, "encode_f32 %s 0x%08X %s sat=%d: 0x%X (status %d), want 0x%X",
            f->name, x, roundings[r].name, saturate, got, status, want);
    }
    for (w = 0; w < 3; ++w) {
      const int bits = stochastic_widths[w];
      const unsigned long long index = stream_index++;
      unsigned int got = 0xDEADu, want = 0xBEEFu, got_random = 0xDEADu, want_random = 0xBEEFu;
      const unsigned int random = (unsigned int)next_random();
      int status = mf_encode_f32(f->id, x, MF_ROUND_STOCHASTIC, saturate, stream_seed, index,
                                 bits, &got);
      ref_encode_f32_stochastic(f->name, x, saturate, ref_random_bits(stream_seed, index, bits),
                                bits, &want);
      CHECK(status == MF_OK && got == want,
            "encode_f32 %s 0x%08X stochastic/%d sat=%d index %llu: 0x%X (status %d), want 0x%X",
            f->name, x, bits, saturate, index, got, status, want);
      status = mf_encode_f32_random(f->id, x, saturate, random, bits, &got_random);
      ref_encode_f32_stochastic(f->name, x, saturate, random, bits, &want_random);
      CHECK(status == MF_OK && got_random == want_random,
            "encode_f32_random %s 0x%08X random 0x%08X/%d sat=%d: 0x%X, want 0x%X", f->name, x,
            random, bits, saturate, got_random, want_random);
    }
  }
}

static void check_f64(const struct format_row* f, unsigned long long x) {
  int r, saturate;
  for (saturate = 0; saturate <= 1; ++saturate) {
    for (r = 0; r < 4; ++r) {
      unsigned int got = 0xDEADu, want = 0xBEEFu;
      const int status = mf_encode_f64(f->id, x, roundings[r].id, saturate, 0, 0, 0, &got);
      ref_encode_f64(f->name, x, roundings[r].name, saturate, &want);
      CHECK(status == MF_OK && got == want, "encode_f64 %s 0x%016llX %s sat=%d: 0x%X, want 0x%X",
            f->name, x, roundings[r].name, saturate, got, want);
    }
  }
}

/* binary64 bits of the float with bits x (a normal, zero or subnormal
 * float; never called on NaN/Inf). */
static unsigned long long widen(unsigned int x) {
  float f;
  double d;
  unsigned long long bits;
  memcpy(&f, &x, sizeof f);
  d = (double)f;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}

/* Every encoding: decode (both widths) and classify against the C++ value;
 * then the edge set around it: its value, the midpoint to the next larger
 * magnitude (an exact tie), those +-1 float ulp, and the same as doubles
 * +-1 double ulp (the ties a float cannot hold). */
static void check_codes(const struct format_row* f, int with_edges) {
  const unsigned int count = 1u << f->bits;
  const unsigned int sign_bit = 1u << (f->bits - 1);
  unsigned int code;
  for (code = 0; code < count; ++code) {
    unsigned int got32 = 0, want32 = 1;
    unsigned long long got64 = 0, want64 = 1;
    int got_class = -1, got_sign = -1, want_class = -2, want_sign = -2;
    int s1 = mf_decode_f32(f->id, code, &got32);
    int s2 = mf_decode_f64(f->id, code, &got64);
    int s3 = mf_classify(f->id, code, &got_class, &got_sign);
    ref_decode(f->name, code, &want32, &want64);
    ref_classify(f->name, code, &want_class, &want_sign);
    CHECK(s1 == MF_OK && got32 == want32, "decode_f32 %s 0x%X: 0x%08X, want 0x%08X", f->name,
          code, got32, want32);
    CHECK(s2 == MF_OK && got64 == want64, "decode_f64 %s 0x%X: 0x%016llX, want 0x%016llX",
          f->name, code, got64, want64);
    CHECK(s3 == MF_OK && got_class == want_class && got_sign == want_sign,
          "classify %s 0x%X: %d/%d, want %d/%d", f->name, code, got_class, got_sign, want_class,
          want_sign);
  }
  /* The edge set, from the positive finite encodings in increasing order
   * (code c + 1 is the next larger magnitude in every format here). */
  for (code = 0; with_edges && code < count; ++code) {
    unsigned int value = 0, next = 0, points[8];
    unsigned long long unused;
    int cls = 0, sign = 0, next_cls = 0, next_sign = 0, p, n = 0, negate;
    if (f->id != MF_FORMAT_E8M0FNU && code >= sign_bit) break;
    ref_classify(f->name, code, &cls, &sign);
    if (cls >= 3) continue; /* NaN, Inf */
    ref_decode(f->name, code, &value, &unused);
    points[n++] = value;
    if (value != 0) points[n++] = value - 1;
    points[n++] = value + 1;
    if (code + 1 < count) ref_classify(f->name, code + 1, &next_cls, &next_sign);
    if (code + 1 < count && next_cls < 3 && next_sign == 0) {
      unsigned int mid;
      ref_decode(f->name, code + 1, &next, &unused);
      /* Float bits are linear in the value within a binade and up to the
       * next power of two, which bounds the next encoding; from zero the
       * midpoint is half the smallest subnormal. */
      mid = value == 0 ? next - 0x00800000u : value + (next - value) / 2;
      points[n++] = mid;
      points[n++] = mid - 1;
      points[n++] = mid + 1;
    } else if (code > 0) {
      /* max finite: the tie with the next value of an unbounded exponent
       * range, the overflow threshold of round to nearest. */
      unsigned int previous = 0;
      ref_decode(f->name, code - 1, &previous, &unused);
      points[n++] = value + (value - previous) / 2;
      points[n++] = value + (value - previous) / 2 + 1;
      points[n++] = value + (value - previous);
    }
    for (negate = 0; negate <= 1; ++negate) {
      for (p = 0; p < n; ++p) {
        const unsigned int x = points[p] | (negate ? 0x80000000u : 0u);
        const unsigned long long d = widen(x);
        check_f32(f, x);
        check_f64(f, d);
        if ((d & 0x7FFFFFFFFFFFFFFFull) != 0) {
          check_f64(f, d + 1);
          check_f64(f, d - 1);
        }
      }
    }
  }
}

/* Random float32 and float64 inputs: half any bit pattern (NaN, Inf,
 * subnormals included), half with an exponent near the small formats'
 * range, where most of their rounding decisions are. */
static void check_random(const struct format_row* f, int samples) {
  int i;
  for (i = 0; i < samples; ++i) {
    const unsigned long long r = next_random();
    unsigned int x = (unsigned int)r;
    unsigned long long d = next_random();
    if (i % 2) {
      const unsigned int exponent = 127u - 30u + (unsigned int)((r >> 32) % 52u);
      x = (x & 0x807FFFFFu) | (exponent << 23);
      d = (d & 0x800FFFFFFFFFFFFFull) |
          ((unsigned long long)(1023u - 30u + (unsigned int)((r >> 40) % 52u)) << 52);
    }
    check_f32(f, x);
    check_f64(f, d);
  }
}

/* mf_encode_f64 with MF_ROUND_STOCHASTIC, by the rule rather than against the
 * reference: c_api.h gives the random word, mf_stochastic_random_bits(seed,
 * offset, random_bits), and docs/semantics.md section 4 the rounding: for
 * |x| strictly between neighbours a < b, with D the top R bits of
 * (|x| - a) / (b - a) and r the word, the magnitude is b iff D + r >= 2^R.
 * In e4m3fn between 1 (0x38) and 1.125 (0x39), x = 1 + D * 2^(-3-R) has
 * exactly that D; for R = 32 most of these x are not floats, so the double
 * must be rounded once, as the double. D = 2^R - r rounds up, one less
 * rounds down (D = 2^R is 1.125 itself, D = 0 is 1), the sign is kept. */
static void check_f64_stochastic(void) {
  static const unsigned long long seeds[] = {0x0123456789ABCDEFull, 7ull};
  static const int widths[] = {32, 8, 3};
  unsigned int s, w, negate;
  unsigned long long offset;
  for (s = 0; s < sizeof seeds / sizeof seeds[0]; ++s) {
    for (w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
      const int bits = widths[w];
      for (offset = 1; offset < 40; offset += 3) {
        unsigned int r = 0;
        unsigned long long up_d, down_d;
        CHECK(mf_stochastic_random_bits(seeds[s], offset, bits, &r) == MF_OK,
              "stochastic_random_bits status");
        up_d = (1ull << bits) - r;
        down_d = up_d - 1;
        for (negate = 0; negate <= 1; ++negate) {
          const unsigned long long sign = negate ? 0x8000000000000000ull : 0ull;
          const unsigned long long up_x = sign | 0x3FF0000000000000ull | (up_d << (49 - bits));
          const unsigned long long down_x = sign | 0x3FF0000000000000ull | (down_d << (49 - bits));
          const unsigned int sign_bit = negate ? 0x80u : 0u;
          unsigned int up = 0xDEADu, down = 0xDEADu;
          const int up_status = mf_encode_f64(MF_FORMAT_E4M3FN, up_x, MF_ROUND_STOCHASTIC, 0, seeds[s],
                                              offset, bits, &up);
          const int down_status = mf_encode_f64(MF_FORMAT_E4M3FN, down_x, MF_ROUND_STOCHASTIC, 0,
                                                seeds[s], offset, bits, &down);
          CHECK(up_status == MF_OK && up == (0x39u | sign_bit),
                "encode_f64 stochastic seed 0x%llX offset %llu/%d: 0x%016llX (D + r = 2^R) -> 0x%X, "
                "want 0x%X",
                seeds[s], offset, bits, up_x, up, 0x39u | sign_bit);
          CHECK(down_status == MF_OK && down == (0x38u | sign_bit),
                "encode_f64 stochastic seed 0x%llX offset %llu/%d: 0x%016llX (D + r = 2^R - 1) -> 0x%X, "
                "want 0x%X",
                seeds[s], offset, bits, down_x, down, 0x38u | sign_bit);
        }
      }
    }
  }
}

/* Values from the specifications, not from the library. */
static void check_known_values(void) {
  static const struct {
    int format;
    unsigned int f32;
    int rounding;
    int saturate;
    unsigned int code;
  } table[] = {
      {MF_FORMAT_E4M3FN, 0x3F800000u, MF_ROUND_NEAREST_EVEN, 0, 0x38u}, /* 1.0 */
      {MF_FORMAT_E4M3FN, 0x43E00000u, MF_ROUND_NEAREST_EVEN, 0, 0x7Eu}, /* 448 = max */
      {MF_FORMAT_E4M3FN, 0x43E80000u, MF_ROUND_NEAREST_EVEN, 0, 0x7Eu}, /* 464: tie to even */
      {MF_FORMAT_E4M3FN, 0x43F00000u, MF_ROUND_NEAREST_EVEN, 0, 0x7Fu}, /* 480: NaN */
      {MF_FORMAT_E4M3FN, 0x43F00000u, MF_ROUND_NEAREST_EVEN, 1, 0x7Eu}, /* 480 saturated */
      {MF_FORMAT_E4M3FN, 0x3B000000u, MF_ROUND_NEAREST_EVEN, 0, 0x01u}, /* 2^-9 */
      {MF_FORMAT_E4M3FN, 0xBF880000u, MF_ROUND_NEAREST_EVEN, 0, 0xB8u}, /* -1.0625: tie */
      {MF_FORMAT_E4M3FN, 0xBF880000u, MF_ROUND_TOWARD_NEGATIVE, 0, 0xB9u},
      {MF_FORMAT_E5M2, 0x3F800000u, MF_ROUND_NEAREST_EVEN, 0, 0x3Cu},
      {MF_FORMAT_E5M2, 0x47600000u, MF_ROUND_NEAREST_EVEN, 0, 0x7Bu}, /* 57344 = max */
      {MF_FORMAT_E5M2, 0x7F800000u, MF_ROUND_NEAREST_EVEN, 0, 0x7Cu}, /* +Inf */
      {MF_FORMAT_E5M2, 0x47700000u, MF_ROUND_NEAREST_EVEN, 0, 0x7Cu}, /* 61440: Inf */
      {MF_FORMAT_E5M2, 0x47700000u, MF_ROUND_NEAREST_EVEN, 1, 0x7Bu},
      {MF_FORMAT_E4M3FNUZ, 0x3F800000u, MF_ROUND_NEAREST_EVEN, 0, 0x40u},
      {MF_FORMAT_E2M1FN, 0x40C00000u, MF_ROUND_NEAREST_EVEN, 0, 0x7u},   /* 6.0 */
      {MF_FORMAT_E2M1FN, 0xBF400000u, MF_ROUND_NEAREST_EVEN, 0, 0xAu},   /* -0.75 -> -1 */
      {MF_FORMAT_E8M0FNU, 0x3F800000u, MF_ROUND_NEAREST_EVEN, 0, 0x7Fu}, /* 2^0 */
      {MF_FORMAT_BINARY16, 0x477FE000u, MF_ROUND_NEAREST_EVEN, 0, 0x7BFFu}, /* 65504 */
      {MF_FORMAT_BINARY16, 0x3F800000u, MF_ROUND_NEAREST_EVEN, 0, 0x3C00u},
      {MF_FORMAT_BFLOAT16, 0x3F808000u, MF_ROUND_NEAREST_EVEN, 0, 0x3F80u}, /* tie */
      {MF_FORMAT_BFLOAT16, 0x3F818000u, MF_ROUND_NEAREST_EVEN, 0, 0x3F82u}, /* tie up */
  };
  unsigned int i;
  unsigned int bits = 0;
  /* Philox4x32-10, counter 0 and key 0 (Random123 kat_vectors). */
  static const unsigned int philox_zero[4] = {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu,
                                              0x9b00dbd8u};
  for (i = 0; i < sizeof table / sizeof table[0]; ++i) {
    unsigned int code = 0xDEADu;
    const int status =
        mf_encode_f32(table[i].format, table[i].f32, table[i].rounding, table[i].saturate, 0, 0,
                      0, &code);
    CHECK(status == MF_OK && code == table[i].code, "known value %u: format %d 0x%08X -> 0x%X, want 0x%X",
          i, table[i].format, table[i].f32, code, table[i].code);
  }
  CHECK(mf_decode_f32(MF_FORMAT_E4M3FN, 0x7Eu, &bits) == MF_OK && bits == 0x43E00000u,
        "e4m3fn 0x7E decodes to 0x%08X, want 448", bits);
  CHECK(mf_decode_f32(MF_FORMAT_E5M2, 0xFCu, &bits) == MF_OK && bits == 0xFF800000u,
        "e5m2 0xFC decodes to 0x%08X, want -Inf", bits);
  CHECK(mf_decode_f32(MF_FORMAT_E8M0FNU, 0x00u, &bits) == MF_OK && bits == 0x00400000u,
        "e8m0fnu 0x00 decodes to 0x%08X, want 2^-127", bits);
  for (i = 0; i < 4; ++i) {
    unsigned int random = 0;
    CHECK(mf_stochastic_random_bits(0, i, 32, &random) == MF_OK && random == philox_zero[i],
          "Philox word %u: 0x%08X, want 0x%08X", i, random, philox_zero[i]);
  }
  /* With 8 or fewer bits four elements share one word, low byte first. */
  CHECK(mf_stochastic_random_bits(0, 1, 8, &bits) == MF_OK && bits == 0xE8u,
        "8-bit lane 1 of word 0: 0x%X, want 0xE8", bits);
}

/* The MX entries: one block against the C++ quantize/dequantize (codes read
 * from the packed layout by bit position), and the array form against the
 * block form. */
struct mx_row {
  int id;
  const char* name;
  int bits;
};

static const struct mx_row mx_formats[] = {
    {MF_MX_FP8_E4M3, "mxfp8_e4m3", 8}, {MF_MX_FP8_E5M2, "mxfp8_e5m2", 8},
    {MF_MX_FP6_E2M3, "mxfp6_e2m3", 6}, {MF_MX_FP6_E3M2, "mxfp6_e3m2", 6},
    {MF_MX_FP4_E2M1, "mxfp4", 4},      {MF_MX_INT8, "mxint8", 8},
};
static const char* const scale_roundings[] = {"floor", "ceil", "even"};

static unsigned int random_block_value(int kind) {
  const unsigned long long r = next_random();
  unsigned int x = (unsigned int)r;
  switch (kind % 4) {
    case 0: /* within a few binades of 1 */
      return (x & 0x807FFFFFu) | ((120u + (unsigned int)((r >> 32) % 12u)) << 23);
    case 1: /* anywhere, NaN and Inf included */
      return x;
    case 2: /* tiny: float subnormals and the bottom normals */
      return x & 0x80FFFFFFu;
    default: /* zeros mixed in */
      return (r >> 40) % 3u == 0 ? (x & 0x80000000u) : ((x & 0x807FFFFFu) | (100u << 23));
  }
}

static unsigned int packed_code(const unsigned char* packed, int bits, int i) {
  unsigned int code = 0;
  int b;
  for (b = 0; b < bits; ++b) {
    const int bit = i * bits + b;
    code |= (unsigned int)((packed[bit / 8] >> (bit % 8)) & 1u) << b;
  }
  return code;
}

static void check_mx(void) {
  enum { blocks = 3, tail = 7, n = blocks * 32 + tail };
  unsigned int m, s, trial;
  for (m = 0; m < sizeof mx_formats / sizeof mx_formats[0]; ++m) {
    const struct mx_row* f = &mx_formats[m];
    for (s = 0; s < 3; ++s) {
      for (trial = 0; trial < 64; ++trial) {
        unsigned int in[n], deq[32], want_deq[32];
        float in_f[n], out_f[n];
        unsigned char scales[blocks + 1], packed[n], want_scale[blocks + 1];
        unsigned char codes[blocks + 1][32], want_codes[blocks + 1][32];
        int i, j, status;
        for (i = 0; i < n; ++i) in[i] = random_block_value((int)trial + i / 32);
        memcpy(in_f, in, sizeof in_f);
        for (j = 0; j <= blocks; ++j) {
          unsigned int block_in[32];
          memset(block_in, 0, sizeof block_in);
          memcpy(block_in, &in[j * 32], (j < blocks ? 32 : tail) * sizeof in[0]);
          status = mf_mx_quantize_block(f->id, (int)s, block_in, &scales[j], codes[j]);
          ref_mx_quantize_block(f->name, scale_roundings[s], block_in, &want_scale[j],
                                want_codes[j]);
          CHECK(status == MF_OK && scales[j] == want_scale[j] &&
                    memcmp(codes[j], want_codes[j], 32) == 0,
                "mx_quantize_block %s %s trial %u block %d: scale 0x%02X want 0x%02X", f->name,
                scale_roundings[s], trial, j, scales[j], want_scale[j]);
          status = mf_mx_dequantize_block(f->id, scales[j], codes[j], deq);
          ref_mx_dequantize_block(f->name, scales[j], codes[j], want_deq);
          CHECK(status == MF_OK && memcmp(deq, want_deq, sizeof deq) == 0,
                "mx_dequantize_block %s trial %u block %d", f->name, trial, j);
        }
        /* Array form: n values, the last block partial (a block padded with
         * zeros has the same amax, so the same scale and codes). */
        {
          unsigned char array_scales[blocks + 1];
          status = mf_mx_quantize(f->id, (int)s, in_f, n, array_scales, packed);
          CHECK(status == MF_OK && memcmp(array_scales, scales, sizeof array_scales) == 0,
                "mx_quantize %s %s trial %u: scales differ from the block form", f->name,
                scale_roundings[s], trial);
          for (i = 0; i < n; ++i) {
            const unsigned int code = packed_code(packed, f->bits, i);
            CHECK(code == codes[i / 32][i % 32], "mx_quantize %s element %d: 0x%X, want 0x%X",
                  f->name, i, code, codes[i / 32][i % 32]);
          }
          status = mf_mx_dequantize(f->id, array_scales, packed, n, out_f);
          CHECK(status == MF_OK, "mx_dequantize %s: status %d", f->name, status);
          for (i = 0; i < n; ++i) {
            unsigned int got, want = 0;
            memcpy(&got, &out_f[i], sizeof got);
            mf_mx_dequantize_block(f->id, scales[i / 32], codes[i / 32], deq);
            want = deq[i % 32];
            CHECK(got == want, "mx_dequantize %s element %d: 0x%08X, want 0x%08X", f->name, i,
                  got, want);
          }
        }
      }
    }
    /* Random element codes and scales (NaN scale 0xFF, and 0x00 included). */
    for (trial = 0; trial < 256; ++trial) {
      unsigned char codes[32];
      unsigned int deq[32], want_deq[32];
      const unsigned char scale = (unsigned char)trial;
      int i;
      for (i = 0; i < 32; ++i) codes[i] = (unsigned char)next_random();
      CHECK(mf_mx_dequantize_block(f->id, scale, codes, deq) == MF_OK, "dequantize status");
      ref_mx_dequantize_block(f->name, scale, codes, want_deq);
      CHECK(memcmp(deq, want_deq, sizeof deq) == 0, "mx_dequantize_block %s scale 0x%02X",
            f->name, scale);
    }
  }
}

/* The hybrid MatMul: mf_hybrid_matmul and mf_hybrid_dot32 against the C++
 * entry (ref_hybrid_matmul), every field of struct mf_hybrid_options drawn
 * at random and given to the reference by meaning, every output compared
 * bit for bit except a NaN, compared as a class: c_api.h leaves its sign
 * and payload open, and they do differ between the library compiled into
 * libminifloat_c and the reference's copy compiled here (the compiler
 * picks which NaN operand a float operation returns, IEEE 754-2019 6.2.3);
 * then the status codes and their order. */
struct hybrid_type_row {
  int id;
  const char* name;
  int bits;
};
static const struct hybrid_type_row hybrid_types[] = {
    {MF_HYBRID_I8, "I8", 8},     {MF_HYBRID_U8, "U8", 8},     {MF_HYBRID_HF8, "HF8", 8},
    {MF_HYBRID_BF8, "BF8", 8},   {MF_HYBRID_FP16, "FP16", 16}, {MF_HYBRID_BF16, "BF16", 16},
    {MF_HYBRID_FP32, "FP32", 32}};
#define HYBRID_TYPE_COUNT ((unsigned int)(sizeof hybrid_types / sizeof hybrid_types[0]))
struct hybrid_name_row {
  int id;
  const char* name;
};
static const struct hybrid_name_row hybrid_tables[] = {
    {MF_TABLE_VENDOR_HYBRID_FP8, "vendor_hybrid_fp8"},
    {MF_TABLE_CUBLASLT_FP8, "cublaslt_fp8"},
    {MF_TABLE_ANY, "any"}};
static const struct hybrid_name_row hybrid_models[] = {
    {MF_MODEL_SEQUENTIAL_FP32, "sequential_fp32"}, {MF_MODEL_EXACT, "exact"},
    {MF_MODEL_EXACT_TO_OUTPUT, "exact_to_output"}, {MF_MODEL_AVX512_BF16_PAIRS, "avx512_bf16_pairs"},
    {MF_MODEL_AMX_TILE_PAIRS, "amx_tile_pairs"}, {MF_MODEL_CHUNKED_EXACT, "chunked_exact"},
    {MF_MODEL_REDUCED_PRECISION, "reduced_precision"}};
#define HYBRID_MODEL_COUNT ((unsigned int)(sizeof hybrid_models / sizeof hybrid_models[0]))

static unsigned int below(unsigned int n) { return (unsigned int)(next_random() % n); }

/* A binary32 scale: mostly within 2^+-8 of 1, often exactly a power of two,
 * sometimes far out (overflow of an FP8 output, underflow), sometimes
 * +-0, +-Inf or NaN; either sign. */
static unsigned int random_scale(void) {
  const unsigned int sign = below(5) == 0 ? 0x80000000u : 0u;
  const unsigned int mantissa = (unsigned int)next_random() & 0x007FFFFFu;
  const unsigned int kind = below(20);
  if (kind < 9) return sign | ((unsigned int)(127 - 8 + (int)below(17)) << 23) | mantissa;
  if (kind < 13) return sign | ((unsigned int)(127 - 6 + (int)below(13)) << 23);
  if (kind < 16) return sign | ((unsigned int)(127 + 10 + (int)below(40)) << 23) | mantissa;
  if (kind < 18) return sign | ((unsigned int)(127 - 50 + (int)below(40)) << 23) | mantissa;
  switch (below(4)) {
    case 0: return sign;                      /* +-0 */
    case 1: return sign | 0x7F800000u;        /* +-Inf */
    case 2: return sign | 0x7FC00000u | (mantissa & 0xFFu); /* NaN */
    default: return sign | 0x3F800000u;       /* +-1 */
  }
}

/* A code of the type: any bits 1 time in 16 (NaN, Inf), else a finite one. */
static unsigned int random_hybrid_code(const struct hybrid_type_row* t) {
  const int any_bits = below(16) == 0;
  for (;;) {
    const unsigned int mask = t->bits == 32 ? 0xFFFFFFFFu : (1u << t->bits) - 1u;
    const unsigned int code = (unsigned int)next_random() & mask;
    unsigned int f32 = 0;
    int format;
    if (any_bits || t->id == MF_HYBRID_I8 || t->id == MF_HYBRID_U8 || t->id == MF_HYBRID_FP32) {
      return code;
    }
    format = t->id == MF_HYBRID_HF8 ? MF_FORMAT_E4M3FN
             : t->id == MF_HYBRID_BF8 ? MF_FORMAT_E5M2
             : t->id == MF_HYBRID_FP16 ? MF_FORMAT_BINARY16 : MF_FORMAT_BFLOAT16;
    mf_decode_f32(format, code, &f32);
    if ((f32 & 0x7F800000u) != 0x7F800000u) return code;
  }
}

/* A NaN of the hybrid output type (I8 and U8 have none). */
static int hybrid_is_nan(int type, unsigned int x) {
  switch (type) {
    case MF_HYBRID_HF8: return (x & 0x7Fu) == 0x7Fu;
    case MF_HYBRID_BF8: return (x & 0x7Fu) > 0x7Cu;
    case MF_HYBRID_FP16: return (x & 0x7C00u) == 0x7C00u && (x & 0x03FFu) != 0;
    case MF_HYBRID_BF16: return (x & 0x7F80u) == 0x7F80u && (x & 0x007Fu) != 0;
    case MF_HYBRID_FP32: return (x & 0x7F800000u) == 0x7F800000u && (x & 0x007FFFFFu) != 0;
    default: return 0;
  }
}

enum { HY_MAX_M = 3, HY_MAX_N = 3, HY_MAX_K = 200, HY_PAD = 3 };

static const struct hybrid_type_row* random_input_type(void) {
  /* FP32 is output only: rarely drawn as an input, to see it rejected. */
  return &hybrid_types[below(64) == 0 ? 6u : below(6)];
}

struct hybrid_trial_counts {
  long computed, rejected, saturated_differs, dot32, integer;
  long per_model[7];
};

/* One random request; `dot32_shape` restricts it to what mf_hybrid_dot32
 * takes (1 x k x 1, k <= 32, per-tensor scales, the defaults) and calls
 * that too. */
static void hybrid_trial(int dot32_shape, struct hybrid_trial_counts* counts) {
  /* k may be rounded up to a multiple of 16 below: room for HY_MAX_K + 16. */
  static unsigned int a[HY_MAX_M * (HY_MAX_K + 16 + HY_PAD)];
  static unsigned int b[(HY_MAX_K + 16) * (HY_MAX_N + HY_PAD)];
  unsigned int c[HY_MAX_M * (HY_MAX_N + HY_PAD)], want[HY_MAX_M * (HY_MAX_N + HY_PAD)];
  unsigned int rows[HY_MAX_M], columns[HY_MAX_N], bias[HY_MAX_N];
  const unsigned int sentinel = 0xA5A5A5A5u;
  const struct hybrid_type_row* ta = random_input_type();
  const struct hybrid_type_row* tb = below(3) == 0 ? ta : random_input_type();
  /* I8 x I8 or U8 x U8: the integer MatMul (an integer times a float is a
   * float MatMul). */
  const int integer_pair = (ta->id == MF_HYBRID_I8 || ta->id == MF_HYBRID_U8) && tb == ta;
  const struct hybrid_type_row* tc;
  const unsigned int table = below(10) < 6 ? 2u : below(10) < 6 ? 0u : 1u;
  const unsigned int model = below(HYBRID_MODEL_COUNT);
  struct mf_hybrid_options o;
  struct ref_hybrid_problem r;
  int m, n, k, lda, ldb, ldc, i, j, status, ref_status, differ = 0, first = 0;
  /* Integer pairs mostly keep their type as the output (the one integer
   * combination the tables take). */
  if (integer_pair && below(5) != 0) {
    tc = ta;
  } else {
    tc = &hybrid_types[below(HYBRID_TYPE_COUNT)];
  }
  memset(&r, 0, sizeof r);
  mf_hybrid_options_init(&o);
  m = dot32_shape ? 1 : 1 + (int)below(HY_MAX_M);
  n = dot32_shape ? 1 : 1 + (int)below(HY_MAX_N);
  k = 1 + (int)(dot32_shape || below(6) != 0 ? below(40) : below(HY_MAX_K));
  if (dot32_shape && k > 32) k = 32;
  lda = dot32_shape ? k : k + (int)below(HY_PAD + 1);
  ldb = dot32_shape ? 1 : n + (int)below(HY_PAD + 1);
  ldc = dot32_shape ? 1 : n + (int)below(HY_PAD + 1);

  r.table = hybrid_tables[table].name;
  o.table = hybrid_tables[table].id;
  r.a_type = ta->name;
  r.b_type = tb->name;
  r.out_type = tc->name;
  r.model = hybrid_models[model].name;
  o.model = hybrid_models[model].id;
  /* The model's parameters: chunk 0 asks for the model's own (c_api.h: 32
   * for the AMX tiles, 64 for chunked_exact, docs/hybrid.md). */
  if (!dot32_shape) {
    /* AMX: an odd chunk 1 time in 8 (rejected); others: below 1 now and
     * then (rejected by chunked_exact, ignored by the rest). */
    if (below(3) == 0) {
      o.chunk = 0;
    } else if (o.model == MF_MODEL_AMX_TILE_PAIRS) {
      o.chunk = below(8) == 0 ? 1 + 2 * (int)below(8) : 2 * (1 + (int)below(40));
    } else {
      o.chunk = (int)below(100);
      if (below(16) == 0) o.chunk -= 99;
    }
    o.amx_order = (int)below(2);
    o.chunk_rounding = (int)below(2);
    o.presum_round = (int)below(2);
    o.reduced_bits = below(16) == 0 ? (int)below(60) : 1 + (int)below(24);
    o.promote_every = below(16) == 0 ? 0 : 1 + (int)below(200);
    o.reduced_variant = (int)below(2);
    o.block = below(16) == 0 ? 0 : 1 + (int)below(64);
    o.truncation = (int)below(2);
  }
  /* nan_payload 1: half the pair models' requests; rejected by the others */
  o.nan_payload = o.model == MF_MODEL_AVX512_BF16_PAIRS || o.model == MF_MODEL_AMX_TILE_PAIRS
                      ? (int)below(2)
                      : below(32) == 0;
  r.chunk = o.chunk != 0 ? o.chunk : o.model == MF_MODEL_AMX_TILE_PAIRS ? 32 : 64;
  r.amx_guide = o.amx_order;
  r.nan_propagate = o.nan_payload;
  r.chunk_toward_zero = o.chunk_rounding;
  r.presum_round = o.presum_round;
  r.reduced_bits = o.reduced_bits;
  r.promote_every = o.promote_every;
  r.reduced_block_variant = o.reduced_variant;
  r.block = o.block;
  r.truncation_floor = o.truncation;
  /* The scales, bias and output conversion. */
  o.scale_a = r.scale_a = random_scale();
  o.scale_b = r.scale_b = random_scale();
  for (i = 0; i < HY_MAX_M; ++i) rows[i] = random_scale();
  for (j = 0; j < HY_MAX_N; ++j) {
    columns[j] = random_scale();
    if (below(4) == 0) {
      bias[j] = random_scale();
    } else {
      bias[j] = (unsigned int)next_random() & 0x807FFFFFu;
      bias[j] |= (unsigned int)(127 - 4 + (int)below(12)) << 23;
    }
  }
  if (!dot32_shape) {
    o.scale_a_rows = r.scale_a_rows = below(3) == 0 ? rows : NULL;
    o.scale_b_columns = r.scale_b_columns = below(3) == 0 ? columns : NULL;
    o.bias = r.bias = below(2) == 0 ? bias : NULL;
  }
  o.output_scale = r.output_scale = below(4) == 0 ? 0x3F800000u : random_scale();
  /* An integer MatMul rejects the float scales, bias and output scale (its
   * one scale is integer_scale): 7 times in 8 it keeps their defaults. */
  if (integer_pair && below(8) != 0) {
    o.scale_a = r.scale_a = o.scale_b = r.scale_b = o.output_scale = r.output_scale = 0x3F800000u;
    o.scale_a_rows = r.scale_a_rows = o.scale_b_columns = r.scale_b_columns = NULL;
    o.bias = r.bias = NULL;
  }
  o.output_divide = r.output_divide = (int)below(2);
  r.saturate = (int)below(2);
  o.overflow = r.saturate ? MF_OVERFLOW_SATURATING : MF_OVERFLOW_NON_SATURATING;
  if (!dot32_shape) {
    /* The pair models reject scales on the operands (even for an integer
     * MatMul, which checks the model too): 1 time in 4 for them. */
    if (o.model == MF_MODEL_AVX512_BF16_PAIRS || o.model == MF_MODEL_AMX_TILE_PAIRS) {
      o.operands_placement = r.operands_placement = below(4) == 0;
    } else {
      o.operands_placement = r.operands_placement = (int)below(2);
    }
    r.stochastic = below(3) == 0;
    o.rounding = r.stochastic ? MF_ROUND_STOCHASTIC : MF_ROUND_NEAREST_EVEN;
    o.seed = r.seed = next_random();
    /* Near the end of the stream 1 time in 8 (the position wraps). */
    if (below(8) == 0) {
      o.offset = ~0ull - below(4);
    } else {
      o.offset = next_random();
      o.offset >>= below(64);
    }
    r.offset = o.offset;
    o.random_bits = r.random_bits = 1 + (int)below(32);
    if (below(8) == 0) {
      o.integer_scale = random_scale();
    } else {
      o.integer_scale = (unsigned int)next_random() & 0x007FFFFFu;
      o.integer_scale |= (unsigned int)(127 - 20 + (int)below(24)) << 23;
    }
    o.requant_fp32 = (int)below(2);
    /* A float MatMul rejects the integer MatMul's scale and rule: 7 times
     * in 8 it keeps their defaults. */
    if (!integer_pair && below(8) != 0) {
      o.integer_scale = 0x3F800000u;
      o.requant_fp32 = 0;
    }
    r.integer_scale = o.integer_scale;
    r.requant_fp32 = o.requant_fp32;
    o.check_z_multiple = r.check_z_multiple = (int)below(2);
    if (o.check_z_multiple && below(4) != 0) {
      k = (k + 15) / 16 * 16;
      if (lda < k) lda = k;
    }
  } else {
    o.check_z_multiple = 0; /* mf_hybrid_dot32 has the check off */
    r.random_bits = 32;
    r.integer_scale = 0x3F800000u;
  }
  r.check_z_multiple = o.check_z_multiple;
  r.m = m;
  r.n = n;
  r.k = k;

  for (i = 0; i < m * lda; ++i) a[i] = random_hybrid_code(ta);
  for (i = 0; i < k * ldb; ++i) b[i] = random_hybrid_code(tb);
  for (i = 0; i < m * ldc; ++i) c[i] = want[i] = sentinel;
  r.a = a;
  r.lda = lda;
  r.b = b;
  r.ldb = ldb;
  r.c = want;
  r.ldc = ldc;

  status = mf_hybrid_matmul(ta->id, tb->id, tc->id, &o, a, lda, b, ldb, c, ldc, m, n, k);
  ref_status = ref_hybrid_matmul(&r);
  CHECK(ref_status != 0, "ref_hybrid_matmul names %s %s %s %s", r.a_type, r.b_type, r.out_type,
        r.model);
  if (ref_status == 1) {
    ++counts->computed;
    ++counts->per_model[model];
    if (integer_pair) ++counts->integer;
    CHECK(status == MF_OK, "hybrid %s: %s x %s -> %s %s: %s", r.table, ta->name, tb->name,
          tc->name, r.model, mf_status_name(status));
  } else {
    ++counts->rejected;
    CHECK(status == MF_ERR_HYBRID_REJECTED,
          "hybrid %s: %s x %s -> %s %s (chunk %d bits %d every %d block %d): %s, the reference "
          "rejects it",
          r.table, ta->name, tb->name, tc->name, r.model, o.chunk, o.reduced_bits, o.promote_every,
          o.block,
          mf_status_name(status));
  }
  for (i = 0; i < m * ldc; ++i) {
    /* Every element, and the padding between rows (untouched), bit for
     * bit; a NaN output as a class. */
    if (c[i] != want[i] && !(hybrid_is_nan(tc->id, c[i]) && hybrid_is_nan(tc->id, want[i])) &&
        differ++ == 0) {
      first = i;
    }
  }
  CHECK(differ == 0,
        "hybrid %s: %s x %s -> %s %s, %dx%dx%d, sat %d, stochastic %d/%d, divide %d, operands %d, "
        "bias %s, rows %s, columns %s, requant_fp32 %d: %d of %d elements differ, first [%d] C "
        "0x%X vs reference 0x%X",
        r.table, ta->name, tb->name, tc->name, r.model, m, n, k, r.saturate, r.stochastic,
        r.random_bits,
        r.output_divide, r.operands_placement, r.bias ? "yes" : "no", r.scale_a_rows ? "yes" : "no",
        r.scale_b_columns ? "yes" : "no", r.requant_fp32, differ, m * ldc, first, c[first],
        want[first]);
  if (ref_status == 1 && r.saturate) {
    /* How often the overflow choice matters (a check that it is tested). */
    unsigned int other[HY_MAX_M * (HY_MAX_N + HY_PAD)];
    for (i = 0; i < m * ldc; ++i) other[i] = sentinel;
    o.overflow = MF_OVERFLOW_NON_SATURATING;
    if (mf_hybrid_matmul(ta->id, tb->id, tc->id, &o, a, lda, b, ldb, other, ldc, m, n, k) ==
            MF_OK &&
        memcmp(other, c, sizeof(unsigned int) * (size_t)(m * ldc - (ldc - n))) != 0) {
      ++counts->saturated_differs;
    }
    o.overflow = MF_OVERFLOW_SATURATING;
  }
  if (dot32_shape) {
    unsigned int got = sentinel;
    ++counts->dot32;
    status = mf_hybrid_dot32(o.table, ta->id, tb->id, tc->id, o.model, o.nan_payload, a, b, k,
                             o.scale_a, o.scale_b, o.output_scale, o.output_divide, o.overflow,
                             &got);
    CHECK(ref_status == 1 ? status == MF_OK && (got == want[0] || (hybrid_is_nan(tc->id, got) &&
                                                                  hybrid_is_nan(tc->id, want[0])))
                          : status == MF_ERR_HYBRID_REJECTED && got == sentinel,
          "hybrid_dot32 %s: %s x %s -> %s %s k=%d sat %d divide %d: %s 0x%X, reference 0x%X",
          r.table, ta->name, tb->name, tc->name, r.model, k, r.saturate, r.output_divide,
          mf_status_name(status), got, want[0]);
  }
}

/* The first error in argument order (c_api.h): each argument given a bad
 * value alone, and every pair of them, must report the earlier one. The
 * bad values are applied from the last argument to the first, so that
 * where two touch the same field the earlier argument's value stays. */
enum { DOT32_ARGS = 13, MATMUL_ARGS = 29 };

static int dot32_with_bad(unsigned int set_lo, unsigned int set_hi, unsigned int* c) {
  static unsigned int a[32], b[32];
  int table = MF_TABLE_ANY, ta = MF_HYBRID_HF8, tb = MF_HYBRID_HF8, tc = MF_HYBRID_HF8;
  int model = MF_MODEL_SEQUENTIAL_FP32, nan_payload = 0, k = 16, divide = 0, overflow = 0;
  const unsigned int* pa = a;
  const unsigned int* pb = b;
  unsigned int* pc = c;
  int arg;
  for (arg = DOT32_ARGS - 1; arg >= 0; --arg) {
    if ((unsigned int)arg != set_lo && (unsigned int)arg != set_hi) continue;
    switch (arg) {
      case 0: table = 3; break;
      case 1: ta = 7; break;
      case 2: tb = -1; break;
      case 3: tc = MF_HYBRID_TYPE_COUNT; break;
      case 4: model = MF_MODEL_COUNT; break;
      case 5: nan_payload = 2; break;
      case 6: pa = NULL; break;
      case 7: pb = NULL; break;
      case 8: k = 33; break;
      case 9: divide = 2; break;
      case 10: overflow = -1; break;
      case 11: pc = NULL; break;
      default: /* valid arguments the model rejects: checked last */
        ta = MF_HYBRID_FP16;
        model = MF_MODEL_AVX512_BF16_PAIRS;
        break;
    }
  }
  return mf_hybrid_dot32(table, ta, tb, tc, model, nan_payload, pa, pb, k, 0x3F800000u,
                         0x3F800000u, 0x3F800000u, divide, overflow, pc);
}

static const int dot32_expected[DOT32_ARGS] = {
    MF_ERR_UNKNOWN_HYBRID_ID, MF_ERR_UNKNOWN_HYBRID_ID, MF_ERR_UNKNOWN_HYBRID_ID,
    MF_ERR_UNKNOWN_HYBRID_ID, MF_ERR_UNKNOWN_HYBRID_ID, MF_ERR_BAD_FLAG,
    MF_ERR_NULL_POINTER,      MF_ERR_NULL_POINTER,      MF_ERR_BAD_SIZE,
    MF_ERR_BAD_FLAG,          MF_ERR_BAD_OVERFLOW,      MF_ERR_NULL_POINTER,
    MF_ERR_HYBRID_REJECTED};

static int matmul_with_bad(unsigned int set_lo, unsigned int set_hi, unsigned int* c) {
  static unsigned int a[2 * 16], b[16 * 2];
  struct mf_hybrid_options o;
  const struct mf_hybrid_options* po = &o;
  int ta = MF_HYBRID_HF8, tb = MF_HYBRID_HF8, tc = MF_HYBRID_HF8;
  int m = 2, n = 2, k = 16, lda = 16, ldb = 2, ldc = 2;
  const unsigned int* pa = a;
  const unsigned int* pb = b;
  unsigned int* pc = c;
  int arg;
  mf_hybrid_options_init(&o);
  for (arg = MATMUL_ARGS - 1; arg >= 0; --arg) {
    if ((unsigned int)arg != set_lo && (unsigned int)arg != set_hi) continue;
    switch (arg) {
      case 0: ta = 7; break;
      case 1: tb = -1; break;
      case 2: tc = 99; break;
      case 3: po = NULL; break;
      case 4: o.table = 3; break;
      case 5: o.model = MF_MODEL_COUNT; break;
      case 6: o.amx_order = 2; break;
      case 7: o.nan_payload = 2; break;
      case 8: o.chunk_rounding = -1; break;
      case 9: o.presum_round = 2; break;
      case 10: o.reduced_variant = 2; break;
      case 11: o.truncation = 2; break;
      case 12: o.output_divide = 2; break;
      case 13: o.operands_placement = -1; break;
      case 14: o.rounding = MF_ROUND_TOWARD_ZERO; break;
      case 15: o.overflow = 2; break;
      case 16: o.rounding = MF_ROUND_STOCHASTIC; o.random_bits = 33; break;
      case 17: o.requant_fp32 = 2; break;
      case 18: o.check_z_multiple = -1; break;
      case 19: pa = NULL; break;
      case 20: lda = 15; break;
      case 21: pb = NULL; break;
      case 22: ldb = 1; break;
      case 23: pc = NULL; break;
      case 24: ldc = 1; break;
      case 25: m = 0; break;
      case 26: n = 0; break;
      case 27: k = 0; break;
      default: /* valid arguments the model rejects: checked last */
        o.model = MF_MODEL_AMX_TILE_PAIRS;
        o.chunk = 3;
        break;
    }
  }
  return mf_hybrid_matmul(ta, tb, tc, po, pa, lda, pb, ldb, pc, ldc, m, n, k);
}

static const int matmul_expected[MATMUL_ARGS] = {
    MF_ERR_UNKNOWN_HYBRID_ID,  MF_ERR_UNKNOWN_HYBRID_ID,  MF_ERR_UNKNOWN_HYBRID_ID,
    MF_ERR_NULL_POINTER,       MF_ERR_UNKNOWN_HYBRID_ID,  MF_ERR_UNKNOWN_HYBRID_ID,
    MF_ERR_BAD_FLAG,           MF_ERR_BAD_FLAG,           MF_ERR_BAD_FLAG,
    MF_ERR_BAD_FLAG,           MF_ERR_BAD_FLAG,           MF_ERR_BAD_FLAG,
    MF_ERR_BAD_FLAG,           MF_ERR_BAD_FLAG,           MF_ERR_BAD_ROUNDING,
    MF_ERR_BAD_OVERFLOW,       MF_ERR_BAD_RANDOM_BITS,    MF_ERR_BAD_FLAG,
    MF_ERR_BAD_FLAG,           MF_ERR_NULL_POINTER,       MF_ERR_BAD_SIZE,
    MF_ERR_NULL_POINTER,       MF_ERR_BAD_SIZE,           MF_ERR_NULL_POINTER,
    MF_ERR_BAD_SIZE,           MF_ERR_BAD_SIZE,           MF_ERR_BAD_SIZE,
    MF_ERR_BAD_SIZE,           MF_ERR_HYBRID_REJECTED};

static void check_hybrid_argument_order(void) {
  const unsigned int sentinel = 0xA5A5A5A5u;
  const unsigned int none = 1000u;
  unsigned int lo, hi, c[4];
  int status;
  c[0] = sentinel;
  CHECK(dot32_with_bad(none, none, c) == MF_OK && c[0] != sentinel,
        "dot32 with every argument valid");
  c[0] = c[1] = c[2] = c[3] = sentinel;
  CHECK(matmul_with_bad(none, none, c) == MF_OK && c[0] != sentinel,
        "matmul with every argument valid");
  for (lo = 0; lo < DOT32_ARGS; ++lo) {
    for (hi = lo; hi < DOT32_ARGS; ++hi) {
      c[0] = sentinel;
      status = dot32_with_bad(lo, hi, c);
      CHECK(status == dot32_expected[lo] && c[0] == sentinel,
            "dot32 with arguments %u and %u bad: %s, want %s (the first in argument order)", lo,
            hi, mf_status_name(status), mf_status_name(dot32_expected[lo]));
    }
  }
  for (lo = 0; lo < MATMUL_ARGS; ++lo) {
    for (hi = lo; hi < MATMUL_ARGS; ++hi) {
      c[0] = c[1] = c[2] = c[3] = sentinel;
      status = matmul_with_bad(lo, hi, c);
      CHECK(status == matmul_expected[lo] && c[0] == sentinel && c[1] == sentinel &&
                c[2] == sentinel && c[3] == sentinel,
            "matmul with arguments %u and %u bad: %s, want %s (the first in argument order)",
            lo, hi, mf_status_name(status), mf_status_name(matmul_expected[lo]));
    }
  }
}

static void check_hybrid(int trials) {
  unsigned int a[32], b[32], c = 0, sentinel = 0xA5A5A5A5u;
  struct hybrid_trial_counts counts;
  struct mf_hybrid_options o;
  int trial, i;
  memset(&counts, 0, sizeof counts);
  memset(&o, 0x5A, sizeof o);
  CHECK(mf_hybrid_options_init(&o) == MF_OK && o.table == MF_TABLE_VENDOR_HYBRID_FP8 &&
            o.model == MF_MODEL_SEQUENTIAL_FP32 && o.chunk == 0 && o.amx_order == 0 &&
            o.nan_payload == 0 && o.chunk_rounding == 0 && o.presum_round == 0 && o.reduced_bits == 14 &&
            o.promote_every == 128 && o.reduced_variant == 0 && o.block == 32 &&
            o.truncation == 0 && o.scale_a == 0x3F800000u && o.scale_b == 0x3F800000u &&
            o.scale_a_rows == NULL && o.scale_b_columns == NULL && o.bias == NULL &&
            o.output_scale == 0x3F800000u && o.output_divide == 0 &&
            o.operands_placement == 0 && o.rounding == MF_ROUND_NEAREST_EVEN &&
            o.overflow == MF_OVERFLOW_NON_SATURATING && o.seed == 0 && o.offset == 0 &&
            o.random_bits == 32 && o.integer_scale == 0x3F800000u && o.requant_fp32 == 0 &&
            o.check_z_multiple == 1,
        "hybrid_options_init defaults (c_api.h)");
  for (trial = 0; trial < trials; ++trial) hybrid_trial(trial % 4 == 0, &counts);
  printf("c_api_test: hybrid: %d random requests, %ld computed (%ld integer), %ld rejected, %ld "
         "through mf_hybrid_dot32 too, %ld where saturating changes the output\n",
         trials, counts.computed, counts.integer, counts.rejected, counts.dot32,
         counts.saturated_differs);
  /* The draw reaches what it is meant to: every model computes, and the
   * overflow choice changes outputs often. */
  for (i = 0; i < (int)HYBRID_MODEL_COUNT; ++i) {
    CHECK(counts.per_model[i] >= trials / 40, "hybrid: model %s computed only %ld times",
          hybrid_models[i].name, counts.per_model[i]);
  }
  CHECK(counts.saturated_differs >= trials / 40, "hybrid: saturating changed only %ld outputs",
        counts.saturated_differs);
  CHECK(counts.integer >= trials / 80, "hybrid: only %ld integer MatMuls computed", counts.integer);
  check_hybrid_argument_order();
  /* Status codes, each with nothing written. */
  for (i = 0; i < 32; ++i) a[i] = b[i] = 0x38u; /* 1.0 in E4M3FN */
  c = sentinel;
  CHECK(mf_hybrid_dot32(MF_TABLE_VENDOR_HYBRID_FP8, MF_HYBRID_BF8, MF_HYBRID_BF8, MF_HYBRID_HF8,
                        MF_MODEL_SEQUENTIAL_FP32, 0, a, b, 16, 0x3F800000u, 0x3F800000u, 0x3F800000u,
                        0, 0, &c) == MF_ERR_HYBRID_REJECTED && c == sentinel,
        "hybrid rejected pair");
  CHECK(mf_hybrid_dot32(MF_TABLE_ANY, MF_HYBRID_BF8, MF_HYBRID_BF8, MF_HYBRID_BF8, 0, 0, a, b, 0,
                        0x3F800000u, 0x3F800000u, 0x3F800000u, 0, 0, &c) == MF_ERR_BAD_SIZE &&
            c == sentinel,
        "hybrid dot32 k = 0");
  /* nan_payload: VDPBF16PS's NaN, B's 0xFFC2 (src2 low) before A's
   * signalling 0x7F81 (src1 high), or the canonical NaN. */
  a[0] = 0x3F80u;
  a[1] = 0x7F81u;
  b[0] = 0xFFC2u;
  b[1] = 0x3F80u;
  for (i = 0; i < 2; ++i) {
    CHECK(mf_hybrid_dot32(MF_TABLE_ANY, MF_HYBRID_BF16, MF_HYBRID_BF16, MF_HYBRID_FP32,
                          MF_MODEL_AVX512_BF16_PAIRS, i, a, b, 2, 0x3F800000u, 0x3F800000u,
                          0x3F800000u, 0, 0, &c) == MF_OK &&
              c == (i ? 0xFFC20000u : 0x7FC00000u),
          "hybrid dot32 nan_payload %d: 0x%X", i, c);
  }
  a[0] = a[1] = b[0] = b[1] = 0x38u;
  c = sentinel;
  mf_hybrid_options_init(&o);
  CHECK(mf_hybrid_matmul(MF_HYBRID_HF8, MF_HYBRID_HF8, MF_HYBRID_HF8, &o, a, 8, b, 1, &c, 1, 1, 1,
                         8) == MF_ERR_HYBRID_REJECTED && c == sentinel,
        "hybrid K not a multiple of 16 on the vendor table");
  o.model = MF_MODEL_CHUNKED_EXACT;
  o.chunk = -1;
  CHECK(mf_hybrid_matmul(MF_HYBRID_HF8, MF_HYBRID_HF8, MF_HYBRID_HF8, &o, a, 16, b, 1, &c, 1, 1, 1,
                         16) == MF_ERR_HYBRID_REJECTED && c == sentinel,
        "hybrid bad model parameter");
  /* An integer MatMul does not use the model, but a parameter no request
   * could take is rejected there too. */
  mf_hybrid_options_init(&o);
  o.nan_payload = 1;
  CHECK(mf_hybrid_matmul(MF_HYBRID_I8, MF_HYBRID_I8, MF_HYBRID_I8, &o, a, 16, b, 1, &c, 1, 1, 1,
                         16) == MF_ERR_HYBRID_REJECTED && c == sentinel,
        "hybrid integer MatMul, nan_payload 1 under sequential_fp32");
  o.nan_payload = 0;
  o.model = MF_MODEL_AMX_TILE_PAIRS;
  o.chunk = 3;
  CHECK(mf_hybrid_matmul(MF_HYBRID_U8, MF_HYBRID_U8, MF_HYBRID_U8, &o, a, 16, b, 1, &c, 1, 1, 1,
                         16) == MF_ERR_HYBRID_REJECTED && c == sentinel,
        "hybrid integer MatMul, an odd AMX chunk");
  /* A C of INT_MAX x INT_MAX elements: more than a copy of it can take, a
   * status rather than an exception through the ABI (nothing is read). */
  mf_hybrid_options_init(&o);
  o.table = MF_TABLE_ANY;
  CHECK(mf_hybrid_matmul(MF_HYBRID_HF8, MF_HYBRID_HF8, MF_HYBRID_FP32, &o, a, 1, b, INT_MAX, &c,
                         INT_MAX, INT_MAX, INT_MAX, 1) == MF_ERR_OUT_OF_MEMORY && c == sentinel,
        "hybrid C past what memory can hold");
  /* The StableHLO FNUZ RFC's example, in E5M2: arange(16) dotted with
     itself is 1280 (0x65). */
  {
    static const unsigned int arange[16] = {0x00, 0x3c, 0x40, 0x42, 0x44, 0x45, 0x46, 0x47,
                                            0x48, 0x48, 0x49, 0x4a, 0x4a, 0x4a, 0x4b, 0x4c};
    mf_hybrid_options_init(&o);
    CHECK(mf_hybrid_matmul(MF_HYBRID_BF8, MF_HYBRID_BF8, MF_HYBRID_BF8, &o, arange, 16, arange, 1,
                           &c, 1, 1, 1, 16) == MF_OK && c == 0x65u,
          "hybrid rfc arange: %x", c);
  }
}

static void check_errors(void) {
  const unsigned int sentinel = 0xA5A5A5A5u;
  static const int bad_formats[] = {-1, MF_FORMAT_COUNT, 1000};
  unsigned int out = sentinel, in[32];
  unsigned long long out64 = 0xA5A5A5A5A5A5A5A5ull;
  int cls = -7, sign = -7, bits = -7;
  unsigned char scale = 0xA5, elements[32];
  float fin[32], fout[32];
  unsigned int i;
  memset(in, 0, sizeof in);
  memset(fin, 0, sizeof fin);
  for (i = 0; i < 3; ++i) {
    const int b = bad_formats[i];
    CHECK(mf_encode_f32(b, 0, 0, 0, 0, 0, 0, &out) == MF_ERR_UNKNOWN_FORMAT, "encode_f32 format %d", b);
    CHECK(mf_encode_f64(b, 0, 0, 0, 0, 0, 0, &out) == MF_ERR_UNKNOWN_FORMAT, "encode_f64 format %d", b);
    CHECK(mf_encode_f32_random(b, 0, 0, 0, 8, &out) == MF_ERR_UNKNOWN_FORMAT, "encode_f32_random %d", b);
    CHECK(mf_decode_f32(b, 0, &out) == MF_ERR_UNKNOWN_FORMAT, "decode_f32 format %d", b);
    CHECK(mf_decode_f64(b, 0, &out64) == MF_ERR_UNKNOWN_FORMAT, "decode_f64 format %d", b);
    CHECK(mf_classify(b, 0, &cls, &sign) == MF_ERR_UNKNOWN_FORMAT, "classify format %d", b);
    CHECK(mf_format_bits(b, &bits) == MF_ERR_UNKNOWN_FORMAT, "format_bits %d", b);
    CHECK(mf_mx_quantize_block(b < 0 ? b : MF_MX_FORMAT_COUNT + (int)i, 0, in, &scale, elements) ==
              MF_ERR_UNKNOWN_MX_FORMAT, "mx_quantize_block format %d", b);
    CHECK(mf_mx_dequantize_block(b < 0 ? b : MF_MX_FORMAT_COUNT, 0, elements, in) ==
              MF_ERR_UNKNOWN_MX_FORMAT, "mx_dequantize_block format %d", b);
    CHECK(mf_mx_quantize(b < 0 ? b : MF_MX_FORMAT_COUNT, 0, fin, 32, &scale, elements) ==
              MF_ERR_UNKNOWN_MX_FORMAT, "mx_quantize format %d", b);
    CHECK(mf_mx_dequantize(b < 0 ? b : MF_MX_FORMAT_COUNT, &scale, elements, 32, fout) ==
              MF_ERR_UNKNOWN_MX_FORMAT, "mx_dequantize format %d", b);
  }
  CHECK(mf_encode_f32(0, 0, -1, 0, 0, 0, 0, &out) == MF_ERR_BAD_ROUNDING, "rounding -1");
  CHECK(mf_encode_f32(0, 0, 5, 0, 0, 0, 0, &out) == MF_ERR_BAD_ROUNDING, "rounding 5");
  CHECK(mf_encode_f64(0, 0, 5, 0, 0, 0, 0, &out) == MF_ERR_BAD_ROUNDING, "f64 rounding 5");
  CHECK(mf_encode_f32(0, 0, 0, 2, 0, 0, 0, &out) == MF_ERR_BAD_OVERFLOW, "overflow 2");
  CHECK(mf_encode_f32(0, 0, 0, -1, 0, 0, 0, &out) == MF_ERR_BAD_OVERFLOW, "overflow -1");
  CHECK(mf_encode_f32_random(0, 0, 2, 0, 8, &out) == MF_ERR_BAD_OVERFLOW, "random overflow 2");
  CHECK(mf_encode_f32(0, 0, MF_ROUND_STOCHASTIC, 0, 0, 0, 0, &out) == MF_ERR_BAD_RANDOM_BITS,
        "stochastic 0 bits");
  CHECK(mf_encode_f64(0, 0, MF_ROUND_STOCHASTIC, 0, 0, 0, 33, &out) == MF_ERR_BAD_RANDOM_BITS,
        "stochastic 33 bits");
  CHECK(mf_encode_f32_random(0, 0, 0, 0, 33, &out) == MF_ERR_BAD_RANDOM_BITS, "random 33 bits");
  CHECK(mf_stochastic_random_bits(0, 0, 0, &out) == MF_ERR_BAD_RANDOM_BITS, "stream 0 bits");
  CHECK(out == sentinel, "an output was written on error: 0x%X", out);
  CHECK(mf_decode_f32(MF_FORMAT_E2M1FN, 0x10u, &out) == MF_ERR_BAD_ENCODING, "e2m1fn 0x10");
  CHECK(mf_decode_f64(MF_FORMAT_E4M3FN, 0x100u, &out64) == MF_ERR_BAD_ENCODING, "e4m3fn 0x100");
  CHECK(mf_classify(MF_FORMAT_BINARY16, 0x10000u, &cls, &sign) == MF_ERR_BAD_ENCODING, "b16");
  CHECK(out == sentinel && out64 == 0xA5A5A5A5A5A5A5A5ull && cls == -7 && sign == -7,
        "an output was written on error");
  CHECK(mf_mx_quantize_block(0, 3, in, &scale, elements) == MF_ERR_BAD_SCALE_ROUNDING, "scale 3");
  CHECK(mf_mx_quantize(0, -1, fin, 32, &scale, elements) == MF_ERR_BAD_SCALE_ROUNDING, "scale -1");
  CHECK(scale == 0xA5, "scale written on error");
  /* NULL pointers. Non-stochastic rounding ignores random_bits, so 0 is fine. */
  CHECK(mf_encode_f32(0, 0, 0, 0, 0, 0, 0, NULL) == MF_ERR_NULL_POINTER, "encode_f32 NULL");
  CHECK(mf_encode_f64(0, 0, 0, 0, 0, 0, 0, NULL) == MF_ERR_NULL_POINTER, "encode_f64 NULL");
  CHECK(mf_encode_f32_random(0, 0, 0, 0, 8, NULL) == MF_ERR_NULL_POINTER, "random NULL");
  CHECK(mf_stochastic_random_bits(0, 0, 8, NULL) == MF_ERR_NULL_POINTER, "stream NULL");
  CHECK(mf_decode_f32(0, 0, NULL) == MF_ERR_NULL_POINTER, "decode_f32 NULL");
  CHECK(mf_decode_f64(0, 0, NULL) == MF_ERR_NULL_POINTER, "decode_f64 NULL");
  CHECK(mf_classify(0, 0, NULL, &sign) == MF_ERR_NULL_POINTER, "classify NULL class");
  CHECK(mf_classify(0, 0, &cls, NULL) == MF_ERR_NULL_POINTER, "classify NULL sign");
  CHECK(mf_format_bits(0, NULL) == MF_ERR_NULL_POINTER, "format_bits NULL");
  CHECK(mf_mx_quantize_block(0, 0, NULL, &scale, elements) == MF_ERR_NULL_POINTER, "qb in");
  CHECK(mf_mx_quantize_block(0, 0, in, NULL, elements) == MF_ERR_NULL_POINTER, "qb scale");
  CHECK(mf_mx_quantize_block(0, 0, in, &scale, NULL) == MF_ERR_NULL_POINTER, "qb elements");
  CHECK(mf_mx_dequantize_block(0, 0, NULL, in) == MF_ERR_NULL_POINTER, "db elements");
  CHECK(mf_mx_dequantize_block(0, 0, elements, NULL) == MF_ERR_NULL_POINTER, "db out");
  CHECK(mf_mx_quantize(0, 0, NULL, 32, &scale, elements) == MF_ERR_NULL_POINTER, "q in");
  CHECK(mf_mx_quantize(0, 0, fin, 32, &scale, NULL) == MF_ERR_NULL_POINTER, "q elements");
  CHECK(mf_mx_dequantize(0, &scale, elements, 32, NULL) == MF_ERR_NULL_POINTER, "d out");
  CHECK(mf_mx_quantize(0, 0, NULL, 0, NULL, NULL) == MF_OK, "n == 0 with NULL");
  CHECK(mf_mx_dequantize(0, NULL, NULL, 0, NULL) == MF_OK, "n == 0 with NULL");
  /* The names, and that they are distinct. */
  {
    static const char* const names[] = {
        "MF_OK", "MF_ERR_NULL_POINTER", "MF_ERR_UNKNOWN_FORMAT", "MF_ERR_BAD_ROUNDING",
        "MF_ERR_BAD_OVERFLOW", "MF_ERR_BAD_RANDOM_BITS", "MF_ERR_BAD_ENCODING",
        "MF_ERR_UNKNOWN_MX_FORMAT", "MF_ERR_BAD_SCALE_ROUNDING", "MF_ERR_UNKNOWN_HYBRID_ID",
        "MF_ERR_BAD_SIZE", "MF_ERR_HYBRID_REJECTED", "MF_ERR_OUT_OF_MEMORY", "MF_ERR_BAD_FLAG"};
    for (i = 0; i < sizeof names / sizeof names[0]; ++i) {
      CHECK(strcmp(mf_status_name((int)i), names[i]) == 0, "status %u is named %s", i,
            mf_status_name((int)i));
    }
    CHECK(strcmp(mf_status_name(14), "unknown status") == 0, "status 14");
    CHECK(strcmp(mf_status_name(-1), "unknown status") == 0, "status -1");
  }
}

/* The test's own format id for a library name; -1 if none. */
static int format_by_name(const char* name) {
  int i;
  for (i = 0; i < FORMAT_COUNT; ++i) {
    if (strcmp(formats[i].name, name) == 0) return formats[i].id;
  }
  return -1;
}

/* `name` with every ASCII letter turned to upper case (upper != 0) or to
 * lower case, into buffer (64 bytes). */
static const char* with_case(const char* name, int upper, char* buffer) {
  size_t i;
  for (i = 0; name[i] != '\0' && i < 63; ++i) {
    char c = name[i];
    if (upper && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    if (!upper && c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    buffer[i] = c;
  }
  buffer[i] = '\0';
  return buffer;
}

/* mf_format_from_name: every spelling of the C++ registry, as written, in
 * upper and in lower case, gives the id of its format (by the test's own
 * name -> id table); a few spellings written down from the README's table,
 * so that a registry that lost them fails here too; the errors; and
 * mf_format_name for every id. */
static void check_format_names(void) {
  static const struct {
    const char* name;
    int id;
  } written[] = {
      {"e4m3fn", MF_FORMAT_E4M3FN},        {"float8_e4m3fn", MF_FORMAT_E4M3FN},
      {"FLOAT8E4M3FN", MF_FORMAT_E4M3FN},  {"f8E4M3FN", MF_FORMAT_E4M3FN},
      {"HF8", MF_FORMAT_E4M3FN},           {"hf8", MF_FORMAT_E4M3FN},
      {"BF8", MF_FORMAT_E5M2},             {"float8e5m2fnuz", MF_FORMAT_E5M2FNUZ},
      {"float4_e2m1fn", MF_FORMAT_E2M1FN}, {"f6E3M2FN", MF_FORMAT_E3M2FN},
      {"e8m0", MF_FORMAT_E8M0FNU},         {"float8_e4m3b11fnuz", MF_FORMAT_E4M3B11FNUZ},
      {"half", MF_FORMAT_BINARY16},        {"FP16", MF_FORMAT_BINARY16},
      {"float16", MF_FORMAT_BINARY16},     {"bf16", MF_FORMAT_BFLOAT16},
      {"BFloat16", MF_FORMAT_BFLOAT16},
  };
  static const char* const not_formats[] = {"", "e4m3fn ", "e4m3f", "float32", "fp32",
                                            "int8", "I8", "uint4", "e4m3fnuzz"};
  const char* alias = NULL;
  const char* canonical = NULL;
  char buffer[64];
  int seen[MF_FORMAT_COUNT] = {0};
  int i, id, rows = 0;
  for (i = 0; ref_format_alias(i, &alias, &canonical); ++i) {
    const int want = format_by_name(canonical);
    int upper;
    ++rows;
    CHECK(want >= 0, "registry format %s is not in the test's table", canonical);
    if (want >= 0) seen[want] = 1;
    id = -1;
    CHECK(mf_format_from_name(alias, &id) == MF_OK && id == want, "format_from_name %s: %d",
          alias, id);
    for (upper = 0; upper <= 1; ++upper) {
      id = -1;
      CHECK(mf_format_from_name(with_case(alias, upper, buffer), &id) == MF_OK && id == want,
            "format_from_name %s: %d", buffer, id);
    }
  }
  for (i = 0; i < FORMAT_COUNT; ++i) {
    CHECK(seen[formats[i].id], "the registry has no name of %s", formats[i].name);
  }
  CHECK(rows > FORMAT_COUNT, "the registry has aliases (%d names)", rows);
  for (i = 0; i < (int)(sizeof written / sizeof written[0]); ++i) {
    id = -1;
    CHECK(mf_format_from_name(written[i].name, &id) == MF_OK && id == written[i].id,
          "format_from_name %s: %d", written[i].name, id);
  }
  for (i = 0; i < (int)(sizeof not_formats / sizeof not_formats[0]); ++i) {
    id = 77;
    CHECK(mf_format_from_name(not_formats[i], &id) == MF_ERR_UNKNOWN_FORMAT && id == 77,
          "format_from_name \"%s\" is not a format", not_formats[i]);
  }
  CHECK(mf_format_from_name(NULL, &id) == MF_ERR_NULL_POINTER, "format_from_name NULL name");
  CHECK(mf_format_from_name("e5m2", NULL) == MF_ERR_NULL_POINTER,
        "format_from_name NULL format");
  CHECK(mf_format_from_name(NULL, NULL) == MF_ERR_NULL_POINTER, "format_from_name NULL, NULL");
  CHECK(mf_format_from_name("e5m3", NULL) == MF_ERR_UNKNOWN_FORMAT,
        "format_from_name: the name is checked before the output");
  for (i = 0; i < FORMAT_COUNT; ++i) {
    const char* name = mf_format_name(formats[i].id);
    CHECK(name != NULL && strcmp(name, formats[i].name) == 0, "format_name %d: %s",
          formats[i].id, name != NULL ? name : "NULL");
  }
  CHECK(mf_format_name(-1) == NULL && mf_format_name(MF_FORMAT_COUNT) == NULL,
        "format_name of an unknown id");
}

/* --quick (the run against the shared library, which holds the same
 * objects as the static one: it checks the exports and the linking) skips
 * the edge set and samples fewer random inputs. */
int main(int argc, char** argv) {
  const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  int i;
  check_known_values();
  check_f64_stochastic();
  check_errors();
  check_format_names();
  for (i = 0; i < FORMAT_COUNT; ++i) {
    int bits = 0;
    CHECK(mf_format_bits(formats[i].id, &bits) == MF_OK && bits == formats[i].bits,
          "format_bits %s: %d", formats[i].name, bits);
    check_codes(&formats[i], !quick);
    check_random(&formats[i], quick ? 256 : 4096);
  }
  check_mx();
  check_hybrid(quick ? 2000 : 24000);
  printf("c_api_test: %ld checks, %ld failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
