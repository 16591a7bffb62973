// A fake CUDA driver (and the one cuBLAS function the gpu backend calls),
// built as a shared library for tests on machines without a GPU: point
// KILN_CUDA_DRIVER_LIBRARY and KILN_CUBLAS_LIBRARY at it.
//
// "Device" memory is host memory (a device pointer is the host address),
// every copy is checked against the live allocations, launches are
// recorded (and handed to a hook that may run them, e.g. on the gpu
// emulation's host entries), and the fake_cuda_* functions below inject
// failures. Modules are not compiled: cuModuleLoadDataEx accepts any
// image and cuModuleGetFunction any name.
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

using DevicePtr = unsigned long long;  // NOLINT: cuda.h's CUdeviceptr.
using LaunchHook = void (*)(const char* function, const void* const* in,
                            void* const* out);

constexpr int kSuccess = 0, kInvalidValue = 1, kOutOfMemory = 2;
constexpr int kNoDevice = 100, kInvalidPtx = 218, kNotFound = 500;

struct Launch {
  std::string function;
  unsigned grid, block;
};

struct State {
  std::mutex mutex;
  std::map<DevicePtr, size_t> allocations;
  std::vector<Launch> launches;
  int device_count = 1;
  long long fail_alloc_over = -1;
  std::string module_load_log;  // Non-empty: loads fail with this log.
  std::string fail_launch;      // A function name whose launches fail.
  int fail_launch_error = 0;
  int fail_next_copy = 0;  // An error the next synchronizing call gives.
  LaunchHook hook = nullptr;
  int gemms = 0;
};

State& Fake() {
  static State* const state = new State;
  return *state;
}

// Whether [pointer, pointer + bytes) lies in one live allocation.
bool Valid(const State& state, DevicePtr pointer, size_t bytes) {
  auto it = state.allocations.upper_bound(pointer);
  if (it == state.allocations.begin()) return false;
  --it;
  return pointer >= it->first && pointer + bytes <= it->first + it->second;
}

// The failure injected for the next synchronizing call, once.
int TakeCopyFailure(State& state) {
  const int error = state.fail_next_copy;
  state.fail_next_copy = 0;
  return error;
}

struct Function {
  std::string name;
};

// A real context handle's address only matters as a value.
int context_token = 0;

}  // namespace

