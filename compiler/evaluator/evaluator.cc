// The evaluator's driver: walks a computation in dependence order, hands
// each instruction's operand values to its family's kernel, and frees each
// value after its last use.
#include "compiler/evaluator/evaluator.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "compiler/evaluator/collective_hub.h"
#include "compiler/evaluator/data_movement_copy.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/ir/op_traits.h"
#include "compiler/ops/shape_inference.h"

namespace kiln {

void CustomCallRegistry::Register(std::string target, CustomCallFn fn) {
  targets_[std::move(target)] = std::move(fn);
}

const CustomCallFn* CustomCallRegistry::Find(absl::string_view target) const {
  auto it = targets_.find(target);
  return it == targets_.end() ? nullptr : &it->second;
}

CustomCallRegistry& GlobalCustomCallRegistry() {
  static CustomCallRegistry* registry = new CustomCallRegistry();
  return *registry;
}

int64_t DefaultMaxLiveBytes() {
  constexpr int64_t kCap = int64_t{16} << 30;
  // Half of the memory leaves room for the kernels' temporaries, the
  // arguments and the rest of the process.
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return kCap;
  const int64_t half = static_cast<int64_t>(pages) / 2 * page_size;
  return std::min(kCap, half);
}

absl::Status CheckEvalOptions(const EvalOptions& options) {
  if (options.max_while_iterations < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("EvalOptions::max_while_iterations is ",
                     options.max_while_iterations, "; it must be >= 0"));
  }
  if (options.max_steps < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "EvalOptions::max_steps is ", options.max_steps, "; it must be >= 1"));
  }
  if (options.max_live_bytes < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("EvalOptions::max_live_bytes is ", options.max_live_bytes,
                     "; it must be >= 1"));
  }
  return absl::OkStatus();
}

