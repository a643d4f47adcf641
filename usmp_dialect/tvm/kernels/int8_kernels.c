/* The int8 kernels of `usmp-translate --emit-c` (usmp_dialect/tvm/fast_kernels.py):
 * CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD and AVERAGE_POOL_2D as TensorFlow Lite Micro's
 * reference kernels compute them, bit for bit. Two paths, chosen when the library is compiled:
 * Helium (M-profile Vector Extension, `__ARM_FEATURE_MVE`: a Cortex-M55), the DSP
 * extension's SIMD (`__ARM_FEATURE_SIMD32`: SXTB16, SMLAD, SMLAxy, a Cortex-M4 or M7) and
 * portable C (every other target, or -DUSMP_KERNELS_PORTABLE), the same bytes from each.
 *
 * The input zero point leaves the inner loops: sum (x - zp) * w = sum x * w - zp * sum w,
 * so a dot product is int8 by int8 (Helium's 16-lane VMLADAVA), the weights' sum taken
 * once per output channel (a tap outside the input adds nothing to either sum, as TFLM
 * skips it). The requantization is TFLM's MultiplyByQuantizedMultiplier with double
 * rounding (model_files/fixed_point.py), written without C's undefined behaviour: the
 * left shift is an unsigned one, its wrap to int32 the compiler's modulo conversion
 * (implementation-defined: GCC and clang wrap); Helium's VQRDMULH
 * is gemmlowp's SaturatingRoundingDoublingHighMul and VRSHL, after a -1 for a negative
 * value, its RoundingDivideByPOT. */
#include <stddef.h>
#include <stdint.h>
/* A model calls some kernels only: the others are no warning. */
#if defined(__GNUC__)
#define USMP_KERNEL static __attribute__((unused))
#define USMP_INLINE static inline __attribute__((always_inline))
#define USMP_NOINLINE static __attribute__((noinline))
/* A kernel that another calls too, kept out of it: inlined in usmp_conv_s8, the matrix
 * product's loop lost registers (person_detect +7%). */
#define USMP_KERNEL_NOINLINE static __attribute__((unused, noinline))
#else
#define USMP_KERNEL_NOINLINE static
#define USMP_NOINLINE static
#define USMP_KERNEL static
#define USMP_INLINE static inline
#endif
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(USMP_KERNELS_PORTABLE)
#define USMP_HELIUM 1
#include <arm_mve.h>
#elif defined(USMP_KERNELS_HELIUM_ONLY)
#error "the library was written with --target cortex-m55: compile it with Helium (-mcpu=cortex-m55)"
#elif defined(__ARM_FEATURE_SIMD32) && defined(__ARM_FEATURE_DSP) && !defined(USMP_KERNELS_PORTABLE)
#define USMP_DSP 1
#include <arm_acle.h>
#include <string.h>
#endif

/* A convolution's shapes, window and quantization: a constant of each operator; and
 * the output rows it computes, [row_begin, row_end) (a band of `tir-band-stages`, or
 * every row), its input and output in buffers of `in_rows` and `out_rows` rows: a
 * rolling buffer of fewer rows than the tensor holds its row r at r % rows. */
struct usmp_conv {
  int32_t in_h, in_w, in_c, out_h, out_w, out_c, k_h, k_w;
  int32_t stride_h, stride_w, pad_top, pad_left;
  int32_t input_zp, output_zp, act_min, act_max;
  int32_t multiplier, shift; /* every channel's, when `multipliers` is NULL */
  int32_t bias_bytes;        /* 0 (no bias), 1, 2 or 4: a bias stored narrower is widened */
  int32_t row_begin, row_end, in_rows, out_rows;
};

/* The output rows [*begin, *end) of `p`, clamped to the output's (as TVM's band loops). */
static void usmp_row_range(const struct usmp_conv* p, int32_t* begin, int32_t* end) {
  *begin = p->row_begin < 0 ? 0 : (p->row_begin > p->out_h ? p->out_h : p->row_begin);
  *end = p->row_end < *begin ? *begin : (p->row_end > p->out_h ? p->out_h : p->row_end);
}

/* Where row r of a tensor of rows of `row_bytes` is, in a buffer of `rows` rows. */
static ptrdiff_t usmp_row_at(int32_t r, int32_t rows, int32_t row_bytes) {
  return (ptrdiff_t)(r % rows) * row_bytes;
}

/* `x` a row down (`row_bytes`), in a buffer ending at `limit` of `size` bytes: its first
 * row after its last (a rolling buffer). */
static const int8_t* usmp_next_row(const int8_t* x, int32_t row_bytes, const int8_t* limit,
                                   ptrdiff_t size) {
  return limit - x > row_bytes ? x + row_bytes : x + row_bytes - size;
}

static int32_t usmp_bias(const void* bias, int32_t bytes, int32_t c) {
  switch (bytes) {
    case 1: return ((const int8_t*)bias)[c];
    case 2: return ((const int16_t*)bias)[c];
    case 4: return ((const int32_t*)bias)[c];
    default: return 0;
  }
}

/* The taps [*begin, *end) of a window of `k` taps from input index `start` (negative:
 * in the padding) that fall inside an input of `size`: TFLM skips the others. */
static void usmp_span(int32_t start, int32_t size, int32_t k, int32_t* begin, int32_t* end) {
  *begin = start < 0 ? -start : 0;
  *end = size - start < k ? size - start : k;
}

/* A channel's multiplier and its shift split into a left and a right one, clamped: taken
 * once per channel where a kernel requantizes many outputs of it. */
struct usmp_scale {
  int32_t multiplier, left, right;
};

static struct usmp_scale usmp_scale_of(int32_t multiplier, int32_t shift) {
  const struct usmp_scale s = {multiplier, shift > 0 ? (shift < 31 ? shift : 31) : 0,
                               shift < 0 ? (shift > -31 ? -shift : 31) : 0};
  return s;
}

/* TFLM's MultiplyByQuantizedMultiplier (double rounding) of `acc`: the left shift wraps
 * as an unsigned one; gemmlowp's SaturatingRoundingDoublingHighMul as one 32x32->64
 * product (SMULL), saturating its one overflow; RoundingDivideByPOT by mask and
 * threshold. All in 32 bits but the product (a 64-bit add and shift were 40 instructions
 * an output on a Cortex-M4). */
USMP_INLINE int32_t usmp_requantize_by(int32_t acc, struct usmp_scale s) {
  const int32_t scaled = (int32_t)((uint32_t)acc << s.left);
  const int64_t product = (int64_t)scaled * s.multiplier;
  const int32_t high = scaled == INT32_MIN && s.multiplier == INT32_MIN
                           ? INT32_MAX
                           : (int32_t)((product + ((int64_t)1 << 30)) >> 31);
  const int32_t mask = (int32_t)((1u << s.right) - 1u);
  const int32_t threshold = (mask >> 1) + (high < 0);
  return (high >> s.right) + ((high & mask) > threshold);
}

static int32_t usmp_requantize(int32_t acc, int32_t multiplier, int32_t shift) {
  return usmp_requantize_by(acc, usmp_scale_of(multiplier, shift));
}

/* The output's int8: clamped before the zero point is added, so nothing overflows. */
static int8_t usmp_output(int32_t acc, int32_t multiplier, int32_t shift,
                          const struct usmp_conv* p) {
  const int32_t value = usmp_requantize(acc, multiplier, shift);
  const int32_t low = p->act_min - p->output_zp, high = p->act_max - p->output_zp;
  return (int8_t)((value < low ? low : value > high ? high : value) + p->output_zp);
}

static void usmp_channel_scale(const int32_t* multipliers, const int8_t* shifts, int32_t c,
                               const struct usmp_conv* p, int32_t* multiplier,
                               int32_t* shift) {
  *multiplier = multipliers ? multipliers[c] : p->multiplier;
  *shift = multipliers ? shifts[c] : p->shift;
}

#if defined(USMP_HELIUM)
/* A shift of TFLM's multiplier as its left shift and VRSHL's (-right) rounding shift. */
static void usmp_shifts_x4(int32x4_t shift, int32x4_t* left, int32x4_t* right) {
  const int32x4_t zero = vdupq_n_s32(0);
  *left = vminq_s32(vmaxq_s32(shift, zero), vdupq_n_s32(31));
  *right = vminq_s32(shift, zero);
}

/* TFLM's MultiplyByQuantizedMultiplier on four lanes, each its own multiplier and shift
 * (split by usmp_shifts_x4). */
static int32x4_t usmp_multiply_lr_x4(int32x4_t acc, int32x4_t multiplier, int32x4_t left,
                                     int32x4_t right) {
  int32x4_t high = vqrdmulhq_s32(vshlq_s32(acc, left), multiplier);
  /* -1 where high < 0 and right > 0: then VRSHL's half up is TFLM's half away from 0. */
  int32x4_t below = vshrq_n_s32(vandq_s32(high, right), 31);
  return vrshlq_s32(vqaddq_s32(high, below), right);
}

static int32x4_t usmp_multiply_x4(int32x4_t acc, int32x4_t multiplier, int32x4_t shift) {
  int32x4_t left, right;
  usmp_shifts_x4(shift, &left, &right);
  return usmp_multiply_lr_x4(acc, multiplier, left, right);
}

/* That, plus the output's zero point, clamped to the activation's range. */
static int32x4_t usmp_requantize_x4(int32x4_t acc, int32x4_t multiplier, int32x4_t shift,
                                    const struct usmp_conv* p) {
  int32x4_t value = vqaddq_n_s32(usmp_multiply_x4(acc, multiplier, shift), p->output_zp);
  return vminq_s32(vmaxq_s32(value, vdupq_n_s32(p->act_min)), vdupq_n_s32(p->act_max));
}

/* The requantized outputs of a block of pixels: the shifts split and the output's zero
 * point and range taken once for every vector of the block. */
struct usmp_requant_x4 {
  int32x4_t multiplier, left, right, low, high;
  int32_t output_zp;
};

static struct usmp_requant_x4 usmp_requant_x4(int32x4_t multiplier, int32x4_t shift,
                                              const struct usmp_conv* p) {
  struct usmp_requant_x4 q;
  q.multiplier = multiplier;
  usmp_shifts_x4(shift, &q.left, &q.right);
  q.low = vdupq_n_s32(p->act_min);
  q.high = vdupq_n_s32(p->act_max);
  q.output_zp = p->output_zp;
  return q;
}

static int32x4_t usmp_requantize_q_x4(int32x4_t acc, const struct usmp_requant_x4* q) {
  const int32x4_t value = usmp_multiply_lr_x4(acc, q->multiplier, q->left, q->right);
  return vminq_s32(vmaxq_s32(vqaddq_n_s32(value, q->output_zp), q->low), q->high);
}

static int32_t usmp_dot(const int8_t* x, const int8_t* w, int32_t n) {
  int32_t acc = 0;
  for (; n >= 16; n -= 16, x += 16, w += 16) acc = vmladavaq_s8(acc, vldrbq_s8(x), vldrbq_s8(w));
  if (n > 0) {
    mve_pred16_t tail = vctp8q((uint32_t)n);
    acc = vmladavaq_p_s8(acc, vldrbq_z_s8(x, tail), vldrbq_z_s8(w, tail), tail);
  }
  return acc;
}

static int32_t usmp_sum(const int8_t* w, int32_t n) {
  int32_t acc = 0;
  for (; n >= 16; n -= 16, w += 16) acc = vaddvaq_s8(acc, vldrbq_s8(w));
  if (n > 0) {
    mve_pred16_t tail = vctp8q((uint32_t)n);
    acc = vaddvaq_p_s8(acc, vldrbq_z_s8(w, tail), tail);
  }
  return acc;
}
/* The bias of channels c..c+3 (those of `lanes`), widened. */
static int32x4_t usmp_bias_x4(const void* bias, int32_t bytes, int32_t c, mve_pred16_t lanes) {
  switch (bytes) {
    case 1: return vldrbq_z_s32((const int8_t*)bias + c, lanes);
    case 2: return vldrhq_z_s32((const int16_t*)bias + c, lanes);
    case 4: return vldrwq_z_s32((const int32_t*)bias + c, lanes);
    default: return vdupq_n_s32(0);
  }
}

