// The attributes every instruction may carry outside its op's schema, as a
// table shared by the parser and the printer. XLA prints them after the
// op-specific attributes, in the order of kGenericAttributeOrder.
#ifndef KILN_COMPILER_TEXT_GENERIC_ATTRS_H_
#define KILN_COMPILER_TEXT_GENERIC_ATTRS_H_

#include <optional>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler/ir/instruction.h"

namespace kiln {
namespace text_internal {

// Generic attributes in XLA's printing order.
absl::Span<const absl::string_view> GenericAttributeOrder();

bool IsGenericAttributeName(absl::string_view name);

// The verbatim field behind a raw generic attribute ("metadata",
// "sharding", ...); nullptr for frontend_attributes, control-predecessors
// and unknown names.
std::optional<RawText>* RawGenericField(Instruction* instruction,
                                        absl::string_view name);
const std::optional<RawText>* RawGenericField(const Instruction& instruction,
                                              absl::string_view name);

// True if `name`=`value` on `instruction` is a compare's type= equal to
// XLA's Comparison::DefaultComparisonType for the operands' element type
// (FLOAT for floating-point and complex, SIGNED for signed integers,
// UNSIGNED for pred and unsigned integers). XLA leaves such a type out of
// its text, and Kiln neither stores nor prints it.
bool IsDefaultComparisonType(const Instruction& instruction,
                             absl::string_view name, const AttrValue& value);

}  // namespace text_internal
}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_GENERIC_ATTRS_H_
