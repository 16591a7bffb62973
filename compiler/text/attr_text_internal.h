// Internal to the attribute codec: the per-kind parsers and printers that
// attr_text.cc dispatches to, split over files by idea.
#ifndef KILN_COMPILER_TEXT_ATTR_TEXT_INTERNAL_H_
#define KILN_COMPILER_TEXT_ATTR_TEXT_INTERNAL_H_

#include <string>

#include "absl/status/statusor.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/shape.h"
#include "compiler/ops/op_schema.h"
#include "compiler/text/attr_scanner.h"

namespace kiln {
namespace text_internal {

// Every parser starts at the value (space already skipped or not) and
// leaves the scanner just past it.
using AttrParser = absl::StatusOr<AttrValue> (*)(const AttrSpec& spec,
                                                 AttrScanner* scanner);

// shape_text.cc
absl::StatusOr<Shape> ParseShape(AttrScanner* scanner);

// attr_text_structured.cc
absl::StatusOr<AttrValue> ParseWindowValue(const AttrSpec&, AttrScanner*);
absl::StatusOr<AttrValue> ParseConvDimLabelsValue(const AttrSpec&,
                                                  AttrScanner*);
absl::StatusOr<AttrValue> ParsePaddingValue(const AttrSpec&, AttrScanner*);
absl::StatusOr<AttrValue> ParseSliceValue(const AttrSpec&, AttrScanner*);
void PrintWindow(const Window& window, std::string* out);
void PrintConvDimLabels(const ConvolutionDimensionNumbers& dnums,
                        std::string* out);
void PrintPadding(const PaddingConfig& padding, std::string* out);
void PrintSlice(const SliceRanges& slice, std::string* out);

// attr_text_groups.cc
absl::StatusOr<AttrValue> ParseReplicaGroupsValue(const AttrSpec&,
                                                  AttrScanner*);
absl::StatusOr<AttrValue> ParseAliasingValue(const AttrSpec&, AttrScanner*);
absl::StatusOr<AttrValue> ParseRawTextValue(const AttrSpec&, AttrScanner*);
void PrintReplicaGroups(const ReplicaGroups& groups, std::string* out);
void PrintAliasing(const OutputOperandAliasing& aliasing, std::string* out);
// Brings an iota replica-group form to XLA's canonical form (size-1 dims
// dropped, adjacent dims merged, identity transpose removed) so printing
// matches XLA. Returns false if the form is inconsistent.
bool CanonicalizeIotaReplicaGroups(ReplicaGroups* groups);

// Shared list helpers (attr_text.cc).
absl::Status ParseInt64ListInto(AttrScanner* scanner, Int64List* out);
void AppendInt64List(const Int64List& list, std::string* out);

}  // namespace text_internal
}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_ATTR_TEXT_INTERNAL_H_
