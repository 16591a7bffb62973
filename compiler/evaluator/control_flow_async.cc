// async-start, async-update, async-done (async_ops.md). The async value is
// the tuple ((bound operands...), output, context...) the shape declares.
//
// The wrapped computation runs once, at the first step of the chain where
// every operand is bound and the output slot is bound (async-start in the
// common case), or at async-done when the output is bound only there. Its
// result fills the output slot (wrapped in a 1-tuple when the slot is one).
// Until then a bound output slot holds zeros; an unbound one is (). The
// context elements are the implementation's state: zeros at the start,
// carried through the updates.
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/control_flow_internal.h"
#include "compiler/evaluator/reduction_util.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

bool IsEmptyTuple(const Shape& shape) {
  return shape.IsTuple() && shape.tuple_size() == 0;
}

// calls= of this instruction, or of the async-start found by following
// operand 0 back through async-updates (bounded against cycles).
absl::StatusOr<const Computation*> AsyncComputation(
    const Instruction& instruction) {
  const Instruction* current = &instruction;
  for (int step = 0; step < (1 << 20); ++step) {
    Computation* const* calls =
        current->attrs().Get<Computation*>(attr::kCalls);
    if (calls != nullptr && *calls != nullptr && (*calls)->root() != nullptr) {
      return *calls;
    }
    if (current->opcode() == Opcode::kAsyncStart ||
        current->operand_count() == 0) {
      break;
    }
    current = current->operand(0);
  }
  return KernelError(instruction, "the async chain has no computation calls=");
}

// Where the previous step of the chain stands.
struct AsyncState {
  std::vector<Literal> bound;
  Literal output;
  std::vector<Literal> context;
  bool has_output = false;  // The output slot is bound (not ()).
};

absl::StatusOr<AsyncState> PreviousState(const Instruction& instruction,
                                         const Literal& previous) {
  const std::vector<Literal>& parts = previous.tuple_elements();
  if (!previous.shape().IsTuple() || parts.size() < 2 ||
      !parts[0].shape().IsTuple()) {
    return KernelError(instruction,
                       "operand 0 is not an async value ((operands), output, "
                       "context...)");
  }
  AsyncState state;
  state.bound = parts[0].tuple_elements();
  state.output = parts[1];
  state.has_output = !IsEmptyTuple(parts[1].shape());
  state.context.assign(parts.begin() + 2, parts.end());
  return state;
}

// The computation's result `value` placed into an output slot of `slot`.
absl::StatusOr<Literal> FitOutput(const Instruction& instruction, Literal value,
                                  const Shape& slot) {
  if (value.shape().Compatible(slot)) return value;
  if (slot.IsTuple() && slot.tuple_size() == 1 &&
      value.shape().Compatible(slot.tuple_shape(0))) {
    std::vector<Literal> wrapped;
    wrapped.push_back(std::move(value));
    return Literal::Tuple(std::move(wrapped));
  }
  return KernelError(
      instruction,
      absl::StrCat("the computation returned ", value.shape().ToString(false),
                   ", which does not fit the output ", slot.ToString(false)));
}

absl::StatusOr<Literal> RunAsync(const Instruction& instruction,
                                 const Computation& computation,
                                 const std::vector<Literal>& bound,
                                 EvalContext& context) {
  std::vector<const Literal*> arguments;
  for (const Literal& value : bound) arguments.push_back(&value);
  return context.Call(computation, arguments);
}

// This step's value: `state` with operands bound so far, the output slot of
// `declared` (the step's inferred shape) and the computation run if this
// is the step where it becomes ready. `was_ready` says whether an earlier
// step ran it.
absl::StatusOr<Literal> NextValue(const Instruction& instruction,
                                  const Computation& computation,
                                  const Shape& declared, AsyncState state,
                                  bool was_ready, EvalContext& context) {
  const Shape& slot = declared.tuple_shape(1);
  const bool all_bound = state.bound.size() == computation.parameters().size();
  const bool ready = all_bound && !IsEmptyTuple(slot);
  Literal output;
  if (was_ready) {
    output = std::move(state.output);
  } else if (ready) {
    absl::StatusOr<Literal> result =
        RunAsync(instruction, computation, state.bound, context);
    if (!result.ok()) return result.status();
    absl::StatusOr<Literal> fitted =
        FitOutput(instruction, *std::move(result), slot);
    if (!fitted.ok()) return fitted.status();
    output = *std::move(fitted);
  } else {
    absl::StatusOr<Literal> placeholder = context.NewLiteral(instruction, slot);
    if (!placeholder.ok()) return placeholder.status();
    output = *std::move(placeholder);
  }
  std::vector<Literal> parts;
  parts.push_back(Literal::Tuple(std::move(state.bound)));
  parts.push_back(std::move(output));
  for (Literal& value : state.context) parts.push_back(std::move(value));
  return Literal::Tuple(std::move(parts));
}

}  // namespace

absl::StatusOr<Literal> AsyncStartKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::StatusOr<const Computation*> computation =
      AsyncComputation(instruction);
  if (!computation.ok()) return computation.status();
  AsyncState state;
  for (const Literal* operand : operands) state.bound.push_back(*operand);
  for (int64_t i = 2; i < rule->tuple_size(); ++i) {
    absl::StatusOr<Literal> zeros =
        context.NewLiteral(instruction, rule->tuple_shape(i));
    if (!zeros.ok()) return zeros.status();
    state.context.push_back(*std::move(zeros));
  }
  return NextValue(instruction, **computation, *rule, std::move(state),
                   /*was_ready=*/false, context);
}

absl::StatusOr<Literal> AsyncUpdateKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::StatusOr<const Computation*> computation =
      AsyncComputation(instruction);
  if (!computation.ok()) return computation.status();
  absl::StatusOr<AsyncState> state = PreviousState(instruction, *operands[0]);
  if (!state.ok()) return state.status();
  const size_t params = (*computation)->parameters().size();
  const bool was_ready = state->bound.size() == params && state->has_output;
  // Operands past the parameters are late-bound output buffers: the value
  // the output slot gets is the computation's result, so they bind nothing.
  for (size_t i = 1; i < operands.size() && state->bound.size() < params; ++i) {
    state->bound.push_back(*operands[i]);
  }
  return NextValue(instruction, **computation, *rule, *std::move(state),
                   was_ready, context);
}

absl::StatusOr<Literal> AsyncDoneKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  absl::StatusOr<Shape> rule = context.RuleShape(instruction);
  if (!rule.ok()) return rule.status();
  absl::StatusOr<const Computation*> computation =
      AsyncComputation(instruction);
  if (!computation.ok()) return computation.status();
  absl::StatusOr<AsyncState> state = PreviousState(instruction, *operands[0]);
  if (!state.ok()) return state.status();
  if (state->bound.size() != (*computation)->parameters().size()) {
    return KernelError(instruction, "not every operand is bound at async-done");
  }
  if (state->has_output) return std::move(state->output);
  absl::StatusOr<Literal> result =
      RunAsync(instruction, **computation, state->bound, context);
  if (!result.ok()) return result.status();
  return FitOutput(instruction, *std::move(result), *rule);
}

}  // namespace eval
}  // namespace kiln
