// The fusion cost model (docs/passes.md, "Fusion cost model"): which ops
// are cheap enough to compute more than once, which reuse the elements of
// an operand, and how big a result may be before it counts as expensive.
// DefaultFusionPolicy is built on these; other policies may reuse them.
#ifndef KILN_PASSES_FUSION_COST_MODEL_H_
#define KILN_PASSES_FUSION_COST_MODEL_H_

#include <cstdint>

#include "compiler/ir/instruction.h"
#include "compiler/ir/opcode.h"
#include "compiler/ir/shape.h"
#include "passes/fusion_policy.h"

namespace kiln {

// Ops whose CostClass trait (compiler/ir/op_traits.h) is not kOpaque:
// elementwise ops (IsElementwiseOpcode, but neither map nor
// stochastic-convert) plus copy and the data-movement ops a loop fusion can
// index through: broadcast, reshape, transpose, slice, pad, concatenate,
// iota, dynamic-slice, reverse, and constant.
bool IsLoopFusibleOpcode(Opcode opcode);

// CostClass::kExpensive: ops whose per-element cost is far above an add:
// transcendental functions (exp, log, tanh, sin, ...), power,
// sqrt/rsqrt/cbrt, erf, divide and remainder.
bool IsExpensiveOpcode(Opcode opcode);

// The number of elements of an array shape; 0 for tuples, tokens and
// shapes whose count overflows (callers treat those as not fusible).
int64_t ArrayElementCount(const Shape& shape);

// True when `consumer` may read one element of operand `operand_index`
// several times: a broadcast that adds elements. An expensive producer
// fused below it would be recomputed for every read.
bool ReusesOperandElements(const Instruction& consumer, int64_t operand_index);

// A constant small enough to be copied into fusions.
bool IsFusibleConstant(const Instruction& constant, const FusionLimits& limits);

// The default cost rule: an expensive opcode, a result with more than
// `limits.max_cheap_elements` elements, or a constant that is not fusible.
bool IsExpensiveByDefault(const Instruction& producer,
                          const FusionLimits& limits);

}  // namespace kiln

#endif  // KILN_PASSES_FUSION_COST_MODEL_H_
