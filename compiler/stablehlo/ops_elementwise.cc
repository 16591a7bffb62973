// Elementwise ops. Most are one StableHLO op of the same operands; the
// inverse trigonometric and hyperbolic functions and erf, which StableHLO
// lacks, are CHLO ops (which every StableHLO consumer of XLA accepts).
// Client-form broadcasting has been legalized before (export.cc); what is
// left (dynamic dimensions) is refused here.
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ops/attr_enums.h"
#include "compiler/stablehlo/ops.h"

namespace kiln::stablehlo {
namespace {

struct Mapping {
  Opcode opcode;
  const char* name;
};

constexpr Mapping kSimple[] = {
    {Opcode::kAbs, "stablehlo.abs"},
    {Opcode::kCbrt, "stablehlo.cbrt"},
    {Opcode::kCeil, "stablehlo.ceil"},
    {Opcode::kClz, "stablehlo.count_leading_zeros"},
    {Opcode::kCos, "stablehlo.cosine"},
    {Opcode::kExp, "stablehlo.exponential"},
    {Opcode::kExpm1, "stablehlo.exponential_minus_one"},
    {Opcode::kFloor, "stablehlo.floor"},
    {Opcode::kImag, "stablehlo.imag"},
    {Opcode::kIsFinite, "stablehlo.is_finite"},
    {Opcode::kLog, "stablehlo.log"},
    {Opcode::kLog1p, "stablehlo.log_plus_one"},
    {Opcode::kLogistic, "stablehlo.logistic"},
    {Opcode::kNegate, "stablehlo.negate"},
    {Opcode::kNot, "stablehlo.not"},
    {Opcode::kPopulationCount, "stablehlo.popcnt"},
    {Opcode::kReal, "stablehlo.real"},
    {Opcode::kRoundNearestAfz, "stablehlo.round_nearest_afz"},
    {Opcode::kRoundNearestEven, "stablehlo.round_nearest_even"},
    {Opcode::kRsqrt, "stablehlo.rsqrt"},
    {Opcode::kSign, "stablehlo.sign"},
    {Opcode::kSin, "stablehlo.sine"},
    {Opcode::kSqrt, "stablehlo.sqrt"},
    {Opcode::kTan, "stablehlo.tan"},
    {Opcode::kTanh, "stablehlo.tanh"},
    {Opcode::kConvert, "stablehlo.convert"},
    {Opcode::kBitcastConvert, "stablehlo.bitcast_convert"},
    {Opcode::kAcos, "chlo.acos"},
    {Opcode::kAcosh, "chlo.acosh"},
    {Opcode::kAsin, "chlo.asin"},
    {Opcode::kAsinh, "chlo.asinh"},
    {Opcode::kAtan, "chlo.atan"},
    {Opcode::kAtanh, "chlo.atanh"},
    {Opcode::kCosh, "chlo.cosh"},
    {Opcode::kSinh, "chlo.sinh"},
    {Opcode::kErf, "chlo.erf"},
    {Opcode::kAdd, "stablehlo.add"},
    {Opcode::kSubtract, "stablehlo.subtract"},
    {Opcode::kMultiply, "stablehlo.multiply"},
    {Opcode::kDivide, "stablehlo.divide"},
    {Opcode::kRemainder, "stablehlo.remainder"},
    {Opcode::kPower, "stablehlo.power"},
    {Opcode::kMaximum, "stablehlo.maximum"},
    {Opcode::kMinimum, "stablehlo.minimum"},
    {Opcode::kAnd, "stablehlo.and"},
    {Opcode::kOr, "stablehlo.or"},
    {Opcode::kXor, "stablehlo.xor"},
    {Opcode::kShiftLeft, "stablehlo.shift_left"},
    {Opcode::kShiftRightArithmetic, "stablehlo.shift_right_arithmetic"},
    {Opcode::kShiftRightLogical, "stablehlo.shift_right_logical"},
    {Opcode::kComplex, "stablehlo.complex"},
    {Opcode::kAtan2, "stablehlo.atan2"},
};

const char* SimpleName(Opcode opcode) {
  for (const Mapping& mapping : kSimple) {
    if (mapping.opcode == opcode) return mapping.name;
  }
  return nullptr;
}

// Operand `i` has the result's dimensions, or is a scalar where
// `scalar_ok` (clamp's bounds, select's predicate).
absl::Status CheckStrict(const Instruction& instruction, int64_t i,
                         bool scalar_ok) {
  const Shape& operand = instruction.operand(i)->shape();
  const Shape& result = instruction.shape();
  if (scalar_ok && operand.IsScalar()) return absl::OkStatus();
  if (operand.dimensions() == result.dimensions() &&
      operand.dynamic_dimensions() == result.dynamic_dimensions()) {
    return absl::OkStatus();
  }
  return NoForm(absl::StrCat(
      "implicit broadcasting of operand ", i, " (", operand.ToString(false),
      " to ", result.ToString(false),
      ") is left after broadcast-legalization (dynamic dimensions); "
      "StableHLO needs explicit broadcasts"));
}

absl::Status CheckAllStrict(const Instruction& instruction) {
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    absl::Status status = CheckStrict(instruction, i, false);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::StatusOr<Value> EmitMapped(FunctionEmitter& e, const Instruction& i) {
  // Unary ops (bitcast-convert may change the rank) never broadcast.
  if (i.operand_count() > 1) {
    absl::Status strict = CheckAllStrict(i);
    if (!strict.ok()) return strict;
  }
  return EmitSimple(e, i, SimpleName(i.opcode()));
}

// The comparison type XLA gives an element type when `type=` is absent.
std::string DefaultComparisonType(ElementType type) {
  const ElementTypeInfo& info = GetElementTypeInfo(type);
  if (info.kind == TypeKind::kFloat || info.kind == TypeKind::kComplex) {
    return "FLOAT";
  }
  return info.kind == TypeKind::kSigned ? "SIGNED" : "UNSIGNED";
}

absl::StatusOr<Value> EmitCompare(FunctionEmitter& e, const Instruction& i) {
  absl::Status strict = CheckAllStrict(i);
  if (!strict.ok()) return strict;
  const EnumValue* direction = i.attrs().Get<EnumValue>(attr::kDirection);
  const EnumValue* type = i.attrs().Get<EnumValue>(attr::kType);
  if (direction == nullptr) return NoForm("compare without a direction");
  std::string compare_type =
      type != nullptr
          ? type->spelling
          : DefaultComparisonType(i.operand(0)->shape().element_type());
  return EmitSimple(
      e, i, "stablehlo.compare",
      absl::StrCat("comparison_direction = #stablehlo<comparison_direction ",
                   direction->spelling,
                   ">, compare_type = #stablehlo<comparison_type ",
                   compare_type, ">"));
}

absl::StatusOr<Value> EmitClamp(FunctionEmitter& e, const Instruction& i) {
  for (int64_t k : {0, 2}) {
    absl::Status status = CheckStrict(i, k, true);
    if (!status.ok()) return status;
  }
  absl::Status status = CheckStrict(i, 1, false);
  if (!status.ok()) return status;
  return EmitSimple(e, i, "stablehlo.clamp");
}

// select; a select of tuples (scalar predicate) selects leaf by leaf.
absl::StatusOr<Value> EmitSelect(FunctionEmitter& e, const Instruction& i) {
  if (!i.shape().IsTuple()) {
    for (int64_t k = 0; k < 3; ++k) {
      absl::Status status = CheckStrict(i, k, k == 0);
      if (!status.ok()) return status;
    }
    return EmitSimple(e, i, "stablehlo.select");
  }
  absl::StatusOr<std::vector<Value>> on_true = e.Leaves(e.Operand(i, 1));
  if (!on_true.ok()) return on_true.status();
  absl::StatusOr<std::vector<Value>> on_false = e.Leaves(e.Operand(i, 2));
  if (!on_false.ok()) return on_false.status();
  std::vector<Value> leaves;
  for (size_t k = 0; k < on_true->size(); ++k) {
    Op op{"stablehlo.select",
          {e.Operand(i, 0), (*on_true)[k], (*on_false)[k]},
          "",
          {},
          {(*on_true)[k].shape}};
    absl::StatusOr<std::vector<Value>> got = e.Emit(op, i.name());
    if (!got.ok()) return got.status();
    leaves.push_back((*got)[0]);
  }
  size_t next = 0;
  return FunctionEmitter::Pack(i.shape(), leaves, &next);
}

absl::StatusOr<Value> EmitReducePrecision(FunctionEmitter& e,
                                          const Instruction& i) {
  const int64_t* exponent = i.attrs().Get<int64_t>(attr::kExponentBits);
  const int64_t* mantissa = i.attrs().Get<int64_t>(attr::kMantissaBits);
  if (exponent == nullptr || mantissa == nullptr) {
    return NoForm("reduce-precision without exponent_bits/mantissa_bits");
  }
  return EmitSimple(
      e, i, "stablehlo.reduce_precision",
      absl::StrCat("exponent_bits = ", *exponent,
                   " : i32, mantissa_bits = ", *mantissa, " : i32"));
}

}  // namespace

void AddElementwiseHandlers(HandlerTable* table) {
  for (const Mapping& mapping : kSimple) {
    (*table)[mapping.opcode] = &EmitMapped;
  }
  (*table)[Opcode::kCompare] = &EmitCompare;
  (*table)[Opcode::kClamp] = &EmitClamp;
  (*table)[Opcode::kSelect] = &EmitSelect;
  (*table)[Opcode::kReducePrecision] = &EmitReducePrecision;
}

}  // namespace kiln::stablehlo
