/* The C ABI, compiled as C99: every entry of minifloat/c_api.h against the
 * C++ function it wraps (reference.h, called by name), on every encoding of
 * every format, the edge set around each encoding (the value, the midpoint
 * to the next one, one float ulp either side) and a random float32/float64
 * sample, for each rounding mode and both overflow modes; MX blocks; every
 * status code; and a few values written down from the specs (OCP OFP8 and
 * MX v1.0, IEEE 754, Random123's Philox known answers), which do not come
 * from the library at all. Exit status 0 when every check holds. */
#include <minifloat/c_api.h>

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

/* Every status code, from each function that documents it; nothing is
 * written on error. */
/* The hybrid MatMul: mf_hybrid_matmul and mf_hybrid_dot32 against the typed
 * C++ entry on random finite codes (wide-range: every exponent), for type
 * pairs and models named independently of the ids; then its status codes. */
struct hybrid_type_row {
  int id;
  const char* name;
  int bits;
};
static const struct hybrid_type_row hybrid_types[] = {
    {MF_HYBRID_HF8, "HF8", 8}, {MF_HYBRID_BF8, "BF8", 8}, {MF_HYBRID_FP16, "FP16", 16},
    {MF_HYBRID_BF16, "BF16", 16}};
struct hybrid_model_row {
  int id;
  const char* name;
};
static const struct hybrid_model_row hybrid_models[] = {
    {MF_MODEL_SEQUENTIAL_FP32, "sequential_fp32"}, {MF_MODEL_EXACT, "exact"},
    {MF_MODEL_EXACT_TO_OUTPUT, "exact_to_output"}, {MF_MODEL_AVX512_BF16_PAIRS, "avx512_bf16_pairs"},
    {MF_MODEL_AMX_TILE_PAIRS, "amx_tile_pairs"}, {MF_MODEL_CHUNKED_EXACT, "chunked_exact64"},
    {MF_MODEL_REDUCED_PRECISION, "reduced_precision"}};

static unsigned int random_finite_code(int bits, int type) {
  for (;;) {
    const unsigned int code = (unsigned int)next_random() & ((1u << bits) - 1u);
    unsigned int f32 = 0;
    int format = type == MF_HYBRID_HF8 ? MF_FORMAT_E4M3FN
                 : type == MF_HYBRID_BF8 ? MF_FORMAT_E5M2
                 : type == MF_HYBRID_FP16 ? MF_FORMAT_BINARY16 : MF_FORMAT_BFLOAT16;
    mf_decode_f32(format, code, &f32);
    if ((f32 & 0x7F800000u) != 0x7F800000u) return code;
  }
}