/* The multipliers and shifts of channels c..c+3. */
static void usmp_scale_x4(const int32_t* multipliers, const int8_t* shifts, int32_t c,
                          mve_pred16_t lanes, const struct usmp_conv* p,
                          int32x4_t* multiplier, int32x4_t* shift) {
  *multiplier = multipliers ? vldrwq_z_s32(multipliers + c, lanes) : vdupq_n_s32(p->multiplier);
  *shift = multipliers ? vldrbq_z_s32(shifts + c, lanes) : vdupq_n_s32(p->shift);
}

/* Channels c..c+3 (those of `lanes`) of one output pixel: `acc` plus the bias,
 * requantized by each channel's multiplier and shift, stored. */
static void usmp_store_x4(int8_t* out, int32x4_t acc, int32_t c, mve_pred16_t lanes,
                          const void* bias, const int32_t* multipliers, const int8_t* shifts,
                          const struct usmp_conv* p) {
  acc = vaddq_s32(acc, usmp_bias_x4(bias, p->bias_bytes, c, lanes));
  int32x4_t multiplier, shift;
  usmp_scale_x4(multipliers, shifts, c, lanes, p, &multiplier, &shift);
  vstrbq_p_s32(out + c, usmp_requantize_x4(acc, multiplier, shift, p), lanes);
}

static int32x4_t usmp_lanes(int32_t a0, int32_t a1, int32_t a2, int32_t a3) {
  int32x4_t v = vdupq_n_s32(a0);
  v = vsetq_lane_s32(a1, v, 1);
  v = vsetq_lane_s32(a2, v, 2);
  return vsetq_lane_s32(a3, v, 3);
}

/* Depthwise taps of the channels of `lanes`: `rows` x `cols` taps from x and w (steps
 * between taps `channels`, between rows `x_row` and `w_row`), the input less its zero
 * point. */
static int32x4_t usmp_taps_p_x4(const int8_t* x, const int8_t* w, int32_t rows, int32_t cols,
                                int32_t x_row, int32_t w_row, int32_t channels, int32x4_t zp,
                                mve_pred16_t lanes) {
  int32x4_t acc = vdupq_n_s32(0);
  for (int32_t r = 0; r < rows; ++r, x += x_row, w += w_row) {
    const int8_t* xt = x;
    const int8_t* wt = w;
    for (int32_t t = 0; t < cols; ++t, xt += channels, wt += channels) {
      int32x4_t xv = vsubq_s32(vldrbq_z_s32(xt, lanes), zp);
      acc = vaddq_s32(acc, vmulq_s32(xv, vldrbq_z_s32(wt, lanes)));
    }
  }
  return acc;
}
#elif defined(USMP_DSP)
/* Four int8 as one word (an unaligned load: the M4's LDR takes one). */
static uint32_t usmp_word(const int8_t* p) {
  uint32_t word;
  memcpy(&word, p, sizeof word);
  return word;
}

/* Bytes 1 and 3 of a word in its halfwords, sign-extended (SXTB16 of it rotated by 8);
 * __sxtb16 of the word itself gives bytes 0 and 2. Which byte goes with which does not
 * matter to a dot product as long as both operands are split alike. ACLE has no rotated
 * SXTB16 and GCC 12 does not fold the rotation in: one instruction, not two. */
static int16x2_t usmp_odd(uint32_t word) {
  int16x2_t odd;
  __asm("sxtb16 %0, %1, ror #8" : "=r"(odd) : "r"(word));
  return odd;
}

/* The output's int8: clamped to [low, high] (the activation's range less the zero point)
 * before the zero point is added, so nothing overflows. */
USMP_INLINE int8_t usmp_output_by(int32_t acc, struct usmp_scale s, int32_t low, int32_t high,
                                  int32_t zp) {
  const int32_t value = usmp_requantize_by(acc, s);
  return (int8_t)((value < low ? low : value > high ? high : value) + zp);
}

static int32_t usmp_dot(const int8_t* x, const int8_t* w, int32_t n) {
  int32_t acc = 0, i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t xv = usmp_word(x + i), wv = usmp_word(w + i);
    acc = __smlad(__sxtb16((int8x4_t)xv), __sxtb16((int8x4_t)wv), acc);
    acc = __smlad(usmp_odd(xv), usmp_odd(wv), acc);
  }
  for (; i < n; ++i) acc += (int32_t)x[i] * w[i];
  return acc;
}

static int32_t usmp_sum(const int8_t* w, int32_t n) {
  const int16x2_t ones = 0x00010001;
  int32_t acc = 0, i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t wv = usmp_word(w + i);
    acc = __smlad(__sxtb16((int8x4_t)wv), ones, acc);
    acc = __smlad(usmp_odd(wv), ones, acc);
  }
  for (; i < n; ++i) acc += w[i];
  return acc;
}

/* Two rows (x0 and x0 + step) by two channels' weights (w0 and w0 + step), `depth` int8
 * each: four dot products added to acc, {x0.w0, x0.w1, x1.w0, x1.w1}, each operand
 * loaded and widened once for two of them. The loop is written out: 4 loads, 8 SXTB16
 * and 8 SMLAD for 16 products, 22 instructions with the count (GCC 12 spilled one of the
 * 14 registers it needs and took 25). */
USMP_INLINE void usmp_dot_2x2(const int8_t* x0, const int8_t* w0, int32_t step, int32_t depth,
                              int32_t acc[4]) {
  int32_t a00 = acc[0], a01 = acc[1], a10 = acc[2], a11 = acc[3];
  int32_t n = depth >> 2;
  if (n > 0) {
    uint32_t xa, xb, xc, xd, wv, wp;
    __asm("1:\n\t"
          "ldr %[xd], [%[x], %[step]]\n\t"
          "ldr %[xb], [%[x]], #4\n\t"
          "sxtb16 %[xc], %[xd]\n\t"
          "sxtb16 %[xd], %[xd], ror #8\n\t"
          "sxtb16 %[xa], %[xb]\n\t"
          "sxtb16 %[xb], %[xb], ror #8\n\t"
          "ldr %[wv], [%[w], %[step]]\n\t"
          "sxtb16 %[wp], %[wv]\n\t"
          "sxtb16 %[wv], %[wv], ror #8\n\t"
          "smlad %[a01], %[xa], %[wp], %[a01]\n\t"
          "smlad %[a11], %[xc], %[wp], %[a11]\n\t"
          "smlad %[a01], %[xb], %[wv], %[a01]\n\t"
          "smlad %[a11], %[xd], %[wv], %[a11]\n\t"
          "ldr %[wv], [%[w]], #4\n\t"
          "sxtb16 %[wp], %[wv]\n\t"
          "sxtb16 %[wv], %[wv], ror #8\n\t"
          "smlad %[a00], %[xa], %[wp], %[a00]\n\t"
          "smlad %[a10], %[xc], %[wp], %[a10]\n\t"
          "smlad %[a00], %[xb], %[wv], %[a00]\n\t"
          "smlad %[a10], %[xd], %[wv], %[a10]\n\t"
          "subs %[n], %[n], #1\n\t"
          "bne 1b"
          : [a00] "+r"(a00), [a01] "+r"(a01), [a10] "+r"(a10), [a11] "+r"(a11),
            [x] "+r"(x0), [w] "+r"(w0), [n] "+r"(n), [xa] "=&r"(xa), [xb] "=&r"(xb),
            [xc] "=&r"(xc), [xd] "=&r"(xd), [wv] "=&r"(wv), [wp] "=&r"(wp)
          : [step] "r"(step)
          : "cc", "memory");
  }
  for (int32_t i = 0; i < (depth & 3); ++i) {
    const int8_t* x1 = x0 + step;
    const int8_t* w1 = w0 + step;
    a00 += (int32_t)x0[i] * w0[i];
    a01 += (int32_t)x0[i] * w1[i];
    a10 += (int32_t)x1[i] * w0[i];
    a11 += (int32_t)x1[i] * w1[i];
  }
  acc[0] = a00;
  acc[1] = a01;
  acc[2] = a10;
  acc[3] = a11;
}

/* usmp_dot_2x2 of `channels` (1 or 2) channels, a constant where it is inlined: the last
 * of an odd count has no weights after its own. */
USMP_INLINE void usmp_dot_2xc(const int8_t* x0, const int8_t* w0, int32_t step, int32_t depth,
                              const int32_t channels, int32_t acc[4]) {
  if (channels == 2) {
    usmp_dot_2x2(x0, w0, step, depth, acc);
  } else {
    acc[0] += usmp_dot(x0, w0, depth);
    acc[2] += usmp_dot(x0 + step, w0, depth);
  }
}

/* The requantization of two output channels of a kernel: their bias less the zero
 * point's share, their scales, the output's range less its zero point. */
struct usmp_pair_out {
  int32_t base[2];
  struct usmp_scale scale[2];
  int32_t low, high, zp;
};

/* Output channel c's bias less the input's zero point times the sum of its weights, `depth`
 * of them: its whole share, for a window inside the input or the zero point outside it. */
static int32_t usmp_inside(const int8_t* w, const void* bias, int32_t c, int32_t depth,
                           const struct usmp_conv* p) {
  const int32_t sum = usmp_sum(w + (ptrdiff_t)c * depth, depth);
  return usmp_bias(bias, p->bias_bytes, c) - p->input_zp * sum;
}

/* Channels c and c + 1 (`channels` of them: 1 or 2; one channel is computed twice), their
 * bases given. */
static struct usmp_pair_out usmp_pair_of(const int32_t* multipliers, const int8_t* shifts,
                                         int32_t c, int32_t channels, int32_t base0,
                                         int32_t base1, const struct usmp_conv* p) {
  struct usmp_pair_out o = {{base0, channels > 1 ? base1 : base0}, {{0, 0, 0}, {0, 0, 0}},
                            p->act_min - p->output_zp, p->act_max - p->output_zp,
                            p->output_zp};
  for (int32_t k = 0; k < channels; ++k) {
    int32_t multiplier, shift;
    usmp_channel_scale(multipliers, shifts, c + k, p, &multiplier, &shift);
    o.scale[k] = usmp_scale_of(multiplier, shift);
  }
  if (channels < 2) o.scale[1] = o.scale[0];
  return o;
}

/* Two rows' outputs of a channel pair: y0 and y1 (NULL: one row) at the pair's first. */
USMP_INLINE void usmp_pair_store(const int32_t acc[4], const struct usmp_pair_out* o,
                                 int32_t channels, int8_t* y0, int8_t* y1) {
  y0[0] = usmp_output_by(acc[0], o->scale[0], o->low, o->high, o->zp);
  if (channels > 1) y0[1] = usmp_output_by(acc[1], o->scale[1], o->low, o->high, o->zp);
  if (!y1) return;
  y1[0] = usmp_output_by(acc[2], o->scale[0], o->low, o->high, o->zp);
  if (channels > 1) y1[1] = usmp_output_by(acc[3], o->scale[1], o->low, o->high, o->zp);
}

/* Channels c and c + 1 of the matrix product (usmp_matmul_s8), two rows a time;
 * `channels`: usmp_dot_2xc's. */
USMP_INLINE void usmp_matmul_channels(const int8_t* x, const int8_t* w, const void* bias,
                                      const int32_t* multipliers, const int8_t* shifts,
                                      int8_t* y, int32_t rows, int32_t depth, int32_t units,
                                      const struct usmp_conv* p, int32_t c,
                                      const int32_t channels) {
  const struct usmp_pair_out o = usmp_pair_of(
      multipliers, shifts, c, channels, usmp_inside(w, bias, c, depth, p),
      usmp_inside(w, bias, c + channels - 1, depth, p), p);
  const int8_t* w0 = w + (ptrdiff_t)c * depth;
  const int8_t* w1 = w0 + (channels - 1) * depth;
  int8_t* yr = y + c;
  int32_t row = 0;
  for (; row + 2 <= rows; row += 2, x += 2 * depth, yr += 2 * units) {
    int32_t acc[4] = {o.base[0], o.base[1], o.base[0], o.base[1]};
    usmp_dot_2xc(x, w0, depth, depth, channels, acc);
    usmp_pair_store(acc, &o, channels, yr, yr + units);
  }
  if (row < rows) {
    const int32_t acc[4] = {o.base[0] + usmp_dot(x, w0, depth), o.base[1] + usmp_dot(x, w1, depth)};
    usmp_pair_store(acc, &o, channels, yr, NULL);
  }
}

