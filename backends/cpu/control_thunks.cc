#include "backends/cpu/control_thunks.h"

#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "backends/cpu/device_runtime.h"

namespace kiln::cpu {
namespace {

// A nested program's arena: host memory, or the device's when the values
// live there.
absl::StatusOr<DeviceArena> NewArena(int64_t bytes, const RunState& caller) {
  if (caller.device != nullptr) return caller.device->Allocate(bytes);
  DeviceArena arena(static_cast<uint8_t*>(
                        std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64)),
                    [](uint8_t* p) { std::free(p); });
  if (arena == nullptr) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot allocate a nested arena of ", bytes, " bytes"));
  }
  return arena;
}

const ValueTree& Subtree(const ValueTree& tree,
                         const std::vector<int64_t>& path) {
  const ValueTree* node = &tree;
  for (int64_t index : path) node = &node->elements[index];
  return *node;
}

// `program`'s slots bound for one execution: arena slots in `arena`,
// parameters at the caller's slots, constants at their literals.
absl::StatusOr<RunState> Bind(const Program& program,
                              const std::vector<const ValueTree*>& arguments,
                              const RunState& caller, uint8_t* arena) {
  RunState state;
  state.program = &program;
  state.eval = caller.eval;
  state.device = caller.device;
  state.addresses.resize(program.slots.size());
  for (size_t i = 0; i < program.slots.size(); ++i) {
    const BufferSlot& slot = program.slots[i];
    switch (slot.kind) {
      case BufferSlot::Kind::kArena:
        state.addresses[i] = arena + slot.offset;
        break;
      case BufferSlot::Kind::kParameter: {
        if (slot.parameter >= static_cast<int64_t>(arguments.size())) {
          return absl::InternalError("a nested program lacks an argument");
        }
        const ValueTree& leaf = Subtree(*arguments[slot.parameter], slot.path);
        state.addresses[i] = caller.addresses[leaf.slot];
        break;
      }
      case BufferSlot::Kind::kConstant: {
        if (state.device == nullptr) {
          state.addresses[i] =
              const_cast<uint8_t*>(slot.constant->data().data());
          break;
        }
        absl::StatusOr<uint8_t*> address =
            state.device->ConstantAddress(slot.constant);
        if (!address.ok()) return address.status();
        state.addresses[i] = *address;
        break;
      }
      case BufferSlot::Kind::kResult:
        return absl::InternalError("a nested program writes a result literal");
    }
  }
  if (state.device != nullptr) {
    if (absl::Status status = state.device->Bound(state); !status.ok()) {
      return status;
    }
  }
  return state;
}

struct LeafCopy {
  const uint8_t* from;
  uint8_t* to;
  int64_t bytes;
  bool staged;  // `from` may be overwritten by another copy of the set.
};

void CollectCopies(const ValueTree& from, const RunState& from_state,
                   const ValueTree& to, const RunState& to_state,
                   std::vector<LeafCopy>* copies) {
  if (to.slot >= 0) {
    const BufferSlot& source = from_state.program->slots[from.slot];
    copies->push_back({from_state.addresses[from.slot],
                       to_state.addresses[to.slot],
                       to_state.program->slots[to.slot].bytes,
                       source.kind == BufferSlot::Kind::kParameter});
    return;
  }
  for (size_t i = 0; i < to.elements.size(); ++i) {
    CollectCopies(from.elements[i], from_state, to.elements[i], to_state,
                  copies);
  }
}

