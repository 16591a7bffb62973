// The trait table: one row per opcode, in KILN_OPCODE_LIST order, decoded
// at compile time into an array indexed by opcode.
#include "compiler/ir/op_traits.h"

#include <array>

#include "compiler/ir/attr_names.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/instruction.h"

namespace kiln {
namespace {

// Row flags. Each row names what is true of its op; what it leaves out is
// false (kOpaque cost, no side effect, not asynchronous).
enum : uint32_t {
  kElementwise = 1u << 0,
  kCommutative = 1u << 1,
  kCollective = 1u << 2,
  kShapeOptional = 1u << 3,
  kEffect = 1u << 4,            // SideEffect::kAlways
  kEffectIfChannel = 1u << 5,   // SideEffect::kIfChannel
  kEffectIfFlagged = 1u << 6,   // SideEffect::kIfFlagged
  kStartsAsync = 1u << 7,       // AsyncRole::kStart
  kUpdatesAsync = 1u << 8,      // AsyncRole::kUpdate
  kEndsAsync = 1u << 9,         // AsyncRole::kDone
  kBroadcasts = 1u << 10,       // BroadcastingOperands::kAll
  kBroadcastsClamp = 1u << 11,  // BroadcastingOperands::kClamp
  kCheap = 1u << 12,            // CostClass::kCheap
  kExpensive = 1u << 13,        // CostClass::kExpensive
  kIndexing = 1u << 14,         // CostClass::kIndexing
  kConverts = 1u << 15,
  kPlumbing = 1u << 16,
};

struct Row {
  Opcode opcode;
  uint32_t flags;
  Opcode async_partner = opcode;
};

constexpr Row kRows[] = {
    {Opcode::kAbs, kElementwise | kShapeOptional | kCheap},
    {Opcode::kAcos, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kAcosh, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kAdd,
     kElementwise | kCommutative | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kAddDependency, kShapeOptional},
    {Opcode::kAfterAll, kShapeOptional},
    {Opcode::kAllGather, kCollective | kEffectIfChannel},
    {Opcode::kAllGatherStart, kCollective | kEffect | kStartsAsync,
     Opcode::kAllGatherDone},
    {Opcode::kAllGatherDone, kCollective | kEffect | kEndsAsync,
     Opcode::kAllGatherStart},
    {Opcode::kAllReduce, kCollective | kEffectIfChannel},
    {Opcode::kAllReduceStart, kCollective | kEffect | kStartsAsync,
     Opcode::kAllReduceDone},
    {Opcode::kAllReduceDone, kCollective | kEffect | kEndsAsync,
     Opcode::kAllReduceStart},
    {Opcode::kAllToAll, kCollective | kEffectIfChannel},
    {Opcode::kAnd,
     kElementwise | kCommutative | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kAsin, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kAsinh, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kAsyncStart, kStartsAsync, Opcode::kAsyncDone},
    {Opcode::kAsyncUpdate, kUpdatesAsync, Opcode::kAsyncStart},
    {Opcode::kAsyncDone, kEndsAsync, Opcode::kAsyncStart},
    {Opcode::kAtan, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kAtan2, kElementwise | kShapeOptional | kBroadcasts | kExpensive},
    {Opcode::kAtanh, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kBatchNormGrad, kShapeOptional},
    {Opcode::kBatchNormInference, kShapeOptional},
    {Opcode::kBatchNormTraining, kShapeOptional},
    {Opcode::kBitcast, 0},
    {Opcode::kBitcastConvert, kElementwise | kCheap | kConverts},
    {Opcode::kBroadcast, kIndexing},
    {Opcode::kCall, kShapeOptional},
    {Opcode::kCbrt, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kCeil, kElementwise | kShapeOptional | kCheap},
    {Opcode::kCholesky, kShapeOptional},
    {Opcode::kClamp, kElementwise | kShapeOptional | kBroadcastsClamp | kCheap},
    {Opcode::kClz, kElementwise | kShapeOptional | kCheap},
    {Opcode::kCollectiveBroadcast, kCollective | kEffect},
    {Opcode::kCollectivePermute, kCollective | kEffectIfChannel},
    {Opcode::kCollectivePermuteStart, kCollective | kEffect | kStartsAsync,
     Opcode::kCollectivePermuteDone},
    {Opcode::kCollectivePermuteDone, kCollective | kEffect | kEndsAsync,
     Opcode::kCollectivePermuteStart},
    {Opcode::kCompare, kElementwise | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kComplex, kElementwise | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kConcatenate, kShapeOptional | kIndexing},
    {Opcode::kConditional, kShapeOptional},
    {Opcode::kConstant, kIndexing | kPlumbing},
    {Opcode::kConvert, kElementwise | kCheap | kConverts},
    {Opcode::kConvolution, kShapeOptional},
    {Opcode::kCopy, kElementwise | kShapeOptional | kIndexing},
    {Opcode::kCopyStart, kStartsAsync, Opcode::kCopyDone},
    {Opcode::kCopyDone, kEndsAsync, Opcode::kCopyStart},
    {Opcode::kCos, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kCosh, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kCustomCall, kEffectIfFlagged},
    {Opcode::kDivide, kElementwise | kShapeOptional | kBroadcasts | kExpensive},
    {Opcode::kDomain, kShapeOptional},
    {Opcode::kDot, kShapeOptional},
    {Opcode::kDynamicReshape, 0},
    {Opcode::kDynamicSlice, kIndexing},
    {Opcode::kDynamicUpdateSlice, 0},
    {Opcode::kErf, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kExp, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kExpm1, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kFft, kShapeOptional},
    {Opcode::kFloor, kElementwise | kShapeOptional | kCheap},
    {Opcode::kFusion, 0},
    {Opcode::kGather, kShapeOptional},
    {Opcode::kGetDimensionSize, kShapeOptional},
    {Opcode::kGetTupleElement, kShapeOptional | kPlumbing},
    {Opcode::kImag, kElementwise | kShapeOptional | kCheap},
    {Opcode::kInfeed, kEffect},
    {Opcode::kIota, kIndexing},
    {Opcode::kIsFinite, kElementwise | kShapeOptional | kCheap},
    {Opcode::kLog, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kLog1p, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kLogistic, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kMap, kElementwise | kShapeOptional},
    {Opcode::kMaximum,
     kElementwise | kCommutative | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kMinimum,
     kElementwise | kCommutative | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kMultiply,
     kElementwise | kCommutative | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kNegate, kElementwise | kShapeOptional | kCheap},
    {Opcode::kNot, kElementwise | kShapeOptional | kCheap},
    {Opcode::kOptimizationBarrier, kShapeOptional},
    {Opcode::kOr,
     kElementwise | kCommutative | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kOutfeed, kEffect},
    {Opcode::kPad, kShapeOptional | kIndexing},
    {Opcode::kParameter, kPlumbing},
    {Opcode::kPartitionId, kShapeOptional},
    {Opcode::kPopulationCount, kElementwise | kShapeOptional | kCheap},
    {Opcode::kPower, kElementwise | kShapeOptional | kBroadcasts | kExpensive},
    {Opcode::kRaggedAllToAll, kCollective},
    {Opcode::kRaggedDot, kShapeOptional},
    {Opcode::kReal, kElementwise | kShapeOptional | kCheap},
    {Opcode::kRecv, kEffect | kStartsAsync, Opcode::kRecvDone},
    {Opcode::kRecvDone, kEffect | kEndsAsync, Opcode::kRecv},
    {Opcode::kReduce, kShapeOptional},
    {Opcode::kReducePrecision, kElementwise | kCheap},
    {Opcode::kReduceScatter, kCollective | kEffectIfChannel},
    {Opcode::kReduceWindow, kShapeOptional},
    {Opcode::kRemainder,
     kElementwise | kShapeOptional | kBroadcasts | kExpensive},
    {Opcode::kReplicaId, kShapeOptional},
    {Opcode::kReshape, kIndexing},
    {Opcode::kReverse, kShapeOptional | kIndexing},
    {Opcode::kRng, kEffect},
    {Opcode::kRngBitGenerator, 0},
    {Opcode::kRngGetAndUpdateState, kEffect},
    {Opcode::kRoundNearestAfz, kElementwise | kShapeOptional | kCheap},
    {Opcode::kRoundNearestEven, kElementwise | kShapeOptional | kCheap},
    {Opcode::kRsqrt, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kScaledDot, 0},
    {Opcode::kScan, 0},
    {Opcode::kScatter, kShapeOptional},
    {Opcode::kSelect, kElementwise | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kSelectAndScatter, kShapeOptional},
    {Opcode::kSend, kEffect | kStartsAsync, Opcode::kSendDone},
    {Opcode::kSendDone, kEffect | kEndsAsync, Opcode::kSend},
    {Opcode::kSetDimensionSize, kShapeOptional},
    {Opcode::kShiftLeft, kElementwise | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kShiftRightArithmetic,
     kElementwise | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kShiftRightLogical,
     kElementwise | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kSign, kElementwise | kShapeOptional | kCheap},
    {Opcode::kSin, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kSinh, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kSlice, kIndexing},
    {Opcode::kSort, kShapeOptional},
    {Opcode::kSqrt, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kStochasticConvert, kElementwise | kConverts},
    {Opcode::kSubtract, kElementwise | kShapeOptional | kBroadcasts | kCheap},
    {Opcode::kTan, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kTanh, kElementwise | kShapeOptional | kExpensive},
    {Opcode::kTopK, kShapeOptional},
    {Opcode::kTranspose, kShapeOptional | kIndexing},
    {Opcode::kTriangularSolve, kShapeOptional},
    {Opcode::kTuple, kShapeOptional | kPlumbing},
    {Opcode::kWhile, kShapeOptional},
    {Opcode::kXor,
     kElementwise | kCommutative | kShapeOptional | kBroadcasts | kCheap},
};

static_assert(sizeof(kRows) / sizeof(kRows[0]) == kOpcodeCount,
              "op_traits.cc: one row per opcode");

constexpr bool RowsInOpcodeOrder() {
  for (int i = 0; i < kOpcodeCount; ++i) {
    if (static_cast<int>(kRows[i].opcode) != i) return false;
  }
  return true;
}
static_assert(RowsInOpcodeOrder(),
              "op_traits.cc: rows must follow KILN_OPCODE_LIST's order");

constexpr OpTraits Decode(const Row& row) {
  const uint32_t f = row.flags;
  OpTraits traits;
  traits.side_effect = (f & kEffect)            ? SideEffect::kAlways
                       : (f & kEffectIfChannel) ? SideEffect::kIfChannel
                       : (f & kEffectIfFlagged) ? SideEffect::kIfFlagged
                                                : SideEffect::kNone;
  traits.async_role = (f & kStartsAsync)    ? AsyncRole::kStart
                      : (f & kUpdatesAsync) ? AsyncRole::kUpdate
                      : (f & kEndsAsync)    ? AsyncRole::kDone
                                            : AsyncRole::kNone;
  traits.broadcasting = (f & kBroadcasts)        ? BroadcastingOperands::kAll
                        : (f & kBroadcastsClamp) ? BroadcastingOperands::kClamp
                                                 : BroadcastingOperands::kNone;
  traits.cost = (f & kCheap)       ? CostClass::kCheap
                : (f & kExpensive) ? CostClass::kExpensive
                : (f & kIndexing)  ? CostClass::kIndexing
                                   : CostClass::kOpaque;
  traits.commutative = (f & kCommutative) != 0;
  traits.elementwise = (f & kElementwise) != 0;
  traits.collective = (f & kCollective) != 0;
  traits.shape_optional = (f & kShapeOptional) != 0;
  traits.converts = (f & kConverts) != 0;
  traits.plumbing = (f & kPlumbing) != 0;
  traits.async_partner = row.async_partner;
  return traits;
}

constexpr std::array<OpTraits, kOpcodeCount> DecodeAll() {
  std::array<OpTraits, kOpcodeCount> traits{};
  for (int i = 0; i < kOpcodeCount; ++i) traits[i] = Decode(kRows[i]);
  return traits;
}

constexpr std::array<OpTraits, kOpcodeCount> kTraits = DecodeAll();

bool FlagSet(const Instruction& instruction, absl::string_view name) {
  const bool* flag = instruction.attrs().Get<bool>(name);
  return flag != nullptr && *flag;
}

}  // namespace

const OpTraits& GetOpTraits(Opcode opcode) {
  return kTraits[static_cast<size_t>(opcode)];
}

Opcode AsyncStartOpcode(Opcode opcode) {
  const OpTraits& traits = GetOpTraits(opcode);
  return traits.async_role == AsyncRole::kNone ||
                 traits.async_role == AsyncRole::kStart
             ? opcode
             : traits.async_partner;
}

Opcode AsyncDoneOpcode(Opcode opcode) {
  const OpTraits& traits = GetOpTraits(opcode);
  switch (traits.async_role) {
    case AsyncRole::kNone:
    case AsyncRole::kDone:
      return opcode;
    case AsyncRole::kStart:
      return traits.async_partner;
    case AsyncRole::kUpdate:
      return GetOpTraits(traits.async_partner).async_partner;
  }
  return opcode;
}

bool HasOwnSideEffect(const Instruction& instruction) {
  switch (GetOpTraits(instruction.opcode()).side_effect) {
    case SideEffect::kNone:
      return false;
    case SideEffect::kAlways:
      return true;
    case SideEffect::kIfChannel:
      return FlagSet(instruction, attr::kConstrainLayout) ||
             instruction.attrs().Has(attr::kChannelId);
    case SideEffect::kIfFlagged:
      return FlagSet(instruction, attr::kCustomCallHasSideEffect);
  }
  return false;
}

bool IsCommutativeFor(const Instruction& instruction) {
  const Opcode opcode = instruction.opcode();
  if (!GetOpTraits(opcode).commutative || instruction.operand_count() != 2) {
    return false;
  }
  if (opcode == Opcode::kMaximum || opcode == Opcode::kMinimum) {
    const ElementType type = instruction.shape().element_type();
    return !IsFloatType(type) && !IsComplexType(type);
  }
  return true;
}

}  // namespace kiln