/* The matrix product (usmp_matmul_s8), two rows by two channels a time. */
static void usmp_matmul_2x2(const int8_t* x, const int8_t* w, const void* bias,
                            const int32_t* multipliers, const int8_t* shifts, int8_t* y,
                            int32_t rows, int32_t depth, int32_t units,
                            const struct usmp_conv* p) {
  int32_t c = 0;
  for (; c + 2 <= units; c += 2)
    usmp_matmul_channels(x, w, bias, multipliers, shifts, y, rows, depth, units, p, c, 2);
  if (c < units)
    usmp_matmul_channels(x, w, bias, multipliers, shifts, y, rows, depth, units, p, c, 1);
}
#else
static int32_t usmp_dot(const int8_t* x, const int8_t* w, int32_t n) {
  int32_t acc = 0;
  for (int32_t i = 0; i < n; ++i) acc += (int32_t)x[i] * w[i];
  return acc;
}

static int32_t usmp_sum(const int8_t* w, int32_t n) {
  int32_t acc = 0;
  for (int32_t i = 0; i < n; ++i) acc += w[i];
  return acc;
}
#endif

#if defined(USMP_HELIUM)
/* One output channel of the rows of a matrix product, four rows a time (one load of the
 * weights for four dot products), the scalars of its requantization kept in registers;
 * the rows done (a multiple of four), the rest left to the caller. */
static int32_t usmp_matmul_rows_x4(const int8_t* x, const int8_t* weights, int8_t* y,
                                   int32_t rows, int32_t depth, int32_t units, int32_t base,
                                   int32_t multiplier, int32_t shift,
                                   const struct usmp_conv* p) {
  const int32_t left = shift > 0 ? (shift < 31 ? shift : 31) : 0;
  const int32_t right = shift < 0 ? shift : 0; /* -right: VRSHL's shift */
  const int32_t output_zp = p->output_zp;
  const int32x4_t low = vdupq_n_s32(p->act_min), high = vdupq_n_s32(p->act_max);
  const uint32x4_t offsets = vmulq_n_u32(vidupq_n_u32(0, 1), (uint32_t)units);
  const int32_t blocks = depth >> 4, tail = depth & 15;
  const mve_pred16_t last = vctp8q((uint32_t)tail);
  int32_t row = 0;
  for (; row + 4 <= rows; row += 4, y += 4 * units) {
    const int8_t* x0 = x;
    const int8_t* x1 = x0 + depth;
    const int8_t* x2 = x1 + depth;
    const int8_t* x3 = x2 + depth;
    const int8_t* wk = weights;
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int32_t b = blocks; b > 0; --b) {
      int8x16_t wv = vldrbq_s8(wk);
      wk += 16;
      a0 = vmladavaq_s8(a0, vldrbq_s8(x0), wv);
      x0 += 16;
      a1 = vmladavaq_s8(a1, vldrbq_s8(x1), wv);
      x1 += 16;
      a2 = vmladavaq_s8(a2, vldrbq_s8(x2), wv);
      x2 += 16;
      a3 = vmladavaq_s8(a3, vldrbq_s8(x3), wv);
      x3 += 16;
    }
    if (tail) {
      int8x16_t wv = vldrbq_z_s8(wk, last);
      a0 = vmladavaq_p_s8(a0, vldrbq_z_s8(x0, last), wv, last);
      a1 = vmladavaq_p_s8(a1, vldrbq_z_s8(x1, last), wv, last);
      a2 = vmladavaq_p_s8(a2, vldrbq_z_s8(x2, last), wv, last);
      a3 = vmladavaq_p_s8(a3, vldrbq_z_s8(x3, last), wv, last);
    }
    x = x3 + tail; /* the next four rows' first (x3 stepped over its whole blocks) */
    /* usmp_requantize_x4 with one multiplier and shift, as scalars; the base added to the
     * four sums at once. */
    int32x4_t value = vaddq_n_s32(usmp_lanes(a0, a1, a2, a3), base);
    value = vqrdmulhq_n_s32(vshlq_r_s32(value, left), multiplier);
    if (right) value = vqaddq_s32(value, vshrq_n_s32(value, 31));
    value = vqaddq_n_s32(vrshlq_n_s32(value, right), output_zp);
    vstrbq_scatter_offset_s32(y, offsets, vminq_s32(vmaxq_s32(value, low), high));
  }
  return row;
}
#endif

/* y[rows][units] = x[rows][depth] . w[units][depth]: FULLY_CONNECTED, and a 1x1 CONV_2D
 * of stride 1 without padding (rows = pixels). */
USMP_KERNEL_NOINLINE void usmp_matmul_s8(const int8_t* x, const int8_t* w, const void* bias,
                           const int32_t* multipliers, const int8_t* shifts, int8_t* y,
                           int32_t rows, int32_t depth, int32_t units,
                           const struct usmp_conv* p) {
#if defined(USMP_DSP)
  usmp_matmul_2x2(x, w, bias, multipliers, shifts, y, rows, depth, units, p);
  return;
#endif
  int32_t c = 0;
  for (; c < units; ++c) {
    const int8_t* weights = w + (ptrdiff_t)c * depth;
    int32_t base = usmp_bias(bias, p->bias_bytes, c) - p->input_zp * usmp_sum(weights, depth);
    int32_t multiplier, shift;
    usmp_channel_scale(multipliers, shifts, c, p, &multiplier, &shift);
    int32_t row = 0;
#if defined(USMP_HELIUM)
    row = usmp_matmul_rows_x4(x, weights, y + c, rows, depth, units, base, multiplier, shift, p);
#endif
    for (; row < rows; ++row) {
      int32_t acc = base + usmp_dot(x + (ptrdiff_t)row * depth, weights, depth);
      y[(ptrdiff_t)row * units + c] = usmp_output(acc, multiplier, shift, p);
    }
  }
}

#if defined(USMP_HELIUM)
/* CONV_2D, four output channels a time over every pixel of the output rows: one load of
 * the input for four dot products; the channels' bias, multipliers, shifts and weights'
 * sum (less the zero point's share, for a window inside the input) loaded once.
 * `rolling`: the input is a rolling buffer, a window's rows may cross its end (a
 * constant where it is inlined: the other copy has no such check). */
USMP_INLINE void usmp_conv_rows_x4(const int8_t* x, const int8_t* w, const void* bias,
                                   const int32_t* multipliers, const int8_t* shifts, int8_t* y,
                                   const struct usmp_conv* params, const int rolling) {
  const struct usmp_conv copy = *params; /* not reread after each store through y */
  const struct usmp_conv* p = &copy;
  const int32_t filter = p->k_h * p->k_w * p->in_c;
  const int32_t x_row = p->in_w * p->in_c, w_row = p->k_w * p->in_c, y_row = p->out_w * p->out_c;
  const ptrdiff_t x_size = (ptrdiff_t)p->in_rows * x_row;
  int32_t begin, end;
  usmp_row_range(p, &begin, &end);
  for (int32_t c = 0; c < p->out_c; c += 4) {
    const int32_t left = p->out_c - c;
    const mve_pred16_t lanes = vctp32q((uint32_t)left);
    const int8_t* f0 = w + (ptrdiff_t)c * filter;
    const int8_t* f1 = left > 1 ? f0 + filter : f0;
    const int8_t* f2 = left > 2 ? f1 + filter : f0;
    const int8_t* f3 = left > 3 ? f2 + filter : f0;
    const int32x4_t b = usmp_bias_x4(bias, p->bias_bytes, c, lanes);
    int32x4_t multiplier, shift;
    usmp_scale_x4(multipliers, shifts, c, lanes, p, &multiplier, &shift);
    const int32x4_t full = usmp_lanes(usmp_sum(f0, filter), usmp_sum(f1, filter),
                                      usmp_sum(f2, filter), usmp_sum(f3, filter));
    const int32x4_t inside = vsubq_s32(b, vmulq_n_s32(full, p->input_zp));
    for (int32_t oy = begin; oy < end; ++oy) {
      const int32_t y0 = oy * p->stride_h - p->pad_top;
      int32_t kh0, kh1;
      usmp_span(y0, p->in_h, p->k_h, &kh0, &kh1);
      const int32_t slot = (y0 + kh0) % p->in_rows;
      const int32_t last = kh0 + p->in_rows - slot - 1; /* the kh of the buffer's last row */
      const int8_t* x_first = x + (ptrdiff_t)slot * x_row;
      int8_t* out = y + usmp_row_at(oy, p->out_rows, y_row) + c;
      for (int32_t ox = 0; ox < p->out_w; ++ox, out += p->out_c) {
        const int32_t x0 = ox * p->stride_w - p->pad_left;
        int32_t kw0, kw1;
        usmp_span(x0, p->in_w, p->k_w, &kw0, &kw1);
        const int32_t run = (kw1 - kw0) * p->in_c;
        const ptrdiff_t start = ((ptrdiff_t)kh0 * p->k_w + kw0) * p->in_c;
        const int8_t* xr = x_first + (ptrdiff_t)(x0 + kw0) * p->in_c;
        const int8_t* w0 = f0 + start;
        const int8_t* w1 = f1 + start;
        const int8_t* w2 = f2 + start;
        const int8_t* w3 = f3 + start;
        int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (int32_t kh = kh0; kh < kh1; xr += rolling && kh == last ? x_row - x_size : x_row, ++kh,
                     w0 += w_row, w1 += w_row, w2 += w_row, w3 += w_row) {
          for (int32_t k = 0; k < run; k += 16) {
            mve_pred16_t tail = vctp8q((uint32_t)(run - k));
            int8x16_t xv = vldrbq_z_s8(xr + k, tail);
            a0 = vmladavaq_s8(a0, xv, vldrbq_z_s8(w0 + k, tail));
            a1 = vmladavaq_s8(a1, xv, vldrbq_z_s8(w1 + k, tail));
            a2 = vmladavaq_s8(a2, xv, vldrbq_z_s8(w2 + k, tail));
            a3 = vmladavaq_s8(a3, xv, vldrbq_z_s8(w3 + k, tail));
          }
        }
        int32x4_t acc = usmp_lanes(a0, a1, a2, a3);
        if (kh1 - kh0 == p->k_h && run == w_row) {
          acc = vaddq_s32(acc, inside);
        } else { /* a window across the input's edge: the weights' sum of its taps */
          int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
          for (int32_t kh = kh0; kh < kh1; ++kh) {
            const ptrdiff_t at = ((ptrdiff_t)kh * p->k_w + kw0) * p->in_c;
            s0 += usmp_sum(f0 + at, run);
            s1 += usmp_sum(f1 + at, run);
            s2 += usmp_sum(f2 + at, run);
            s3 += usmp_sum(f3 + at, run);
          }
          acc = vaddq_s32(vsubq_s32(acc, vmulq_n_s32(usmp_lanes(s0, s1, s2, s3), p->input_zp)), b);
        }
        vstrbq_p_s32(out, usmp_requantize_x4(acc, multiplier, shift, p), lanes);
      }
    }
  }
}
#endif

#if defined(USMP_HELIUM)
/* The bounds of usmp_conv_cols_x4's stack: a window's taps (3x3x64 and 10x4x1 fit), the
 * output channels' constants. A larger convolution takes usmp_conv_rows_x4. */
#define USMP_COLS 640
#define USMP_CHANNELS 128

