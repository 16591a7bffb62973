// Kernels of the unary elementwise ops (abs ... tanh, is-finite, not,
// popcnt, clz, real, imag), and the registration of the whole elementwise
// family: the binary ops live in elementwise_binary.cc, compare, select and
// clamp in elementwise_compare.cc.
//
// Each element computes in its type's ComputeType (typed.h): narrow floats
// in float and rounded back to nearest even on store, sub-byte integers in
// int8_t/uint8_t and wrapped on store.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/data_movement_dynamic.h"
#include "compiler/evaluator/elementwise_broadcast.h"
#include "compiler/evaluator/elementwise_internal.h"
#include "compiler/evaluator/elementwise_unary_ops.h"
#include "compiler/evaluator/kernel.h"

namespace kiln {
namespace eval {

absl::Status UnsupportedType(const Instruction& instruction, ElementType type) {
  return KernelError(instruction, absl::StrCat(OpcodeName(instruction.opcode()),
                                               " does not accept element type ",
                                               ElementTypeName(type)));
}

namespace {

// A result of `operand`'s dimensions holding f(x) (an R) for every element
// x (a T) of `operand`.
template <typename T, typename R, typename F>
absl::StatusOr<Literal> MapElements(const Instruction& instruction,
                                    const Literal& operand,
                                    ElementType result_type,
                                    EvalContext& context, F f) {
  absl::StatusOr<Literal> result = context.NewLiteral(
      instruction, Shape::Array(result_type, operand.shape().dimensions()));
  if (!result.ok()) return result;
  if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<R, bool>) {
    if (StorageIsNative(operand.element_type()) &&
        StorageIsNative(result_type)) {
      absl::Span<const T> in = Elements<T>(operand);
      absl::Span<R> out = MutableElements<R>(*result);
      for (size_t i = 0; i < in.size(); ++i) out[i] = f(in[i]);
      return result;
    }
  }
  const std::vector<Stored<T>> in = ReadValues<T>(operand);
  std::vector<Stored<R>> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    out[i] = static_cast<Stored<R>>(f(static_cast<T>(in[i])));
  }
  WriteValues<R>(out, *result);
  return result;
}

absl::StatusOr<const Literal*> ArrayOperand(
    const Instruction& instruction, absl::Span<const Literal* const> operands) {
  if (operands.size() != 1 || !operands[0]->shape().IsArray()) {
    return KernelError(instruction, "expects one array operand");
  }
  return operands[0];
}

// Ops whose result has the operand's element type, through functor Op.
template <typename Op>
absl::StatusOr<Literal> UnaryKernel(const Instruction& instruction,
                                    absl::Span<const Literal* const> operands,
                                    EvalContext& context) {
  absl::StatusOr<const Literal*> operand = ArrayOperand(instruction, operands);
  if (!operand.ok()) return operand.status();
  const ElementType type = (*operand)->element_type();
  const Op op{BitWidth(type)};
  return DispatchByComputeType(type, [&](auto tag) -> absl::StatusOr<Literal> {
    using T = typename decltype(tag)::type;
    if constexpr (Op::template Supports<T>()) {
      return MapElements<T, T>(instruction, **operand, type, context,
                               [op](T x) { return op(x); });
    } else {
      return UnsupportedType(instruction, type);
    }
  });
}

// abs, real and imag of complex values: the component type's magnitude,
// real or imaginary part. Of real values: abs as AbsOp, real the value,
// imag zero.
enum class Component { kAbs, kReal, kImag };

template <Component kPart>
absl::StatusOr<Literal> ComponentKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<const Literal*> operand = ArrayOperand(instruction, operands);
  if (!operand.ok()) return operand.status();
  const ElementType type = (*operand)->element_type();
  if (type == ElementType::kC64 || type == ElementType::kC128) {
    const ElementType part = GetElementTypeInfo(type).component;
    return DispatchByComputeType(
        type, [&](auto tag) -> absl::StatusOr<Literal> {
          using T = typename decltype(tag)::type;
          if constexpr (kIsComplex<T>) {
            using R = typename T::value_type;
            return MapElements<T, R>(
                instruction, **operand, part, context, [](T z) -> R {
                  if (kPart == Component::kAbs) {
                    return std::abs(z);
                  }
                  return kPart == Component::kReal ? z.real() : z.imag();
                });
          } else {
            return UnsupportedType(instruction, type);
          }
        });
  }
  if (kPart == Component::kAbs) {
    return UnaryKernel<AbsOp>(instruction, operands, context);
  }
  if (!IsFloatType(type)) return UnsupportedType(instruction, type);
  return DispatchByComputeType(type, [&](auto tag) -> absl::StatusOr<Literal> {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      return MapElements<T, T>(instruction, **operand, type, context, [](T x) {
        return kPart == Component::kReal ? x : T(0);
      });
    } else {
      return UnsupportedType(instruction, type);
    }
  });
}