static void check_hybrid(void) {
  unsigned int a[32], b[32], c = 0, r = 0, sentinel = 0xA5A5A5A5u;
  size_t ia, ib, ic, im;
  int trial;
  struct mf_hybrid_options o;
  CHECK(mf_hybrid_options_init(&o) == MF_OK && o.table == MF_TABLE_VENDOR_HYBRID_FP8 &&
            o.check_z_multiple == 1 && o.scale_a == 0x3F800000u,
        "hybrid_options_init defaults");
  for (ia = 0; ia < 4; ++ia) {
    for (ib = 0; ib < 4; ++ib) {
      for (ic = 0; ic < 3; ++ic) {
        static const int outs[] = {MF_HYBRID_FP32, MF_HYBRID_BF16, MF_HYBRID_HF8};
        static const char* const out_names[] = {"FP32", "BF16", "HF8"};
        for (im = 0; im < sizeof hybrid_models / sizeof hybrid_models[0]; ++im) {
          const int fp16 = hybrid_types[ia].id == MF_HYBRID_FP16 || hybrid_types[ib].id == MF_HYBRID_FP16;
          const int bf16 = hybrid_types[ia].id == MF_HYBRID_BF16 || hybrid_types[ib].id == MF_HYBRID_BF16;
          const int rejected = (hybrid_models[im].id == MF_MODEL_AVX512_BF16_PAIRS && fp16) ||
                               (hybrid_models[im].id == MF_MODEL_AMX_TILE_PAIRS && fp16 && bf16);
          for (trial = 0; trial < 20; ++trial) {
            const int k = 1 + (int)(next_random() % 32);
            int i, status;
            for (i = 0; i < 32; ++i) {
              a[i] = random_finite_code(hybrid_types[ia].bits, hybrid_types[ia].id);
              b[i] = random_finite_code(hybrid_types[ib].bits, hybrid_types[ib].id);
            }
            c = sentinel;
            status = mf_hybrid_dot32(MF_TABLE_ANY, hybrid_types[ia].id, hybrid_types[ib].id,
                                     outs[ic], hybrid_models[im].id, a, b, k, 0x3F000000u /* 0.5 */,
                                     0x40400000u /* 3 */, 0x3F800000u, 0, MF_OVERFLOW_SATURATING, &c);
            if (rejected) {
              CHECK(status == MF_ERR_HYBRID_REJECTED && c == sentinel, "hybrid %s x %s %s: %s",
                    hybrid_types[ia].name, hybrid_types[ib].name, hybrid_models[im].name,
                    mf_status_name(status));
              break;
            }
            /* The C++ reference does not saturate: compare where it does not matter. */
            CHECK(ref_hybrid_dot(hybrid_types[ia].name, hybrid_types[ib].name, out_names[ic],
                                 hybrid_models[im].name, a, b, k, 0.5f, 3.0f, &r),
                  "ref_hybrid_dot names");
            {
              const int special = outs[ic] == MF_HYBRID_FP32 ? (r & 0x7F800000u) == 0x7F800000u
                                  : outs[ic] == MF_HYBRID_BF16 ? (r & 0x7F80u) == 0x7F80u
                                                               : (r & 0x7Fu) == 0x7Fu;
              CHECK(status == MF_OK && (special || c == r), "hybrid %s x %s -> %s %s k=%d: %x vs %x",
                    hybrid_types[ia].name, hybrid_types[ib].name, out_names[ic],
                    hybrid_models[im].name, k, c, r);
            }
          }
        }
      }
    }
  }
  /* Status codes, each with nothing written. */
  c = sentinel;
  CHECK(mf_hybrid_dot32(MF_TABLE_VENDOR_HYBRID_FP8, MF_HYBRID_BF8, MF_HYBRID_BF8, MF_HYBRID_HF8,
                        MF_MODEL_SEQUENTIAL_FP32, a, b, 16, 0x3F800000u, 0x3F800000u, 0x3F800000u,
                        0, 0, &c) == MF_ERR_HYBRID_REJECTED && c == sentinel,
        "hybrid rejected pair");
  CHECK(mf_hybrid_dot32(MF_TABLE_ANY, 7, MF_HYBRID_BF8, MF_HYBRID_HF8, 0, a, b, 16, 0x3F800000u,
                        0x3F800000u, 0x3F800000u, 0, 0, &c) == MF_ERR_UNKNOWN_HYBRID_ID,
        "hybrid unknown type");
  CHECK(mf_hybrid_dot32(3, MF_HYBRID_BF8, MF_HYBRID_BF8, MF_HYBRID_BF8, 0, a, b, 16, 0x3F800000u,
                        0x3F800000u, 0x3F800000u, 0, 0, &c) == MF_ERR_UNKNOWN_HYBRID_ID,
        "hybrid unknown table");
  CHECK(mf_hybrid_dot32(MF_TABLE_ANY, MF_HYBRID_BF8, MF_HYBRID_BF8, MF_HYBRID_BF8, 99, a, b, 16,
                        0x3F800000u, 0x3F800000u, 0x3F800000u, 0, 0, &c) == MF_ERR_UNKNOWN_HYBRID_ID,
        "hybrid unknown model");
  CHECK(mf_hybrid_dot32(MF_TABLE_ANY, MF_HYBRID_BF8, MF_HYBRID_BF8, MF_HYBRID_BF8, 0, a, b, 33,
                        0x3F800000u, 0x3F800000u, 0x3F800000u, 0, 0, &c) == MF_ERR_BAD_SIZE,
        "hybrid k > 32");
  CHECK(mf_hybrid_dot32(MF_TABLE_ANY, MF_HYBRID_BF8, MF_HYBRID_BF8, MF_HYBRID_BF8, 0, a, b, 16,
                        0x3F800000u, 0x3F800000u, 0x3F800000u, 0, 5, &c) == MF_ERR_BAD_OVERFLOW,
        "hybrid bad overflow");
  CHECK(mf_hybrid_dot32(MF_TABLE_ANY, MF_HYBRID_BF8, MF_HYBRID_BF8, MF_HYBRID_BF8, 0, NULL, b, 16,
                        0x3F800000u, 0x3F800000u, 0x3F800000u, 0, 0, &c) == MF_ERR_NULL_POINTER,
        "hybrid null");
  mf_hybrid_options_init(&o);
  CHECK(mf_hybrid_matmul(MF_HYBRID_HF8, MF_HYBRID_HF8, MF_HYBRID_HF8, &o, a, 8, b, 1, &c, 1, 1, 1,
                         8) == MF_ERR_HYBRID_REJECTED && c == sentinel,
        "hybrid K not a multiple of 16 on the vendor table");
  o.rounding = MF_ROUND_TOWARD_ZERO;
  CHECK(mf_hybrid_matmul(MF_HYBRID_HF8, MF_HYBRID_HF8, MF_HYBRID_HF8, &o, a, 16, b, 1, &c, 1, 1, 1,
                         16) == MF_ERR_BAD_ROUNDING,
        "hybrid output rounding");
  mf_hybrid_options_init(&o);
  o.model = MF_MODEL_CHUNKED_EXACT;
  o.chunk = 0;
  CHECK(mf_hybrid_matmul(MF_HYBRID_HF8, MF_HYBRID_HF8, MF_HYBRID_HF8, &o, a, 16, b, 1, &c, 1, 1, 1,
                         16) == MF_ERR_HYBRID_REJECTED,
        "hybrid bad model parameter");
  mf_hybrid_options_init(&o);
  CHECK(mf_hybrid_matmul(MF_HYBRID_HF8, MF_HYBRID_HF8, MF_HYBRID_HF8, &o, a, 15, b, 1, &c, 1, 1, 1,
                         16) == MF_ERR_BAD_SIZE,
        "hybrid lda < k");
  /* The StableHLO FNUZ RFC's example, in E5M2: arange(16) dotted with
     itself is 1280 (0x65). */
  {
    static const unsigned int arange[16] = {0x00, 0x3c, 0x40, 0x42, 0x44, 0x45, 0x46, 0x47,
                                            0x48, 0x48, 0x49, 0x4a, 0x4a, 0x4a, 0x4b, 0x4c};
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
        "MF_ERR_BAD_SIZE", "MF_ERR_HYBRID_REJECTED", "MF_ERR_OUT_OF_MEMORY"};
    for (i = 0; i < sizeof names / sizeof names[0]; ++i) {
      CHECK(strcmp(mf_status_name((int)i), names[i]) == 0, "status %u is named %s", i,
            mf_status_name((int)i));
    }
    CHECK(strcmp(mf_status_name(13), "unknown status") == 0, "status 13");
    CHECK(strcmp(mf_status_name(-1), "unknown status") == 0, "status -1");
  }
}

/* --quick (the run against the shared library, which holds the same
 * objects as the static one: it checks the exports and the linking) skips
 * the edge set and samples fewer random inputs. */
int main(int argc, char** argv) {
  const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  int i;
  check_known_values();
  check_errors();
  for (i = 0; i < FORMAT_COUNT; ++i) {
    int bits = 0;
    CHECK(mf_format_bits(formats[i].id, &bits) == MF_OK && bits == formats[i].bits,
          "format_bits %s: %d", formats[i].name, bits);
    check_codes(&formats[i], !quick);
    check_random(&formats[i], quick ? 256 : 4096);
  }
  check_mx();
  check_hybrid();
  printf("c_api_test: %ld checks, %ld failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
