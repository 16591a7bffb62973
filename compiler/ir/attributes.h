// Typed attribute values of HLO instructions. An instruction keeps its
// op-specific attributes in an AttributeMap, keyed by the name XLA's text
// uses ("dimensions", "window", "to_apply", ...). Which names an op accepts,
// and of which kind, is the op's schema in compiler/ops/.
#ifndef KILN_COMPILER_IR_ATTRIBUTES_H_
#define KILN_COMPILER_IR_ATTRIBUTES_H_

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/ir/shape.h"

namespace kiln {

class Computation;

// window={size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=1x1 rhs_dilate=1x1
//         rhs_reversal=0x0}
struct WindowDimension {
  int64_t size = 1;
  int64_t stride = 1;
  int64_t padding_low = 0;
  int64_t padding_high = 0;
  int64_t window_dilation = 1;  // rhs_dilate
  int64_t base_dilation = 1;    // lhs_dilate
  bool window_reversal = false;
  bool operator==(const WindowDimension& o) const;
};
struct Window {
  std::vector<WindowDimension> dimensions;
  bool operator==(const Window& o) const { return dimensions == o.dimensions; }
};

// dim_labels=b01f_01io->b01f
struct ConvolutionDimensionNumbers {
  int64_t input_batch_dimension = 0;
  int64_t input_feature_dimension = 0;
  std::vector<int64_t> input_spatial_dimensions;
  int64_t kernel_input_feature_dimension = 0;
  int64_t kernel_output_feature_dimension = 0;
  std::vector<int64_t> kernel_spatial_dimensions;
  int64_t output_batch_dimension = 0;
  int64_t output_feature_dimension = 0;
  std::vector<int64_t> output_spatial_dimensions;
  bool operator==(const ConvolutionDimensionNumbers& o) const;
};

// padding=0_1_0x2_3_1 (low_high_interior per dimension; negative allowed).
struct PaddingDimension {
  int64_t low = 0;
  int64_t high = 0;
  int64_t interior = 0;
  bool operator==(const PaddingDimension& o) const {
    return low == o.low && high == o.high && interior == o.interior;
  }
};
struct PaddingConfig {
  std::vector<PaddingDimension> dimensions;
  bool operator==(const PaddingConfig& o) const {
    return dimensions == o.dimensions;
  }
};

// slice={[0:2], [1:5:2]}
struct SliceRange {
  int64_t start = 0;
  int64_t limit = 0;
  int64_t stride = 1;
  bool operator==(const SliceRange& o) const {
    return start == o.start && limit == o.limit && stride == o.stride;
  }
};
struct SliceRanges {
  std::vector<SliceRange> ranges;
  bool operator==(const SliceRanges& o) const { return ranges == o.ranges; }
};

// replica_groups={{0,1},{2,3}} or the iota form [2,2]<=[4] /
// [2,2]<=[2,2]T(1,0).
struct ReplicaGroups {
  bool is_iota = false;
  std::vector<std::vector<int64_t>> groups;  // list form
  std::vector<int64_t> iota_group_shape;     // [num_groups, size]
  std::vector<int64_t> iota_reshape_dims;    // <=[...]
  std::vector<int64_t> iota_transpose_perm;  // T(...), may be empty
  // Expands the iota form into explicit groups.
  std::vector<std::vector<int64_t>> ExpandedGroups() const;
  bool operator==(const ReplicaGroups& o) const;
};

// An enumerated attribute (comparison direction, fft_type, fusion kind,
// precision, ...): one of the spellings the op's schema lists. Stored as the
// spelling's index in that list plus the spelling itself, so code can switch
// on typed enums via the helpers in compiler/ops/.
struct EnumValue {
  std::string spelling;
  bool operator==(const EnumValue& o) const { return spelling == o.spelling; }
};

// operand_precision={high,default} and similar lists of enum spellings.
struct EnumList {
  std::vector<std::string> spellings;
  bool operator==(const EnumList& o) const { return spellings == o.spellings; }
};

// output_to_operand_aliasing={{0}: (1, {}), {1}: (0, {2})}
struct OutputOperandAlias {
  std::vector<int64_t> output_index;
  int64_t operand = 0;
  std::vector<int64_t> operand_index;
  bool operator==(const OutputOperandAlias& o) const {
    return output_index == o.output_index && operand == o.operand &&
           operand_index == o.operand_index;
  }
};
struct OutputOperandAliasing {
  std::vector<OutputOperandAlias> aliases;
  bool operator==(const OutputOperandAliasing& o) const {
    return aliases == o.aliases;
  }
};

// Text kept exactly as written (sharding, backend_config, metadata-like
// attributes whose inner grammar Kiln does not interpret). `text` is the
// whole value, braces or quotes included, so printing it back is exact.
struct RawText {
  std::string text;
  bool operator==(const RawText& o) const { return text == o.text; }
};

using ComputationList = std::vector<Computation*>;
using ShapeList = std::vector<Shape>;
using Int64List = std::vector<int64_t>;
using Int64ListList = std::vector<std::vector<int64_t>>;
using BoolList = std::vector<bool>;

using AttrValue =
    std::variant<bool, int64_t, double, std::string, Int64List, Int64ListList,
                 BoolList, Window, ConvolutionDimensionNumbers, PaddingConfig,
                 SliceRanges, ReplicaGroups, EnumValue, EnumList,
                 OutputOperandAliasing, RawText, Shape, ShapeList, Computation*,
                 ComputationList>;

// A small ordered map from attribute name to value. Insertion order is kept
// only for determinism; the printer orders attributes by the op's schema.
class AttributeMap {
 public:
  bool Has(absl::string_view name) const { return Find(name) != nullptr; }
  const AttrValue* Find(absl::string_view name) const;
  AttrValue* Find(absl::string_view name);
  // Typed lookup; nullptr if absent or of another kind.
  template <typename T>
  const T* Get(absl::string_view name) const {
    const AttrValue* v = Find(name);
    return v == nullptr ? nullptr : std::get_if<T>(v);
  }
  void Set(absl::string_view name, AttrValue value);
  bool Erase(absl::string_view name);
  const std::vector<std::pair<std::string, AttrValue>>& entries() const {
    return entries_;
  }
  bool empty() const { return entries_.empty(); }
  // False when no value names a computation, so that callers walking every
  // instruction for its callees (call graphs, side effects) skip the
  // entries. Conservative: once a computation is set, or a value is handed
  // out for writing, it stays true.
  bool MayReferenceComputations() const { return may_reference_computations_; }
  // Equality of values; Computation* compared by computation name so that
  // equal modules built separately compare equal.
  bool Equals(const AttributeMap& other) const;

 private:
  // The flag first: Instruction places its AttributeMap so that the flag
  // shares the instruction's first cache line, which call-graph sweeps read.
  bool may_reference_computations_ = false;
  std::vector<std::pair<std::string, AttrValue>> entries_;
};

}  // namespace kiln

#endif  // KILN_COMPILER_IR_ATTRIBUTES_H_
