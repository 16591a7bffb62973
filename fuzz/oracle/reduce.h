// A reducer for failing cases (`kiln reduce`, and every finding of `kiln
// fuzz`): greedy steps, each kept only while the same oracle still fails
// the same way (kind and blame):
//   0. one device, when no op needs the others;
//   1. move the root to an earlier instruction (dead code removed);
//   2. replace an instruction by a constant holding the value the
//      reference evaluator gives it (one device), so the ops before it go;
//   3. replace a parameter by a constant of its argument;
//   4. drop the parameters nothing uses, and their arguments;
//   5. give called computations an earlier root of the same shape;
//   6. shrink every dimension of one size to 1, else by one
//      (reduce_steps.h);
//   7. zero the arguments and constants, whole or element by element
//      (an element that must stay nonzero is tried as 1);
//   8. in called computations, read a parameter of the same shape or a
//      zero instead of a computed value; drop a sort operand that the
//      comparator and the sort's users do not read;
//   9. simplify attributes one step toward their defaults (window
//      strides, padding, dilations, reversal and size; pad amounts; slice
//      strides and starts; promises; compare's type), shapes inferred
//      again down to the root;
//  10. default layouts, then no annotations (metadata, sharding, ...).
// Steps 1-6 and 8-10 repeat until none applies or the budget is spent;
// step 7 runs last.
#ifndef KILN_FUZZ_ORACLE_REDUCE_H_
#define KILN_FUZZ_ORACLE_REDUCE_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "backends/backend.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "fuzz/oracle/oracle.h"

namespace kiln::fuzz {

struct Reduced {
  std::unique_ptr<Module> module;
  std::vector<std::vector<Literal>> arguments;
  // Instructions of every computation, before and after.
  int64_t instructions_before = 0;
  int64_t instructions_after = 0;
  // Candidates tried (each one oracle run) and kept.
  int64_t tried = 0;
  int64_t kept = 0;
};

// Reduces `c`, on which `kind` gave `outcome` (a finding). The result
// still gives a finding of the same kind and blame; at worst it is a copy
// of `c`.
absl::StatusOr<Reduced> ReduceCase(OracleKind kind, const Case& c,
                                   Backend* backend,
                                   const OracleOptions& options,
                                   const Outcome& outcome,
                                   absl::Duration budget = absl::Seconds(30));

// Instructions in every computation of `module`.
int64_t InstructionCount(const Module& module);

}  // namespace kiln::fuzz

#endif  // KILN_FUZZ_ORACLE_REDUCE_H_
