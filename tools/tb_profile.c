/* QEMU 7.2 TCG plugin (API version 1, declared by hand as insncount.c beside count.sh is:
 * Debian ships no qemu-plugin.h) for `tools/bench_m55_kernels.py --by-symbol`: counts the
 * executions of each translated block, as insncount.c does, and at exit writes to the
 * file named by its argument `out=PATH` one line "ADDRESS EXECUTIONS" (hex, decimal) for
 * each guest instruction of each block run, so that each instruction, not each block, is
 * given to the function it lies in. The sum of EXECUTIONS over the lines is insncount.c's
 * total. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb*));
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb* tb, enum qemu_plugin_op op,
                                              void* ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
struct qemu_plugin_insn* qemu_plugin_tb_get_insn(const struct qemu_plugin_tb* tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn* insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, void*),
                                    void* userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* A translated block: its executions (added to by the inline op, so never moved) and the
 * addresses of its instructions. A block translated again gets a record of its own. */
struct block {
  uint64_t executions;
  struct block* next;
  size_t n;
  uint64_t vaddr[];
};

static struct block* blocks;
static const char* out_path;

static void on_translation(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
  (void)id;
  const size_t n = qemu_plugin_tb_n_insns(tb);
  struct block* b = calloc(1, sizeof *b + n * sizeof b->vaddr[0]);
  if (!b) abort();
  b->n = n;
  for (size_t i = 0; i < n; ++i) b->vaddr[i] = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i));
  b->next = blocks;
  blocks = b;
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->executions, 1);
}

static void at_exit(qemu_plugin_id_t id, void* userdata) {
  (void)id, (void)userdata;
  FILE* f = fopen(out_path, "w");
  if (!f) {
    perror(out_path);
    return;
  }
  for (const struct block* b = blocks; b; b = b->next)
    if (b->executions)
      for (size_t i = 0; i < b->n; ++i)
        fprintf(f, "%llx %llu\n", (unsigned long long)b->vaddr[i],
                (unsigned long long)b->executions);
  fclose(f);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const qemu_info_t* info,
                                                               int argc, char** argv) {
  (void)info;
  for (int i = 0; i < argc; ++i)
    if (strncmp(argv[i], "out=", 4) == 0) out_path = argv[i] + 4;
  if (!out_path) {
    fprintf(stderr, "tb_profile: give the output file as -plugin tb_profile.so,out=PATH\n");
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translation);
  qemu_plugin_register_atexit_cb(id, at_exit, NULL);
  return 0;
}
