#include "fuzz/oracle/reduce.h"

#include <functional>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/pass/pass.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "fuzz/oracle/reduce_steps.h"
#include "re2/re2.h"

namespace kiln::fuzz {
namespace {

struct State {
  std::unique_ptr<Module> module;
  std::vector<std::vector<Literal>> arguments;
};

std::vector<std::vector<Literal>> CopyArguments(
    const std::vector<std::vector<Literal>>& arguments) {
  std::vector<std::vector<Literal>> copy;
  for (const auto& device : arguments) {
    copy.emplace_back();
    for (const Literal& argument : device) copy.back().push_back(argument);
  }
  return copy;
}

void Cleanup(Module& module) {
  if (std::unique_ptr<Pass> dce = PassRegistry::Global().Create("dce")) {
    (void)dce->Run(module);
  }
}

// The root moved to entry instruction `index` (dead code removed).
absl::StatusOr<std::unique_ptr<Module>> WithRoot(const Module& module,
                                                 size_t index) {
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) return copy.status();
  Computation* entry = (*copy)->entry();
  Instruction* root = entry->instructions()[index];
  entry->set_root(root);
  if ((*copy)->config().entry_computation_layout) {
    (*copy)->config().entry_computation_layout->result = root->shape();
  }
  Cleanup(**copy);
  return copy;
}

// Entry instruction `index` replaced by a constant holding `value`.
absl::StatusOr<std::unique_ptr<Module>> WithConstant(const Module& module,
                                                     size_t index,
                                                     Literal value) {
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) return copy.status();
  Computation* entry = (*copy)->entry();
  Instruction* old = entry->instructions()[index];
  auto constant = std::make_unique<Instruction>(
      Opcode::kConstant, old->shape(), absl::StrCat(old->name(), ".value"));
  constant->set_literal(std::move(value));
  Instruction* added = entry->AddInstructionBefore(std::move(constant), old);
  absl::Status replaced = old->ReplaceAllUsesWith(added);
  if (!replaced.ok()) return replaced;
  if (entry->root() == old) entry->set_root(added);
  Cleanup(**copy);
  return copy;
}

// The module without entry parameter `number` (which nothing uses): the
// others are renumbered, through the text (the IR keeps parameters).
absl::StatusOr<std::unique_ptr<Module>> WithoutParameter(const Module& module,
                                                         int64_t number) {
  absl::StatusOr<std::unique_ptr<Module>> copy = CopyModule(module);
  if (!copy.ok()) return copy.status();
  (*copy)->config().entry_computation_layout.reset();
  return ParseModule(WithoutParameterLines(
      PrintModule(**copy, ShortParsablePrintOptions()),
      absl::StrCat("ENTRY ", (*copy)->entry()->name(), " {"), number, 1));
}

bool Same(const Outcome& a, const Outcome& b) {
  return a.finding() && a.kind == b.kind && a.blamed == b.blamed;
}

}  // namespace

int64_t InstructionCount(const Module& module) {
  int64_t count = 0;
  for (const Computation* computation : module.computations()) {
    count += computation->instruction_count();
  }
  return count;
}

