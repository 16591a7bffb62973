// Literals: dense values of any shape and element type.
//
// Storage is logical row-major order (the last dimension varies fastest),
// whatever the shape's layout says; layouts matter only to backends and to
// `bitcast`. Each element takes ElementTypeInfo::storage_bytes bytes:
// sub-byte integers and the f4/f6/f8 floats take one byte each, holding the
// type's bit pattern in the low bits (as XLA's literals do). Complex values
// store the real part first.
#ifndef KILN_COMPILER_IR_LITERAL_H_
#define KILN_COMPILER_IR_LITERAL_H_

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/ir/shape.h"

namespace kiln {

// Largest literal a Literal::Create call allocates unless told otherwise.
inline constexpr int64_t kDefaultMaxLiteralBytes = int64_t{4} << 30;

class Literal {
 public:
  Literal() = default;  // An empty tuple-less invalid literal.

  // A zero-filled literal of `shape` (tuples recursively). Refuses shapes
  // whose byte size overflows or exceeds `max_bytes`, and dynamic or
  // unbounded shapes (the storage is static: make the bounded array, then
  // mark dimensions dynamic with SetDynamicSize).
  static absl::StatusOr<Literal> Create(
      const Shape& shape, int64_t max_bytes = kDefaultMaxLiteralBytes);
  // As Create, but the arrays' bytes are left unset: for a producer that
  // writes every byte before anything reads them (a backend's result),
  // which then pays neither the zero fill nor the extra pass over memory.
  static absl::StatusOr<Literal> CreateForOverwrite(
      const Shape& shape, int64_t max_bytes = kDefaultMaxLiteralBytes);
  static Literal Tuple(std::vector<Literal> elements);

  // Convenience constructors for tests and builders.
  static Literal ScalarF32(float v);
  static Literal ScalarS32(int32_t v);
  static Literal ScalarPred(bool v);
  static Literal VectorF32(absl::Span<const float> v);
  static Literal VectorS32(absl::Span<const int32_t> v);

  const Shape& shape() const { return shape_; }
  ElementType element_type() const { return shape_.element_type(); }
  int64_t element_count() const { return element_count_; }

  // Raw storage (arrays only).
  absl::Span<const uint8_t> data() const { return data_; }
  absl::Span<uint8_t> mutable_data() { return absl::MakeSpan(data_); }

  // Bit pattern of element i, zero-extended (complex: not allowed).
  uint64_t GetBits(int64_t i) const;
  void SetBits(int64_t i, uint64_t bits);

  // Typed views through wide types. Floats: exact widening; integers and
  // pred: their value. Setters round to nearest even into narrow floats
  // (overflow, NaN and inf as the type's rules say) and wrap integers to
  // the type's width. SetDouble into an integer type converts as XLA's
  // convert does (truncate toward zero, saturate, NaN -> 0); pred is v != 0.
  double GetDouble(int64_t i) const;
  void SetDouble(int64_t i, double v);
  int64_t GetInt64(int64_t i) const;  // Integers and pred.
  void SetInt64(int64_t i, int64_t v);
  uint64_t GetUint64(int64_t i) const;  // Integers and pred.
  void SetUint64(int64_t i, uint64_t v);
  std::complex<double> GetComplex(int64_t i) const;  // c64 / c128.
  void SetComplex(int64_t i, std::complex<double> v);

  // Dynamic sizes. A literal's storage always spans its dimensions' bounds
  // (row-major over the bounds); a dimension made dynamic by
  // SetDynamicSize is marked `<=bound` in shape() and holds `size` valid
  // elements, the first ones along it. Elements past a dimension's size are
  // padding: printing and equality never look at them. Static dimensions'
  // size is their bound.
  bool has_dynamic_sizes() const { return !dynamic_sizes_.empty(); }
  int64_t dynamic_size(int64_t dimension) const;
  // Every dimension's size (the bound where static).
  std::vector<int64_t> dynamic_sizes() const;
  // Marks `dimension` dynamic with `size` valid elements; needs an array,
  // a dimension in range and 0 <= size <= bound.
  absl::Status SetDynamicSize(int64_t dimension, int64_t size);
  // Number of valid elements: the product of the sizes.
  int64_t valid_element_count() const;

  // Multi-index <-> linear index (row-major).
  int64_t LinearIndex(absl::Span<const int64_t> index) const;

  // Tuples.
  const std::vector<Literal>& tuple_elements() const { return tuple_; }
  std::vector<Literal>* mutable_tuple_elements() { return &tuple_; }

  // Same shape (layouts ignored, dynamic dimensions compared), same
  // dynamic sizes and same bits in the valid elements.
  bool operator==(const Literal& other) const;
  bool operator!=(const Literal& other) const { return !(*this == other); }

 private:
  Shape shape_;
  int64_t element_count_ = 0;
  // Value-initializes (zeroes) only when asked, so that
  // CreateForOverwrite can skip the fill.
  template <typename T>
  struct DefaultInitAllocator : std::allocator<T> {
    template <typename U>
    struct rebind {
      using other = DefaultInitAllocator<U>;
    };
    using std::allocator<T>::allocator;
    template <typename U>
    void construct(U* p) noexcept {
      ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
  };
  static absl::StatusOr<Literal> CreateImpl(const Shape& shape,
                                            int64_t max_bytes, bool zeroed);

  std::vector<uint8_t, DefaultInitAllocator<uint8_t>> data_;
  // Empty, or one size per dimension once any dimension is dynamic.
  std::vector<int64_t> dynamic_sizes_;
  std::vector<Literal> tuple_;
};

}  // namespace kiln

#endif  // KILN_COMPILER_IR_LITERAL_H_
