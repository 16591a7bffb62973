#include "passes/algebraic_simplifier_util.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/opcode.h"

namespace kiln {
namespace algsimp {
namespace {

TypeKind KindOf(const Literal& literal) {
  return GetElementTypeInfo(literal.element_type()).kind;
}

// All ones in the low `bits` bits.
uint64_t LowMask(int bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

bool IsZeroWithSign(const Literal& literal, int64_t i, bool negative) {
  switch (KindOf(literal)) {
    case TypeKind::kFloat: {
      const double v = literal.GetDouble(i);
      return v == 0 && std::signbit(v) == negative;
    }
    case TypeKind::kComplex: {
      const std::complex<double> v = literal.GetComplex(i);
      return v.real() == 0 && v.imag() == 0 &&
             std::signbit(v.real()) == negative &&
             std::signbit(v.imag()) == negative;
    }
    default:
      return literal.GetUint64(i) == 0;
  }
}

// Ops whose removal, once dead, changes nothing but the module's size.
bool IsPureSimpleOp(Opcode opcode) {
  switch (opcode) {
    case Opcode::kConstant:
    case Opcode::kBroadcast:
    case Opcode::kReshape:
    case Opcode::kTranspose:
    case Opcode::kSlice:
    case Opcode::kReverse:
    case Opcode::kNegate:
    case Opcode::kNot:
    case Opcode::kAbs:
    case Opcode::kConvert:
    case Opcode::kCopy:
    case Opcode::kAdd:
    case Opcode::kSubtract:
    case Opcode::kMultiply:
    case Opcode::kDivide:
    case Opcode::kPower:
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kAnd:
    case Opcode::kOr:
    case Opcode::kXor:
    case Opcode::kSelect:
    case Opcode::kCompare:
    case Opcode::kConcatenate:
    case Opcode::kPad:
    case Opcode::kDynamicSlice:
    case Opcode::kDynamicUpdateSlice:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool IsIntegralOrPred(ElementType type) {
  return IsIntegralType(type) || type == ElementType::kPred;
}

const Literal* ConstantBehind(const Instruction* value) {
  if (value->opcode() == Opcode::kBroadcast && value->operand_count() == 1) {
    value = value->operand(0);
  }
  if (value->opcode() != Opcode::kConstant || !value->has_literal()) {
    return nullptr;
  }
  const Literal& literal = value->literal();
  if (!literal.shape().IsArray() || literal.has_dynamic_sizes() ||
      literal.element_count() > kMaxInspectedElements) {
    return nullptr;
  }
  return &literal;
}

bool AllElementsAre(const Instruction* value, ElementTest test) {
  const Literal* literal = ConstantBehind(value);
  if (literal == nullptr) return false;
  for (int64_t i = 0; i < literal->element_count(); ++i) {
    if (!test(*literal, i)) return false;
  }
  return true;
}

const Literal* ScalarConstantBehind(const Instruction* value) {
  const Literal* literal = ConstantBehind(value);
  if (literal == nullptr || !literal->shape().IsScalar()) return nullptr;
  return literal;
}

bool IsAnyZero(const Literal& literal, int64_t i) {
  return IsZeroWithSign(literal, i, false) || IsZeroWithSign(literal, i, true);
}
bool IsPositiveZero(const Literal& literal, int64_t i) {
  return IsZeroWithSign(literal, i, false);
}
bool IsNegativeZero(const Literal& literal, int64_t i) {
  return IsZeroWithSign(literal, i, true);
}

bool IsOne(const Literal& literal, int64_t i) {
  switch (KindOf(literal)) {
    case TypeKind::kFloat:
      return literal.GetDouble(i) == 1;
    case TypeKind::kComplex:
      return false;
    default:
      return literal.GetInt64(i) == 1;
  }
}

bool IsAllOnes(const Literal& literal, int64_t i) {
  const TypeKind kind = KindOf(literal);
  if (kind == TypeKind::kPred) return literal.GetUint64(i) == 1;
  if (kind != TypeKind::kSigned && kind != TypeKind::kUnsigned) return false;
  const int bits = BitWidth(literal.element_type());
  return (literal.GetBits(i) & LowMask(bits)) == LowMask(bits);
}

bool IsTypeMinimum(const Literal& literal, int64_t i) {
  const ElementType type = literal.element_type();
  switch (KindOf(literal)) {
    case TypeKind::kFloat:
      return literal.GetDouble(i) == -std::numeric_limits<double>::infinity();
    case TypeKind::kSigned:
      return literal.GetInt64(i) ==
             -static_cast<int64_t>(LowMask(BitWidth(type) - 1)) - 1;
    case TypeKind::kUnsigned:
    case TypeKind::kPred:
      return literal.GetUint64(i) == 0;
    default:
      return false;
  }
}

bool IsTypeMaximum(const Literal& literal, int64_t i) {
  const ElementType type = literal.element_type();
  switch (KindOf(literal)) {
    case TypeKind::kFloat:
      return literal.GetDouble(i) == std::numeric_limits<double>::infinity();
    case TypeKind::kSigned:
      return literal.GetInt64(i) ==
             static_cast<int64_t>(LowMask(BitWidth(type) - 1));
    case TypeKind::kUnsigned:
      return literal.GetUint64(i) == LowMask(BitWidth(type));
    case TypeKind::kPred:
      return literal.GetUint64(i) == 1;
    default:
      return false;
  }
}

bool IsExactAddIdentity(const Instruction* value, bool fast_math) {
  const ElementType type = value->shape().element_type();
  if (fast_math || IsIntegralOrPred(type) ||
      !GetElementTypeInfo(type).has_negative_zero) {
    return AllElementsAre(value, IsAnyZero);
  }
  return AllElementsAre(value, IsNegativeZero);
}

bool IsExactSubtractIdentity(const Instruction* value, bool fast_math) {
  const ElementType type = value->shape().element_type();
  if (fast_math || IsIntegralOrPred(type) ||
      !GetElementTypeInfo(type).has_negative_zero) {
    return AllElementsAre(value, IsAnyZero);
  }
  return AllElementsAre(value, IsPositiveZero);
}

bool CanReplace(const Instruction* old_instruction,
                const Instruction* replacement) {
  // A sharding the replaced instruction asked for must not be lost.
  return old_instruction->shape() == replacement->shape() &&
         (!old_instruction->sharding.has_value() ||
          old_instruction->sharding == replacement->sharding);
}

bool AllStatic(const Instruction* instruction) {
  if (!instruction->shape().IsArray() || !instruction->shape().is_static()) {
    return false;
  }
  for (const Instruction* operand : instruction->operands()) {
    if (!operand->shape().IsArray() || !operand->shape().is_static()) {
      return false;
    }
  }
  return true;
}

Instruction* AddBefore(Instruction* before,
                       std::unique_ptr<Instruction> instruction) {
  instruction->metadata = before->metadata;
  instruction->location = before->location;
  // A value standing for `before` keeps its sharding; helpers (a scalar
  // constant under a broadcast) have another shape and get none.
  if (instruction->shape() == before->shape()) {
    instruction->sharding = before->sharding;
  }
  return before->parent()->AddInstructionBefore(std::move(instruction), before);
}

Literal ScalarLiteral(ElementType type, int64_t value) {
  // A scalar of an array type always fits the default byte limit.
  Literal literal = *Literal::Create(Shape::Scalar(type));
  if (IsFloatType(type)) {
    literal.SetDouble(0, static_cast<double>(value));
  } else if (IsComplexType(type)) {
    literal.SetComplex(0, std::complex<double>(static_cast<double>(value), 0));
  } else {
    literal.SetInt64(0, value);
  }
  return literal;
}

Instruction* AddFilledConstant(Instruction* before, const Shape& shape,
                               const Literal& scalar) {
  Shape scalar_shape = Shape::Scalar(shape.element_type());
  if (shape.has_layout()) scalar_shape.SetDefaultLayoutIfMissing();
  auto constant = std::make_unique<Instruction>(Opcode::kConstant, scalar_shape,
                                                "constant");
  constant->set_literal(scalar);
  Instruction* added = AddBefore(before, std::move(constant));
  if (shape.IsScalar()) return added;
  auto broadcast =
      std::make_unique<Instruction>(Opcode::kBroadcast, shape, "broadcast");
  broadcast->AppendOperand(added);
  broadcast->mutable_attrs()->Set(attr::kDimensions, std::vector<int64_t>{});
  return AddBefore(before, std::move(broadcast));
}

namespace {

bool IsRemovableDead(RewriteContext& context, Instruction* instruction) {
  return !context.IsRemoved(instruction) && instruction->user_count() == 0 &&
         instruction != instruction->parent()->root() &&
         instruction->control_successors().empty() &&
         IsPureSimpleOp(instruction->opcode());
}

}  // namespace

absl::Status RemoveIfDead(RewriteContext& context, Instruction* instruction) {
  // A worklist, so that a dead broadcast takes its dead constant along.
  std::vector<Instruction*> work = {instruction};
  while (!work.empty()) {
    Instruction* dead = work.back();
    work.pop_back();
    if (!IsRemovableDead(context, dead)) continue;
    const std::vector<Instruction*> operands = dead->operands();
    absl::Status removed = context.Remove(dead);
    if (!removed.ok()) return removed;
    work.insert(work.end(), operands.begin(), operands.end());
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> ReplaceAndClean(RewriteContext& context,
                                     Instruction* old_instruction,
                                     Instruction* replacement) {
  // Each operand once: one may appear several times.
  std::vector<Instruction*> operands;
  absl::flat_hash_set<Instruction*> seen;
  for (Instruction* operand : old_instruction->operands()) {
    if (operand != replacement && seen.insert(operand).second) {
      operands.push_back(operand);
    }
  }
  absl::StatusOr<bool> replaced = context.Replace(old_instruction, replacement);
  if (!replaced.ok()) return replaced.status();
  for (Instruction* operand : operands) {
    absl::Status removed = RemoveIfDead(context, operand);
    if (!removed.ok()) return removed;
  }
  return true;
}

void AddRewrite(std::vector<Rewrite>* rewrites, std::string name,
                std::vector<Opcode> opcodes, RewriteFn fn) {
  // The driver tries the rewrite only on `opcodes`, and only on plain
  // instructions (Rewrite::plain_only). Instructions that order others
  // through control edges keep their place: replacing them would move those
  // edges onto an operand, which could form a cycle with the operand's own
  // users. Values with dynamic dimensions are left alone: which elements
  // past the dynamic size an op writes is not the simplifier's to decide,
  // and the evaluator's results differ there between an op and its operand.
  rewrites->push_back({std::move(name), std::move(fn), std::move(opcodes),
                       /*plain_only=*/true});
}

}  // namespace algsimp
}  // namespace kiln
