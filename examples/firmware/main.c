/* A firmware's main around the library of microWakeWord's "hey mycroft" detector
 * (docs/firmware.md): it owns the pools, each in the memory the plan named, fills the
 * input from a buffer of features as a sensor's driver would, runs the model a frame at a
 * time and reads the score. */
#include <stdio.h>
#include "hey_mycroft.h"

/* The pools: the fast one in the DTCM, the other in external RAM (the sections the plan
 * named, `--pools 'sram:...:section=.dtcm,dram:section=.ext_ram'`), the state kept from
 * one run to the next. */
static _Alignas(16) uint8_t sram[HEY_MYCROFT_SRAM_WORKSPACE_POOL_SIZE]
    __attribute__((section(HEY_MYCROFT_SRAM_SECTION)));
static _Alignas(16) uint8_t dram[HEY_MYCROFT_DRAM_WORKSPACE_POOL_SIZE]
    __attribute__((section(HEY_MYCROFT_DRAM_SECTION)));
static _Alignas(16) uint8_t state[HEY_MYCROFT_GLOBAL_STATE_STATE_POOL_SIZE];

#define INPUT(what) HEY_MYCROFT_INPUT_SERVING_DEFAULT_INPUT_AUDIO_0_##what
#define OUTPUT(what) HEY_MYCROFT_OUTPUT_STATEFULPARTITIONEDCALL_0_##what

static INPUT(TYPE) features[INPUT(ELEMENTS)];
static OUTPUT(TYPE) score[OUTPUT(ELEMENTS)];

/* A frame of features (40 mel bins, 3 time steps) as a front end gives them: reals. */
static float frame_of_sound(int frame, int i) {
  return (float)((frame * 7 + i * 3) % 26);
}

/* real = scale * (q - zero point): q = real / scale + zero point, rounded, clamped. */
static INPUT(TYPE) quantized(float real) {
  float q = real / INPUT(SCALE) + (float)INPUT(ZERO_POINT);
  q = q < -128.0f ? -128.0f : q > 127.0f ? 127.0f : q;
  return (INPUT(TYPE))(q < 0 ? q - 0.5f : q + 0.5f);
}

int main(void) {
  struct hey_mycroft_workspace_pools pools = {sram, dram, state};
  struct hey_mycroft_inputs inputs = {features};
  struct hey_mycroft_outputs outputs = {score};
  hey_mycroft_init_state(&pools); /* once, before the first frame */
  for (int frame = 0; frame < 4; ++frame) {
    for (int i = 0; i < INPUT(ELEMENTS); ++i) features[i] = quantized(frame_of_sound(frame, i));
    if (hey_mycroft_run(&inputs, &outputs, &pools, NULL) != 0) return 1;
    float probability = OUTPUT(SCALE) * (float)(score[0] - OUTPUT(ZERO_POINT));
    printf("frame %d: score %u, probability %.4f\n", frame, score[0], probability);
  }
  return 0;
}
