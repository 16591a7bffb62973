// The definition of each op: how many operands it takes and which
// attributes it accepts, of which kind, in which printing order. One file
// per op family under compiler/ops/ registers its ops' schemas; later the
// same files hold each op's shape rule and verification.
#ifndef KILN_COMPILER_OPS_OP_SCHEMA_H_
#define KILN_COMPILER_OPS_OP_SCHEMA_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/op_traits.h"
#include "compiler/ir/opcode.h"

namespace kiln {

// How an attribute's value is written in HLO text.
enum class AttrKind {
  kBool,           // true / false
  kInt64,          // 3, -1
  kFloat,          // 1.5 (e.g. epsilon=0.001)
  kString,         // "quoted" (custom_call_target="foo")
  kInt64List,      // {1,2,3}
  kInt64ListList,  // {{0,1},{1,2}} (source_target_pairs)
  kBoolList,       // {true,false} (parameter_replication), or a bare bool
  kWindow,         // {size=3x3 stride=1x1 pad=0_0x0_0 ...}
  kConvDimLabels,  // b01f_01io->b01f
  kPadding,        // 0_0x1_1_2
  kSlice,          // {[0:2], [1:5:2]}
  kReplicaGroups,  // {{0,1},{2,3}} or [2,2]<=[4] or [2,2]<=[2,2]T(1,0)
  kEnum,           // one of AttrSpec::enum_values (EQ, kLoop, FFT, ...)
  kEnumList,       // {DEFAULT,HIGH} (operand_precision)
  kOutputOperandAliasing,  // {{0}: (1, {}), ...}
  kRawText,          // any balanced {...} / "..." / token run, kept verbatim
  kShape,            // a shape (e.g. rng-get-and-update-state? shape=...)
  kShapeList,        // {f32[2]{0}, s32[]} (operand_layout_constraints)
  kComputation,      // %name  (to_apply=, calls=, condition=, body=, ...)
  kComputationList,  // {%a, %b} (branch_computations=, calls= of async ops)
};

struct AttrSpec {
  std::string name;  // as in text: "dimensions"
  AttrKind kind;
  bool required = false;
  std::vector<std::string> enum_values;  // kEnum/kEnumList spellings
};

class Instruction;
class Shape;
enum class ShapeForm;

// An op's shape rule (shape_inference.h): the result shape, or an error
// naming the rule that `instruction` breaks. Set by the op's family file.
using ShapeRule = absl::StatusOr<Shape> (*)(const Instruction& instruction,
                                            ShapeForm form);

struct OpSchema {
  Opcode opcode;
  int min_operands = 0;
  int max_operands = 0;         // -1: variadic
  std::vector<AttrSpec> attrs;  // in XLA's printing order
  ShapeRule shape_rule = nullptr;
  // What kind of op it is (side effect, async role, elementwise, ...):
  // GetOpTraits(opcode), the one table in compiler/ir/op_traits.cc, copied
  // here so that code holding a schema need not look it up again.
  OpTraits traits;
};

// The schema of `opcode`; every opcode has one.
const OpSchema& GetOpSchema(Opcode opcode);

// The elementwise family (elementwise.cc): each output element depends only
// on the operand elements at the same index. Unary, binary and ternary ops,
// conversions, copy, map and stochastic-convert. The `elementwise` trait
// (op_traits.h). O(1).
bool IsElementwiseFamilyOpcode(Opcode opcode);

// Attributes every instruction may carry, handled outside the schema by the
// parser and printer (kept verbatim on the Instruction): metadata, sharding,
// frontend_attributes, backend_config, result_accuracy, statistics_viz,
// origin, control-predecessors.
bool IsGenericAttribute(const std::string& name);
// Same, without building a std::string (for the parser's hot path).
bool IsGenericAttributeName(absl::string_view name);

// The spec of attribute `name` in `schema`, or nullptr if the op has no such
// attribute. Linear in the op's attribute count (a handful).
const AttrSpec* FindAttrSpec(const OpSchema& schema, absl::string_view name);

// "kBool", "kWindow", ...: for error messages and tests.
absl::string_view AttrKindName(AttrKind kind);

}  // namespace kiln

#endif  // KILN_COMPILER_OPS_OP_SCHEMA_H_
