// The control-flow steps: while, conditional and call run the programs of
// their computations; a while's state is placed here.
#include <utility>

#include "absl/strings/str_cat.h"
#include "backends/cpu/control_thunks.h"
#include "backends/cpu/lowering_internal.h"
#include "compiler/ir/attr_names.h"

namespace kiln::cpu::lowering_internal {
namespace {

// Whether `shape` holds a token or opaque value anywhere.
bool HasTokenOrOpaque(const Shape& shape) {
  if (shape.IsToken() || shape.IsOpaque()) return true;
  if (!shape.IsTuple()) return false;
  for (const Shape& element : shape.tuple_shapes()) {
    if (HasTokenOrOpaque(element)) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<ValueTree> Lowerer::LoopState(const Shape& shape,
                                             const ValueTree& init,
                                             const Instruction& body_root,
                                             const Instruction& body_state) {
  if (!shape.IsTuple() || body_root.opcode() != Opcode::kTuple ||
      init.elements.size() != shape.tuple_shapes().size()) {
    return ArenaValue(shape);
  }
  ValueTree state;
  for (size_t i = 0; i < init.elements.size(); ++i) {
    const ValueTree& initial = init.elements[i];
    const Instruction& next = *body_root.operand(i);
    const int64_t* index = next.attrs().Get<int64_t>(attr::kIndex);
    const bool passes_through = next.opcode() == Opcode::kGetTupleElement &&
                                next.operand(0) == &body_state &&
                                index != nullptr &&
                                *index == static_cast<int64_t>(i);
    if (passes_through && initial.slot >= 0 &&
        program_->slots[initial.slot].kind != BufferSlot::Kind::kArena) {
      state.elements.push_back(initial);
      continue;
    }
    absl::StatusOr<ValueTree> element = ArenaValue(shape.tuple_shapes()[i]);
    if (!element.ok()) return element.status();
    state.elements.push_back(*std::move(element));
  }
  return state;
}

bool Lowerer::UpdatesStateInPlace(const Instruction* instruction) const {
  if (!while_body_ || computation_.parameters().size() != 1) return false;
  const Instruction* root = computation_.root();
  const Instruction* state = computation_.parameter(0);
  const Instruction* element = instruction->operand(0);
  const int64_t* index = element->attrs().Get<int64_t>(attr::kIndex);
  if (root->opcode() != Opcode::kTuple ||
      element->opcode() != Opcode::kGetTupleElement ||
      element->operand(0) != state || index == nullptr ||
      element->users().size() != 1 || instruction->users().size() != 1 ||
      instruction->users()[0] != root) {
    return false;
  }
  for (int64_t k = 1; k < instruction->operand_count(); ++k) {
    if (instruction->operand(k) == element) return false;
  }
  // The result is the next state's element `index`, and only that.
  for (int64_t i = 0; i < root->operand_count(); ++i) {
    if ((root->operand(i) == instruction) != (i == *index)) return false;
  }
  // Nothing else reads the element: every other reader of the state takes
  // another element.
  for (const Instruction* user : state->users()) {
    const int64_t* other = user->attrs().Get<int64_t>(attr::kIndex);
    if (user->opcode() != Opcode::kGetTupleElement || other == nullptr ||
        (*other == *index && user != element)) {
      return false;
    }
  }
  const auto value = values_.find(element);
  return value != values_.end() && value->second.slot >= 0;
}

namespace {

// Each leaf slot of `tree` with its path.
void Leaves(const ValueTree& tree, std::vector<int64_t>& path,
            std::vector<std::pair<int64_t, std::vector<int64_t>>>& leaves) {
  if (tree.slot >= 0) leaves.push_back({tree.slot, path});
  for (size_t i = 0; i < tree.elements.size(); ++i) {
    path.push_back(i);
    Leaves(tree.elements[i], path, leaves);
    path.pop_back();
  }
}

}  // namespace

void Lowerer::WriteResultsIntoState() {
  if (computation_.parameters().size() != 1) return;
  const auto state = values_.find(computation_.parameter(0));
  if (state == values_.end()) return;
  std::vector<int64_t> path;
  std::vector<std::pair<int64_t, std::vector<int64_t>>> results, elements;
  Leaves(program_->result, path, results);
  Leaves(state->second, path, elements);
  absl::flat_hash_map<int64_t, int> uses;  // Slot -> times in the result.
  for (const auto& [slot, where] : results) ++uses[slot];
  for (const auto& [slot, where] : results) {
    const BufferSlot& written = program_->slots[slot];
    if (written.kind != BufferSlot::Kind::kArena || uses[slot] != 1) continue;
    int64_t read = -1;  // The state element at the same path.
    for (const auto& [element, at] : elements) {
      if (at == where) read = element;
    }
    // The old element must not be read after the new one's first write
    // (its writer may read it only if it is a flat loop, which reads each
    // element before writing it), nor be part of the result itself.
    if (read < 0 || uses.contains(read)) continue;
    const int64_t defined = intervals_[slot].defined;
    const int64_t last_read = intervals_[read].last_use;
    if (last_read > defined ||
        (last_read == defined && !flat_kernels_.contains(defined))) {
      continue;
    }
    BufferSlot& slot_ref = program_->slots[slot];
    slot_ref.kind = BufferSlot::Kind::kParameter;
    slot_ref.parameter = 0;
    slot_ref.path = where;
  }
}

// Why `computation` cannot be lowered step by step (dynamic shapes, tokens,
// ...), or empty when it can.
std::string StepwiseRefusal(const Computation& computation) {
  for (const Instruction* instruction : computation.instructions()) {
    if (!instruction->shape().is_static()) {
      return absl::StrCat("dynamic shapes (", instruction->name(), ")");
    }
    if (HasTokenOrOpaque(instruction->shape())) {
      return absl::StrCat("token or opaque values (", instruction->name(), ")");
    }
  }
  return "";
}

absl::StatusOr<std::shared_ptr<Program>> Lowerer::ProgramOf(
    const Computation* computation, std::string* why, bool while_body) {
  auto& programs = while_body ? context_.while_bodies : context_.programs;
  auto found = programs.find(computation);
  if (found != programs.end()) return found->second;
  if (context_.depth >= kMaxNesting) {
    *why = absl::StrCat("computations nested more than ", kMaxNesting,
                        " deep run on the evaluator");
    return std::shared_ptr<Program>();
  }
  if (std::string refusal = StepwiseRefusal(*computation); !refusal.empty()) {
    *why = absl::StrCat(computation->name(), ": ", refusal);
    return std::shared_ptr<Program>();
  }
  ++context_.depth;
  absl::StatusOr<std::unique_ptr<Program>> program =
      Lowerer(context_, *computation, /*result_in_place=*/false, while_body)
          .Run();
  --context_.depth;
  if (!program.ok()) return program.status();
  std::shared_ptr<Program> shared = *std::move(program);
  programs[computation] = shared;
  return shared;
}

std::vector<ValueTree> Lowerer::UseOperands(const Instruction* instruction,
                                            int64_t first) {
  std::vector<ValueTree> operands;
  for (int64_t k = first; k < instruction->operand_count(); ++k) {
    operands.push_back(values_.at(instruction->operand(k)));
    NoteUse(operands.back());
  }
  return operands;
}

absl::StatusOr<bool> Lowerer::TryControlFlow(const Instruction* instruction,
                                             std::string* why) {
  const AttributeMap& attrs = instruction->attrs();
  std::vector<const Computation*> callees;
  switch (instruction->opcode()) {
    case Opcode::kCall:
      callees = {*attrs.Get<Computation*>(attr::kToApply)};
      break;
    case Opcode::kWhile:
      callees = {*attrs.Get<Computation*>(attr::kCondition),
                 *attrs.Get<Computation*>(attr::kBody)};
      break;
    case Opcode::kConditional:
      if (const auto* list =
              attrs.Get<ComputationList>(attr::kBranchComputations)) {
        callees.assign(list->begin(), list->end());
      } else {
        callees = {*attrs.Get<Computation*>(attr::kTrueComputation),
                   *attrs.Get<Computation*>(attr::kFalseComputation)};
      }
      break;
    default:
      return false;
  }
  std::vector<std::shared_ptr<Program>> programs;
  for (size_t i = 0; i < callees.size(); ++i) {
    const bool body = instruction->opcode() == Opcode::kWhile && i == 1;
    absl::StatusOr<std::shared_ptr<Program>> program =
        ProgramOf(callees[i], why, body);
    if (!program.ok()) return program.status();
    if (*program == nullptr) return false;
    programs.push_back(*std::move(program));
  }
  std::unique_ptr<Thunk> thunk;
  if (instruction->opcode() == Opcode::kCall) {
    std::vector<ValueTree> operands = UseOperands(instruction);
    absl::StatusOr<ValueTree> result = ArenaValue(instruction->shape());
    if (!result.ok()) return result.status();
    thunk = std::make_unique<CallThunk>(*instruction, programs[0],
                                        std::move(operands), *result);
    values_[instruction] = *std::move(result);
  } else if (instruction->opcode() == Opcode::kWhile) {
    std::vector<ValueTree> operands = UseOperands(instruction);
    absl::StatusOr<ValueTree> state =
        LoopState(instruction->shape(), operands[0], *callees[1]->root(),
                  *callees[1]->parameter(0));
    if (!state.ok()) return state.status();
    thunk = std::make_unique<WhileThunk>(*instruction, programs[0], programs[1],
                                         std::move(operands[0]), *state,
                                         context_.max_while_iterations);
    values_[instruction] = *std::move(state);
  } else {
    const ValueTree selector = values_.at(instruction->operand(0));
    NoteUse(selector);
    std::vector<ValueTree> operands = UseOperands(instruction, 1);
    absl::StatusOr<ValueTree> result = ArenaValue(instruction->shape());
    if (!result.ok()) return result.status();
    thunk = std::make_unique<ConditionalThunk>(*instruction,
                                               std::move(programs), selector,
                                               std::move(operands), *result);
    values_[instruction] = *std::move(result);
  }
  program_->thunks.push_back(std::move(thunk));
  ++context_.stats.control_flow;
  ++context_.stats.native_instructions;
  return true;
}

}  // namespace kiln::cpu::lowering_internal
