// Element-type classes the shape rules accept ("float or complex",
// "integral", ...), as bit masks so that each op's accepted types is one
// table entry.
#ifndef KILN_COMPILER_OPS_ELEMENT_TYPE_CLASSES_H_
#define KILN_COMPILER_OPS_ELEMENT_TYPE_CLASSES_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/instruction.h"

namespace kiln {
namespace ops_internal {

enum TypeClass : uint8_t {
  kPredClass = 1 << 0,
  kSignedClass = 1 << 1,
  kUnsignedClass = 1 << 2,
  kFloatClass = 1 << 3,
  kComplexClass = 1 << 4,
};
inline constexpr uint8_t kIntegralClasses = kSignedClass | kUnsignedClass;
inline constexpr uint8_t kNumericClasses =
    kIntegralClasses | kFloatClass | kComplexClass;
inline constexpr uint8_t kAnyArrayClasses = kNumericClasses | kPredClass;
inline constexpr uint8_t kFloatOrComplex = kFloatClass | kComplexClass;

// The class bit of `type`; 0 for tuple/token/opaque/invalid.
uint8_t ClassOf(ElementType type);
inline bool InClasses(ElementType type, uint8_t classes) {
  return (ClassOf(type) & classes) != 0;
}
// "pred, integral or floating-point", for messages.
std::string ClassesText(uint8_t classes);

// Operand `operand`'s element type is in `classes`; the error reads
// "<op> expects a <classes> element type, got <shape> for operand <n>".
absl::Status CheckElementClasses(const Instruction& instruction,
                                 int64_t operand, uint8_t classes,
                                 absl::string_view spec_section);

}  // namespace ops_internal
}  // namespace kiln

#endif  // KILN_COMPILER_OPS_ELEMENT_TYPE_CLASSES_H_