namespace eval {
namespace {

// Deeper nesting of calls than this is refused (stack safety); verified
// modules have no recursion, so only absurd inputs reach it.
constexpr int kMaxCallDepth = 256;

// The bytes a value holds (its elements, and its tuple elements').
int64_t LiteralBytes(const Literal& literal) {
  int64_t bytes = static_cast<int64_t>(literal.data().size());
  for (const Literal& element : literal.tuple_elements()) {
    bytes += LiteralBytes(element);
  }
  return bytes;
}

// The bytes a value of the instruction's declared shape takes (a dynamic
// shape at its bounds, as the evaluator holds it); 0 when unknown.
int64_t DeclaredBytes(const Instruction& instruction) {
  absl::StatusOr<int64_t> bytes = instruction.shape().ByteSize();
  return bytes.ok() ? *bytes : 0;
}

// True when a kernel's result may stand for `instruction`'s value: same
// shape, layouts aside. Dynamic dimensions are only bounds, so they are
// not compared.
bool ResultFits(const Shape& declared, const Shape& actual) {
  if (!declared.is_static()) return true;
  return declared.Compatible(actual);
}

bool HasSideEffectWithin(const Computation& computation,
                         absl::flat_hash_map<const Computation*, bool>& memo);

// Whether running `instruction` has an effect beyond its value: its own
// (op_traits.h: send, recv, infeed, outfeed, rng, channel collectives,
// custom-calls flagged so, ...) or one inside a computation it calls.
bool IsSideEffecting(const Instruction& instruction,
                     absl::flat_hash_map<const Computation*, bool>& memo) {
  if (HasOwnSideEffect(instruction)) return true;
  for (const Computation* callee : instruction.called_computations()) {
    if (HasSideEffectWithin(*callee, memo)) return true;
  }
  return false;
}

bool HasSideEffectWithin(const Computation& computation,
                         absl::flat_hash_map<const Computation*, bool>& memo) {
  // A (malformed) recursive call reads false while it is being decided.
  auto [it, inserted] = memo.try_emplace(&computation, false);
  if (!inserted) return it->second;
  bool effect = false;
  for (const Instruction* instruction : computation.instructions()) {
    if (IsSideEffecting(*instruction, memo)) {
      effect = true;
      break;
    }
  }
  memo[&computation] = effect;
  return effect;
}

// The instructions of `order` that must run: the ROOT, every side-effecting
// instruction, and the operands of these, transitively; parameters are
// always bound. Dead code is not evaluated: an unused value costs no time,
// and a dead while loop that would never end does not hang the run.
std::vector<bool> LiveInstructions(const Instruction* root,
                                   const std::vector<Instruction*>& order) {
  absl::flat_hash_map<const Instruction*, size_t> index;
  for (size_t i = 0; i < order.size(); ++i) index[order[i]] = i;
  absl::flat_hash_map<const Computation*, bool> memo;
  std::vector<bool> live(order.size(), false);
  std::vector<const Instruction*> work = {root};
  for (const Instruction* instruction : order) {
    if (instruction->opcode() == Opcode::kParameter ||
        IsSideEffecting(*instruction, memo)) {
      work.push_back(instruction);
    }
  }
  while (!work.empty()) {
    const Instruction* instruction = work.back();
    work.pop_back();
    auto found = index.find(instruction);
    // An operand outside the computation is reported by PlanFor.
    if (found == index.end() || live[found->second]) continue;
    live[found->second] = true;
    for (const Instruction* operand : instruction->operands()) {
      work.push_back(operand);
    }
  }
  return live;
}

}  // namespace

absl::Status KernelError(const Instruction& instruction,
                         absl::string_view message) {
  std::string where = instruction.location.ToString();
  if (!where.empty()) where += ": ";
  return absl::InvalidArgumentError(
      absl::StrCat(where, "error: ", instruction.name(), ": ", message));
}

EvalContext::EvalContext(const Module& module, const EvalOptions& options,
                         DeviceId device, CollectiveHub* hub)
    : module_(module), options_(options), device_(device), hub_(hub) {
  state_.generator.seed(options.rng_seed);
  state_.rng_state = options.rng_seed;
  // The devices run at once, so they share the memory budget.
  const int64_t devices = hub == nullptr ? 1 : hub->device_count();
  live_budget_ = std::max<int64_t>(1, options.max_live_bytes / devices);
}

absl::Status EvalContext::CheckLive(const Instruction& instruction,
                                    int64_t bytes,
                                    absl::string_view what) const {
  if (bytes <= live_budget_ - live_bytes_) return absl::OkStatus();
  const int64_t total =
      bytes > INT64_MAX - live_bytes_ ? INT64_MAX : live_bytes_ + bytes;
  return KernelError(
      instruction,
      absl::StrCat(what, " the values alive together would take ", total,
                   " bytes, over the evaluator's budget of ", live_budget_,
                   " bytes", hub_ == nullptr ? "" : " per device",
                   " (EvalOptions::max_live_bytes; kiln run "
                   "--max_live_bytes)"));
}

absl::StatusOr<Shape> EvalContext::RuleShape(const Instruction& instruction) {
  auto it = rule_shapes_.find(&instruction);
  if (it != rule_shapes_.end()) return it->second;
  absl::StatusOr<Shape> inferred = InferShape(instruction, ShapeForm::kClient);
  if (!inferred.ok()) {
    // The rule's message starts with the instruction's name, which
    // KernelError adds again.
    absl::string_view message = inferred.status().message();
    absl::ConsumePrefix(&message, absl::StrCat(instruction.name(), ": "));
    return KernelError(instruction, message);
  }
  rule_shapes_.emplace(&instruction, *inferred);
  return inferred;
}

absl::StatusOr<Literal> EvalContext::NewLiteral(const Instruction& instruction,
                                                const Shape& shape) {
  // A bounded dynamic shape is held at its bounds (docs/evaluator_dynamic.md);
  // the kernel sets the sizes.
  if (!shape.is_static()) {
    absl::StatusOr<Shape> bounded = BoundedShape(instruction, shape);
    if (!bounded.ok()) return bounded.status();
    return NewLiteral(instruction, *bounded);
  }
  // Checked before allocating: a value over the budget is refused rather
  // than left to exhaust memory (std::bad_alloc).
  if (absl::StatusOr<int64_t> bytes = shape.ByteSize(); bytes.ok()) {
    absl::Status live = CheckLive(instruction, *bytes, "with this value,");
    if (!live.ok()) return live;
  }
  absl::StatusOr<Literal> literal =
      Literal::Create(shape, options_.max_literal_bytes);
  if (!literal.ok()) {
    return KernelError(
        instruction,
        absl::StrCat("cannot allocate a value of shape ", shape.ToString(false),
                     ": ", literal.status().message()));
  }
  return literal;
}

absl::StatusOr<EvalContext::Plan*> EvalContext::PlanFor(
    const Computation& computation) {
  auto it = plans_.find(&computation);
  if (it != plans_.end()) return it->second.get();
  if (computation.root() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("computation ", computation.name(), " has no ROOT"));
  }
  absl::StatusOr<std::vector<Instruction*>> order = computation.PostOrder();
  if (!order.ok()) return order.status();
  auto plan = std::make_unique<Plan>();
  absl::flat_hash_map<const Instruction*, int32_t> slot_of;
  const std::vector<bool> live = LiveInstructions(computation.root(), *order);
  for (size_t i = 0; i < order->size(); ++i) {
    if (!live[i]) continue;
    const Instruction* instruction = (*order)[i];
    slot_of[instruction] = static_cast<int32_t>(plan->order.size());
    plan->order.push_back(instruction);
  }
  plan->uses.assign(plan->order.size(), 0);
  for (const Instruction* instruction : plan->order) {
    std::vector<int32_t> slots;
    for (const Instruction* operand : instruction->operands()) {
      auto found = slot_of.find(operand);
      if (found == slot_of.end()) {
        return KernelError(
            *instruction,
            absl::StrCat("operand ", operand->name(), " is not in computation ",
                         computation.name()));
      }
      slots.push_back(found->second);
      ++plan->uses[found->second];
    }
    plan->operand_slots.push_back(std::move(slots));
    plan->kernels.push_back(Kernels().Find(instruction->opcode()));
  }
  auto root = slot_of.find(computation.root());
  if (root == slot_of.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "computation ", computation.name(), ": ROOT is not in its order"));
  }
  plan->root_slot = root->second;
  EstimatePeak(*plan);
  Plan* raw = plan.get();
  plans_.emplace(&computation, std::move(plan));
  return raw;
}

