// Elementwise ops: unary and binary arithmetic, comparison, selection,
// conversion, map.
#include "compiler/ir/op_traits.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/elementwise_shapes.h"
#include "compiler/ops/op_schema.h"
#include "compiler/ops/schema_registry.h"

namespace kiln {
namespace ops_internal {
namespace {

constexpr Opcode kUnaryOps[] = {
    Opcode::kAbs,
    Opcode::kAcos,
    Opcode::kAcosh,
    Opcode::kAsin,
    Opcode::kAsinh,
    Opcode::kAtan,
    Opcode::kAtanh,
    Opcode::kCbrt,
    Opcode::kCeil,
    Opcode::kClz,
    Opcode::kCopy,
    Opcode::kCos,
    Opcode::kCosh,
    Opcode::kErf,
    Opcode::kExp,
    Opcode::kExpm1,
    Opcode::kFloor,
    Opcode::kImag,
    Opcode::kIsFinite,
    Opcode::kLog,
    Opcode::kLog1p,
    Opcode::kLogistic,
    Opcode::kNegate,
    Opcode::kNot,
    Opcode::kPopulationCount,
    Opcode::kReal,
    Opcode::kRoundNearestAfz,
    Opcode::kRoundNearestEven,
    Opcode::kRsqrt,
    Opcode::kSign,
    Opcode::kSin,
    Opcode::kSinh,
    Opcode::kSqrt,
    Opcode::kTan,
    Opcode::kTanh,
    Opcode::kConvert,
    Opcode::kBitcastConvert,
};

constexpr Opcode kBinaryOps[] = {
    Opcode::kAdd,
    Opcode::kAnd,
    Opcode::kAtan2,
    Opcode::kComplex,
    Opcode::kDivide,
    Opcode::kMaximum,
    Opcode::kMinimum,
    Opcode::kMultiply,
    Opcode::kOr,
    Opcode::kPower,
    Opcode::kRemainder,
    Opcode::kShiftLeft,
    Opcode::kShiftRightArithmetic,
    Opcode::kShiftRightLogical,
    Opcode::kSubtract,
    Opcode::kXor,
};

// Client-form implicit broadcasting (broadcasting.md): the n-ary
// elementwise ops accept broadcast_dimensions={...}, printed after their
// own attributes. Strict HLO rejects it in shape inference.
AttrSpec BroadcastDimensionsAttr() {
  return Optional("broadcast_dimensions", AttrKind::kInt64List);
}

}  // namespace

void RegisterElementwiseSchemas(SchemaTable* table) {
  for (Opcode opcode : kUnaryOps) Define(table, opcode, 1, 1);
  for (Opcode opcode : kBinaryOps) {
    Define(table, opcode, 2, 2, {BroadcastDimensionsAttr()});
  }
  Define(table, Opcode::kStochasticConvert, 2, 2);
  Define(table, Opcode::kSelect, 3, 3, {BroadcastDimensionsAttr()});
  Define(table, Opcode::kClamp, 3, 3, {BroadcastDimensionsAttr()});
  // `type` is printed only when it differs from the element type's default.
  Define(table, Opcode::kCompare, 2, 2,
         {Enum("direction", {"EQ", "NE", "GE", "GT", "LE", "LT"},
               /*required=*/true),
          Enum("type", {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}),
          BroadcastDimensionsAttr()});
  Define(table, Opcode::kReducePrecision, 1, 1,
         {Required("exponent_bits", AttrKind::kInt64),
          Required("mantissa_bits", AttrKind::kInt64)});
  Define(table, Opcode::kMap, 1, kVariadic,
         {Optional("dimensions", AttrKind::kInt64List),
          Required("to_apply", AttrKind::kComputation)});
  SetElementwiseShapeRules(table);
}

}  // namespace ops_internal

bool IsElementwiseFamilyOpcode(Opcode opcode) {
  return GetOpTraits(opcode).elementwise;
}

}  // namespace kiln
