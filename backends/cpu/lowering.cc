#include "backends/cpu/lowering.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "backends/cpu/control_thunks.h"
#include "backends/cpu/loop_emitter.h"
#include "backends/cpu/lowering_internal.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/op_traits.h"

namespace kiln::cpu {
namespace lowering_internal {

absl::StatusOr<ValueTree> Lowerer::ArenaValue(const Shape& shape) {
  ValueTree tree;
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      absl::StatusOr<ValueTree> child = ArenaValue(element);
      if (!child.ok()) return child.status();
      tree.elements.push_back(*std::move(child));
    }
    return tree;
  }
  absl::StatusOr<int64_t> bytes = shape.ByteSize();
  if (!bytes.ok()) return bytes.status();
  BufferSlot slot;
  slot.shape = shape;
  slot.bytes = *bytes;
  tree.slot = NewSlot(std::move(slot));
  intervals_[tree.slot].bytes = *bytes;
  intervals_[tree.slot].defined = step();
  return tree;
}

ValueTree Lowerer::ParameterValue(const Shape& shape, int64_t parameter,
                                  std::vector<int64_t> path) {
  ValueTree tree;
  if (shape.IsTuple()) {
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      std::vector<int64_t> inner = path;
      inner.push_back(i);
      tree.elements.push_back(
          ParameterValue(shape.tuple_shape(i), parameter, std::move(inner)));
    }
    return tree;
  }
  BufferSlot slot;
  slot.kind = BufferSlot::Kind::kParameter;
  slot.shape = shape;
  slot.bytes = shape.ByteSize().value_or(0);
  slot.parameter = parameter;
  slot.path = std::move(path);
  tree.slot = NewSlot(std::move(slot));
  return tree;
}

ValueTree Lowerer::ConstantValue(const Literal& literal) {
  ValueTree tree;
  if (literal.shape().IsTuple()) {
    for (const Literal& element : literal.tuple_elements()) {
      tree.elements.push_back(ConstantValue(element));
    }
    return tree;
  }
  BufferSlot slot;
  slot.kind = BufferSlot::Kind::kConstant;
  slot.shape = literal.shape();
  slot.bytes = static_cast<int64_t>(literal.data().size());
  slot.constant = &literal;
  tree.slot = NewSlot(std::move(slot));
  return tree;
}

void Lowerer::NoteUse(const ValueTree& tree) {
  if (tree.slot >= 0) {
    intervals_[tree.slot].last_use =
        std::max(intervals_[tree.slot].last_use, step());
  }
  for (const ValueTree& element : tree.elements) NoteUse(element);
}

absl::Status Lowerer::AddKernel(const Instruction* instruction,
                                const Computation& computation,
                                int64_t instructions) {
  if (IsFlatKernel(computation)) flat_kernels_.insert(step());
  return AddKernelSource(
      instruction,
      [&](const std::string& symbol) {
        return EmitKernel(computation, symbol, context_.target);
      },
      instructions);
}

absl::Status Lowerer::AddKernelSource(
    const Instruction* instruction,
    const std::function<absl::StatusOr<std::string>(const std::string&)>& emit,
    int64_t instructions, bool in_place, const ValueTree* operand0) {
  const std::string symbol =
      absl::StrCat("kiln_kernel_", context_.stats.kernels);
  absl::StatusOr<std::string> source = emit(symbol);
  if (!source.ok()) return source.status();
  absl::StrAppend(&context_.kernels, "\n// ", instruction->name(), "\n",
                  SerialKernel(context_.target, *std::move(source), symbol));
  std::vector<int64_t> inputs;
  for (int64_t i = 0; i < instruction->operand_count(); ++i) {
    const ValueTree& value = i == 0 && operand0 != nullptr
                                 ? *operand0
                                 : values_.at(instruction->operand(i));
    NoteUse(value);
    inputs.push_back(value.slot);
  }
  absl::StatusOr<ValueTree> result =
      !in_place             ? ArenaValue(instruction->shape())
      : operand0 != nullptr ? *operand0
                            : values_.at(instruction->operand(0));
  if (!result.ok()) return result.status();
  std::vector<int64_t> outputs;
  if (result->slot >= 0) outputs.push_back(result->slot);
  for (const ValueTree& element : result->elements) {
    outputs.push_back(element.slot);
  }
  program_->thunks.push_back(std::make_unique<KernelThunk>(
      instruction->name(), symbol, std::move(inputs), std::move(outputs)));
  values_[instruction] = *std::move(result);
  ++context_.stats.kernels;
  context_.stats.native_instructions += instructions;
  return absl::OkStatus();
}

