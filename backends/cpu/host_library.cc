#include "backends/cpu/host_library.h"

#include <unistd.h>

#include <cstdlib>
#include <utility>

#include "absl/base/const_init.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"

namespace kiln::cpu {
namespace {

constexpr char kSource[] =
    R"(// Kiln's host library (backends/cpu/host_library.cc).
#include <omp.h>
#include <Eigen/Core>

template <typename T, int kOrder>
using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, kOrder>;

// A stored transposed is the column-major view of the same bytes.
template <typename T, int kLhsOrder, int kRhsOrder>
static void Product(const T* a, const T* b, T* c, long m, long k, long n) {
  Eigen::Map<const Matrix<T, kLhsOrder>> lhs(a, m, k);
  Eigen::Map<const Matrix<T, kRhsOrder>> rhs(b, k, n);
  Eigen::Map<Matrix<T, Eigen::RowMajor>> out(c, m, n);
  out.noalias() = lhs * rhs;
}

template <typename T>
static void Gemm(const T* a, const T* b, T* c, long m, long k, long n,
                 int transpose_a, int transpose_b, int threads) {
  Eigen::setNbThreads(threads > 0 ? threads : omp_get_num_procs());
  constexpr int kRow = Eigen::RowMajor, kColumn = Eigen::ColMajor;
  if (!transpose_a && !transpose_b) {
    Product<T, kRow, kRow>(a, b, c, m, k, n);
  } else if (transpose_a && !transpose_b) {
    Product<T, kColumn, kRow>(a, b, c, m, k, n);
  } else if (!transpose_a) {
    Product<T, kRow, kColumn>(a, b, c, m, k, n);
  } else {
    Product<T, kColumn, kColumn>(a, b, c, m, k, n);
  }
}

extern "C" void kiln_gemm_f32(const float* a, const float* b, float* c,
                              long m, long k, long n, int transpose_a,
                              int transpose_b, int threads) {
  Gemm(a, b, c, m, k, n, transpose_a, transpose_b, threads);
}
extern "C" void kiln_gemm_f64(const double* a, const double* b, double* c,
                              long m, long k, long n, int transpose_a,
                              int transpose_b, int threads) {
  Gemm(a, b, c, m, k, n, transpose_a, transpose_b, threads);
}
)";

std::string EigenIncludeDir() {
  if (const char* env = std::getenv("KILN_EIGEN_INCLUDE"); env && *env) {
    return env;
  }
  return "/usr/include/eigen3";
}

std::shared_ptr<const HostLibrary> Build(const KernelCompilerOptions& base) {
  auto host = std::make_shared<HostLibrary>();
  const std::string eigen = EigenIncludeDir();
  if (access((eigen + "/Eigen/Core").c_str(), R_OK) != 0) {
    host->error = absl::StrCat("no Eigen headers in ", eigen,
                               " (set KILN_EIGEN_INCLUDE)");
    return host;
  }
  KernelCompilerOptions options = base;
  options.extra_flags = {"-fopenmp", "-I" + eigen};
  absl::StatusOr<std::shared_ptr<KernelLibrary>> library =
      BuildKernelLibrary(kSource, options);
  if (!library.ok()) {
    host->error = std::string(library.status().message());
    return host;
  }
  host->library = *std::move(library);
  host->gemm_f32 =
      reinterpret_cast<GemmF32>(host->library->Find("kiln_gemm_f32"));
  host->gemm_f64 =
      reinterpret_cast<GemmF64>(host->library->Find("kiln_gemm_f64"));
  if (host->gemm_f32 == nullptr || host->gemm_f64 == nullptr) {
    host->error = "the host library lacks its GEMM symbols";
    host->gemm_f32 = nullptr;
    host->gemm_f64 = nullptr;
  }
  return host;
}

}  // namespace

std::shared_ptr<const HostLibrary> GetHostLibrary(
    const KernelCompilerOptions& options) {
  static absl::Mutex mutex(absl::kConstInit);
  static auto* libraries =
      new absl::flat_hash_map<std::string,
                              std::shared_ptr<const HostLibrary>>();
  const char* env = std::getenv("KILN_CACHE_DIR");
  const std::string key = absl::StrCat(options.portable, "|", options.cache_dir,
                                       "|", env != nullptr ? env : "");
  absl::MutexLock lock(&mutex);
  auto found = libraries->find(key);
  if (found != libraries->end()) return found->second;
  std::shared_ptr<const HostLibrary> host = Build(options);
  (*libraries)[key] = host;
  return host;
}

}  // namespace kiln::cpu