absl::StatusOr<Literal> IsFiniteKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<const Literal*> operand = ArrayOperand(instruction, operands);
  if (!operand.ok()) return operand.status();
  const ElementType type = (*operand)->element_type();
  return DispatchByComputeType(type, [&](auto tag) -> absl::StatusOr<Literal> {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      return MapElements<T, bool>(instruction, **operand, ElementType::kPred,
                                  context,
                                  [](T x) { return std::isfinite(x) != 0; });
    } else {
      return UnsupportedType(instruction, type);
    }
  });
}

}  // namespace

void RegisterElementwiseKernels(KernelTable* table) {
  // OnValidElements: operands with dynamic sizes are computed on their
  // valid elements only (docs/evaluator_dynamic.md).
  table->Set(Opcode::kAbs, &OnValidElements<ComponentKernel<Component::kAbs>>);
  table->Set(Opcode::kReal,
             &OnValidElements<ComponentKernel<Component::kReal>>);
  table->Set(Opcode::kImag,
             &OnValidElements<ComponentKernel<Component::kImag>>);
  table->Set(Opcode::kIsFinite, &OnValidElements<IsFiniteKernel>);
  table->Set(Opcode::kAcos, &OnValidElements<UnaryKernel<AcosOp>>);
  table->Set(Opcode::kAcosh, &OnValidElements<UnaryKernel<AcoshOp>>);
  table->Set(Opcode::kAsin, &OnValidElements<UnaryKernel<AsinOp>>);
  table->Set(Opcode::kAsinh, &OnValidElements<UnaryKernel<AsinhOp>>);
  table->Set(Opcode::kAtan, &OnValidElements<UnaryKernel<AtanOp>>);
  table->Set(Opcode::kAtanh, &OnValidElements<UnaryKernel<AtanhOp>>);
  table->Set(Opcode::kCbrt, &OnValidElements<UnaryKernel<CbrtOp>>);
  table->Set(Opcode::kCeil, &OnValidElements<UnaryKernel<CeilOp>>);
  table->Set(Opcode::kClz, &OnValidElements<UnaryKernel<ClzOp>>);
  table->Set(Opcode::kCos, &OnValidElements<UnaryKernel<CosOp>>);
  table->Set(Opcode::kCosh, &OnValidElements<UnaryKernel<CoshOp>>);
  table->Set(Opcode::kErf, &OnValidElements<UnaryKernel<ErfOp>>);
  table->Set(Opcode::kExp, &OnValidElements<UnaryKernel<ExpOp>>);
  table->Set(Opcode::kExpm1, &OnValidElements<UnaryKernel<Expm1Op>>);
  table->Set(Opcode::kFloor, &OnValidElements<UnaryKernel<FloorOp>>);
  table->Set(Opcode::kLog, &OnValidElements<UnaryKernel<LogOp>>);
  table->Set(Opcode::kLog1p, &OnValidElements<UnaryKernel<Log1pOp>>);
  table->Set(Opcode::kLogistic, &OnValidElements<UnaryKernel<LogisticOp>>);
  table->Set(Opcode::kNegate, &OnValidElements<UnaryKernel<NegateOp>>);
  table->Set(Opcode::kNot, &OnValidElements<UnaryKernel<NotOp>>);
  table->Set(Opcode::kPopulationCount, &OnValidElements<UnaryKernel<PopcntOp>>);
  table->Set(Opcode::kRoundNearestAfz,
             &OnValidElements<UnaryKernel<RoundAfzOp>>);
  table->Set(Opcode::kRoundNearestEven,
             &OnValidElements<UnaryKernel<RoundEvenOp>>);
  table->Set(Opcode::kRsqrt, &OnValidElements<UnaryKernel<RsqrtOp>>);
  table->Set(Opcode::kSign, &OnValidElements<UnaryKernel<SignOp>>);
  table->Set(Opcode::kSin, &OnValidElements<UnaryKernel<SinOp>>);
  table->Set(Opcode::kSinh, &OnValidElements<UnaryKernel<SinhOp>>);
  table->Set(Opcode::kSqrt, &OnValidElements<UnaryKernel<SqrtOp>>);
  table->Set(Opcode::kTan, &OnValidElements<UnaryKernel<TanOp>>);
  table->Set(Opcode::kTanh, &OnValidElements<UnaryKernel<TanhOp>>);
  RegisterBinaryKernels(table);
  RegisterCompareSelectKernels(table);
}

}  // namespace eval
}  // namespace kiln