absl::StatusOr<bool> Lowerer::TryKernel(const Instruction* instruction,
                                        std::string* why) {
  if (instruction->opcode() == Opcode::kFusion) {
    const auto* calls = instruction->attrs().Get<Computation*>(attr::kCalls);
    if (calls == nullptr || *calls == nullptr) return false;
    const Computation& fused = **calls;
    if (absl::Status status = CheckEmittable(fused); !status.ok()) {
      *why = std::string(status.message());
      return false;
    }
    int64_t count = 0;
    for (const Instruction* inner : fused.instructions()) {
      if (inner->opcode() != Opcode::kParameter &&
          !(inner == fused.root() && inner->opcode() == Opcode::kTuple)) {
        ++count;
      }
    }
    absl::Status status = AddKernel(instruction, fused, count);
    if (!status.ok()) return status;
    return true;
  }
  if (absl::Status status = CheckEmittable(*instruction); !status.ok()) {
    *why = std::string(status.message());
    return false;
  }
  // One op on its own: wrapped in a computation of its operands, parameter
  // k standing for operand k (the kernel's in[k]). A scalar constant is
  // copied in as the op's operand instead, so that the emitter sees its
  // value (a scan's init value); its parameter stays, unread.
  Computation wrapper(absl::StrCat("single.", instruction->name()));
  std::vector<Instruction*> parameters;
  for (int64_t k = 0; k < instruction->operand_count(); ++k) {
    const Instruction* operand = instruction->operand(k);
    auto parameter = std::make_unique<Instruction>(
        Opcode::kParameter, operand->shape(), absl::StrCat("param.", k));
    parameter->set_parameter_number(k);
    parameters.push_back(wrapper.AddParameter(std::move(parameter)));
    if (operand->opcode() == Opcode::kConstant && operand->has_literal() &&
        operand->shape().IsScalar()) {
      parameters.back() = wrapper.AddInstruction(
          operand->CloneWithNewOperands(operand->shape(), {}, operand->name()));
    }
  }
  wrapper.set_root(wrapper.AddInstruction(instruction->CloneWithNewOperands(
      instruction->shape(), parameters, instruction->name())));
  absl::Status status = AddKernel(instruction, wrapper, 1);
  if (!status.ok()) return status;
  return true;
}

bool Lowerer::OwnsOperandSlot(const Instruction* instruction) const {
  if (UpdatesStateInPlace(instruction)) return true;
  // The operand's slot is its own (not a parameter's, a constant's or a
  // tuple element shared with other values: those come from parameter,
  // constant, tuple and get-tuple-element, which make no slot) and no one
  // reads it after this instruction.
  const Instruction* operand = instruction->operand(0);
  const Opcode producer = operand->opcode();
  if (producer == Opcode::kParameter || producer == Opcode::kConstant ||
      producer == Opcode::kTuple || producer == Opcode::kGetTupleElement ||
      operand->users().size() != 1 || operand == computation_.root()) {
    return false;
  }
  for (int64_t i = 1; i < instruction->operand_count(); ++i) {
    if (instruction->operand(i) == operand) return false;  // Also read.
  }
  const ValueTree& value = values_.at(operand);
  return value.slot >= 0 &&
         program_->slots[value.slot].kind == BufferSlot::Kind::kArena;
}

absl::StatusOr<bool> Lowerer::TryInPlaceUpdate(const Instruction* instruction) {
  if (instruction->opcode() != Opcode::kDynamicUpdateSlice ||
      !CheckEmittable(*instruction).ok() || !OwnsOperandSlot(instruction)) {
    return false;
  }
  absl::Status status = AddKernelSource(
      instruction,
      [&](const std::string& symbol) {
        return EmitInPlaceUpdateKernel(*instruction, symbol);
      },
      1, /*in_place=*/true);
  if (!status.ok()) return status;
  return true;
}

absl::Status Lowerer::Fallback(const Instruction* instruction,
                               const std::string& why) {
  std::vector<ValueTree> operands;
  for (const Instruction* operand : instruction->operands()) {
    operands.push_back(values_.at(operand));
    NoteUse(operands.back());
  }
  absl::StatusOr<ValueTree> result = ArenaValue(instruction->shape());
  if (!result.ok()) return result.status();
  const bool collective = GetOpTraits(instruction->opcode()).collective;
  program_->thunks.push_back(std::make_unique<FallbackThunk>(
      *instruction, std::move(operands), *result,
      collective ? "collective" : "fallback"));
  values_[instruction] = *std::move(result);
  LoweringStats& stats = context_.stats;
  if (collective) {
    ++stats.collectives;
    return absl::OkStatus();
  }
  const std::string op(OpcodeName(instruction->opcode()));
  ++stats.fallback_instructions;
  ++stats.fallback_by_op[op];
  stats.fallback_reason.emplace(op, why);
  return absl::OkStatus();
}

