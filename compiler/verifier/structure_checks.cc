// Structural checks: roots, acyclicity, operand ownership, parameter
// numbering, the entry, called computations, recursion and unique names.
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/verifier/verifier_internal.h"

namespace kiln::verifier_internal {
namespace {

// Computations have no source location of their own; their root's (or first
// instruction's) is the closest place to point at.
SourceLocation ComputationLocation(const Computation& computation) {
  if (computation.root() != nullptr) return computation.root()->location;
  std::vector<Instruction*> instructions = computation.instructions();
  return instructions.empty() ? SourceLocation{} : instructions[0]->location;
}

void CheckRoot(const Computation& computation, VerifyReport* report) {
  const Instruction* root = computation.root();
  if (root == nullptr) {
    report->errors.push_back(
        MakeError(ComputationLocation(computation), computation.name(),
                  "computation has no ROOT", "structure.root"));
  } else if (root->parent() != &computation) {
    report->errors.push_back(InstructionError(
        *root,
        absl::StrCat("ROOT is not an instruction of computation ",
                     computation.name()),
        "structure.root"));
  }
}

void CheckAcyclic(const Computation& computation, VerifyReport* report) {
  absl::StatusOr<std::vector<Instruction*>> order = computation.PostOrder();
  if (!order.ok()) {
    report->errors.push_back(
        MakeError(ComputationLocation(computation), computation.name(),
                  order.status().message(), "structure.acyclic"));
  }
}

void CheckOperandsLocal(const Computation& computation, VerifyReport* report) {
  for (const Instruction* instruction : computation.instructions()) {
    for (int64_t i = 0; i < instruction->operand_count(); ++i) {
      const Instruction* operand = instruction->operand(i);
      if (operand == nullptr) {
        report->errors.push_back(InstructionError(
            *instruction, absl::StrCat("operand ", i, " is null"),
            "structure.operand_computation"));
      } else if (operand->parent() != &computation) {
        report->errors.push_back(
            InstructionError(*instruction,
                             absl::StrCat("operand ", i, " (", operand->name(),
                                          ") belongs to another computation"),
                             "structure.operand_computation"));
      }
    }
  }
}

// Parameters must be numbered 0..n-1, each exactly once.
void CheckParameters(const Computation& computation, VerifyReport* report) {
  std::vector<const Instruction*> by_number;
  std::vector<const Instruction*> parameters;
  for (const Instruction* instruction : computation.instructions()) {
    if (instruction->opcode() == Opcode::kParameter) {
      parameters.push_back(instruction);
    }
  }
  by_number.resize(parameters.size(), nullptr);
  for (const Instruction* parameter : parameters) {
    int64_t number = parameter->parameter_number();
    if (number < 0 || number >= static_cast<int64_t>(parameters.size())) {
      report->errors.push_back(InstructionError(
          *parameter,
          absl::StrCat("parameter number ", number, " is out of range [0, ",
                       parameters.size(), ")"),
          "structure.parameter_numbers"));
    } else if (by_number[number] != nullptr) {
      report->errors.push_back(InstructionError(
          *parameter,
          absl::StrCat("parameter number ", number, " is also used by ",
                       by_number[number]->name()),
          "structure.parameter_numbers"));
    } else {
      by_number[number] = parameter;
    }
  }
}

void CheckCalledComputations(const Module& module,
                             const Computation& computation,
                             VerifyReport* report) {
  for (const Instruction* instruction : computation.instructions()) {
    for (const Computation* callee : instruction->called_computations()) {
      if (callee == nullptr) {
        report->errors.push_back(
            InstructionError(*instruction, "calls a null computation",
                             "structure.called_computation"));
      } else if (module.FindComputation(callee->name()) != callee) {
        report->errors.push_back(
            InstructionError(*instruction,
                             absl::StrCat("calls computation ", callee->name(),
                                          ", which is not in the module"),
                             "structure.called_computation"));
      }
    }
  }
}

// XLA instruction names are unique across the whole module.
void CheckUniqueNames(const Module& module, VerifyReport* report) {
  absl::flat_hash_map<std::string, const Instruction*> seen;
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      auto [it, inserted] = seen.emplace(instruction->name(), instruction);
      if (!inserted) {
        report->errors.push_back(InstructionError(
            *instruction,
            absl::StrCat("name is already used by an instruction of "
                         "computation ",
                         it->second->parent()->name()),
            "structure.unique_names"));
      }
    }
  }
}

}  // namespace

void CheckStructure(const Module& module, VerifyReport* report) {
  if (module.entry() == nullptr) {
    report->errors.push_back(MakeError(module.location(), module.name(),
                                       "module has no entry computation",
                                       "structure.entry"));
  } else if (module.FindComputation(module.entry()->name()) != module.entry()) {
    report->errors.push_back(
        MakeError(module.location(), module.name(),
                  absl::StrCat("entry computation ", module.entry()->name(),
                               " is not in the module"),
                  "structure.entry"));
  }
  for (const Computation* computation : module.computations()) {
    CheckRoot(*computation, report);
    CheckAcyclic(*computation, report);
    CheckOperandsLocal(*computation, report);
    CheckParameters(*computation, report);
    CheckCalledComputations(module, *computation, report);
  }
  CheckUniqueNames(module, report);
  if (report->ok()) {
    absl::StatusOr<std::vector<Computation*>> order =
        module.PostOrderComputations();
    if (!order.ok()) {
      report->errors.push_back(MakeError(module.location(), module.name(),
                                         order.status().message(),
                                         "structure.recursion"));
    }
  }
}

}  // namespace kiln::verifier_internal
