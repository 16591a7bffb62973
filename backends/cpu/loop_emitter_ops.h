// The elementwise ops the loop emitter lowers through the evaluator's
// scalar functors: which functor implements each op, and whether it
// accepts an element type. Internal to the emitter (loop_emitter.cc).
#ifndef KILN_BACKENDS_CPU_LOOP_EMITTER_OPS_H_
#define KILN_BACKENDS_CPU_LOOP_EMITTER_OPS_H_

#include "compiler/ir/element_type.h"
#include "compiler/ir/opcode.h"

namespace kiln::cpu::emitter_internal {

struct FunctorOp {
  // "NegateOp": the functor in namespace kiln::eval.
  const char* functor;
  // 1 or 2 operands.
  int arity;
  // Whether the functor's Supports<T>() holds for the native type of
  // `type` (false for non-native types).
  bool (*supports)(ElementType type);
};

// Null when `opcode` is not a functor op.
const FunctorOp* FindFunctorOp(Opcode opcode);

}  // namespace kiln::cpu::emitter_internal

#endif  // KILN_BACKENDS_CPU_LOOP_EMITTER_OPS_H_
