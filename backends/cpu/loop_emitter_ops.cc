#include "backends/cpu/loop_emitter_ops.h"

#include <array>
#include <complex>
#include <cstdint>

#include "compiler/evaluator/elementwise_binary_ops.h"
#include "compiler/evaluator/elementwise_unary_ops.h"

namespace kiln::cpu::emitter_internal {
namespace {

// Op::Supports<T>() for the native C++ type of `type`.
template <typename Op>
bool SupportsNative(ElementType type) {
  switch (type) {
    case ElementType::kPred:
      return Op::template Supports<bool>();
    case ElementType::kS8:
      return Op::template Supports<int8_t>();
    case ElementType::kS16:
      return Op::template Supports<int16_t>();
    case ElementType::kS32:
      return Op::template Supports<int32_t>();
    case ElementType::kS64:
      return Op::template Supports<int64_t>();
    case ElementType::kU8:
      return Op::template Supports<uint8_t>();
    case ElementType::kU16:
      return Op::template Supports<uint16_t>();
    case ElementType::kU32:
      return Op::template Supports<uint32_t>();
    case ElementType::kU64:
      return Op::template Supports<uint64_t>();
    case ElementType::kF32:
      return Op::template Supports<float>();
    case ElementType::kF64:
      return Op::template Supports<double>();
    case ElementType::kC64:
      return Op::template Supports<std::complex<float>>();
    case ElementType::kC128:
      return Op::template Supports<std::complex<double>>();
    default:
      return false;
  }
}

struct Entry {
  Opcode opcode;
  FunctorOp op;
};

#define KILN_UNARY(opcode, Functor)                                   \
  {                                                                   \
    Opcode::opcode, { #Functor, 1, &SupportsNative < eval::Functor> } \
  }
#define KILN_UNARY_VECTORIZED(opcode, Functor, float_kernel)       \
  {                                                                \
    Opcode::opcode, {                                              \
#Functor, 1, &SupportsNative < eval::Functor>, #float_kernel \
    }                                                              \
  }
#define KILN_BINARY(opcode, Functor)                                  \
  {                                                                   \
    Opcode::opcode, { #Functor, 2, &SupportsNative < eval::Functor> } \
  }
const Entry kEntries[] = {
    KILN_UNARY(kAbs, AbsOp),
    KILN_UNARY(kAcos, AcosOp),
    KILN_UNARY(kAcosh, AcoshOp),
    KILN_UNARY(kAsin, AsinOp),
    KILN_UNARY(kAsinh, AsinhOp),
    KILN_UNARY(kAtan, AtanOp),
    KILN_UNARY(kAtanh, AtanhOp),
    KILN_UNARY(kCbrt, CbrtOp),
    KILN_UNARY(kCeil, CeilOp),
    KILN_UNARY(kClz, ClzOp),
    KILN_UNARY(kCos, CosOp),
    KILN_UNARY(kCosh, CoshOp),
    KILN_UNARY(kErf, ErfOp),
    KILN_UNARY_VECTORIZED(kExp, ExpOp, ExpF32),
    KILN_UNARY(kExpm1, Expm1Op),
    KILN_UNARY(kFloor, FloorOp),
    KILN_UNARY(kLog, LogOp),
    KILN_UNARY(kLog1p, Log1pOp),
    KILN_UNARY_VECTORIZED(kLogistic, LogisticOp, LogisticF32),
    KILN_UNARY(kNegate, NegateOp),
    KILN_UNARY(kNot, NotOp),
    KILN_UNARY(kPopulationCount, PopcntOp),
    KILN_UNARY(kRoundNearestAfz, RoundAfzOp),
    KILN_UNARY(kRoundNearestEven, RoundEvenOp),
    KILN_UNARY(kRsqrt, RsqrtOp),
    KILN_UNARY(kSign, SignOp),
    KILN_UNARY(kSin, SinOp),
    KILN_UNARY(kSinh, SinhOp),
    KILN_UNARY(kSqrt, SqrtOp),
    KILN_UNARY(kTan, TanOp),
    KILN_UNARY_VECTORIZED(kTanh, TanhOp, TanhF32),
    KILN_BINARY(kAdd, AddOp),
    KILN_BINARY(kSubtract, SubtractOp),
    KILN_BINARY(kMultiply, MultiplyOp),
    KILN_BINARY(kDivide, DivideOp),
    KILN_BINARY(kRemainder, RemainderOp),
    KILN_BINARY(kMaximum, MaximumOp),
    KILN_BINARY(kMinimum, MinimumOp),
    KILN_BINARY(kPower, PowerOp),
    KILN_BINARY(kAtan2, Atan2Op),
    KILN_BINARY(kAnd, AndOp),
    KILN_BINARY(kOr, OrOp),
    KILN_BINARY(kXor, XorOp),
    KILN_BINARY(kShiftLeft, ShiftLeftOp),
    KILN_BINARY(kShiftRightArithmetic, ShiftRightArithmeticOp),
    KILN_BINARY(kShiftRightLogical, ShiftRightLogicalOp),
};
#undef KILN_UNARY
#undef KILN_UNARY_VECTORIZED
#undef KILN_BINARY

}  // namespace

const FunctorOp* FindFunctorOp(Opcode opcode) {
  static const auto* const table = [] {
    auto* t = new std::array<const FunctorOp*, kOpcodeCount>{};
    for (const Entry& entry : kEntries) {
      (*t)[static_cast<int>(entry.opcode)] = &entry.op;
    }
    return t;
  }();
  return (*table)[static_cast<int>(opcode)];
}

}  // namespace kiln::cpu::emitter_internal
