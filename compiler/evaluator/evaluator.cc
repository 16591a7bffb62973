// The evaluator's driver: walks a computation in dependence order, hands
// each instruction's operand values to its family's kernel, and frees each
// value after its last use.
#include "compiler/evaluator/evaluator.h"

#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_map.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/kernel.h"

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

namespace eval {
namespace {

// Deeper nesting of calls than this is refused (stack safety); verified
// modules have no recursion, so only absurd inputs reach it.
constexpr int kMaxCallDepth = 256;

// The values of one computation's instructions while it runs.
class Frame {
 public:
  void SetBorrowed(const Instruction* instruction, const Literal* value) {
    values_[instruction] = value;
  }
  void SetOwned(const Instruction* instruction, Literal value) {
    Literal& slot = owned_[instruction];
    slot = std::move(value);
    values_[instruction] = &slot;
  }
  const Literal* Get(const Instruction* instruction) const {
    auto it = values_.find(instruction);
    return it == values_.end() ? nullptr : it->second;
  }
  // The value of `instruction`, moved out when owned, copied otherwise.
  Literal Take(const Instruction* instruction) {
    auto it = owned_.find(instruction);
    if (it != owned_.end()) return std::move(it->second);
    return *Get(instruction);
  }
  void Release(const Instruction* instruction) {
    values_.erase(instruction);
    owned_.erase(instruction);
  }

 private:
  absl::flat_hash_map<const Instruction*, const Literal*> values_;
  // Node-based: pointers to values stay valid as the map grows.
  absl::node_hash_map<const Instruction*, Literal> owned_;
};

// True when a kernel's result may stand for `instruction`'s value: same
// shape, layouts aside. Dynamic dimensions are only bounds, so they are
// not compared.
bool ResultFits(const Shape& declared, const Shape& actual) {
  if (!declared.is_static()) return true;
  return declared.Compatible(actual);
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
}

absl::StatusOr<Literal> EvalContext::NewLiteral(const Instruction& instruction,
                                                const Shape& shape) {
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
  absl::StatusOr<std::vector<Instruction*>> order = computation.PostOrder();
  if (!order.ok()) return order.status();
  if (computation.root() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("computation ", computation.name(), " has no ROOT"));
  }
  ++call_depth_;
  absl::StatusOr<Literal> result =
      RunInstructions(computation, *order, arguments);
  --call_depth_;
  return result;
}

absl::StatusOr<Literal> EvalContext::RunInstructions(
    const Computation& computation, absl::Span<Instruction* const> order,
    absl::Span<const Literal* const> arguments) {
  Frame frame;
  // Uses left per value, so each is freed after its last user runs.
  absl::flat_hash_map<const Instruction*, int64_t> uses_left;
  for (const Instruction* instruction : order) {
    for (const Instruction* operand : instruction->operands()) {
      ++uses_left[operand];
    }
  }
  const Instruction* root = computation.root();
  std::vector<const Literal*> operands;
  for (const Instruction* instruction : order) {
    if (instruction->opcode() == Opcode::kParameter) {
      const int64_t number = instruction->parameter_number();
      if (number < 0 || number >= static_cast<int64_t>(arguments.size())) {
        return KernelError(*instruction, "parameter number out of range");
      }
      const Literal* argument = arguments[number];
      if (!argument->shape().Compatible(instruction->shape()) &&
          instruction->shape().is_static()) {
        return KernelError(
            *instruction, absl::StrCat("argument of shape ",
                                       argument->shape().ToString(false),
                                       " does not match the parameter's shape ",
                                       instruction->shape().ToString(false)));
      }
      frame.SetBorrowed(instruction, argument);
      continue;
    }
    operands.clear();
    for (const Instruction* operand : instruction->operands()) {
      const Literal* value = frame.Get(operand);
      if (value == nullptr) {
        return KernelError(*instruction,
                           absl::StrCat("operand ", operand->name(),
                                        " has no value (not in this "
                                        "computation?)"));
      }
      operands.push_back(value);
    }
    const Kernel kernel = Kernels().Find(instruction->opcode());
    if (kernel == nullptr) {
      return absl::UnimplementedError(absl::StrCat(
          instruction->location.ToString(),
          instruction->location.line > 0 ? ": " : "",
          "error: ", instruction->name(), ": the evaluator has no kernel for ",
          OpcodeName(instruction->opcode())));
    }
    absl::StatusOr<Literal> value = kernel(*instruction, operands, *this);
    if (!value.ok()) return value.status();
    if (!ResultFits(instruction->shape(), value->shape())) {
      return absl::InternalError(absl::StrCat(
          instruction->name(), ": the ", OpcodeName(instruction->opcode()),
          " kernel returned ", value->shape().ToString(false), " for ",
          instruction->shape().ToString(false)));
    }
    frame.SetOwned(instruction, *std::move(value));
    for (const Instruction* operand : instruction->operands()) {
      if (--uses_left[operand] == 0 && operand != root) frame.Release(operand);
    }
  }
  return frame.Take(root);
}

}  // namespace eval

absl::StatusOr<Literal> Evaluate(const Module& module,
                                 absl::Span<const Literal> arguments,
                                 const EvalOptions& options) {
  if (module.entry() == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("module ", module.name(), " has no entry computation"));
  }
  std::vector<const Literal*> pointers;
  pointers.reserve(arguments.size());
  for (const Literal& argument : arguments) pointers.push_back(&argument);
  eval::EvalContext context(module, options);
  return context.Call(*module.entry(), pointers);
}

}  // namespace kiln
