// What kind of op each opcode is: the one table that every pass, the
// parser, the verifier and the tools ask instead of writing opcode lists of
// their own. One row per opcode in op_traits.cc, in the order of
// KILN_OPCODE_LIST; the build fails if a row is missing or out of place.
// OpSchema (compiler/ops/op_schema.h) carries the same traits, so code that
// already holds an op's schema reads them there.
//
// Adding an opcode: add its row to kRows in op_traits.cc (docs/
// writing-a-pass.md, "Op traits", says what each trait means).
#ifndef KILN_COMPILER_IR_OP_TRAITS_H_
#define KILN_COMPILER_IR_OP_TRAITS_H_

#include <cstdint>

#include "compiler/ir/opcode.h"

namespace kiln {

class Instruction;

// Whether an op's execution is observable beyond its result, so that dead
// code elimination keeps it and CSE never merges it (XLA's
// HloInstruction::HasSideEffectNoRecurse).
enum class SideEffect : uint8_t {
  kNone,
  // Always: send/recv and their done ops, infeed, outfeed, rng,
  // rng-get-and-update-state, collective-broadcast and the start/done halves
  // of all-reduce, all-gather and collective-permute.
  kAlways,
  // all-reduce, all-gather, all-to-all, reduce-scatter and
  // collective-permute: when they carry a channel_id (a cross-module
  // collective) or constrain_layout=true. XLA also exempts channel
  // collectives under SPMD partitioning; Kiln has no SPMD mode, so a
  // channel_id always counts.
  kIfChannel,
  // custom-call: when custom_call_has_side_effect=true.
  kIfFlagged,
};

// The role of an op in an asynchronous pair: the start begins the work, the
// optional updates (async-update) pass it along, the done ends it. Send and
// recv are starts of their done ops, as in XLA.
enum class AsyncRole : uint8_t { kNone, kStart, kUpdate, kDone };

// Which operands broadcast implicitly in client form (broadcasting.md,
// `broadcast_dimensions=`); strict HLO requires equal shapes.
enum class BroadcastingOperands : uint8_t {
  kNone,
  kAll,    // every operand (binary ops, compare, select)
  kClamp,  // clamp's three operands; min and max may stay scalars
};

// The fusion cost model's class of an op (passes/fusion_cost_model.h).
enum class CostClass : uint8_t {
  kOpaque,     // not loop-fusible: calls, reductions, dots, collectives, ...
  kCheap,      // elementwise, about the cost of an add
  kExpensive,  // elementwise, far above an add (transcendentals, divide)
  kIndexing,   // data movement a loop fusion indexes through, and copy
};

struct OpTraits {
  SideEffect side_effect = SideEffect::kNone;
  AsyncRole async_role = AsyncRole::kNone;
  BroadcastingOperands broadcasting = BroadcastingOperands::kNone;
  CostClass cost = CostClass::kOpaque;
  // op(a, b) == op(b, a) for every value of the type (maximum and minimum
  // of floats differ on the sign of a zero tie: see IsCommutativeFor).
  bool commutative = false;
  // Each result element depends only on the operand elements at the same
  // index (the elementwise family of compiler/ops/elementwise.cc; copy,
  // conversions, map and stochastic-convert included).
  bool elementwise = false;
  // Communicates between devices (the all-* ops, collective-permute,
  // collective-broadcast, reduce-scatter, and their start/done halves).
  bool collective = false;
  // The text may omit the result shape (`s = add(x, y)`): it follows from
  // the operands, attributes and called computations alone.
  bool shape_optional = false;
  // The result's element type is the op's choice, not the operands' (convert,
  // bitcast-convert, stochastic-convert).
  bool converts = false;
  // Moves values without computing any: parameter, constant, tuple,
  // get-tuple-element (the conformance runner does not count them as the
  // ops a case tests).
  bool plumbing = false;
  // For a start: its done opcode. For an update or a done: its start.
  // The opcode itself when async_role is kNone.
  Opcode async_partner = Opcode::kAbs;
};

// The traits of `opcode`; every opcode has a row. O(1).
const OpTraits& GetOpTraits(Opcode opcode);

// Convenience for the traits above.
inline bool IsAsyncOpcode(Opcode opcode) {
  return GetOpTraits(opcode).async_role != AsyncRole::kNone;
}
// The start and done opcodes of `opcode`'s async pair; `opcode` itself when
// it is not asynchronous.
Opcode AsyncStartOpcode(Opcode opcode);
Opcode AsyncDoneOpcode(Opcode opcode);

// The side effect of `instruction` itself, not of what it calls: its
// opcode's SideEffect resolved against its attributes.
bool HasOwnSideEffect(const Instruction& instruction);

// Whether `instruction`'s two operands may be swapped: a commutative opcode
// with two operands, except maximum and minimum of float and complex types
// (their zero ties return the lhs).
bool IsCommutativeFor(const Instruction& instruction);

}  // namespace kiln

#endif  // KILN_COMPILER_IR_OP_TRAITS_H_