/* n bytes of `value` at dst. */
static void usmp_fill(int8_t* dst, int8_t value, int32_t n) {
  const int8x16_t v = vdupq_n_s8(value);
  for (int32_t k = 0; k < n; k += 16) vstrbq_p_s8(dst + k, v, vctp8q((uint32_t)(n - k)));
}

/* n bytes of src at dst: whole blocks of 16 unpredicated, then the rest. */
static void usmp_copy(int8_t* dst, const int8_t* src, int32_t n) {
  for (; n >= 16; n -= 16, dst += 16, src += 16) vstrbq_s8(dst, vldrbq_s8(src));
  if (n > 0) {
    const mve_pred16_t part = vctp8q((uint32_t)n);
    vstrbq_p_s8(dst, vldrbq_z_s8(src, part), part);
  }
}

/* Four output channels of one pixel of usmp_conv_cols_x4 (`lanes` of them: the weights of
 * the others are w0's): its window in `cols`, the channels' bias less the zero point's
 * share in `inside`. */
USMP_INLINE void usmp_cols_channels_x4(const int8_t* cols, const int8_t* w0, const int8_t* w1,
                                       const int8_t* w2, const int8_t* w3, int32_t filter,
                                       int32x4_t inside, int32x4_t multiplier, int32x4_t shift,
                                       mve_pred16_t lanes, int8_t* out,
                                       const struct usmp_conv* p) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (int32_t b = filter >> 4; b > 0; --b) {
    const int8x16_t xv = vldrbq_s8(cols);
    cols += 16;
    a0 = vmladavaq_s8(a0, xv, vldrbq_s8(w0));
    w0 += 16;
    a1 = vmladavaq_s8(a1, xv, vldrbq_s8(w1));
    w1 += 16;
    a2 = vmladavaq_s8(a2, xv, vldrbq_s8(w2));
    w2 += 16;
    a3 = vmladavaq_s8(a3, xv, vldrbq_s8(w3));
    w3 += 16;
  }
  if (filter & 15) {
    const mve_pred16_t last = vctp8q((uint32_t)(filter & 15));
    const int8x16_t xv = vldrbq_z_s8(cols, last);
    a0 = vmladavaq_p_s8(a0, xv, vldrbq_z_s8(w0, last), last);
    a1 = vmladavaq_p_s8(a1, xv, vldrbq_z_s8(w1, last), last);
    a2 = vmladavaq_p_s8(a2, xv, vldrbq_z_s8(w2, last), last);
    a3 = vmladavaq_p_s8(a3, xv, vldrbq_z_s8(w3, last), last);
  }
  const int32x4_t acc = vaddq_s32(usmp_lanes(a0, a1, a2, a3), inside);
  vstrbq_p_s32(out, usmp_requantize_x4(acc, multiplier, shift, p), lanes);
}

/* One output pixel of usmp_conv_cols_x4, every channel. */
USMP_INLINE void usmp_cols_pixel_x4(const int8_t* cols, const int8_t* w, const int32_t* inside,
                                      const int32_t* multipliers, const int8_t* shifts,
                                      int8_t* out, int32_t filter, const struct usmp_conv* p) {
  const int32_t out_c = p->out_c;
  int32_t c = 0;
  for (; c + 4 <= out_c; c += 4) {
    const int8_t* w0 = w + (ptrdiff_t)c * filter;
    const int32x4_t multiplier =
        multipliers ? vldrwq_s32(multipliers + c) : vdupq_n_s32(p->multiplier);
    const int32x4_t shift = multipliers ? vldrbq_s32(shifts + c) : vdupq_n_s32(p->shift);
    usmp_cols_channels_x4(cols, w0, w0 + filter, w0 + 2 * filter, w0 + 3 * filter, filter,
                          vldrwq_s32(inside + c), multiplier, shift, vctp32q(4), out + c, p);
  }
  if (c < out_c) {
    const int32_t left = out_c - c;
    const mve_pred16_t lanes = vctp32q((uint32_t)left);
    const int8_t* w0 = w + (ptrdiff_t)c * filter;
    int32x4_t multiplier, shift;
    usmp_scale_x4(multipliers, shifts, c, lanes, p, &multiplier, &shift);
    usmp_cols_channels_x4(cols, w0, left > 1 ? w0 + filter : w0, left > 2 ? w0 + 2 * filter : w0,
                          w0, filter, vldrwq_z_s32(inside + c, lanes), multiplier, shift, lanes,
                          out + c, p);
  }
}

/* CONV_2D of a window of at most USMP_COLS taps, pixel by pixel: the window copied into
 * `cols` in the filter's order (an im2col of one pixel), a tap outside the input as the
 * input's zero point, so that every window is one dot product of `filter` bytes less the
 * zero point's share of the whole filter (no edge case); four output channels a time
 * share each load of the window. Each channel's bias less that share is taken once, into
 * `inside`. */
static void usmp_conv_cols_x4(const int8_t* x, const int8_t* w, const void* bias,
                              const int32_t* multipliers, const int8_t* shifts, int8_t* y,
                              const struct usmp_conv* params) {
  const struct usmp_conv copy = *params; /* not reread after each store through y */
  const struct usmp_conv* p = &copy;
  int8_t cols[USMP_COLS];
  int32_t inside[USMP_CHANNELS];
  const int32_t filter = p->k_h * p->k_w * p->in_c, out_c = p->out_c;
  const int32_t x_row = p->in_w * p->in_c, w_row = p->k_w * p->in_c, y_row = p->out_w * out_c;
  const int8_t zp = (int8_t)p->input_zp;
  const ptrdiff_t x_size = (ptrdiff_t)p->in_rows * x_row;
  for (int32_t c = 0; c < out_c; ++c)
    inside[c] = usmp_bias(bias, p->bias_bytes, c) -
                p->input_zp * usmp_sum(w + (ptrdiff_t)c * filter, filter);
  int32_t begin, end;
  usmp_row_range(p, &begin, &end);
  for (int32_t oy = begin; oy < end; ++oy) {
    const int32_t y0 = oy * p->stride_h - p->pad_top;
    int32_t kh0, kh1;
    usmp_span(y0, p->in_h, p->k_h, &kh0, &kh1);
    int8_t* out = y + usmp_row_at(oy, p->out_rows, y_row);
    const int8_t* x_first = x + usmp_row_at(y0 + kh0, p->in_rows, x_row);
    for (int32_t ox = 0; ox < p->out_w; ++ox, out += out_c) {
      const int32_t x0 = ox * p->stride_w - p->pad_left;
      int32_t kw0, kw1;
      usmp_span(x0, p->in_w, p->k_w, &kw0, &kw1);
      const int32_t before = kw0 * p->in_c, run = (kw1 - kw0) * p->in_c;
      const int8_t* xr = x_first + (ptrdiff_t)(x0 + kw0) * p->in_c;
      int8_t* dst = cols + (ptrdiff_t)kh0 * w_row;
      usmp_fill(cols, zp, kh0 * w_row);
      const int8_t* limit = x + x_size;
      if (run == w_row) { /* the window's rows whole: copies only */
        for (int32_t kh = kh0; kh < kh1; ++kh, dst += w_row) {
          usmp_copy(dst, xr, w_row);
          xr = usmp_next_row(xr, x_row, limit, x_size);
        }
      } else {
        for (int32_t kh = kh0; kh < kh1; ++kh, dst += w_row) {
          usmp_fill(dst, zp, before);
          usmp_copy(dst + before, xr, run);
          usmp_fill(dst + before + run, zp, w_row - before - run);
          xr = usmp_next_row(xr, x_row, limit, x_size);
        }
      }
      usmp_fill(dst, zp, (p->k_h - kh1) * w_row);
      usmp_cols_pixel_x4(cols, w, inside, multipliers, shifts, out, filter, p);
    }
  }
}
#endif

#if defined(USMP_DSP)
/* The bounds of usmp_conv_2x2's stack: two windows of taps (3x3x64 and 10x4x1 fit), the
 * output channels' bases. A larger convolution takes the dot products of usmp_conv_s8. */
#define USMP_COLS 640
#define USMP_CHANNELS 128

/* The window of output pixel (oy, ox) into `cols` in the filter's order, a tap outside
 * the input as the input's zero point (its product less the zero point's share is
 * nothing): every window is one dot product of the whole filter. */
static void usmp_window(int8_t* cols, const int8_t* x, int32_t oy, int32_t ox,
                        const struct usmp_conv* p) {
  const int32_t y0 = oy * p->stride_h - p->pad_top, x0 = ox * p->stride_w - p->pad_left;
  const int32_t w_row = p->k_w * p->in_c, x_row = p->in_w * p->in_c;
  int32_t kw0, kw1;
  usmp_span(x0, p->in_w, p->k_w, &kw0, &kw1);
  if (kw0 > p->k_w) kw0 = p->k_w; /* a window wholly in the padding: no tap copied */
  if (kw1 < kw0) kw1 = kw0;
  const int32_t before = kw0 * p->in_c, run = (kw1 - kw0) * p->in_c;
  const int32_t after = w_row - before - run;
  for (int32_t kh = 0; kh < p->k_h; ++kh, cols += w_row) {
    const int32_t r = y0 + kh;
    if (r < 0 || r >= p->in_h) {
      memset(cols, p->input_zp, (size_t)w_row);
      continue;
    }
    if (before) memset(cols, p->input_zp, (size_t)before);
    if (run) {
      const int8_t* taps = x + usmp_row_at(r, p->in_rows, x_row) + (ptrdiff_t)(x0 + kw0) * p->in_c;
      memcpy(cols + before, taps, (size_t)run);
    }
    if (after) memset(cols + before + run, p->input_zp, (size_t)after);
  }
}

/* Channels c and c + 1 of usmp_conv_2x2's two pixels (`out1`: NULL, one), their windows
 * in `cols`; `channels`: usmp_dot_2xc's. */
USMP_INLINE void usmp_conv_channels(const int8_t* cols, const int8_t* w, int32_t filter,
                                    const int32_t* inside, const int32_t* multipliers,
                                    const int8_t* shifts, int8_t* out, int8_t* out1, int32_t c,
                                    const int32_t channels, const struct usmp_conv* p) {
  const struct usmp_pair_out o =
      usmp_pair_of(multipliers, shifts, c, channels, inside[c], inside[c + channels - 1], p);
  int32_t acc[4] = {o.base[0], o.base[1], o.base[0], o.base[1]};
  usmp_dot_2xc(cols, w + (ptrdiff_t)c * filter, filter, filter, channels, acc);
  usmp_pair_store(acc, &o, channels, out + c, out1 ? out1 + c : NULL);
}

/* CONV_2D of a window of at most USMP_COLS taps, two output pixels by two output channels
 * a time: both pixels' windows copied into `cols` (an im2col of two pixels, stack), one
 * after the other as the channels' weights are, so that usmp_dot_2x2 takes both. */
static void usmp_conv_2x2(const int8_t* x, const int8_t* w, const void* bias,
                          const int32_t* multipliers, const int8_t* shifts, int8_t* y,
                          const struct usmp_conv* params) {
  const struct usmp_conv copy = *params; /* not reread after each store through y */
  const struct usmp_conv* p = &copy;
  int8_t cols[2 * USMP_COLS];
  int32_t inside[USMP_CHANNELS];
  const int32_t filter = p->k_h * p->k_w * p->in_c, out_c = p->out_c;
  for (int32_t c = 0; c < out_c; ++c) inside[c] = usmp_inside(w, bias, c, filter, p);
  int32_t begin, end;
  usmp_row_range(p, &begin, &end);
  for (int32_t oy = begin; oy < end; ++oy) {
    int8_t* out = y + usmp_row_at(oy, p->out_rows, p->out_w * out_c);
    for (int32_t ox = 0; ox < p->out_w; ox += 2, out += 2 * out_c) {
      const int two = p->out_w - ox > 1;
      usmp_window(cols, x, oy, ox, p);
      usmp_window(cols + filter, x, oy, two ? ox + 1 : ox, p);
      int8_t* out1 = two ? out + out_c : NULL;
      int32_t c = 0;
      for (; c + 2 <= out_c; c += 2)
        usmp_conv_channels(cols, w, filter, inside, multipliers, shifts, out, out1, c, 2, p);
      if (c < out_c)
        usmp_conv_channels(cols, w, filter, inside, multipliers, shifts, out, out1, c, 1, p);
    }
  }
}
#endif

