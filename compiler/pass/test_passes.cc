#include "compiler/pass/test_passes.h"

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/pass/pipeline.h"

namespace kiln {
namespace {

std::vector<Instruction*> AddsOf(const Module& module) {
  std::vector<Instruction*> adds;
  for (Computation* computation : module.computations()) {
    for (Instruction* instruction : computation->instructions()) {
      if (instruction->opcode() == Opcode::kAdd) adds.push_back(instruction);
    }
  }
  return adds;
}

}  // namespace

absl::StatusOr<bool> AddCommutePass::Run(Module& module) {
  bool changed = false;
  for (Instruction* add : AddsOf(module)) {
    Instruction* lhs = add->operand(0);
    Instruction* rhs = add->operand(1);
    if (lhs == rhs) continue;
    add->ReplaceOperandWith(0, rhs);
    add->ReplaceOperandWith(1, lhs);
    changed = true;
  }
  return changed;
}

absl::StatusOr<bool> AddToSubtractPass::Run(Module& module) {
  bool changed = false;
  for (Instruction* add : AddsOf(module)) {
    auto subtract =
        std::make_unique<Instruction>(Opcode::kSubtract, add->shape(), "sub");
    for (Instruction* operand : add->operands()) {
      subtract->AppendOperand(operand);
    }
    Computation* computation = add->parent();
    Instruction* added = computation->AddInstruction(std::move(subtract));
    absl::Status replaced = computation->ReplaceInstruction(add, added);
    if (!replaced.ok()) return replaced;
    changed = true;
  }
  return changed;
}

absl::StatusOr<bool> BreakRootShapePass::Run(Module& module) {
  if (module.entry() == nullptr || module.entry()->root() == nullptr) {
    return false;
  }
  Shape* shape = module.entry()->root()->mutable_shape();
  if (shape->IsTuple()) return false;
  std::vector<int64_t> dimensions = shape->dimensions();
  dimensions.push_back(1);
  *shape = Shape::Array(shape->element_type(), dimensions);
  return true;
}

absl::StatusOr<bool> FailingPass::Run(Module& module) {
  return absl::InvalidArgumentError(
      absl::StrCat("cannot handle module ", module.name()));
}

KILN_REGISTER_PASS(AddCommutePass);
KILN_REGISTER_PASS(AddToSubtractPass);
KILN_REGISTER_PASS(AlwaysChangedPass);
KILN_REGISTER_PASS(BreakRootShapePass);
KILN_REGISTER_PASS(FailingPass);

// A registered pipeline, for the registry's tests (the real ones live in
// passes/pipelines.cc).
KILN_REGISTER_PIPELINE(test_pipeline, "test-pipeline", [] {
  auto pipeline = std::make_unique<PassPipeline>("test-pipeline");
  pipeline->AddPass(std::make_unique<AddCommutePass>());
  return pipeline;
});

}  // namespace kiln
