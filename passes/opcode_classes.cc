#include "passes/opcode_classes.h"

namespace kiln {

bool IsElementwiseOpcode(Opcode opcode) {
  switch (opcode) {
    case Opcode::kAbs:
    case Opcode::kAcos:
    case Opcode::kAcosh:
    case Opcode::kAdd:
    case Opcode::kAnd:
    case Opcode::kAsin:
    case Opcode::kAsinh:
    case Opcode::kAtan:
    case Opcode::kAtan2:
    case Opcode::kAtanh:
    case Opcode::kBitcastConvert:
    case Opcode::kCbrt:
    case Opcode::kCeil:
    case Opcode::kClamp:
    case Opcode::kClz:
    case Opcode::kCompare:
    case Opcode::kComplex:
    case Opcode::kConvert:
    case Opcode::kCos:
    case Opcode::kCosh:
    case Opcode::kDivide:
    case Opcode::kErf:
    case Opcode::kExp:
    case Opcode::kExpm1:
    case Opcode::kFloor:
    case Opcode::kImag:
    case Opcode::kIsFinite:
    case Opcode::kLog:
    case Opcode::kLog1p:
    case Opcode::kLogistic:
    case Opcode::kMap:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kMultiply:
    case Opcode::kNegate:
    case Opcode::kNot:
    case Opcode::kOr:
    case Opcode::kPopulationCount:
    case Opcode::kPower:
    case Opcode::kReal:
    case Opcode::kReducePrecision:
    case Opcode::kRemainder:
    case Opcode::kRoundNearestAfz:
    case Opcode::kRoundNearestEven:
    case Opcode::kRsqrt:
    case Opcode::kSelect:
    case Opcode::kShiftLeft:
    case Opcode::kShiftRightArithmetic:
    case Opcode::kShiftRightLogical:
    case Opcode::kSign:
    case Opcode::kSin:
    case Opcode::kSinh:
    case Opcode::kSqrt:
    case Opcode::kStochasticConvert:
    case Opcode::kSubtract:
    case Opcode::kTan:
    case Opcode::kTanh:
    case Opcode::kXor:
      return true;
    default:
      return false;
  }
}

}  // namespace kiln