/* CONV_2D of NHWC x by OHWI w (dilation 1, one group). A window's row of taps inside
 * the input is contiguous in x and in w: one dot product. */
USMP_KERNEL void usmp_conv_s8(const int8_t* x, const int8_t* w, const void* bias,
                         const int32_t* multipliers, const int8_t* shifts, int8_t* y,
                         const struct usmp_conv* p) {
  const int32_t x_row = p->in_w * p->in_c, y_row = p->out_w * p->out_c;
  int32_t begin, end;
  usmp_row_range(p, &begin, &end);
  if (p->k_h == 1 && p->k_w == 1 && p->stride_h == 1 && p->stride_w == 1 &&
      p->pad_top == 0 && p->pad_left == 0 && p->in_h == p->out_h && p->in_w == p->out_w) {
    /* A matrix product of each run of rows contiguous in the input and the output. */
    for (int32_t r = begin, n; r < end; r += n) {
      const int32_t in_slot = r % p->in_rows, out_slot = r % p->out_rows;
      n = end - r;
      if (n > p->in_rows - in_slot) n = p->in_rows - in_slot;
      if (n > p->out_rows - out_slot) n = p->out_rows - out_slot;
      usmp_matmul_s8(x + (ptrdiff_t)in_slot * x_row, w, bias, multipliers, shifts,
                     y + (ptrdiff_t)out_slot * y_row, n * p->out_w, p->in_c, p->out_c, p);
    }
    return;
  }
#if defined(USMP_DSP)
  if (p->k_h * p->k_w * p->in_c <= USMP_COLS && p->out_c <= USMP_CHANNELS) {
    usmp_conv_2x2(x, w, bias, multipliers, shifts, y, p);
    return;
  }
#endif
#if defined(USMP_HELIUM)
  if (p->k_h * p->k_w * p->in_c <= USMP_COLS && p->out_c <= USMP_CHANNELS) {
    usmp_conv_cols_x4(x, w, bias, multipliers, shifts, y, p);
    return;
  }
  /* Two copies: an input in a rolling buffer (a window may cross its end) or not. */
  if (p->in_rows < p->in_h)
    usmp_conv_rows_x4(x, w, bias, multipliers, shifts, y, p, 1);
  else
    usmp_conv_rows_x4(x, w, bias, multipliers, shifts, y, p, 0);
  return;
#endif
  const int32_t filter = p->k_h * p->k_w * p->in_c;
  const ptrdiff_t x_size = (ptrdiff_t)p->in_rows * x_row;
  for (int32_t oy = begin; oy < end; ++oy) {
    const int32_t y0 = oy * p->stride_h - p->pad_top;
    int32_t kh0, kh1;
    usmp_span(y0, p->in_h, p->k_h, &kh0, &kh1);
    const int8_t* x_first = x + usmp_row_at(y0 + kh0, p->in_rows, x_row);
    for (int32_t ox = 0; ox < p->out_w; ++ox) {
      const int32_t x0 = ox * p->stride_w - p->pad_left;
      int32_t kw0, kw1;
      usmp_span(x0, p->in_w, p->k_w, &kw0, &kw1);
      const int32_t run = (kw1 - kw0) * p->in_c;
      const int8_t* row0 = x_first + (ptrdiff_t)(x0 + kw0) * p->in_c;
      int8_t* out = y + usmp_row_at(oy, p->out_rows, y_row) + (ptrdiff_t)ox * p->out_c;
      int32_t c = 0;
      for (; c < p->out_c; ++c) {
        const int8_t* wrow0 = w + (ptrdiff_t)c * filter + ((ptrdiff_t)kh0 * p->k_w + kw0) * p->in_c;
        int32_t dot = 0, sum = 0;
        const int8_t* xr = row0;
        for (int32_t kh = kh0; kh < kh1; ++kh, xr = usmp_next_row(xr, x_row, x + x_size, x_size)) {
          const int8_t* wr = wrow0 + (ptrdiff_t)(kh - kh0) * p->k_w * p->in_c;
          dot += usmp_dot(xr, wr, run);
          sum += usmp_sum(wr, run);
        }
        int32_t multiplier, shift;
        usmp_channel_scale(multipliers, shifts, c, p, &multiplier, &shift);
        int32_t acc = usmp_bias(bias, p->bias_bytes, c) + dot - p->input_zp * sum;
        out[c] = usmp_output(acc, multiplier, shift, p);
      }
    }
  }
}

#if defined(USMP_HELIUM)
/* Sum of x * w over `rows` x `cols` taps of four channels (steps as usmp_taps_p_x4). This
 * and the next two are not inlined: inlined, their loops took the registers of the
 * depthwise's pixel loop (vww +7%). */
USMP_NOINLINE int32x4_t usmp_products_x4(const int8_t* x, const int8_t* w, int32_t rows,
                                         int32_t cols, int32_t x_row, int32_t w_row,
                                         int32_t channels) {
  int32x4_t acc = vdupq_n_s32(0);
  if (cols == 3) { /* as usmp_products2_x4's */
    for (int32_t r = 0; r < rows; ++r, x += x_row, w += w_row) {
      const int8_t* x2 = x + 2 * channels;
      const int8_t* w2 = w + 2 * channels;
      acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(x), vldrbq_s32(w)));
      acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(x + channels), vldrbq_s32(w + channels)));
      acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(x2), vldrbq_s32(w2)));
    }
    return acc;
  }
  for (int32_t r = 0; r < rows; ++r, x += x_row, w += w_row) {
    const int8_t* xt = x;
    const int8_t* wt = w;
    for (int32_t t = 0; t < cols; ++t, xt += channels, wt += channels)
      acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(xt), vldrbq_s32(wt)));
  }
  return acc;
}

/* usmp_products_x4 of a window cut by the input's edge, and in *weights the sum of the
 * weights of its taps (the share of the zero point): the loads unpredicated. */
USMP_NOINLINE int32x4_t usmp_cut_products_x4(const int8_t* x, const int8_t* w, int32_t rows,
                                             int32_t cols, int32_t x_row, int32_t w_row,
                                             int32_t channels, int32x4_t* weights) {
  int32x4_t acc = vdupq_n_s32(0), sum = vdupq_n_s32(0);
  if (cols == 2 || cols == 3) { /* the usual cut of a 3x3 window: its rows unrolled */
    for (int32_t r = 0; r < rows; ++r, x += x_row, w += w_row) {
      const int32x4_t w0 = vldrbq_s32(w), w1 = vldrbq_s32(w + channels);
      acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(x), w0));
      acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(x + channels), w1));
      sum = vaddq_s32(sum, vaddq_s32(w0, w1));
      if (cols == 3) {
        const int32x4_t w2 = vldrbq_s32(w + 2 * channels);
        acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(x + 2 * channels), w2));
        sum = vaddq_s32(sum, w2);
      }
    }
    *weights = sum;
    return acc;
  }
  for (int32_t r = 0; r < rows; ++r, x += x_row, w += w_row) {
    const int8_t* xt = x;
    const int8_t* wt = w;
    for (int32_t t = 0; t < cols; ++t, xt += channels, wt += channels) {
      const int32x4_t wv = vldrbq_s32(wt);
      acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(xt), wv));
      sum = vaddq_s32(sum, wv);
    }
  }
  *weights = sum;
  return acc;
}

/* usmp_products_x4 of two windows `next` bytes apart (two output pixels of a row): one
 * load of the weights for both; the second's sum in *second. */
USMP_NOINLINE int32x4_t usmp_products2_x4(const int8_t* x, const int8_t* w, int32_t rows,
                                          int32_t cols, int32_t x_row, int32_t w_row,
                                          int32_t channels, int32_t next,
                                          int32x4_t* second) {
  int32x4_t acc0 = vdupq_n_s32(0), acc1 = vdupq_n_s32(0);
  if (cols == 3) { /* a 3-wide window (the usual), its row unrolled */
    for (int32_t r = 0; r < rows; ++r, x += x_row, w += w_row) {
      const int32x4_t w0 = vldrbq_s32(w), w1 = vldrbq_s32(w + channels);
      const int32x4_t w2 = vldrbq_s32(w + 2 * channels);
      acc0 = vaddq_s32(acc0, vmulq_s32(vldrbq_s32(x), w0));
      acc1 = vaddq_s32(acc1, vmulq_s32(vldrbq_s32(x + next), w0));
      acc0 = vaddq_s32(acc0, vmulq_s32(vldrbq_s32(x + channels), w1));
      acc1 = vaddq_s32(acc1, vmulq_s32(vldrbq_s32(x + next + channels), w1));
      acc0 = vaddq_s32(acc0, vmulq_s32(vldrbq_s32(x + 2 * channels), w2));
      acc1 = vaddq_s32(acc1, vmulq_s32(vldrbq_s32(x + next + 2 * channels), w2));
    }
    *second = acc1;
    return acc0;
  }
  for (int32_t r = 0; r < rows; ++r, x += x_row, w += w_row) {
    const int8_t* xt = x;
    const int8_t* wt = w;
    for (int32_t t = 0; t < cols; ++t, xt += channels, wt += channels) {
      int32x4_t wv = vldrbq_s32(wt);
      acc0 = vaddq_s32(acc0, vmulq_s32(vldrbq_s32(xt), wv));
      acc1 = vaddq_s32(acc1, vmulq_s32(vldrbq_s32(xt + next), wv));
    }
  }
  *second = acc1;
  return acc0;
}

/* Four output pixels of a row (their windows `next` bytes apart, whole) of four channels:
 * one load of the weights for the four, each pixel's products plus `inside` requantized
 * and stored at `out` a pixel (`out_c` bytes) apart. */
USMP_NOINLINE void usmp_pixels4_x4(const int8_t* x, const int8_t* w, int32_t rows, int32_t cols,
                                   int32_t x_row, int32_t w_row, int32_t channels, int32_t next,
                                   int8_t* out, int32_t out_c, int32x4_t inside,
                                   int32x4_t multiplier, int32x4_t shift, mve_pred16_t lanes,
                                   const struct usmp_conv* p) {
  const struct usmp_requant_x4 q = usmp_requant_x4(multiplier, shift, p);
  int32x4_t a0 = inside, a1 = inside, a2 = inside, a3 = inside;
  for (int32_t r = 0; r < rows; ++r, x += x_row, w += w_row) {
    const int8_t* xt = x;
    const int8_t* wt = w;
    for (int32_t t = 0; t < cols; ++t, xt += channels, wt += channels) {
      const int32x4_t wv = vldrbq_s32(wt);
      a0 = vaddq_s32(a0, vmulq_s32(vldrbq_s32(xt), wv));
      a1 = vaddq_s32(a1, vmulq_s32(vldrbq_s32(xt + next), wv));
      a2 = vaddq_s32(a2, vmulq_s32(vldrbq_s32(xt + 2 * next), wv));
      a3 = vaddq_s32(a3, vmulq_s32(vldrbq_s32(xt + 3 * next), wv));
    }
  }
  vstrbq_p_s32(out, usmp_requantize_q_x4(a0, &q), lanes);
  vstrbq_p_s32(out + out_c, usmp_requantize_q_x4(a1, &q), lanes);
  vstrbq_p_s32(out + 2 * out_c, usmp_requantize_q_x4(a2, &q), lanes);
  vstrbq_p_s32(out + 3 * out_c, usmp_requantize_q_x4(a3, &q), lanes);
}

/* DEPTHWISE_CONV_2D of depth multiplier 1, four channels a time over every pixel of the
 * output rows: the channels' bias, multipliers, shifts and weights' sum (less the zero
 * point's share, for a window inside the input) loaded once; `rolling` as
 * usmp_conv_rows_x4's. */
