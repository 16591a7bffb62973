#include "backends/gpu/cublas.h"

#include <dlfcn.h>

#include <climits>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "backends/gpu/nvrtc_compiler.h"

namespace kiln::gpu {
namespace {

// cublas_api.h's and library_types.h's values used here.
constexpr int kOpN = 0, kOpT = 1;
constexpr int kComputeF32 = 68, kComputeF64 = 70;
constexpr int kGemmDefault = -1;
constexpr int kR32F = 0, kR64F = 1, kR16F = 2, kR16BF = 14;

using Handle = void*;
struct Cublas {
  int (*create)(Handle*);
  int (*gemm)(Handle, int, int, int, int, int, const void*, const void*, int,
              int, long long, const void*, int, int, long long,   // NOLINT
              const void*, void*, int, int, long long, int, int,  // NOLINT
              int);
  const char* (*status_string)(int);  // May be missing (older cuBLAS).
  absl::Mutex mutex;
  Handle handle ABSL_GUARDED_BY(mutex) = nullptr;
};

void* OpenLibrary() {
  std::vector<std::string> paths;
  if (const char* path = std::getenv("KILN_CUBLAS_LIBRARY");
      path != nullptr && *path != '\0') {
    paths.push_back(path);
  } else {
    for (const char* version : {"13", "12", "11"}) {
      paths.push_back(
          absl::StrCat(CudaHome(), "/lib64/libcublas.so.", version));
      paths.push_back(absl::StrCat("libcublas.so.", version));
    }
  }
  for (const std::string& path : paths) {
    if (void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      return library;
    }
  }
  return nullptr;
}

absl::StatusOr<Cublas*> Load() {
  void* library = OpenLibrary();
  if (library == nullptr) {
    return absl::UnavailableError(
        "cannot load cuBLAS (libcublas.so.13, .12 or .11 from $CUDA_HOME/lib64 "
        "or the loader's path)");
  }
  auto* cublas = new Cublas;
  cublas->create =
      reinterpret_cast<int (*)(Handle*)>(dlsym(library, "cublasCreate_v2"));
  cublas->gemm = reinterpret_cast<decltype(cublas->gemm)>(
      dlsym(library, "cublasGemmStridedBatchedEx"));
  cublas->status_string = reinterpret_cast<const char* (*)(int)>(
      dlsym(library, "cublasGetStatusString"));
  if (cublas->create == nullptr || cublas->gemm == nullptr) {
    delete cublas;
    return absl::UnavailableError(
        "cuBLAS lacks cublasCreate_v2 or cublasGemmStridedBatchedEx");
  }
  return cublas;
}

const absl::StatusOr<Cublas*>& GetCublas() {
  static const auto* const cublas = new absl::StatusOr<Cublas*>(Load());
  return *cublas;
}

std::string StatusText(const Cublas& cublas, int status) {
  const char* text =
      cublas.status_string != nullptr ? cublas.status_string(status) : nullptr;
  return absl::StrCat("cuBLAS status ", status,
                      text != nullptr ? absl::StrCat(" (", text, ")") : "");
}

int DataType(ElementType type) {
  switch (type) {
    case ElementType::kF64:
      return kR64F;
    case ElementType::kF16:
      return kR16F;
    case ElementType::kBF16:
      return kR16BF;
    default:
      return kR32F;
  }
}

}  // namespace

bool CublasSupports(ElementType type) {
  return type == ElementType::kF32 || type == ElementType::kF64 ||
         type == ElementType::kF16 || type == ElementType::kBF16;
}

absl::Status CublasStatus() { return GetCublas().status(); }

absl::Status CublasGemm(const GemmCall& call) {
  const absl::StatusOr<Cublas*>& loaded = GetCublas();
  if (!loaded.ok()) return loaded.status();
  Cublas& cublas = **loaded;
  if (call.m > INT_MAX || call.n > INT_MAX || call.k > INT_MAX ||
      call.batch > INT_MAX) {
    return absl::UnimplementedError("a GEMM dimension over 2^31");
  }
  absl::MutexLock lock(&cublas.mutex);
  if (cublas.handle == nullptr) {
    if (int status = cublas.create(&cublas.handle); status != 0) {
      cublas.handle = nullptr;
      return absl::InternalError(
          absl::StrCat("cublasCreate: ", StatusText(cublas, status)));
    }
  }
  // Row-major out = lhs * rhs is column-major out^T = rhs^T * lhs^T: the
  // operands swap places, and a row-major matrix read as column-major is
  // already the transpose.
  const int m = static_cast<int>(call.n), n = static_cast<int>(call.m);
  const int k = static_cast<int>(call.k);
  const int op_a = call.transpose_rhs ? kOpT : kOpN;
  const int lda = call.transpose_rhs ? k : m;
  const int op_b = call.transpose_lhs ? kOpT : kOpN;
  const int ldb = call.transpose_lhs ? n : k;
  const int type = DataType(call.type);
  const bool f64 = call.type == ElementType::kF64;
  const double alpha64 = 1, beta64 = 0;
  const float alpha32 = 1, beta32 = 0;
  const void* alpha = f64 ? static_cast<const void*>(&alpha64) : &alpha32;
  const void* beta = f64 ? static_cast<const void*>(&beta64) : &beta32;
  const int status = cublas.gemm(
      cublas.handle, op_a, op_b, m, n, k, alpha,
      reinterpret_cast<const void*>(call.rhs), type, lda, call.k * call.n,
      reinterpret_cast<const void*>(call.lhs), type, ldb, call.m * call.k, beta,
      reinterpret_cast<void*>(call.out), type, m, call.m * call.n,
      static_cast<int>(call.batch), f64 ? kComputeF64 : kComputeF32,
      kGemmDefault);
  if (status != 0) {
    return absl::InternalError(absl::StrCat("cublasGemmStridedBatchedEx: ",
                                            StatusText(cublas, status)));
  }
  return absl::OkStatus();
}

}  // namespace kiln::gpu
