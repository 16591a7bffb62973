// The parser's use of shape inference: shapes the text leaves out are
// inferred, and (ParseOptions::check_shapes) every written shape is checked
// against the op's rule. Runs after the whole module is read, because a
// computation may be called before its definition in the text; callees go
// first so that call, while, map and friends see their callees' shapes.
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/text/parser_internal.h"

namespace kiln {
namespace text_internal {
namespace {

// "file:line:col: error: <message>" at the instruction's name. Rule errors
// already start with "<name>: "; others get it.
absl::Status InstructionError(const Instruction& instruction,
                              absl::string_view message) {
  const std::string prefix = absl::StrCat(instruction.name(), ": ");
  return absl::InvalidArgumentError(absl::StrCat(
      instruction.location.ToString(),
      ": error: ", absl::StartsWith(message, prefix) ? "" : prefix, message));
}

}  // namespace

bool ShapeMayBeOmitted(Opcode opcode) {
  switch (opcode) {
    // Elementwise: the operands' shape (compare: pred of it).
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
    case Opcode::kCbrt:
    case Opcode::kCeil:
    case Opcode::kClamp:
    case Opcode::kClz:
    case Opcode::kCompare:
    case Opcode::kComplex:
    case Opcode::kCopy:
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
    case Opcode::kMaximum:
    case Opcode::kMinimum:
    case Opcode::kMultiply:
    case Opcode::kNegate:
    case Opcode::kNot:
    case Opcode::kOr:
    case Opcode::kPopulationCount:
    case Opcode::kPower:
    case Opcode::kReal:
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
    case Opcode::kSubtract:
    case Opcode::kTan:
    case Opcode::kTanh:
    case Opcode::kXor:
    // Determined by operands, attributes and called computations.
    case Opcode::kAddDependency:
    case Opcode::kAfterAll:
    case Opcode::kBatchNormGrad:
    case Opcode::kBatchNormInference:
    case Opcode::kBatchNormTraining:
    case Opcode::kCall:
    case Opcode::kCholesky:
    case Opcode::kConcatenate:
    case Opcode::kConditional:
    case Opcode::kConvolution:
    case Opcode::kDomain:
    case Opcode::kDot:
    case Opcode::kFft:
    case Opcode::kGather:
    case Opcode::kGetDimensionSize:
    case Opcode::kGetTupleElement:
    case Opcode::kMap:
    case Opcode::kOptimizationBarrier:
    case Opcode::kPad:
    case Opcode::kPartitionId:
    case Opcode::kRaggedDot:
    case Opcode::kReduce:
    case Opcode::kReduceWindow:
    case Opcode::kReplicaId:
    case Opcode::kReverse:
    case Opcode::kScatter:
    case Opcode::kSelectAndScatter:
    case Opcode::kSetDimensionSize:
    case Opcode::kSort:
    case Opcode::kTopK:
    case Opcode::kTranspose:
    case Opcode::kTriangularSolve:
    case Opcode::kTuple:
    case Opcode::kWhile:
      return true;
    // XLA always writes these (collectives, async pairs, slices), or the
    // text chooses the result (constant, parameter, convert, reshape, iota,
    // rng, custom-call, fusion, infeed, ...). broadcast too: the sizes of
    // its new dimensions are in no operand or attribute (XLA's parser lists
    // it but reads `dimensions` as sizes, which is not what they mean).
    default:
      return false;
  }
}

absl::Status HloTextParser::InferOrCheckShape(Instruction* instruction) {
  if (auto it = implied_broadcast_dimensions_.find(instruction);
      it != implied_broadcast_dimensions_.end()) {
    const Shape& operand = instruction->operand(0)->shape();
    if (!operand.IsArray() || !operand.IsScalar()) {
      return ErrorAt(it->second,
                     absl::StrCat("missing required attribute 'dimensions' of "
                                  "broadcast (only a scalar operand may leave "
                                  "it out; the operand is ",
                                  operand.ToString(false), ")"));
    }
  }
  const bool omitted = omitted_shapes_.contains(instruction);
  if (!omitted && !options_.check_shapes) return absl::OkStatus();
  absl::StatusOr<Shape> inferred = InferShape(*instruction, ShapeForm::kClient);
  if (!inferred.ok()) {
    return InstructionError(*instruction, inferred.status().message());
  }
  if (omitted) {
    inferred->SetDefaultLayoutIfMissing();
    instruction->set_shape(*std::move(inferred));
    return absl::OkStatus();
  }
  if (!instruction->shape().Compatible(*inferred)) {
    return InstructionError(
        *instruction,
        absl::StrCat("declared shape ", instruction->shape().ToString(false),
                     " does not match the shape the op's rule gives, ",
                     inferred->ToString(false), " (shape.inferred)"));
  }
  return absl::OkStatus();
}

absl::Status HloTextParser::CheckDeferredOperandShapes() {
  for (const DeferredOperandCheck& check : deferred_operand_checks_) {
    if (!check.declared.Compatible(check.operand->shape())) {
      return ErrorAt(
          check.offset,
          absl::StrCat("the declared operand shape ",
                       check.declared.ToString(false),
                       " is not compatible with the shape of operand '",
                       check.operand->name(), "', ",
                       check.operand->shape().ToString(false)));
    }
  }
  return absl::OkStatus();
}

absl::Status HloTextParser::InferAndCheckShapes() {
  if (omitted_shapes_.empty() && !options_.check_shapes) {
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<Computation*>> order =
      module_->PostOrderComputations();
  if (!order.ok()) return order.status();
  for (Computation* computation : *order) {
    for (Instruction* instruction : computation->instructions()) {
      if (absl::Status s = InferOrCheckShape(instruction); !s.ok()) return s;
    }
  }
  return CheckDeferredOperandShapes();
}

}  // namespace text_internal
}  // namespace kiln