USMP_INLINE void usmp_depthwise_rows_x4(const int8_t* x, const int8_t* w, const void* bias,
                                        const int32_t* multipliers, const int8_t* shifts,
                                        int8_t* y, const struct usmp_conv* params,
                                        const int rolling) {
  const struct usmp_conv copy = *params; /* not reread after each store through y */
  const struct usmp_conv* p = &copy;
  const int32_t channels = p->in_c, taps = p->k_h * p->k_w;
  const int32_t x_row = p->in_w * channels, w_row = p->k_w * channels, y_row = p->out_w * channels;
  const int32x4_t zp = vdupq_n_s32(p->input_zp), zero = vdupq_n_s32(0);
  const ptrdiff_t x_size = (ptrdiff_t)p->in_rows * x_row;
  int32_t begin, end;
  usmp_row_range(p, &begin, &end);
  for (int32_t c = 0; c < channels; c += 4) {
    const mve_pred16_t lanes = vctp32q((uint32_t)(channels - c));
    const int full = channels - c >= 4;
    const int32x4_t b = usmp_bias_x4(bias, p->bias_bytes, c, lanes);
    int32x4_t multiplier, shift;
    usmp_scale_x4(multipliers, shifts, c, lanes, p, &multiplier, &shift);
    int32x4_t weights = zero;
    for (int32_t t = 0; t < taps; ++t)
      weights = vaddq_s32(weights, vldrbq_z_s32(w + (ptrdiff_t)t * channels + c, lanes));
    const int32x4_t inside = vsubq_s32(b, vmulq_n_s32(weights, p->input_zp));
    for (int32_t oy = begin; oy < end; ++oy) {
      const int32_t y0 = oy * p->stride_h - p->pad_top;
      int32_t kh0, kh1;
      usmp_span(y0, p->in_h, p->k_h, &kh0, &kh1);
      const int32_t slot = (y0 + kh0) % p->in_rows;
      const int32_t first = p->in_rows - slot; /* the window's rows before the buffer's end */
      const int8_t* x_first = x + (ptrdiff_t)slot * x_row + c;
      int8_t* out = y + usmp_row_at(oy, p->out_rows, y_row) + c;
      for (int32_t ox = 0; ox < p->out_w; ++ox, out += channels) {
        const int32_t x0 = ox * p->stride_w - p->pad_left;
        int32_t kw0, kw1;
        usmp_span(x0, p->in_w, p->k_w, &kw0, &kw1);
        const int32_t rows = kh1 - kh0, cols = kw1 - kw0;
        const int8_t* xs = x_first + (ptrdiff_t)(x0 + kw0) * channels;
        const int8_t* ws = w + ((ptrdiff_t)kh0 * p->k_w + kw0) * channels + c;
        int32x4_t acc;
        const int32_t next = x0 + p->stride_w; /* the next pixel's window, inside too? */
        if (rolling && first < rows) { /* across a rolling buffer's end: its first rows again */
          const int8_t* xw = xs + ((ptrdiff_t)first * x_row - x_size);
          const int8_t* ww = ws + (ptrdiff_t)first * w_row;
          if (full && rows == p->k_h && cols == p->k_w) {
            acc = usmp_products_x4(xs, ws, first, cols, x_row, w_row, channels);
            acc = vaddq_s32(acc, usmp_products_x4(xw, ww, rows - first, cols, x_row, w_row,
                                                  channels));
            acc = vaddq_s32(inside, acc);
          } else {
            acc = usmp_taps_p_x4(xs, ws, first, cols, x_row, w_row, channels, zp, lanes);
            acc = vaddq_s32(acc, usmp_taps_p_x4(xw, ww, rows - first, cols, x_row, w_row,
                                                channels, zp, lanes));
            acc = vaddq_s32(b, acc);
          }
        } else if (full && rows == p->k_h && cols == p->k_w && ox + 3 < p->out_w &&
                   x0 + 3 * p->stride_w + p->k_w <= p->in_w) {
          usmp_pixels4_x4(xs, ws, rows, cols, x_row, w_row, channels, p->stride_w * channels,
                          out, channels, inside, multiplier, shift, lanes, p);
          ox += 3;
          out += 3 * channels;
          continue;
        } else if (full && rows == p->k_h && cols == p->k_w && ox + 1 < p->out_w &&
            next + p->k_w <= p->in_w) {
          int32x4_t acc1;
          acc = usmp_products2_x4(xs, ws, rows, cols, x_row, w_row, channels,
                                  p->stride_w * channels, &acc1);
          vstrbq_p_s32(out, usmp_requantize_x4(vaddq_s32(inside, acc), multiplier, shift, p),
                       lanes);
          acc = vaddq_s32(inside, acc1);
          ++ox;
          out += channels;
        } else if (full && rows == p->k_h && cols == p->k_w)
          acc = vaddq_s32(inside, usmp_products_x4(xs, ws, rows, cols, x_row, w_row, channels));
        else if (full) {
          int32x4_t weights_in;
          acc = usmp_cut_products_x4(xs, ws, rows, cols, x_row, w_row, channels, &weights_in);
          acc = vaddq_s32(b, vsubq_s32(acc, vmulq_n_s32(weights_in, p->input_zp)));
        } else
          acc = vaddq_s32(b, usmp_taps_p_x4(xs, ws, rows, cols, x_row, w_row, channels, zp, lanes));
        vstrbq_p_s32(out, usmp_requantize_x4(acc, multiplier, shift, p), lanes);
      }
    }
  }
}

/* The bound of usmp_depthwise_padded_x4's stack: a chunk of 16 channels' weights and the
 * window rows of an output row, padded. */
#define USMP_PADDED 1024
#define USMP_CHUNK 16

/* The columns of a padded row of usmp_depthwise_padded_x4: every output pixel's window. */
static int32_t usmp_padded_width(const struct usmp_conv* p) {
  return (p->out_w - 1) * p->stride_w + p->k_w;
}

/* Whether usmp_depthwise_padded_x4 takes `p`: channels in chunks of 16, and a chunk's
 * weights and padded window rows within USMP_PADDED bytes (a narrow image, whose edge
 * windows are most of its windows). */
static int usmp_padded_fits(const struct usmp_conv* p) {
  const int32_t bytes = p->k_h * (p->k_w + usmp_padded_width(p)) * USMP_CHUNK;
  return p->in_c % USMP_CHUNK == 0 && bytes <= USMP_PADDED;
}

/* One output row of four channels of usmp_depthwise_padded_x4: windows of `rows` x `cols`
 * taps `next` bytes apart in its padded rows `x` (`row` bytes apart), the chunk's weights
 * at `w`; four pixels a load of a weight, then one a time. Inlined
 * with constant `cols` and `next` (then every tap's offset is an immediate). */
USMP_INLINE void usmp_padded_row_x4(const int8_t* x, const int8_t* w, int8_t* out, int32_t rows,
                                    int32_t cols, int32_t row, int32_t next, int32x4_t inside,
                                    int32x4_t multiplier, int32x4_t shift, int32_t out_c,
                                    const struct usmp_conv* p) {
  const int32_t out_w = p->out_w, w_row = cols * USMP_CHUNK;
  const struct usmp_requant_x4 q = usmp_requant_x4(multiplier, shift, p);
  int32_t ox = 0;
  for (; ox + 4 <= out_w; ox += 4, x += 4 * next, out += 4 * out_c) {
    int32x4_t a0 = inside, a1 = inside, a2 = inside, a3 = inside;
    const int8_t* xr = x;
    const int8_t* wr = w;
    for (int32_t r = 0; r < rows; ++r, xr += row, wr += w_row) {
      for (int32_t t = 0; t < cols; ++t) {
        const int32x4_t wv = vldrbq_s32(wr + t * USMP_CHUNK);
        const int8_t* xt = xr + t * USMP_CHUNK;
        a0 = vaddq_s32(a0, vmulq_s32(vldrbq_s32(xt), wv));
        a1 = vaddq_s32(a1, vmulq_s32(vldrbq_s32(xt + next), wv));
        a2 = vaddq_s32(a2, vmulq_s32(vldrbq_s32(xt + 2 * next), wv));
        a3 = vaddq_s32(a3, vmulq_s32(vldrbq_s32(xt + 3 * next), wv));
      }
    }
    vstrbq_s32(out, usmp_requantize_q_x4(a0, &q));
    vstrbq_s32(out + out_c, usmp_requantize_q_x4(a1, &q));
    vstrbq_s32(out + 2 * out_c, usmp_requantize_q_x4(a2, &q));
    vstrbq_s32(out + 3 * out_c, usmp_requantize_q_x4(a3, &q));
  }
  for (; ox < out_w; ++ox, x += next, out += out_c) {
    int32x4_t acc = inside;
    const int8_t* xr = x;
    const int8_t* wr = w;
    for (int32_t r = 0; r < rows; ++r, xr += row, wr += w_row)
      for (int32_t t = 0; t < cols; ++t)
        acc = vaddq_s32(acc, vmulq_s32(vldrbq_s32(xr + t * USMP_CHUNK),
                                       vldrbq_s32(wr + t * USMP_CHUNK)));
    vstrbq_s32(out, usmp_requantize_q_x4(acc, &q));
  }
}

/* DEPTHWISE_CONV_2D of depth multiplier 1 on a copy of its input, 16 channels a time: an
 * output row's window rows copied into `rows`, padded with the input's zero point (as
 * usmp_conv_cols_x4's im2col), so that every window is whole and its sum less the zero
 * point's share of the whole filter (no edge case: four pixels a weight load wherever
 * the row has four); the chunk's weights copied once, its constants taken once. */
USMP_NOINLINE void usmp_depthwise_padded_x4(const int8_t* x, const int8_t* w, const void* bias,
                                            const int32_t* multipliers, const int8_t* shifts,
                                            int8_t* y, const struct usmp_conv* params) {
  const struct usmp_conv copy = *params; /* not reread after each store through y */
  const struct usmp_conv* p = &copy;
  int8_t buffer[USMP_PADDED];
  const int32_t channels = p->in_c, taps = p->k_h * p->k_w, width = usmp_padded_width(p);
  const int32_t row = width * USMP_CHUNK, next = p->stride_w * USMP_CHUNK;
  const int32_t used = width - p->pad_left < p->in_w ? width - p->pad_left : p->in_w;
  const int32_t x_row = p->in_w * channels, y_row = p->out_w * channels;
  const int8_t zp = (int8_t)p->input_zp;
  const mve_pred16_t lanes = vctp32q(4); /* the bias's */
  int8_t* weights = buffer;
  int8_t* rows = buffer + taps * USMP_CHUNK;
  int32_t begin, end;
  usmp_row_range(p, &begin, &end);
  for (int32_t c = 0; c < channels; c += USMP_CHUNK) {
    for (int32_t t = 0; t < taps; ++t)
      vstrbq_s8(weights + t * USMP_CHUNK, vldrbq_s8(w + (ptrdiff_t)t * channels + c));
    int32x4_t inside[USMP_CHUNK / 4], multiplier[USMP_CHUNK / 4], shift[USMP_CHUNK / 4];
    for (int32_t g = 0; g < USMP_CHUNK / 4; ++g) {
      int32x4_t sum = vdupq_n_s32(0);
      for (int32_t t = 0; t < taps; ++t)
        sum = vaddq_s32(sum, vldrbq_s32(weights + t * USMP_CHUNK + 4 * g));
      const int32x4_t b = usmp_bias_x4(bias, p->bias_bytes, c + 4 * g, lanes);
      inside[g] = vsubq_s32(b, vmulq_n_s32(sum, p->input_zp));
      usmp_scale_x4(multipliers, shifts, c + 4 * g, lanes, p, &multiplier[g], &shift[g]);
    }
    for (int32_t oy = begin; oy < end; ++oy) {
      const int32_t y0 = oy * p->stride_h - p->pad_top;
      for (int32_t kh = 0; kh < p->k_h; ++kh) {
        int8_t* dst = rows + kh * row;
        if (y0 + kh < 0 || y0 + kh >= p->in_h) {
          usmp_fill(dst, zp, row);
          continue;
        }
        const int8_t* src = x + usmp_row_at(y0 + kh, p->in_rows, x_row) + c;
        usmp_fill(dst, zp, p->pad_left * USMP_CHUNK);
        dst += p->pad_left * USMP_CHUNK;
        for (int32_t i = 0; i < used; ++i, dst += USMP_CHUNK, src += channels)
          vstrbq_s8(dst, vldrbq_s8(src));
        usmp_fill(dst, zp, (width - p->pad_left - used) * USMP_CHUNK);
      }
      int8_t* out = y + usmp_row_at(oy, p->out_rows, y_row) + c;
      for (int32_t g = 0; g < USMP_CHUNK / 4; ++g) {
        if (p->k_w == 3 && p->stride_w == 1) /* the usual: its taps' offsets constants */
          usmp_padded_row_x4(rows + 4 * g, weights + 4 * g, out + 4 * g, p->k_h, 3, row,
                             USMP_CHUNK, inside[g], multiplier[g], shift[g], channels, p);
        else
          usmp_padded_row_x4(rows + 4 * g, weights + 4 * g, out + 4 * g, p->k_h, p->k_w, row,
                             next, inside[g], multiplier[g], shift[g], channels, p);
      }
    }
  }
}
#endif

