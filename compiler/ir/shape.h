// Shapes: arrays (static, bounded-dynamic `<=N` and unbounded `?` dimensions,
// optional layout), tuples (nested), token and opaque (shapes.md).
#ifndef KILN_COMPILER_IR_SHAPE_H_
#define KILN_COMPILER_IR_SHAPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/layout.h"

namespace kiln {

class Shape {
 public:
  // Size stored for an unbounded dynamic dimension, printed as '?'.
  static constexpr int64_t kUnboundedSize = INT64_MIN;

  Shape() = default;  // An invalid shape (element type kInvalid).

  // Array shape with static dimensions and no layout.
  static Shape Array(ElementType type, std::vector<int64_t> dimensions);
  // Array shape; dynamic[i] marks dimension i dynamic (bound = dimensions[i],
  // or kUnboundedSize for '?').
  static Shape DynamicArray(ElementType type, std::vector<int64_t> dimensions,
                            std::vector<bool> dynamic);
  static Shape Scalar(ElementType type) { return Array(type, {}); }
  static Shape Tuple(std::vector<Shape> elements);
  static Shape Token();
  static Shape Opaque();

  ElementType element_type() const { return element_type_; }
  bool IsArray() const { return IsArrayType(element_type_); }
  bool IsTuple() const { return element_type_ == ElementType::kTuple; }
  bool IsToken() const { return element_type_ == ElementType::kToken; }
  bool IsOpaque() const { return element_type_ == ElementType::kOpaque; }
  bool IsScalar() const { return IsArray() && dimensions_.empty(); }

  // --- Arrays ---
  int64_t rank() const { return static_cast<int64_t>(dimensions_.size()); }
  const std::vector<int64_t>& dimensions() const { return dimensions_; }
  int64_t dimension(int64_t i) const { return dimensions_[i]; }
  bool is_dynamic_dimension(int64_t i) const { return dynamic_[i]; }
  bool is_unbounded_dimension(int64_t i) const {
    return dimensions_[i] == kUnboundedSize;
  }
  const std::vector<bool>& dynamic_dimensions() const { return dynamic_; }
  bool is_static() const;  // No dynamic dimension anywhere (tuples: deep).
  void set_dimension(int64_t i, int64_t size, bool dynamic = false);
  void set_dynamic_dimension(int64_t i, bool dynamic);

  bool has_layout() const { return layout_.has_value(); }
  const Layout& layout() const { return *layout_; }
  Layout* mutable_layout() { return &*layout_; }
  void set_layout(Layout layout) { layout_ = std::move(layout); }
  void clear_layout();  // Tuples: deep.
  // Gives every array (deeply) the default layout if it has none.
  void SetDefaultLayoutIfMissing();

  // --- Tuples ---
  const std::vector<Shape>& tuple_shapes() const { return tuple_shapes_; }
  std::vector<Shape>* mutable_tuple_shapes() { return &tuple_shapes_; }
  const Shape& tuple_shape(int64_t i) const { return tuple_shapes_[i]; }
  int64_t tuple_size() const { return tuple_shapes_.size(); }

  // Number of elements of an array, or an error if it does not fit in
  // int64 or a dimension is unbounded. Bounded dims count at their bound.
  absl::StatusOr<int64_t> ElementCount() const;
  // Bytes of the dense storage a Literal uses (storage_bytes per element),
  // overflow-checked. Tuples: sum of elements. Token/opaque: 0.
  absl::StatusOr<int64_t> ByteSize() const;

  // Checks dimension sizes (non-negative or unbounded), the layout
  // (permutation, tiles, element size) and recurses into tuples.
  absl::Status Validate() const;

  // Text as XLA prints it: "f32[2,<=3,?]{2,1,0:T(8,128)}", "(f32[], token[])".
  // print_layout=false omits all layouts.
  std::string ToString(bool print_layout = true) const;

  // Equality including layouts; Compatible ignores layouts.
  bool operator==(const Shape& other) const;
  bool operator!=(const Shape& other) const { return !(*this == other); }
  bool Compatible(const Shape& other) const;
  // Same element type and dimensions (and dynamism), layouts ignored.
  bool SameDimensionsAndType(const Shape& other) const;

  // The subshape at a tuple index path; nullptr when the path is invalid.
  const Shape* Subshape(absl::Span<const int64_t> index) const;

 private:
  // Passes ask every instruction's shape whether it is static, so the
  // answer for an array must not need the heap block of dynamic_: the
  // count of its true entries is kept beside it. The layout, read less
  // often and the largest member, comes last, so that type, dimensions and
  // dynamism share the first cache line of a shape.
  ElementType element_type_ = ElementType::kInvalid;
  int32_t dynamic_dimension_count_ = 0;  // True entries of dynamic_.
  std::vector<int64_t> dimensions_;
  std::vector<bool> dynamic_;
  std::vector<Shape> tuple_shapes_;
  std::optional<Layout> layout_;
};

}  // namespace kiln

#endif  // KILN_COMPILER_IR_SHAPE_H_
