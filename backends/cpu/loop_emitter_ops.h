// Internal to the loop emitter: the elementwise ops it lowers through the
// evaluator's scalar functors (which functor implements each op, and
// whether it accepts an element type), and the helpers that the emitter
// (loop_emitter.cc) and its rules (loop_emitter_rules.cc) share.
#ifndef KILN_BACKENDS_CPU_LOOP_EMITTER_OPS_H_
#define KILN_BACKENDS_CPU_LOOP_EMITTER_OPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/attr_enums.h"

namespace kiln::cpu::emitter_internal {

struct FunctorOp {
  // "NegateOp": the functor in namespace kiln::eval.
  const char* functor;
  // 1 or 2 operands.
  int arity;
  // Whether the functor's Supports<T>() holds for the native type of
  // `type` (false for non-native types).
  bool (*supports)(ElementType type);
  // A vectorizable float version in the kernel prelude ("ExpF32" for
  // kiln_cpu::ExpF32), used for f32, bf16 and f16; null where the
  // functor is used for every type.
  const char* float_kernel = nullptr;
};

// Null when `opcode` is not a functor op.
const FunctorOp* FindFunctorOp(Opcode opcode);

// An Unimplemented error naming the instruction and why it is not lowered.
absl::Status NotEmittable(const Instruction& instruction,
                          absl::string_view why);

// Every float type but f32 and f64: stored as bits, computed in float,
// rounded after each op.
bool IsNarrowFloat(ElementType type);
// s1..s4, u1..u4: stored in a byte, computed in 8 bits, wrapped after each
// op.
bool IsSubByteInteger(ElementType type);
// A static array of a native type, a narrow float or a sub-byte integer.
bool IsNativeArray(const Shape& shape);
// The C++ types a value of `type` is computed and stored in.
std::string ComputeType(ElementType type);
std::string StorageType(ElementType type);
// An integer reducer whose result does not depend on how it is grouped
// or ordered (add, multiply, max, min, and, or, xor of two parameters,
// wrapping arithmetic included): the GPU kernels may combine its values
// in any order (block reductions, atomic scatters).
bool IsReassociableInteger(const Computation& reducer);
// The kiln_float::Format literal of a float type, which the prelude's
// narrow-float routines take (compiler/ir/float_bits.h).
std::string FloatFormat(ElementType type);
// An element read from storage as its compute type; a computed value as
// stored; a computed value rounded to its type.
std::string Load(ElementType type, const std::string& element);
std::string Store(ElementType type, const std::string& value);
std::string Round(ElementType type, const std::string& value);

// The prelude's function giving a held value of float `type` its key in
// compare's TOTALORDER, as the evaluator orders `type`'s own bits.
std::string TotalOrderKeyFunction(ElementType type);

const std::vector<int64_t>* Int64s(const Instruction& instruction,
                                   absl::string_view name);
// A layout of dimension order only (or none), and its order (the default
// one when the shape has no layout).
bool HasPlainLayout(const Shape& shape);
std::vector<int64_t> MinorToMajor(const Shape& shape);
// A reducer that adds its two parameters (a sum that may be reassociated).
bool IsSum(const Computation& reducer);
// kAdd or kMultiply for a reducer that adds or multiplies its two
// parameters on f32 or a narrower float: the reduction accumulates in
// double and rounds once.
std::optional<Opcode> WideReduction(const Computation& reducer);
// A reduce-window that is a running scan (cumsum, cummax, ...): one
// dimension whose window, of stride 1, covers every element before (or
// after) the output's, the others of size 1; an add/multiply/max/min/
// and/or reducer; and a constant init value v with v op v == v. Output i
// is then the running combination up to i, in the window's order for a
// prefix scan, computed in O(n) instead of O(n * window).
struct Scan {
  int64_t dimension;
  bool reverse;  // A suffix scan: output i covers elements i..n-1.
};
std::optional<Scan> AsScan(const Instruction& instruction);
// C++ spelling of a comparison direction.
const char* CompareOperator(ComparisonDirection direction);
// The computation's outputs: the root, or the root tuple's elements.
std::vector<const Instruction*> Outputs(const Computation& computation);
// Whether one flat loop over `count` elements computes the computation.
bool IsFlat(const Computation& computation, int64_t count);

}  // namespace kiln::cpu::emitter_internal

#endif  // KILN_BACKENDS_CPU_LOOP_EMITTER_OPS_H_