extern "C" {

// ---- Controls for tests. ----
void fake_cuda_reset() {
  State& s = Fake();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.launches.clear();
  s.fail_alloc_over = -1;
  s.module_load_log.clear();
  s.fail_launch.clear();
  s.fail_launch_error = 0;
  s.fail_next_copy = 0;
  s.hook = nullptr;
  s.gemms = 0;
}
void fake_cuda_fail_alloc_over(long long bytes) {
  std::lock_guard<std::mutex> lock(Fake().mutex);
  Fake().fail_alloc_over = bytes;
}
void fake_cuda_fail_module_load(const char* log) {
  std::lock_guard<std::mutex> lock(Fake().mutex);
  Fake().module_load_log = log != nullptr ? log : "";
}
void fake_cuda_fail_launch(const char* function, int error) {
  std::lock_guard<std::mutex> lock(Fake().mutex);
  Fake().fail_launch = function != nullptr ? function : "";
  Fake().fail_launch_error = error;
}
void fake_cuda_fail_next_copy(int error) {
  std::lock_guard<std::mutex> lock(Fake().mutex);
  Fake().fail_next_copy = error;
}
void fake_cuda_set_launch_hook(LaunchHook hook) {
  std::lock_guard<std::mutex> lock(Fake().mutex);
  Fake().hook = hook;
}
int fake_cuda_launch_count() {
  std::lock_guard<std::mutex> lock(Fake().mutex);
  return static_cast<int>(Fake().launches.size());
}
// Launch `i`'s function name, grid and block (x only: Kiln launches 1-D).
const char* fake_cuda_launch(int i, unsigned* grid, unsigned* block) {
  std::lock_guard<std::mutex> lock(Fake().mutex);
  const Launch& launch = Fake().launches.at(i);
  *grid = launch.grid;
  *block = launch.block;
  return launch.function.c_str();
}
int fake_cuda_live_allocations() {
  std::lock_guard<std::mutex> lock(Fake().mutex);
  return static_cast<int>(Fake().allocations.size());
}
int fake_cuda_gemm_count() {
  std::lock_guard<std::mutex> lock(Fake().mutex);
  return Fake().gemms;
}

// ---- The driver API. ----
int cuInit(unsigned) { return kSuccess; }
int cuDeviceGetCount(int* count) {
  const char* env = std::getenv("FAKE_CUDA_DEVICE_COUNT");
  *count = env != nullptr ? std::atoi(env) : Fake().device_count;
  return kSuccess;
}
int cuDeviceGet(int* device, int ordinal) {
  *device = ordinal;
  return kSuccess;
}
int cuDeviceGetAttribute(int* value, int attribute, int) {
  *value = attribute == 75 ? 8 : 0;  // Compute capability 8.0.
  return kSuccess;
}
int cuDeviceGetName(char* name, int length, int) {
  std::strncpy(name, "Fake CUDA Device", length);
  return kSuccess;
}
int cuDevicePrimaryCtxRetain(void** context, int) {
  *context = &context_token;
  return kSuccess;
}
int cuCtxSetCurrent(void*) { return kSuccess; }
int cuCtxSynchronize() {
  std::lock_guard<std::mutex> lock(Fake().mutex);
  return TakeCopyFailure(Fake());
}
int cuModuleLoadDataEx(void** module, const void* image, unsigned count,
                       int* options, void** values) {
  std::lock_guard<std::mutex> lock(Fake().mutex);
  if (image == nullptr) return kInvalidValue;
  if (Fake().module_load_log.empty()) {
    *module = new int(0);
    return kSuccess;
  }
  char* log = nullptr;
  size_t size = 0;
  for (unsigned i = 0; i < count; ++i) {
    if (options[i] == 5) log = static_cast<char*>(values[i]);
    if (options[i] == 6) size = reinterpret_cast<size_t>(values[i]);
  }
  if (log != nullptr && size > 0) {
    std::strncpy(log, Fake().module_load_log.c_str(), size - 1);
    log[size - 1] = '\0';
  }
  return kInvalidPtx;
}
int cuModuleUnload(void* module) {
  delete static_cast<int*>(module);
  return kSuccess;
}
int cuModuleGetFunction(void** function, void* module, const char* name) {
  if (module == nullptr || name == nullptr) return kNotFound;
  // One handle per name, kept for the process (handles outlive modules
  // only in tests that leak them on purpose: none).
  static std::map<std::string, Function*>* functions =
      new std::map<std::string, Function*>();
  std::lock_guard<std::mutex> lock(Fake().mutex);
  Function*& f = (*functions)[name];
  if (f == nullptr) f = new Function{name};
  *function = f;
  return kSuccess;
}
int cuLaunchKernel(void* function, unsigned grid_x, unsigned, unsigned,
                   unsigned block_x, unsigned, unsigned, unsigned, void*,
                   void** parameters, void**) {
  State& s = Fake();
  LaunchHook hook = nullptr;
  const std::string name = static_cast<Function*>(function)->name;
  DevicePtr in = *static_cast<DevicePtr*>(parameters[0]);
  DevicePtr out = *static_cast<DevicePtr*>(parameters[1]);
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.fail_launch.empty() && s.fail_launch == name) {
      return s.fail_launch_error;
    }
    if (block_x == 0 || block_x > 1024 || grid_x == 0) return kInvalidValue;
    if (!Valid(s, in, 8) || !Valid(s, out, 8)) return kInvalidValue;
    s.launches.push_back({name, grid_x, block_x});
    hook = s.hook;
  }
  if (hook != nullptr) {
    hook(name.c_str(), reinterpret_cast<const void* const*>(in),
         reinterpret_cast<void* const*>(out));
  }
  return kSuccess;
}
int cuMemAlloc_v2(DevicePtr* pointer, size_t bytes) {
  State& s = Fake();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (bytes == 0) return kInvalidValue;
  if (s.fail_alloc_over >= 0 &&
      static_cast<long long>(bytes) > s.fail_alloc_over) {
    return kOutOfMemory;
  }
  void* memory = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (memory == nullptr) return kOutOfMemory;
  std::memset(memory, 0xa5, bytes);  // Garbage, as fresh device memory.
  *pointer = reinterpret_cast<DevicePtr>(memory);
  s.allocations[*pointer] = bytes;
  return kSuccess;
}
int cuMemFree_v2(DevicePtr pointer) {
  State& s = Fake();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.allocations.find(pointer);
  if (it == s.allocations.end()) return kInvalidValue;
  s.allocations.erase(it);
  std::free(reinterpret_cast<void*>(pointer));
  return kSuccess;
}
int cuMemcpyHtoD_v2(DevicePtr to, const void* from, size_t bytes) {
  State& s = Fake();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!Valid(s, to, bytes)) return kInvalidValue;
  std::memcpy(reinterpret_cast<void*>(to), from, bytes);
  return kSuccess;
}
int cuMemcpyDtoH_v2(void* to, DevicePtr from, size_t bytes) {
  State& s = Fake();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (int error = TakeCopyFailure(s); error != 0) return error;
  if (!Valid(s, from, bytes)) return kInvalidValue;
  std::memcpy(to, reinterpret_cast<const void*>(from), bytes);
  return kSuccess;
}
int cuMemcpyDtoD_v2(DevicePtr to, DevicePtr from, size_t bytes) {
  State& s = Fake();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!Valid(s, to, bytes) || !Valid(s, from, bytes)) return kInvalidValue;
  std::memmove(reinterpret_cast<void*>(to), reinterpret_cast<const void*>(from),
               bytes);
  return kSuccess;
}
int cuGetErrorName(int error, const char** name) {
  switch (error) {
    case kSuccess:
      *name = "CUDA_SUCCESS";
      break;
    case kInvalidValue:
      *name = "CUDA_ERROR_INVALID_VALUE";
      break;
    case kOutOfMemory:
      *name = "CUDA_ERROR_OUT_OF_MEMORY";
      break;
    case kNoDevice:
      *name = "CUDA_ERROR_NO_DEVICE";
      break;
    case kInvalidPtx:
      *name = "CUDA_ERROR_INVALID_PTX";
      break;
    case kNotFound:
      *name = "CUDA_ERROR_NOT_FOUND";
      break;
    case 700:
      *name = "CUDA_ERROR_ILLEGAL_ADDRESS";
      break;
    case 701:
      *name = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
      break;
    default:
      *name = nullptr;
      return kInvalidValue;
  }
  return kSuccess;
}
int cuGetErrorString(int error, const char** text) {
  switch (error) {
    case kOutOfMemory:
      *text = "out of memory";
      break;
    case 700:
      *text = "an illegal memory access was encountered";
      break;
    case 701:
      *text = "too many resources requested for launch";
      break;
    default:
      *text = "fake driver error";
      break;
  }
  return kSuccess;
}