// Copies the value `from` into the slots of `to`. Leaves read from the
// caller's own slots (a body returning its state permuted) are staged
// first, so that every copy reads the values from before any write. On a
// device the copies and the staging are device-to-device.
absl::Status CopyValue(const ValueTree& from, const RunState& from_state,
                       const ValueTree& to, const RunState& to_state) {
  std::vector<LeafCopy> copies;
  CollectCopies(from, from_state, to, to_state, &copies);
  DeviceMemory* device = to_state.device;
  std::vector<std::vector<uint8_t>> staged;
  std::vector<DeviceArena> staged_on_device;
  for (LeafCopy& copy : copies) {
    if (!copy.staged || copy.from == copy.to || copy.bytes == 0) continue;
    if (device == nullptr) {
      staged.emplace_back(copy.from, copy.from + copy.bytes);
      copy.from = staged.back().data();
      continue;
    }
    absl::StatusOr<DeviceArena> stage = device->Allocate(copy.bytes);
    if (!stage.ok()) return stage.status();
    absl::Status status =
        device->CopyOnDevice(stage->get(), copy.from, copy.bytes);
    if (!status.ok()) return status;
    copy.from = stage->get();
    staged_on_device.push_back(*std::move(stage));
  }
  for (const LeafCopy& copy : copies) {
    if (copy.bytes == 0 || copy.from == copy.to) continue;
    if (device == nullptr) {
      std::memmove(copy.to, copy.from, copy.bytes);
      continue;
    }
    absl::Status status = device->CopyOnDevice(copy.to, copy.from, copy.bytes);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

// Reads `bytes` (a predicate or a branch index) at `address` of `state`.
absl::Status ReadScalar(const RunState& state, const uint8_t* address, void* to,
                        int64_t bytes) {
  if (state.device != nullptr) {
    return state.device->CopyToHost(to, address, bytes);
  }
  std::memcpy(to, address, bytes);
  return absl::OkStatus();
}

absl::Status RunThunks(const Program& program, RunState& state) {
  for (const auto& thunk : program.thunks) {
    if (absl::Status status = RunThunk(*thunk, state); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

std::string Describe(absl::string_view what, const Instruction& instruction,
                     const std::vector<const Program*>& programs) {
  std::vector<std::string> sizes;
  for (const Program* program : programs) {
    sizes.push_back(absl::StrCat(program->thunks.size()));
  }
  return absl::StrCat(what, " (", instruction.name(), ") thunks=[",
                      absl::StrJoin(sizes, ","), "]");
}

}  // namespace

absl::Status RunNestedProgram(const Program& program,
                              const std::vector<const ValueTree*>& arguments,
                              const ValueTree& result, RunState& caller) {
  absl::StatusOr<DeviceArena> arena = NewArena(program.arena_bytes, caller);
  if (!arena.ok()) return arena.status();
  absl::StatusOr<RunState> state =
      Bind(program, arguments, caller, arena->get());
  if (!state.ok()) return state.status();
  if (absl::Status status = RunThunks(program, *state); !status.ok()) {
    return status;
  }
  return CopyValue(program.result, *state, result, caller);
}

absl::Status CallThunk::Run(RunState& state) const {
  std::vector<const ValueTree*> arguments;
  for (const ValueTree& operand : operands_) arguments.push_back(&operand);
  return RunNestedProgram(*callee_, arguments, result_, state);
}

std::string CallThunk::ToString() const {
  return Describe("call", call_, {callee_.get()});
}

absl::Status WhileThunk::Run(RunState& state) const {
  if (absl::Status status = CopyValue(init_, state, state_, state);
      !status.ok()) {
    return status;
  }
  absl::StatusOr<DeviceArena> condition_arena =
      NewArena(condition_->arena_bytes, state);
  if (!condition_arena.ok()) return condition_arena.status();
  absl::StatusOr<DeviceArena> body_arena = NewArena(body_->arena_bytes, state);
  if (!body_arena.ok()) return body_arena.status();
  // Both programs read the loop state in place: bound once for every
  // iteration.
  const std::vector<const ValueTree*> arguments = {&state_};
  absl::StatusOr<RunState> condition =
      Bind(*condition_, arguments, state, condition_arena->get());
  if (!condition.ok()) return condition.status();
  absl::StatusOr<RunState> body =
      Bind(*body_, arguments, state, body_arena->get());
  if (!body.ok()) return body.status();
  for (int64_t iterations = 0;; ++iterations) {
    if (absl::Status status = RunThunks(*condition_, *condition);
        !status.ok()) {
      return status;
    }
    // On a device this reads the predicate back: the loop is driven from
    // the host.
    uint8_t predicate = 0;
    if (absl::Status status = ReadScalar(
            *condition, condition->addresses[condition_->result.slot],
            &predicate, 1);
        !status.ok()) {
      return status;
    }
    if (predicate == 0) break;
    if (iterations >= max_iterations_) {
      return eval::KernelError(
          loop_,
          absl::StrCat("the while loop did not finish within ", max_iterations_,
                       " iterations (max_while_iterations)"));
    }
    if (absl::Status status = RunThunks(*body_, *body); !status.ok()) {
      return status;
    }
    if (absl::Status status = CopyValue(body_->result, *body, state_, state);
        !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

std::string WhileThunk::ToString() const {
  return Describe("while", loop_, {condition_.get(), body_.get()});
}

absl::Status ConditionalThunk::Run(RunState& state) const {
  const ElementType type =
      state.program->slots[selector_.slot].shape.element_type();
  const int64_t count = static_cast<int64_t>(branches_.size());
  int64_t index = 0;
  int32_t value = 0;
  uint8_t pred = 0;
  const bool is_pred = type == ElementType::kPred;
  absl::Status read =
      is_pred ? ReadScalar(state, state.addresses[selector_.slot], &pred, 1)
              : ReadScalar(state, state.addresses[selector_.slot], &value,
                           sizeof value);
  if (!read.ok()) return read;
  if (is_pred) {
    index = pred != 0 ? 0 : 1;
  } else {
    index = value < 0 || value >= count ? count - 1 : value;
  }
  return RunNestedProgram(*branches_[index], {&operands_[index]}, result_,
                          state);
}

std::string ConditionalThunk::ToString() const {
  std::vector<const Program*> programs;
  for (const auto& branch : branches_) programs.push_back(branch.get());
  return Describe("conditional", conditional_, programs);
}

std::vector<Program*> ConditionalThunk::NestedPrograms() const {
  std::vector<Program*> programs;
  for (const auto& branch : branches_) programs.push_back(branch.get());
  return programs;
}

}  // namespace kiln::cpu