#if defined(USMP_DSP)
/* Four channels' products of one tap of a depthwise window added to acc: a word of four
 * channels' inputs and one of their weights widened in pairs (SXTB16), the zero point
 * taken from two inputs at once (SSUB16: int8 less int8 fits 16 bits), one SMLAxy a
 * product. */
USMP_INLINE void usmp_depthwise_tap_x4(const int8_t* xt, const int8_t* wt, int16x2_t zp,
                                       int32_t acc[4]) {
  const uint32_t xv = usmp_word(xt), wv = usmp_word(wt);
  const int16x2_t x_even = __ssub16(__sxtb16((int8x4_t)xv), zp);
  const int16x2_t x_odd = __ssub16(usmp_odd(xv), zp);
  const int16x2_t w_even = __sxtb16((int8x4_t)wv), w_odd = usmp_odd(wv);
  acc[0] = __smlabb(x_even, w_even, acc[0]);
  acc[1] = __smlabb(x_odd, w_odd, acc[1]);
  acc[2] = __smlatt(x_even, w_even, acc[2]);
  acc[3] = __smlatt(x_odd, w_odd, acc[3]);
}

/* One tap of usmp_depthwise_3x3_x4: X and W its input's and weights' addresses. */
#define USMP_TAP_X4(X, W)                                                                  \
  "ldr %[xv], " X "\n\tldr %[wv], " W "\n\tsxtb16 %[xe], %[xv]\n\tsxtb16 %[we], %[wv]\n\t"   \
  "smlabb %[a0], %[xe], %[we], %[a0]\n\tsmlatt %[a2], %[xe], %[we], %[a2]\n\t"              \
  "sxtb16 %[xv], %[xv], ror #8\n\tsxtb16 %[wv], %[wv], ror #8\n\t"                           \
  "smlabb %[a1], %[xv], %[wv], %[a1]\n\tsmlatt %[a3], %[xv], %[wv], %[a3]\n\t"
/* A row of three taps from input row pointer XP: the pointers step by channels. */
#define USMP_ROW_X4(XP)                                                                    \
  USMP_TAP_X4("[%[" XP "]]", "[%[w]]")                                                     \
  USMP_TAP_X4("[%[" XP "], %[c]]", "[%[w], %[c]]")                                         \
  "add %[" XP "], %[" XP "], %[c], lsl #1\n\tadd %[w], %[w], %[c], lsl #1\n\t"               \
  USMP_TAP_X4("[%[" XP "]]", "[%[w]]") "add %[w], %[w], %[c]\n\t"

/* A 3x3 depthwise window inside the input, four channels: the products of its taps,
 * usmp_depthwise_tap_x4's without the zero point (taken once, from the weights' sum), added
 * to acc; x0, x1 and x2 its rows' first taps, w its weights', `channels` apart. Written
 * out: 10 instructions a tap and 9 to step (GCC 12 spilled the pointers, twice that). */
USMP_INLINE void usmp_depthwise_3x3_x4(const int8_t* x0, const int8_t* x1, const int8_t* x2,
                                       const int8_t* w, int32_t channels, int32_t acc[4]) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  uint32_t xv, wv, xe, we;
  __asm(USMP_ROW_X4("x0") USMP_ROW_X4("x1") USMP_ROW_X4("x2")
        : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x0] "+r"(x0),
          [x1] "+r"(x1), [x2] "+r"(x2), [w] "+r"(w), [xv] "=&r"(xv), [wv] "=&r"(wv),
          [xe] "=&r"(xe), [we] "=&r"(we)
        : [c] "r"(channels)
        : "memory");
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}
#undef USMP_ROW_X4
#undef USMP_TAP_X4

/* DEPTHWISE_CONV_2D of depth multiplier 1, four channels a time over every output pixel:
 * the channels' scales, bias and weights' sum taken once. A 3x3 window inside the input
 * is written out (usmp_depthwise_3x3_x4, its zero point's share from the weights' sum); a
 * window across the input's edge takes its taps inside (usmp_depthwise_tap_x4). Each input
 * row at its place in a rolling buffer (usmp_row_at). The channels done (a multiple of
 * four), the rest left to the caller. */
static int32_t usmp_depthwise_x4(const int8_t* x, const int8_t* w, const void* bias,
                                 const int32_t* multipliers, const int8_t* shifts, int8_t* y,
                                 const struct usmp_conv* params) {
  const struct usmp_conv copy = *params; /* not reread after each store through y */
  const struct usmp_conv* p = &copy;
  const int32_t channels = p->out_c, x_row = p->in_w * channels, w_row = p->k_w * channels;
  const uint32_t zp16 = (uint16_t)p->input_zp;
  const int16x2_t zp = (int16x2_t)((zp16 << 16) | zp16);
  const int32_t low = p->act_min - p->output_zp, high = p->act_max - p->output_zp;
  const int32_t output_zp = p->output_zp, is3x3 = p->k_h == 3 && p->k_w == 3;
  int32_t begin, end;
  usmp_row_range(p, &begin, &end);
  int32_t c = 0;
  for (; c + 4 <= channels; c += 4) {
    struct usmp_scale scale[4];
    int32_t base[4], whole[4];
    for (int32_t k = 0; k < 4; ++k) {
      int32_t multiplier, shift, sum = 0;
      usmp_channel_scale(multipliers, shifts, c + k, p, &multiplier, &shift);
      scale[k] = usmp_scale_of(multiplier, shift);
      base[k] = usmp_bias(bias, p->bias_bytes, c + k);
      for (int32_t t = 0; t < p->k_h * p->k_w; ++t) sum += w[t * channels + c + k];
      whole[k] = base[k] - p->input_zp * sum;
    }
    const int8_t* wc = w + c;
    for (int32_t oy = begin; oy < end; ++oy) {
      const int32_t y0 = oy * p->stride_h - p->pad_top;
      int32_t kh0, kh1;
      usmp_span(y0, p->in_h, p->k_h, &kh0, &kh1);
      const int rows3 = is3x3 && kh0 == 0 && kh1 == 3;
      const int8_t* x0 = x + usmp_row_at(y0 + kh0, p->in_rows, x_row) + c;
      const int8_t* x1 = rows3 ? x + usmp_row_at(y0 + 1, p->in_rows, x_row) + c : x0;
      const int8_t* x2 = rows3 ? x + usmp_row_at(y0 + 2, p->in_rows, x_row) + c : x0;
      int8_t* out = y + usmp_row_at(oy, p->out_rows, p->out_w * channels) + c;
      for (int32_t ox = 0; ox < p->out_w; ++ox, out += channels) {
        const int32_t left = ox * p->stride_w - p->pad_left;
        int32_t kw0, kw1;
        usmp_span(left, p->in_w, p->k_w, &kw0, &kw1);
        int32_t acc[4];
        if (rows3 && kw0 == 0 && kw1 == 3) {
          const ptrdiff_t at = (ptrdiff_t)left * channels;
          acc[0] = whole[0], acc[1] = whole[1], acc[2] = whole[2], acc[3] = whole[3];
          usmp_depthwise_3x3_x4(x0 + at, x1 + at, x2 + at, wc, channels, acc);
        } else {
          acc[0] = base[0], acc[1] = base[1], acc[2] = base[2], acc[3] = base[3];
          for (int32_t r = kh0; r < kh1; ++r) {
            const int8_t* xt = x + usmp_row_at(y0 + r, p->in_rows, x_row) +
                               (ptrdiff_t)(left + kw0) * channels + c;
            const int8_t* wt = wc + (ptrdiff_t)r * w_row + kw0 * channels;
            for (int32_t t = kw0; t < kw1; ++t, xt += channels, wt += channels)
              usmp_depthwise_tap_x4(xt, wt, zp, acc);
          }
        }
        for (int32_t k = 0; k < 4; ++k)
          out[k] = usmp_output_by(acc[k], scale[k], low, high, output_zp);
      }
    }
  }
  return c;
}
#endif

#if defined(USMP_HELIUM)
/* DEPTHWISE_CONV_2D of a depth multiplier of 4k: four output channels of one input channel
 * a time, its value times four weights (VMLA by a scalar). Its own function: in
 * usmp_depthwise_s8's loops the compiler spilled this one's pointers. */
USMP_NOINLINE void usmp_depthwise_multiplier_x4(const int8_t* x, const int8_t* w,
                                                const void* bias, const int32_t* multipliers,
                                                const int8_t* shifts, int8_t* y,
                                                const struct usmp_conv* params) {
  const struct usmp_conv copy = *params; /* not reread after each store through y */
  const struct usmp_conv* p = &copy;
  const int32_t in_c = p->in_c, out_c = p->out_c, m = p->out_c / p->in_c;
  const int32_t x_row = p->in_w * in_c, w_row = p->k_w * out_c;
  const int8_t* limit = x + (ptrdiff_t)p->in_rows * x_row;
  int32_t begin, end;
  usmp_row_range(p, &begin, &end);
  for (int32_t oy = begin; oy < end; ++oy) {
    const int32_t y0 = oy * p->stride_h - p->pad_top;
    int32_t kh0, kh1;
    usmp_span(y0, p->in_h, p->k_h, &kh0, &kh1);
    const int8_t* x_first = x + usmp_row_at(y0 + kh0, p->in_rows, x_row);
    int8_t* out = y + usmp_row_at(oy, p->out_rows, p->out_w * out_c);
    for (int32_t ox = 0; ox < p->out_w; ++ox, out += out_c) {
      const int32_t x0 = ox * p->stride_w - p->pad_left;
      int32_t kw0, kw1;
      usmp_span(x0, p->in_w, p->k_w, &kw0, &kw1);
      const int32_t rows = kh1 - kh0, cols = kw1 - kw0;
      const int8_t* window = x_first + (ptrdiff_t)(x0 + kw0) * in_c;
      const int8_t* ws = w + ((ptrdiff_t)kh0 * p->k_w + kw0) * out_c;
      for (int32_t c = 0; c < out_c; c += 4) {
        int32x4_t acc = vdupq_n_s32(0);
        const int8_t* xr = window + c / m;
        const int8_t* wr = ws + c;
        for (int32_t r = 0; r < rows; ++r, wr += w_row) {
          const int8_t* xt = xr;
          const int8_t* wt = wr;
          for (int32_t t = 0; t < cols; ++t, xt += in_c, wt += out_c)
            acc = vmlaq_n_s32(acc, vldrbq_s32(wt), *xt - p->input_zp);
          xr = usmp_next_row(xr, x_row, limit, limit - x);
        }
        usmp_store_x4(out, acc, c, vctp32q(4), bias, multipliers, shifts, p);
      }
    }
  }
}
#endif