// ---- cuBLAS: a column-major reference GEMM of f32 or f64. ----
int cublasCreate_v2(void** handle) {
  *handle = &context_token;
  return 0;
}
int cublasGemmStridedBatchedEx(void*, int transa, int transb, int m, int n,
                               int k, const void* alpha, const void* a,
                               int type, int lda, long long stride_a,  // NOLINT
                               const void* b, int, int ldb,
                               long long stride_b,  // NOLINT
                               const void* beta, void* c, int, int ldc,
                               long long stride_c, int batch,  // NOLINT
                               int, int) {
  if (type != 0 && type != 1) return 15;  // CUBLAS_STATUS_NOT_SUPPORTED.
  {
    std::lock_guard<std::mutex> lock(Fake().mutex);
    ++Fake().gemms;
  }
  const size_t width = type == 0 ? 4 : 8;
  auto load = [&](const void* base, long long index) -> double {  // NOLINT
    const char* p = static_cast<const char*>(base) + index * width;
    if (type == 0) return *reinterpret_cast<const float*>(p);
    return *reinterpret_cast<const double*>(p);
  };
  const double scale = type == 0 ? *static_cast<const float*>(alpha)
                                 : *static_cast<const double*>(alpha);
  (void)beta;  // Kiln passes 0.
  for (int bi = 0; bi < batch; ++bi) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i) {
        double sum = 0;
        for (int l = 0; l < k; ++l) {
          const long long ai = transa == 0 ? i + 1LL * l * lda  // NOLINT
                                           : l + 1LL * i * lda;
          const long long bj = transb == 0 ? l + 1LL * j * ldb  // NOLINT
                                           : j + 1LL * l * ldb;
          sum += load(a, bi * stride_a + ai) * load(b, bi * stride_b + bj);
        }
        char* p =
            static_cast<char*>(c) + (bi * stride_c + i + 1LL * j * ldc) * width;
        if (type == 0) {
          *reinterpret_cast<float*>(p) = static_cast<float>(scale * sum);
        } else {
          *reinterpret_cast<double*>(p) = scale * sum;
        }
      }
    }
  }
  return 0;
}

}  // extern "C"