absl::Status Lowerer::Lower(const Instruction* instruction) {
  switch (instruction->opcode()) {
    case Opcode::kParameter:
      values_[instruction] = ParameterValue(
          instruction->shape(), instruction->parameter_number(), {});
      return absl::OkStatus();
    case Opcode::kConstant:
      values_[instruction] = ConstantValue(instruction->literal());
      return absl::OkStatus();
    case Opcode::kTuple: {
      ValueTree tree;
      for (const Instruction* operand : instruction->operands()) {
        tree.elements.push_back(values_.at(operand));
      }
      values_[instruction] = std::move(tree);
      return absl::OkStatus();
    }
    case Opcode::kGetTupleElement: {
      const int64_t* index = instruction->attrs().Get<int64_t>(attr::kIndex);
      const ValueTree& tuple = values_.at(instruction->operand(0));
      if (index == nullptr || *index < 0 ||
          *index >= static_cast<int64_t>(tuple.elements.size())) {
        return absl::InternalError(
            absl::StrCat(instruction->name(), ": bad tuple index"));
      }
      values_[instruction] = tuple.elements[*index];
      return absl::OkStatus();
    }
    default:
      break;
  }
  std::string why = "no native lowering";
  absl::StatusOr<bool> done = TryControlFlow(instruction, &why);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  done = TryDot(instruction);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  done = TryInPlaceUpdate(instruction);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  done = TrySortOrScatter(instruction, &why);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  done = TryConvolution(instruction, &why);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  done = TryRngBitGenerator(instruction, &why);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  done = TryKernel(instruction, &why);
  if (!done.ok()) return done.status();
  if (*done) return absl::OkStatus();
  return Fallback(instruction, why);
}

absl::StatusOr<std::unique_ptr<Program>> Lowerer::Run() {
  absl::StatusOr<std::vector<Instruction*>> order = computation_.PostOrder();
  if (!order.ok()) return order.status();
  for (const Instruction* instruction : *order) {
    if (absl::Status status = Lower(instruction); !status.ok()) return status;
  }
  program_->result = values_.at(computation_.root());
  if (while_body_) WriteResultsIntoState();
  // The entry's result arena slots are written in place in the result
  // literal, each at the first path it appears at (a later path gets a
  // copy); a nested program's result lives in its arena to the end.
  std::vector<std::pair<const ValueTree*, std::vector<int64_t>>> pending = {
      {&program_->result, {}}};
  while (!pending.empty()) {
    auto [tree, path] = std::move(pending.back());
    pending.pop_back();
    if (tree->slot >= 0 &&
        program_->slots[tree->slot].kind == BufferSlot::Kind::kArena) {
      if (result_in_place_) {
        program_->slots[tree->slot].kind = BufferSlot::Kind::kResult;
        program_->slots[tree->slot].path = path;
      } else {
        intervals_[tree->slot].live_out = true;
      }
    }
    for (size_t i = 0; i < tree->elements.size(); ++i) {
      std::vector<int64_t> inner = path;
      inner.push_back(i);
      pending.push_back({&tree->elements[i], std::move(inner)});
    }
  }
  std::vector<BufferInterval> arena;
  std::vector<int64_t> arena_slots;
  for (size_t i = 0; i < program_->slots.size(); ++i) {
    if (program_->slots[i].kind != BufferSlot::Kind::kArena) continue;
    arena.push_back(intervals_[i]);
    arena_slots.push_back(i);
  }
  BufferPlacement placement = AssignBuffers(arena);
  for (size_t j = 0; j < arena_slots.size(); ++j) {
    program_->slots[arena_slots[j]].offset = placement.offsets[j];
  }
  program_->arena_bytes = placement.arena_bytes;
  if (result_in_place_) {
    context_.stats.arena_bytes = placement.arena_bytes;
    context_.stats.unshared_bytes = placement.unshared_bytes;
    std::vector<SlotSteps> steps;
    for (const BufferInterval& interval : intervals_) {
      steps.push_back({interval.defined, interval.last_use});
    }
    context_.donation = DonatableAliases(*computation_.parent(), *program_,
                                         steps, flat_kernels_);
  }
  return std::move(program_);
}

}  // namespace lowering_internal

using lowering_internal::Lowerer;
using lowering_internal::LoweringContext;
using lowering_internal::StepwiseRefusal;

std::string WholeModuleFallbackReason(const Module& module) {
  const Computation* entry = module.entry();
  if (entry == nullptr) return "no entry computation";
  return StepwiseRefusal(*entry);
}

absl::StatusOr<LoweredModule> LowerModule(const Module& module,
                                          int64_t max_while_iterations,
                                          KernelTarget target) {
  LoweringContext context;
  context.max_while_iterations = max_while_iterations;
  context.target = target;
  absl::StatusOr<std::unique_ptr<Program>> entry =
      Lowerer(context, *module.entry(), /*result_in_place=*/true).Run();
  if (!entry.ok()) return entry.status();
  LoweredModule lowered;
  lowered.entry = *std::move(entry);
  lowered.kernel_source = std::move(context.kernels);
  lowered.stats = std::move(context.stats);
  lowered.donation = std::move(context.donation);
  return lowered;
}

std::vector<Program*> AllPrograms(Program& program) {
  std::vector<Program*> all = {&program};
  absl::flat_hash_set<Program*> seen = {&program};
  for (size_t i = 0; i < all.size(); ++i) {
    for (const auto& thunk : all[i]->thunks) {
      for (Program* nested : thunk->NestedPrograms()) {
        if (seen.insert(nested).second) all.push_back(nested);
      }
    }
  }
  return all;
}

}  // namespace kiln::cpu