/* DEPTHWISE_CONV_2D of NHWC x by w [1, KH, KW, C x M] (M the depth multiplier: output
 * channel c reads input channel c / M), dilation 1. */
USMP_KERNEL void usmp_depthwise_s8(const int8_t* x, const int8_t* w, const void* bias,
                              const int32_t* multipliers, const int8_t* shifts, int8_t* y,
                              const struct usmp_conv* p) {
  const int32_t in_c = p->in_c, out_c = p->out_c, m = p->out_c / p->in_c;
#if defined(USMP_HELIUM)
  if (m == 1 && usmp_padded_fits(p)) {
    usmp_depthwise_padded_x4(x, w, bias, multipliers, shifts, y, p);
    return;
  }
  if (m == 1) {
    if (p->in_rows < p->in_h) /* two copies, as usmp_conv_s8's */
      usmp_depthwise_rows_x4(x, w, bias, multipliers, shifts, y, p, 1);
    else
      usmp_depthwise_rows_x4(x, w, bias, multipliers, shifts, y, p, 0);
    return;
  }
  if (m % 4 == 0) {
    usmp_depthwise_multiplier_x4(x, w, bias, multipliers, shifts, y, p);
    return;
  }
#endif
#if defined(USMP_DSP)
  if (in_c == 1 && p->k_h * p->k_w * out_c <= USMP_COLS && out_c <= USMP_CHANNELS) {
    /* One input channel: a CONV_2D of the weights in OHWI order (a copy on the stack). */
    int8_t ohwi[USMP_COLS];
    const int32_t taps = p->k_h * p->k_w;
    for (int32_t c = 0; c < out_c; ++c)
      for (int32_t t = 0; t < taps; ++t) ohwi[c * taps + t] = w[t * out_c + c];
    usmp_conv_2x2(x, ohwi, bias, multipliers, shifts, y, p);
    return;
  }
#endif
  int32_t done = 0; /* the channels done */
#if defined(USMP_DSP)
  if (m == 1) {
    done = usmp_depthwise_x4(x, w, bias, multipliers, shifts, y, p);
    /* No channel left over: return, by a test that is a constant where out_c is, so the
     * loop over the rest below is plainly dead. (Else GCC kept that loop, from c = out_c
     * until c wrapped, and warned that it read past the bias.) */
    if (out_c % 4 == 0) return;
  }
#endif
  const int32_t x_row = p->in_w * in_c;
  int32_t begin, end;
  usmp_row_range(p, &begin, &end);
  for (int32_t oy = begin; oy < end; ++oy) {
    const int32_t y0 = oy * p->stride_h - p->pad_top;
    int32_t kh0, kh1;
    usmp_span(y0, p->in_h, p->k_h, &kh0, &kh1);
    for (int32_t ox = 0; ox < p->out_w; ++ox) {
      const int32_t x0 = ox * p->stride_w - p->pad_left;
      int32_t kw0, kw1;
      usmp_span(x0, p->in_w, p->k_w, &kw0, &kw1);
      int8_t* out = y + usmp_row_at(oy, p->out_rows, p->out_w * out_c) + (ptrdiff_t)ox * out_c;
      for (int32_t c = done; c < out_c; ++c) {
        int32_t acc = usmp_bias(bias, p->bias_bytes, c);
        for (int32_t kh = kh0; kh < kh1; ++kh) {
          const int8_t* xr = x + usmp_row_at(y0 + kh, p->in_rows, x_row);
          for (int32_t kw = kw0; kw < kw1; ++kw) {
            int32_t value = xr[(ptrdiff_t)(x0 + kw) * in_c + c / m];
            acc += (value - p->input_zp) * w[((ptrdiff_t)kh * p->k_w + kw) * out_c + c];
          }
        }
        int32_t multiplier, shift;
        usmp_channel_scale(multipliers, shifts, c, p, &multiplier, &shift);
        out[c] = usmp_output(acc, multiplier, shift, p);
      }
    }
  }
}

/* ADD of two int8 tensors of one shape, TFLM's AddFunc: each input less its zero point,
 * in 20 more bits, scaled to twice the larger input scale; the sum scaled to the
 * output's. */
struct usmp_add {
  int32_t size, a_zp, a_multiplier, a_shift, b_zp, b_multiplier, b_shift;
  int32_t multiplier, shift, output_zp, act_min, act_max;
};

#if defined(USMP_HELIUM)
/* usmp_multiply_lr_x4 by a multiplier and a shift that are scalars, the shift no left
 * one (VQRDMULH and VRSHL by a register; the rounding's -1 where it shifts right). */
USMP_INLINE int32x4_t usmp_multiply_right_x4(int32x4_t acc, int32_t multiplier, int32_t shift) {
  const int32x4_t high = vqrdmulhq_n_s32(acc, multiplier);
  return shift < 0 ? vrshlq_n_s32(vqaddq_s32(high, vshrq_n_s32(high, 31)), shift) : high;
}

/* usmp_add_s8 of the whole groups of four elements where none of its three scales shifts
 * left (as TFLite's converter writes an ADD): its multipliers and shifts scalars beside
 * the vectors, an input less its zero point and times 2^20 one multiply-add (VMLAS:
 * x * 2^20 + -zp * 2^20). The elements done (none where a scale shifts left). */
static int32_t usmp_add_right_x4(const int8_t* a, const int8_t* b, int8_t* y,
                                 const struct usmp_add* p) {
  if (p->a_shift > 0 || p->b_shift > 0 || p->shift > 0) return 0;
  const int32x4_t unit = vdupq_n_s32(1 << 20);
  const int32_t a_offset = -p->a_zp * (1 << 20), b_offset = -p->b_zp * (1 << 20);
  const int32_t a_multiplier = p->a_multiplier, a_shift = p->a_shift;
  const int32_t b_multiplier = p->b_multiplier, b_shift = p->b_shift;
  const int32_t multiplier = p->multiplier, shift = p->shift, output_zp = p->output_zp;
  const int32x4_t low = vdupq_n_s32(p->act_min), high = vdupq_n_s32(p->act_max);
  const int32_t whole = p->size & ~3;
  for (int32_t i = 0; i < whole; i += 4) {
    const int32x4_t va = usmp_multiply_right_x4(
        vmlasq_n_s32(vldrbq_s32(a + i), unit, a_offset), a_multiplier, a_shift);
    const int32x4_t vb = usmp_multiply_right_x4(
        vmlasq_n_s32(vldrbq_s32(b + i), unit, b_offset), b_multiplier, b_shift);
    const int32x4_t sum = usmp_multiply_right_x4(vaddq_s32(va, vb), multiplier, shift);
    vstrbq_s32(y + i, vminq_s32(vmaxq_s32(vqaddq_n_s32(sum, output_zp), low), high));
  }
  return whole;
}
#endif

USMP_KERNEL void usmp_add_s8(const int8_t* a, const int8_t* b, int8_t* y,
                             const struct usmp_add* p) {
  int32_t i = 0;
#if defined(USMP_HELIUM)
  i = usmp_add_right_x4(a, b, y, p);
  const int32x4_t a_multiplier = vdupq_n_s32(p->a_multiplier), a_shift = vdupq_n_s32(p->a_shift);
  const int32x4_t b_multiplier = vdupq_n_s32(p->b_multiplier), b_shift = vdupq_n_s32(p->b_shift);
  const int32x4_t multiplier = vdupq_n_s32(p->multiplier), shift = vdupq_n_s32(p->shift);
  for (; i < p->size; i += 4) {
    mve_pred16_t lanes = vctp32q((uint32_t)(p->size - i));
    int32x4_t va = vshlq_n_s32(vsubq_s32(vldrbq_z_s32(a + i, lanes), vdupq_n_s32(p->a_zp)), 20);
    int32x4_t vb = vshlq_n_s32(vsubq_s32(vldrbq_z_s32(b + i, lanes), vdupq_n_s32(p->b_zp)), 20);
    int32x4_t sum = vaddq_s32(usmp_multiply_x4(va, a_multiplier, a_shift),
                              usmp_multiply_x4(vb, b_multiplier, b_shift));
    int32x4_t value = vqaddq_n_s32(usmp_multiply_x4(sum, multiplier, shift), p->output_zp);
    value = vminq_s32(vmaxq_s32(value, vdupq_n_s32(p->act_min)), vdupq_n_s32(p->act_max));
    vstrbq_p_s32(y + i, value, lanes);
  }
#endif
  for (; i < p->size; ++i) {
    int32_t va = usmp_requantize((a[i] - p->a_zp) * (1 << 20), p->a_multiplier, p->a_shift);
    int32_t vb = usmp_requantize((b[i] - p->b_zp) * (1 << 20), p->b_multiplier, p->b_shift);
    int64_t value = (int64_t)usmp_requantize(va + vb, p->multiplier, p->shift) + p->output_zp;
    if (value < p->act_min) value = p->act_min;
    if (value > p->act_max) value = p->act_max;
    y[i] = (int8_t)value;
  }
}

/* AVERAGE_POOL_2D of an int8 NHWC tensor of batch 1, TFLM's reference: a window's values
 * summed over its taps inside the input only (input and output share a scale and zero
 * point), divided by the count of those taps rounding half away from zero, clamped to
 * the activation's range. */
struct usmp_average_pool {
  int32_t in_h, in_w, channels, out_h, out_w, filter_h, filter_w, stride_h, stride_w;
  int32_t pad_top, pad_left, act_min, act_max;
};

/* A window's sum over its `count` taps divided rounding half away from zero, clamped. */
static int8_t usmp_average(int32_t sum, int32_t count, const struct usmp_average_pool* p) {
  int32_t value = count == 0 ? 0 : sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
  if (value < p->act_min) value = p->act_min;
  if (value > p->act_max) value = p->act_max;
  return (int8_t)value;
}

USMP_KERNEL void usmp_average_pool_s8(const int8_t* x, int8_t* y,
                                      const struct usmp_average_pool* p) {
  const int32_t channels = p->channels;
  for (int32_t oy = 0; oy < p->out_h; ++oy) {
    const int32_t top = oy * p->stride_h - p->pad_top;
    const int32_t row_begin = top < 0 ? 0 : top;
    const int32_t row_end = top + p->filter_h < p->in_h ? top + p->filter_h : p->in_h;
    for (int32_t ox = 0; ox < p->out_w; ++ox) {
      const int32_t left = ox * p->stride_w - p->pad_left;
      const int32_t column_begin = left < 0 ? 0 : left;
      const int32_t column_end = left + p->filter_w < p->in_w ? left + p->filter_w : p->in_w;
      const int32_t count = (row_end - row_begin) * (column_end - column_begin);
      int8_t* out = y + (oy * p->out_w + ox) * channels;
      int32_t c = 0;
#if defined(USMP_HELIUM)
      /* Four channels a time: their taps' sums in four lanes, then the scalar division
       * (Helium has no integer divide). */
      for (; c < channels; c += 4) {
        mve_pred16_t lanes = vctp32q((uint32_t)(channels - c));
        int32x4_t sum = vdupq_n_s32(0);
        for (int32_t r = row_begin; r < row_end; ++r) {
          const int8_t* in = x + (r * p->in_w + column_begin) * channels + c;
          for (int32_t k = column_begin; k < column_end; ++k, in += channels)
            sum = vaddq_s32(sum, vldrbq_z_s32(in, lanes));
        }
        int32_t sums[4];
        vst1q_s32(sums, sum);
        for (int32_t j = 0; j < 4 && c + j < channels; ++j)
          out[c + j] = usmp_average(sums[j], count, p);
      }
#endif
      for (; c < channels; ++c) {
        int32_t sum = 0;
        for (int32_t r = row_begin; r < row_end; ++r) {
          const int8_t* in = x + (r * p->in_w + column_begin) * channels + c;
          for (int32_t k = column_begin; k < column_end; ++k, in += channels) sum += *in;
        }
        out[c] = usmp_average(sum, count, p);
      }
    }
  }
}
