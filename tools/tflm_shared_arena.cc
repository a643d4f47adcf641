// TensorFlow Lite Micro's multi-tenant arena run by TFLM itself: several MicroInterpreters
// handed one MicroAllocator over one arena (as TFLM's TestMultiTenantInterpreter does),
// linked against the tflite-micro wheel's own _runtime.so, whose Python API gives every
// interpreter an arena of its own. No TFLM header: the wheel's exported symbols are
// declared by name, and the objects the wheel constructs live in storage larger than they
// are (the wheel's layout is its own). Built and loaded by tools/tflm_shared_arena.py.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

namespace tflite {
class Model;
class PythonOpsResolver {  // every built-in operator and the signal library's
 public:
  PythonOpsResolver();
};
namespace micro {
class MicroOpResolver;
class MicroProfilerInterface;
class MicroAllocator {
 public:
  size_t used_bytes() const;
};
class MicroResourceVariables {
 public:
  static MicroResourceVariables* Create(MicroAllocator* allocator, int count);
};
class RecordingMicroAllocator {
 public:
  static RecordingMicroAllocator* Create(uint8_t* arena, size_t size);
};
struct Tensor;  // a TfLiteTensor
class MicroInterpreter {
 public:
  MicroInterpreter(const Model* model, const MicroOpResolver& resolver,
                   MicroAllocator* allocator, MicroResourceVariables* variables,
                   MicroProfilerInterface* profiler);
  int AllocateTensors();
  int Invoke();
  Tensor* input(size_t index);
  Tensor* output(size_t index);
};
}  // namespace micro
}  // namespace tflite

namespace {

using tflite::micro::MicroInterpreter;

constexpr int kMostModels = 8;
alignas(64) uint8_t resolver_storage[1 << 20];
alignas(64) uint8_t interpreter_storage[kMostModels][1 << 16];

// A TfLiteTensor's data pointer: 24 bytes in, after its quantization and params, in
// TF_LITE_STATIC_MEMORY builds (tensorflow/lite/core/c/common.h).
uint8_t* data(tflite::micro::Tensor* tensor) {
  uint8_t* pointer;
  std::memcpy(&pointer, reinterpret_cast<uint8_t*>(tensor) + 24, sizeof pointer);
  return pointer;
}

const tflite::Model* model_of(const uint8_t* file) {
  uint32_t root;
  std::memcpy(&root, file, sizeof root);
  return reinterpret_cast<const tflite::Model*>(file + root);
}

// The models' interpreters on `arena`, one allocator, each allocated in turn (with
// `variables[k]` resource variables, as the wheel counts them, where not null); nullptr
// where one fails (the arena too small).
MicroInterpreter** interpreters(const uint8_t* const* files, int count, uint8_t* arena,
                                size_t size, const int* variables, size_t* used) {
  static MicroInterpreter* made[kMostModels];
  if (count > kMostModels) return nullptr;
  auto* resolver = new (resolver_storage) tflite::PythonOpsResolver();
  auto* allocator = reinterpret_cast<tflite::micro::MicroAllocator*>(
      tflite::micro::RecordingMicroAllocator::Create(arena, size));
  if (allocator == nullptr) return nullptr;
  const auto& ops = *reinterpret_cast<const tflite::micro::MicroOpResolver*>(resolver);
  for (int k = 0; k < count; ++k) {
    tflite::micro::MicroResourceVariables* kept = nullptr;
    if (variables != nullptr && variables[k] > 0) {
      kept = tflite::micro::MicroResourceVariables::Create(allocator, variables[k]);
      if (kept == nullptr) return nullptr;
    }
    made[k] = new (interpreter_storage[k])
        MicroInterpreter(model_of(files[k]), ops, allocator, kept, nullptr);
    if (made[k]->AllocateTensors() != 0) return nullptr;
  }
  *used = allocator->used_bytes();
  return made;
}

}  // namespace

// Bytes of `arena` the models take together: 0 when they do not fit.
extern "C" int shared_arena(const uint8_t* const* files, int count, uint8_t* arena, size_t size,
                            const int* variables, size_t* used) {
  return interpreters(files, count, arena, size, variables, used) != nullptr ? 0 : 1;
}

// micro_speech on one arena: the front end (files[0]) run on each 480-sample frame, its 40
// features appended to the 49 kept (the oldest dropped, oldest first: micro_speech's
// features array), the classifier (files[1]) run after each frame on them, its 4 scores
// written to `scores`. `in_input`: the 49 frames kept in the classifier's input tensor
// itself (a joint plan keeps it apart from every other tensor); else in an array apart,
// copied into the input before each run. `places`: where the front end's output and the
// classifier's input lie in the arena. 0, or the step that failed.
extern "C" int micro_speech(const uint8_t* const* files, uint8_t* arena, size_t size,
                            const int16_t* frames, int count, int8_t* scores, size_t* used,
                            int in_input, int64_t* places) {
  MicroInterpreter** made = interpreters(files, 2, arena, size, nullptr, used);
  if (made == nullptr) return 1;
  constexpr int kFrame = 40, kFrames = 49, kSamples = 480;
  static int8_t apart[kFrame * kFrames];
  auto* heard = reinterpret_cast<int16_t*>(data(made[0]->input(0)));
  auto* feature = reinterpret_cast<int8_t*>(data(made[0]->output(0)));
  auto* given = reinterpret_cast<int8_t*>(data(made[1]->input(0)));
  auto* scored = reinterpret_cast<int8_t*>(data(made[1]->output(0)));
  places[0] = feature - reinterpret_cast<int8_t*>(arena);
  places[1] = given - reinterpret_cast<int8_t*>(arena);
  int8_t* kept = in_input ? given : apart;
  std::memset(kept, 0, sizeof apart);
  for (int k = 0; k < count; ++k) {
    std::memmove(kept, kept + kFrame, kFrame * (kFrames - 1));
    std::memcpy(heard, frames + kSamples * k, kSamples * sizeof(int16_t));
    if (made[0]->Invoke() != 0) return 2;
    int8_t* newest = kept + kFrame * (kFrames - 1);
    if (feature != newest) std::memcpy(newest, feature, kFrame);
    if (!in_input) std::memcpy(given, apart, sizeof apart);
    if (made[1]->Invoke() != 0) return 3;
    std::memcpy(scores + 4 * k, scored, 4);
  }
  return 0;
}
