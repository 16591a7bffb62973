// The standard library as NVRTC sees it when it compiles a generated
// kernel: NVRTC has no host headers, so every standard header the kernel
// prelude and the evaluator's scalar functors include (<cmath>, <complex>,
// <limits>, <type_traits>, <vector>, ...) is this text, which maps std::
// onto libcu++ (cuda::std, from the toolkit's include/cccl) and adds the
// little libcu++ lacks: a std::vector for the sort kernels' index arrays
// (device new/delete), and the OpenMP query the host prelude calls. Not
// compiled into Kiln: nvrtc_compiler.cc hands it to NVRTC.
#ifndef KILN_BACKENDS_GPU_DEVICE_STD_H_
#define KILN_BACKENDS_GPU_DEVICE_STD_H_
#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/cstddef>
#include <cuda/std/cstdint>
#include <cuda/std/cstring>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda/std/utility>
namespace std {
using namespace cuda::std;
template <typename T>
class vector {
 public:
  vector() = default;
  explicit vector(size_t n) { resize(n); }
  ~vector() { delete[] data_; }
  vector(const vector&) = delete;
  vector& operator=(const vector&) = delete;
  void resize(size_t n) {
    if (n <= size_) {
      size_ = n;
      return;
    }
    T* grown = new T[n]();
    for (size_t i = 0; i < size_; ++i) grown[i] = data_[i];
    delete[] data_;
    data_ = grown;
    size_ = n;
  }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* data() { return data_; }
  void swap(vector& other) {
    cuda::std::swap(data_, other.data_);
    cuda::std::swap(size_, other.size_);
  }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};
// What libcu++ lacks that the prelude and the functors call: CUDA's own
// math functions, and min/max (declared in std itself, so that they hide
// anything the using-directive would bring in).
inline double fmod(double a, double b) { return ::fmod(a, b); }
inline float fmod(float a, float b) { return ::fmodf(a, b); }
inline double erf(double a) { return ::erf(a); }
inline float erf(float a) { return ::erff(a); }
template <typename T>
constexpr const T& min(const T& a, const T& b) {
  return b < a ? b : a;
}
template <typename T>
constexpr const T& max(const T& a, const T& b) {
  return a < b ? b : a;
}
}  // namespace std
using cuda::std::int16_t;
using cuda::std::int32_t;
using cuda::std::int64_t;
using cuda::std::int8_t;
using cuda::std::size_t;
using cuda::std::uint16_t;
using cuda::std::uint32_t;
using cuda::std::uint64_t;
using cuda::std::uint8_t;
using cuda::std::uintptr_t;
inline int omp_get_num_procs() { return 1; }
#endif  // KILN_BACKENDS_GPU_DEVICE_STD_H_