// Replays RunFrame's bookkeeping on the declared shapes: a value is held
// from its instruction until its last use (until the end for the ROOT;
// not at all when unused), parameters are the caller's.
void EvalContext::EstimatePeak(Plan& plan) {
  const size_t count = plan.order.size();
  std::vector<int64_t> bytes(count, 0);
  std::vector<int32_t> uses_left = plan.uses;
  int64_t live = 0;
  for (size_t i = 0; i < count; ++i) {
    const Instruction& instruction = *plan.order[i];
    if (instruction.opcode() != Opcode::kParameter) {
      bytes[i] = DeclaredBytes(instruction);
    }
    live = bytes[i] > INT64_MAX - live ? INT64_MAX : live + bytes[i];
    if (live > plan.peak_bytes) {
      plan.peak_bytes = live;
      plan.peak_slot = static_cast<int32_t>(i);
    }
    for (int32_t slot : plan.operand_slots[i]) {
      if (--uses_left[slot] == 0 && slot != plan.root_slot) {
        live -= bytes[slot];
      }
    }
    if (plan.uses[i] == 0 && static_cast<int32_t>(i) != plan.root_slot) {
      live -= bytes[i];
    }
  }
}

void EvalContext::Free(Frame& frame, size_t i) {
  live_bytes_ -= frame.owned_bytes[i];
  frame.owned_bytes[i] = 0;
  frame.owned[i] = Literal();
  frame.values[i] = nullptr;
}

absl::StatusOr<Literal> EvalContext::Call(
    const Computation& computation,
    absl::Span<const Literal* const> arguments) {
  if (call_depth_ >= kMaxCallDepth) {
    return absl::ResourceExhaustedError(
        absl::StrCat("computation ", computation.name(),
                     ": calls nested deeper than ", kMaxCallDepth));
  }
  if (arguments.size() != computation.parameters().size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("computation ", computation.name(), " takes ",
                     computation.parameters().size(), " arguments but got ",
                     arguments.size()));
  }
  absl::StatusOr<Plan*> plan = PlanFor(computation);
  if (!plan.ok()) return plan.status();
  // Refused before running when the declared shapes already say so.
  if (absl::Status live =
          CheckLive(*(*plan)->order[(*plan)->peak_slot], (*plan)->peak_bytes,
                    "estimated before running, here");
      !live.ok()) {
    return live;
  }
  ++call_depth_;
  absl::StatusOr<Literal> result = RunPlan(**plan, arguments);
  --call_depth_;
  return result;
}

absl::Status EvalContext::BindParameter(
    const Instruction& parameter, absl::Span<const Literal* const> arguments,
    const Literal** value) {
  const int64_t number = parameter.parameter_number();
  if (number < 0 || number >= static_cast<int64_t>(arguments.size())) {
    return KernelError(parameter, "parameter number out of range");
  }
  const Literal* argument = arguments[number];
  if (!argument->shape().Compatible(parameter.shape()) &&
      parameter.shape().is_static()) {
    return KernelError(
        parameter,
        absl::StrCat("argument of shape ", argument->shape().ToString(false),
                     " does not match the parameter's shape ",
                     parameter.shape().ToString(false)));
  }
  *value = argument;
  return absl::OkStatus();
}

