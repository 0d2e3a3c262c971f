/* C consumer smoke test: 1.5 encodes to E4M3FN 0x3C and decodes back, and
 * a bad format id is an error code. Exit status 0 when all hold. */
#include <minifloat/c_api.h>

int main(void) {
  unsigned int code = 0, bits = 0;
  if (mf_encode_f32(MF_FORMAT_E4M3FN, 0x3FC00000u, MF_ROUND_NEAREST_EVEN,
                    MF_OVERFLOW_NON_SATURATING, 0, 0, 0, &code) != MF_OK || code != 0x3Cu) {
    return 1;
  }
  if (mf_decode_f32(MF_FORMAT_E4M3FN, code, &bits) != MF_OK || bits != 0x3FC00000u) return 2;
  if (mf_decode_f32(MF_FORMAT_COUNT, 0, &bits) != MF_ERR_UNKNOWN_FORMAT) return 3;
  return 0;
}
