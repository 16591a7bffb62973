// Every HLO opcode, spelled as in XLA's text. The list is a table (X-macro),
// not a switch: each row gives the enumerator and the text spelling.
// An op's attributes and rules live in compiler/ops/, not here.
#ifndef KILN_COMPILER_IR_OPCODE_H_
#define KILN_COMPILER_IR_OPCODE_H_

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace kiln {

#define KILN_OPCODE_LIST(V)                              \
  V(kAbs, "abs")                                         \
  V(kAcos, "acos")                                       \
  V(kAcosh, "acosh")                                     \
  V(kAdd, "add")                                         \
  V(kAddDependency, "add-dependency")                    \
  V(kAfterAll, "after-all")                              \
  V(kAllGather, "all-gather")                            \
  V(kAllGatherStart, "all-gather-start")                 \
  V(kAllGatherDone, "all-gather-done")                   \
  V(kAllReduce, "all-reduce")                            \
  V(kAllReduceStart, "all-reduce-start")                 \
  V(kAllReduceDone, "all-reduce-done")                   \
  V(kAllToAll, "all-to-all")                             \
  V(kAnd, "and")                                         \
  V(kAsin, "asin")                                       \
  V(kAsinh, "asinh")                                     \
  V(kAsyncStart, "async-start")                          \
  V(kAsyncUpdate, "async-update")                        \
  V(kAsyncDone, "async-done")                            \
  V(kAtan, "atan")                                       \
  V(kAtan2, "atan2")                                     \
  V(kAtanh, "atanh")                                     \
  V(kBatchNormGrad, "batch-norm-grad")                   \
  V(kBatchNormInference, "batch-norm-inference")         \
  V(kBatchNormTraining, "batch-norm-training")           \
  V(kBitcast, "bitcast")                                 \
  V(kBitcastConvert, "bitcast-convert")                  \
  V(kBroadcast, "broadcast")                             \
  V(kCall, "call")                                       \
  V(kCbrt, "cbrt")                                       \
  V(kCeil, "ceil")                                       \
  V(kCholesky, "cholesky")                               \
  V(kClamp, "clamp")                                     \
  V(kClz, "count-leading-zeros")                         \
  V(kCollectiveBroadcast, "collective-broadcast")        \
  V(kCollectivePermute, "collective-permute")            \
  V(kCollectivePermuteStart, "collective-permute-start") \
  V(kCollectivePermuteDone, "collective-permute-done")   \
  V(kCompare, "compare")                                 \
  V(kComplex, "complex")                                 \
  V(kConcatenate, "concatenate")                         \
  V(kConditional, "conditional")                         \
  V(kConstant, "constant")                               \
  V(kConvert, "convert")                                 \
  V(kConvolution, "convolution")                         \
  V(kCopy, "copy")                                       \
  V(kCopyStart, "copy-start")                            \
  V(kCopyDone, "copy-done")                              \
  V(kCos, "cosine")                                      \
  V(kCosh, "cosh")                                       \
  V(kCustomCall, "custom-call")                          \
  V(kDivide, "divide")                                   \
  V(kDomain, "domain")                                   \
  V(kDot, "dot")                                         \
  V(kDynamicReshape, "dynamic-reshape")                  \
  V(kDynamicSlice, "dynamic-slice")                      \
  V(kDynamicUpdateSlice, "dynamic-update-slice")         \
  V(kErf, "erf")                                         \
  V(kExp, "exponential")                                 \
  V(kExpm1, "exponential-minus-one")                     \
  V(kFft, "fft")                                         \
  V(kFloor, "floor")                                     \
  V(kFusion, "fusion")                                   \
  V(kGather, "gather")                                   \
  V(kGetDimensionSize, "get-dimension-size")             \
  V(kGetTupleElement, "get-tuple-element")               \
  V(kImag, "imag")                                       \
  V(kInfeed, "infeed")                                   \
  V(kIota, "iota")                                       \
  V(kIsFinite, "is-finite")                              \
  V(kLog, "log")                                         \
  V(kLog1p, "log-plus-one")                              \
  V(kLogistic, "logistic")                               \
  V(kMap, "map")                                         \
  V(kMaximum, "maximum")                                 \
  V(kMinimum, "minimum")                                 \
  V(kMultiply, "multiply")                               \
  V(kNegate, "negate")                                   \
  V(kNot, "not")                                         \
  V(kOptimizationBarrier, "opt-barrier")                 \
  V(kOr, "or")                                           \
  V(kOutfeed, "outfeed")                                 \
  V(kPad, "pad")                                         \
  V(kParameter, "parameter")                             \
  V(kPartitionId, "partition-id")                        \
  V(kPopulationCount, "popcnt")                          \
  V(kPower, "power")                                     \
  V(kRaggedAllToAll, "ragged-all-to-all")                \
  V(kRaggedDot, "ragged-dot")                            \
  V(kReal, "real")                                       \
  V(kRecv, "recv")                                       \
  V(kRecvDone, "recv-done")                              \
  V(kReduce, "reduce")                                   \
  V(kReducePrecision, "reduce-precision")                \
  V(kReduceScatter, "reduce-scatter")                    \
  V(kReduceWindow, "reduce-window")                      \
  V(kRemainder, "remainder")                             \
  V(kReplicaId, "replica-id")                            \
  V(kReshape, "reshape")                                 \
  V(kReverse, "reverse")                                 \
  V(kRng, "rng")                                         \
  V(kRngBitGenerator, "rng-bit-generator")               \
  V(kRngGetAndUpdateState, "rng-get-and-update-state")   \
  V(kRoundNearestAfz, "round-nearest-afz")               \
  V(kRoundNearestEven, "round-nearest-even")             \
  V(kRsqrt, "rsqrt")                                     \
  V(kScaledDot, "scaled-dot")                            \
  V(kScan, "scan")                                       \
  V(kScatter, "scatter")                                 \
  V(kSelect, "select")                                   \
  V(kSelectAndScatter, "select-and-scatter")             \
  V(kSend, "send")                                       \
  V(kSendDone, "send-done")                              \
  V(kSetDimensionSize, "set-dimension-size")             \
  V(kShiftLeft, "shift-left")                            \
  V(kShiftRightArithmetic, "shift-right-arithmetic")     \
  V(kShiftRightLogical, "shift-right-logical")           \
  V(kSign, "sign")                                       \
  V(kSin, "sine")                                        \
  V(kSinh, "sinh")                                       \
  V(kSlice, "slice")                                     \
  V(kSort, "sort")                                       \
  V(kSqrt, "sqrt")                                       \
  V(kStochasticConvert, "stochastic-convert")            \
  V(kSubtract, "subtract")                               \
  V(kTan, "tan")                                         \
  V(kTanh, "tanh")                                       \
  V(kTopK, "topk")                                       \
  V(kTranspose, "transpose")                             \
  V(kTriangularSolve, "triangular-solve")                \
  V(kTuple, "tuple")                                     \
  V(kWhile, "while")                                     \
  V(kXor, "xor")

enum class Opcode : uint16_t {
#define KILN_DECLARE_OPCODE(enumerator, spelling) enumerator,
  KILN_OPCODE_LIST(KILN_DECLARE_OPCODE)
#undef KILN_DECLARE_OPCODE
};

inline constexpr int kOpcodeCount = 0
#define KILN_COUNT_OPCODE(enumerator, spelling) +1
    KILN_OPCODE_LIST(KILN_COUNT_OPCODE)
#undef KILN_COUNT_OPCODE
    ;

absl::string_view OpcodeName(Opcode opcode);
std::optional<Opcode> OpcodeFromName(absl::string_view name);
absl::Span<const Opcode> AllOpcodes();

}  // namespace kiln

#endif  // KILN_COMPILER_IR_OPCODE_H_