absl::StatusOr<Literal> EvalContext::RunPlan(
    Plan& plan, absl::Span<const Literal* const> arguments) {
  // Take a spare frame (a run of the same plan nested inside this one, if
  // any, takes another) and give it back afterwards, emptied.
  std::unique_ptr<Frame> frame;
  if (plan.spare_frames.empty()) {
    frame = std::make_unique<Frame>();
    frame->values.resize(plan.order.size());
    frame->owned.resize(plan.order.size());
    frame->owned_bytes.resize(plan.order.size());
  } else {
    frame = std::move(plan.spare_frames.back());
    plan.spare_frames.pop_back();
  }
  absl::StatusOr<Literal> result = RunFrame(plan, *frame, arguments);
  for (size_t i = 0; i < frame->owned.size(); ++i) {
    if (frame->values[i] == &frame->owned[i]) Free(*frame, i);
    frame->values[i] = nullptr;
  }
  plan.spare_frames.push_back(std::move(frame));
  return result;
}

absl::StatusOr<Literal> EvalContext::RunFrame(
    const Plan& plan, Frame& frame,
    absl::Span<const Literal* const> arguments) {
  const size_t count = plan.order.size();
  // values[i] is slot i's value: an argument, or owned[i]. Sized once per
  // frame, so the pointers into `owned` stay valid.
  std::vector<const Literal*>& values = frame.values;
  std::vector<Literal>& owned = frame.owned;
  frame.uses_left.assign(plan.uses.begin(), plan.uses.end());
  std::vector<int32_t>& uses_left = frame.uses_left;
  std::vector<const Literal*>& operands = frame.operands;
  for (size_t i = 0; i < count; ++i) {
    const Instruction& instruction = *plan.order[i];
    if (instruction.opcode() == Opcode::kParameter) {
      if (absl::Status s = BindParameter(instruction, arguments, &values[i]);
          !s.ok()) {
        return s;
      }
      continue;
    }
    if (++steps_ > options_.max_steps) {
      return KernelError(
          instruction,
          absl::StrCat("the run did not finish within ", options_.max_steps,
                       " steps (EvalOptions::max_steps; kiln run "
                       "--max_steps)"));
    }
    operands.clear();
    for (int32_t slot : plan.operand_slots[i]) operands.push_back(values[slot]);
    const Kernel kernel = plan.kernels[i];
    if (kernel == nullptr) {
      return absl::UnimplementedError(absl::StrCat(
          instruction.location.ToString(),
          instruction.location.line > 0 ? ": " : "",
          "error: ", instruction.name(), ": the evaluator has no kernel for ",
          OpcodeName(instruction.opcode())));
    }
    absl::StatusOr<Literal> value = kernel(instruction, operands, *this);
    if (!value.ok()) return value.status();
    if (!ResultFits(instruction.shape(), value->shape())) {
      return absl::InternalError(absl::StrCat(
          instruction.name(), ": the ", OpcodeName(instruction.opcode()),
          " kernel returned ", value->shape().ToString(false), " for ",
          instruction.shape().ToString(false)));
    }
    const int64_t bytes = LiteralBytes(*value);
    if (absl::Status live = CheckLive(instruction, bytes, "with its value,");
        !live.ok()) {
      return live;
    }
    live_bytes_ += bytes;
    frame.owned_bytes[i] = bytes;
    owned[i] = *std::move(value);
    values[i] = &owned[i];
    // Free each operand's value after its last use (the ROOT's is kept),
    // and a value nothing reads at once.
    for (int32_t slot : plan.operand_slots[i]) {
      if (--uses_left[slot] == 0 && slot != plan.root_slot &&
          values[slot] == &owned[slot]) {
        Free(frame, slot);
      }
    }
    if (plan.uses[i] == 0 && static_cast<int32_t>(i) != plan.root_slot) {
      Free(frame, i);
    }
  }
  if (values[plan.root_slot] == &owned[plan.root_slot]) {
    // The caller holds (and counts) the result from here on.
    live_bytes_ -= frame.owned_bytes[plan.root_slot];
    frame.owned_bytes[plan.root_slot] = 0;
    return std::move(owned[plan.root_slot]);
  }
  return *values[plan.root_slot];
}

}  // namespace eval

absl::StatusOr<Literal> Evaluate(const Module& module,
                                 absl::Span<const Literal> arguments,
                                 const EvalOptions& options) {
  if (module.entry() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("module ", module.name(), " has no entry computation"));
  }
  if (absl::Status valid = CheckEvalOptions(options); !valid.ok()) {
    return valid;
  }
  std::vector<const Literal*> pointers;
  pointers.reserve(arguments.size());
  for (const Literal& argument : arguments) pointers.push_back(&argument);
  eval::EvalContext context(module, options);
  return context.Call(*module.entry(), pointers);
}

}  // namespace kiln
