// The StableHLO exporter's core: one FunctionEmitter writes one func.func
// (and the regions nested in it) in MLIR's generic operation form, keeping
// the SSA value of every HLO instruction it has emitted. The op families
// (ops_*.cc) emit their instructions through it; export.cc drives it over
// the module. docs/stablehlo.md describes the mapping.
#ifndef KILN_COMPILER_STABLEHLO_EMITTER_H_
#define KILN_COMPILER_STABLEHLO_EMITTER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"

namespace kiln::stablehlo {

// The MLIR value of an HLO value. A leaf is one SSA value (an array, a
// token, or a tuple-typed value some op returned whole); a tuple whose
// elements are known is kept element by element, so that tuples never
// need to exist in the output unless an op consumes one whole.
struct Value {
  std::string ssa;   // "%x" or "%x#1"; empty for a tuple kept by elements.
  std::string type;  // MLIR type of a leaf.
  Shape shape;
  std::vector<Value> elements;
  bool is_leaf() const { return !ssa.empty(); }
};

// One operation in generic form:
//   %r:2 = "name"(operands) (regions) {attrs} : (types) -> (types)
struct Op {
  std::string name;
  std::vector<Value> operands;       // Leaves.
  std::string attrs;                 // "a = 1, b = 2"; empty for none.
  std::vector<std::string> regions;  // Each "{...}".
  std::vector<Shape> results;        // One MLIR result each.
};

// What a FunctionEmitter needs from the module being exported.
class SymbolTable {
 public:
  virtual ~SymbolTable() = default;
  // "@name" of the private func.func for `computation` (emitted once,
  // whatever the number of callers).
  virtual std::string FunctionSymbol(const Computation* computation) = 0;
};

class FunctionEmitter {
 public:
  FunctionEmitter(SymbolTable* symbols, std::string* out, int indent);

  SymbolTable& symbols() { return *symbols_; }

  // Emits every instruction of `computation` with its parameters bound to
  // `params` (one Value per parameter); returns the ROOT's value.
  absl::StatusOr<Value> EmitBody(const Computation& computation,
                                 const std::vector<Value>& params);

  // The value of operand `i` of `instruction` (already emitted).
  const Value& Operand(const Instruction& instruction, int64_t i) const;
  // The leaves of `value` in order; a tuple-typed leaf is taken apart with
  // stablehlo.get_tuple_element.
  absl::StatusOr<std::vector<Value>> Leaves(const Value& value);
  // The leaves of every operand of `instruction`, in order.
  absl::StatusOr<std::vector<Value>> OperandLeaves(
      const Instruction& instruction);
  // `value` as one SSA value (a tuple kept by elements becomes a
  // stablehlo.tuple).
  absl::StatusOr<Value> Whole(const Value& value);

  // Writes `op`; returns one leaf per result. `hint` names the results.
  absl::StatusOr<std::vector<Value>> Emit(const Op& op, absl::string_view hint);
  // Writes `op` and packs its results into `shape` (results must be the
  // leaves of `shape`).
  absl::StatusOr<Value> EmitAs(const Op& op, const Shape& shape,
                               absl::string_view hint);

  // A region "{ ^bb0(leaves of the parameters): ... stablehlo.return }".
  // `extra` block arguments follow, unused by the body (topk's sort takes
  // the indices beside a comparator of values).
  absl::StatusOr<std::string> Region(const Computation& computation,
                                     const std::vector<Shape>& extra = {});
  // A region without block arguments whose parameters are `params`
  // (values of the enclosing region), as stablehlo.if/case take them.
  absl::StatusOr<std::string> CapturingRegion(const Computation& computation,
                                              const std::vector<Value>& params);
  // A region built by `body` rather than from a computation: block
  // arguments of `arg_shapes`, the ops `body` emits (given the arguments),
  // and a stablehlo.return of what it returns.
  absl::StatusOr<std::string> BuiltRegion(
      const std::vector<Shape>& arg_shapes,
      const std::function<absl::StatusOr<std::vector<Value>>(
          const std::vector<Value>& args)>& body);

  // Fresh leaves for the parameters of `computation`: `params` gets one
  // value per parameter, `leaves` every leaf in order (the block's or the
  // function's arguments).
  absl::Status BindParameters(const Computation& computation,
                              std::vector<Value>* params,
                              std::vector<Value>* leaves);
  // Writes `terminator` ("stablehlo.return", "func.return") returning the
  // leaves of `root`.
  absl::Status Return(const Value& root, absl::string_view terminator);

  // The indentation of the current line.
  std::string Indent() const { return std::string(2 * indent_, ' '); }

  // A fresh SSA name "%hint" (or "%hint_N") unique in this function.
  std::string Fresh(absl::string_view hint);
  // A leaf value named `ssa` of type `shape`.
  static absl::StatusOr<Value> Leaf(std::string ssa, const Shape& shape);
  // Packs leaves (from `*next` on) into a value of `shape`.
  static Value Pack(const Shape& shape, const std::vector<Value>& leaves,
                    size_t* next);

  // The error for an instruction with no StableHLO form.
  static absl::Status Refuse(const Instruction& instruction,
                             absl::string_view reason);

 private:
  absl::Status EmitInstruction(const Instruction& instruction);
  // Emits `computation` into a separate buffer one level deeper.
  absl::StatusOr<std::string> Nested(const Computation& computation,
                                     const std::vector<Value>& params,
                                     absl::string_view block_header);

  SymbolTable* symbols_;
  std::string* out_;
  int indent_;
  absl::flat_hash_map<const Instruction*, Value> values_;
  absl::flat_hash_set<std::string> names_;
  absl::flat_hash_map<std::string, int64_t> next_suffix_;
};

// One op family's emitter for one instruction.
using Handler = absl::StatusOr<Value> (*)(FunctionEmitter& emitter,
                                          const Instruction& instruction);
using HandlerTable = absl::flat_hash_map<Opcode, Handler>;

// The emitter of `opcode`, or null when it has no StableHLO form.
Handler FindHandler(Opcode opcode);

// The common case: `name` over the leaves of every operand, with `attrs`
// and `regions`, results the leaves of the instruction's shape.
absl::StatusOr<Value> EmitSimple(FunctionEmitter& emitter,
                                 const Instruction& instruction,
                                 absl::string_view name, std::string attrs = "",
                                 std::vector<std::string> regions = {});

}  // namespace kiln::stablehlo

#endif  // KILN_COMPILER_STABLEHLO_EMITTER_H_