absl::StatusOr<Reduced> ReduceCase(OracleKind kind, const Case& c,
                                   Backend* backend,
                                   const OracleOptions& options,
                                   const Outcome& outcome,
                                   absl::Duration budget) {
  const absl::Time deadline = absl::Now() + budget;
  Reduced reduced;
  absl::StatusOr<std::unique_ptr<Module>> start = CopyModule(*c.module);
  if (!start.ok()) return start.status();
  State state{*std::move(start), CopyArguments(c.arguments)};
  reduced.instructions_before = InstructionCount(*state.module);

  // Tries `candidate`: kept (and true) when it still fails the same way.
  auto attempt = [&](absl::StatusOr<std::unique_ptr<Module>> candidate,
                     std::vector<std::vector<Literal>> arguments,
                     bool must_shrink) {
    if (!candidate.ok() || !VerifyModule(**candidate).ok()) return false;
    if (must_shrink &&
        InstructionCount(**candidate) >= InstructionCount(*state.module)) {
      return false;
    }
    ++reduced.tried;
    Case next;
    next.module = candidate->get();
    next.arguments = CopyArguments(arguments);
    if (!Same(RunOracle(kind, next, backend, options), outcome)) return false;
    state.module = *std::move(candidate);
    state.arguments = std::move(arguments);
    ++reduced.kept;
    return true;
  };

  // 0. One device, when none of the ops needs the others.
  if (state.arguments.size() > 1 && !NeedsEveryDevice(*state.module)) {
    absl::StatusOr<std::unique_ptr<Module>> single = CopyModule(*state.module);
    if (single.ok()) {
      (*single)->config().replica_count = 1;
      (*single)->config().num_partitions = 1;
      std::vector<std::vector<Literal>> first;
      first.push_back(CopyArguments(state.arguments)[0]);
      attempt(std::move(single), std::move(first), /*must_shrink=*/false);
    }
  }
  const bool one_device = state.arguments.size() == 1;

  // 8. In called computations, a value read through a parameter of its
  // shape or a zero instead (each kept step leaves fewer computed values).
  auto simpler_callee_operands = [&]() {
    for (const Computation* callee : state.module->computations()) {
      if (callee == state.module->entry()) continue;
      const std::vector<Instruction*> order = callee->instructions();
      for (size_t i = 0; i < order.size() && absl::Now() < deadline; ++i) {
        const Opcode op = order[i]->opcode();
        if (op == Opcode::kParameter || op == Opcode::kConstant ||
            !order[i]->shape().IsArray()) {
          continue;
        }
        for (int64_t with = -1; with < static_cast<int64_t>(order.size());
             ++with) {
          if (with >= 0 &&
              (order[with]->opcode() != Opcode::kParameter ||
               !order[with]->shape().Compatible(order[i]->shape()))) {
            continue;
          }
          if (attempt(WithCalleeOperand(*state.module, callee->name(), i, with),
                      CopyArguments(state.arguments), /*must_shrink=*/false)) {
            return true;
          }
        }
      }
    }
    return false;
  };
  // 8b. Sorts without an operand their comparator does not read.
  auto fewer_sort_operands = [&]() {
    for (const Computation* computation : state.module->computations()) {
      const std::vector<Instruction*> order = computation->instructions();
      for (size_t i = 0; i < order.size(); ++i) {
        if (order[i]->opcode() != Opcode::kSort) continue;
        for (int64_t k = 0;
             k < order[i]->operand_count() && absl::Now() < deadline; ++k) {
          if (attempt(
                  WithoutSortOperand(*state.module, computation->name(), i, k),
                  CopyArguments(state.arguments), /*must_shrink=*/true)) {
            return true;
          }
        }
      }
    }
    return false;
  };
  // 9. Simpler attributes, one step toward the default each (windows,
  // padding, slices, promises; shapes inferred again down to the root).
  auto simpler_attributes = [&]() {
    for (const Computation* computation : state.module->computations()) {
      const std::vector<Instruction*> order = computation->instructions();
      for (size_t i = 0; i < order.size(); ++i) {
        const int64_t edits = AttributeEditCount(*order[i]);
        for (int64_t e = 0; e < edits && absl::Now() < deadline; ++e) {
          if (attempt(WithSimplerAttribute(*state.module, computation->name(),
                                           i, e),
                      CopyArguments(state.arguments), /*must_shrink=*/false)) {
            return true;
          }
        }
      }
    }
    return false;
  };
  // 10. Default layouts, then no annotations (metadata, sharding, ...):
  // tried while they change the text.
  auto plain_form = [&]() {
    const std::string text = PrintModule(*state.module);
    for (bool annotations : {true, false}) {
      absl::StatusOr<std::unique_ptr<Module>> plain =
          WithPlainForm(*state.module, annotations);
      if (plain.ok() && PrintModule(**plain) != text &&
          attempt(std::move(plain), CopyArguments(state.arguments),
                  /*must_shrink=*/false)) {
        return true;
      }
    }
    return false;
  };

  bool progress = true;
  while (progress && absl::Now() < deadline) {
    progress = false;
    // 1. An earlier root.
    {
      const std::vector<Instruction*> order =
          state.module->entry()->instructions();
      for (size_t i = 0; i < order.size() && absl::Now() < deadline; ++i) {
        const Instruction* x = order[i];
        if (x == state.module->entry()->root() || !x->shape().IsArray() ||
            x->opcode() == Opcode::kParameter ||
            x->opcode() == Opcode::kConstant) {
          continue;
        }
        if (attempt(WithRoot(*state.module, i), CopyArguments(state.arguments),
                    /*must_shrink=*/true)) {
          progress = true;
          break;
        }
      }
    }
    if (progress) continue;
    // 2. and 3. Instructions and parameters by their values.
    if (one_device) {
      const std::vector<Instruction*> order =
          state.module->entry()->instructions();
      for (size_t i = 0; i < order.size() && absl::Now() < deadline; ++i) {
        const Instruction* x = order[i];
        if (x == state.module->entry()->root() || !x->shape().IsArray() ||
            !x->shape().is_static() || x->opcode() == Opcode::kConstant ||
            x->user_count() == 0) {
          continue;
        }
        Literal value;
        if (x->opcode() == Opcode::kParameter) {
          value = state.arguments[0][x->parameter_number()];
        } else {
          absl::StatusOr<std::unique_ptr<Module>> probe =
              WithRoot(*state.module, i);
          if (!probe.ok()) continue;
          EvalOptions eval;
          eval.max_steps = options.max_steps;
          absl::StatusOr<Literal> evaluated =
              Evaluate(**probe, state.arguments[0], eval);
          if (!evaluated.ok()) continue;
          value = *std::move(evaluated);
        }
        // A parameter becomes a constant (then goes, step 4); any other
        // instruction must take some with it.
        const bool is_parameter = x->opcode() == Opcode::kParameter;
        if (attempt(WithConstant(*state.module, i, std::move(value)),
                    CopyArguments(state.arguments), !is_parameter)) {
          progress = true;
          break;
        }
      }
    }
    if (progress) continue;
    // 4. Unused parameters.
    const std::vector<Instruction*>& parameters =
        state.module->entry()->parameters();
    for (const Instruction* parameter : parameters) {
      if (parameter->user_count() > 0 ||
          parameter == state.module->entry()->root()) {
        continue;
      }
      const int64_t number = parameter->parameter_number();
      std::vector<std::vector<Literal>> arguments =
          CopyArguments(state.arguments);
      for (auto& device : arguments) {
        if (number < static_cast<int64_t>(device.size())) {
          device.erase(device.begin() + number);
        }
      }
      if (attempt(WithoutParameter(*state.module, number), std::move(arguments),
                  /*must_shrink=*/true)) {
        progress = true;
        break;
      }
    }
    if (progress) continue;
    // 5. Called computations (reduce, sort, while, map bodies, ...): an
    // earlier root of the same shape, dead code removed.
    for (const Computation* callee : state.module->computations()) {
      if (callee == state.module->entry() || progress) continue;
      const std::vector<Instruction*> order = callee->instructions();
      for (size_t i = 0; i < order.size() && absl::Now() < deadline; ++i) {
        if (order[i] == callee->root() ||
            !order[i]->shape().Compatible(callee->root()->shape())) {
          continue;
        }
        if (attempt(WithCalleeRoot(*state.module, callee->name(), i),
                    CopyArguments(state.arguments), /*must_shrink=*/true)) {
          progress = true;
          break;
        }
      }
    }
    if (progress) continue;
    // 6. Smaller dimensions: every dimension of one size made 1, else one
    // smaller, everywhere (arguments and constants cut to their leading
    // corner); kept when it verifies and still fails.
    for (int64_t size : DimensionSizes(*state.module)) {
      if (progress || absl::Now() >= deadline) break;
      for (int64_t to : {int64_t{1}, size - 1}) {
        if (to >= size || (to == size - 1 && to == 1 && size == 2)) continue;
        absl::StatusOr<std::unique_ptr<Module>> candidate =
            WithDimensionSize(*state.module, size, to);
        if (!candidate.ok()) continue;
        std::vector<std::vector<Literal>> arguments;
        bool cut_all = true;
        for (const auto& device : state.arguments) {
          arguments.emplace_back();
          for (size_t k = 0; k < device.size() && cut_all; ++k) {
            const auto& parameters = (*candidate)->entry()->parameters();
            absl::StatusOr<Literal> cut =
                k < parameters.size()
                    ? CutLiteral(device[k], parameters[k]->shape())
                    : absl::StatusOr<Literal>(absl::NotFoundError("extra"));
            cut_all = cut.ok();
            if (cut_all) arguments.back().push_back(*std::move(cut));
          }
        }
        if (!cut_all) continue;
        if (attempt(std::move(candidate), std::move(arguments),
                    /*must_shrink=*/false)) {
          progress = true;
          break;
        }
      }
    }
    if (progress) continue;
    progress = simpler_callee_operands() || fewer_sort_operands() ||
               simpler_attributes() || plain_form();
  }
  // 7. Simpler values: each argument and constant all zeros, else each of
  // its nonzero elements zeroed in turn (small arrays), while it still
  // fails: what remains are the values the finding needs.
  auto simplify = [&](Literal& literal, const std::function<bool()>& keeps) {
    if (!literal.shape().IsArray() || literal.element_count() == 0) return;
    const Literal original = literal;
    absl::StatusOr<Literal> zeros = Literal::Create(literal.shape());
    if (!zeros.ok()) return;
    if (literal == *zeros) return;
    literal = *zeros;
    if (keeps()) return;
    literal = original;
    if (literal.element_count() > 64 || IsComplexType(literal.element_type())) {
      return;
    }
    for (int64_t i = 0; i < literal.element_count() && absl::Now() < deadline;
         ++i) {
      const uint64_t bits = literal.GetBits(i);
      if (bits == 0) continue;
      literal.SetBits(i, 0);
      if (keeps()) continue;
      literal.SetBits(i, bits);
      // Else a one, when that is simpler and still fails.
      literal.SetDouble(i, 1);
      if (literal.GetBits(i) == bits || !keeps()) literal.SetBits(i, bits);
    }
  };
  auto still_fails = [&]() {
    ++reduced.tried;
    Case next;
    next.module = state.module.get();
    next.arguments = CopyArguments(state.arguments);
    const bool same = Same(RunOracle(kind, next, backend, options), outcome);
    reduced.kept += same ? 1 : 0;
    return same;
  };
  for (auto& device : state.arguments) {
    for (Literal& argument : device) {
      if (absl::Now() < deadline) simplify(argument, still_fails);
    }
  }
  for (Instruction* instruction : state.module->entry()->instructions()) {
    if (instruction->opcode() != Opcode::kConstant || absl::Now() >= deadline) {
      continue;
    }
    Literal value = instruction->literal();
    simplify(value, [&]() {
      const Literal before = instruction->literal();
      instruction->set_literal(value);
      if (still_fails()) return true;
      instruction->set_literal(before);
      return false;
    });
  }
  reduced.instructions_after = InstructionCount(*state.module);
  reduced.module = std::move(state.module);
  reduced.arguments = std::move(state.arguments);
  return reduced;
}

}  // namespace kiln::fuzz
