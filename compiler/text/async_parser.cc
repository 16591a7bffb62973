// XLA's async syntax sugar and the implicit `calls` of async chains.
//
//   %s = ((f32[10]), f32[20], s32[]) custom-call-start(%p),
//   custom_call_target="foo" %d = f32[20] custom-call-done(%s)
//
// stands for an async-start whose wrapped computation holds one
// custom-call, and an async-done of the same chain. The parser builds the
// wrapped computation; the printer writes the explicit form
// (async-start(...), calls=%wrapped_custom_call), which XLA reads too.
// async-update/async-done without `calls` take the computation of the
// async-start their operand chain leads to, as XLA does.
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "compiler/ir/attr_names.h"
#include "compiler/text/parser_internal.h"

namespace kiln {
namespace text_internal {

std::optional<AsyncSugar> MatchAsyncSugar(absl::string_view opcode_name) {
  static constexpr std::pair<absl::string_view, Opcode> kSuffixes[] = {
      {"-start", Opcode::kAsyncStart},
      {"-update", Opcode::kAsyncUpdate},
      {"-done", Opcode::kAsyncDone},
  };
  for (const auto& [suffix, async_opcode] : kSuffixes) {
    if (!absl::EndsWith(opcode_name, suffix)) continue;
    std::optional<Opcode> wrapped = OpcodeFromName(
        opcode_name.substr(0, opcode_name.size() - suffix.size()));
    if (!wrapped.has_value()) return std::nullopt;
    return AsyncSugar{async_opcode, *wrapped};
  }
  return std::nullopt;
}

absl::StatusOr<std::unique_ptr<Instruction>>
HloTextParser::MakeWrappedInstruction(const Instruction& start,
                                      Opcode wrapped_opcode,
                                      size_t opcode_offset) {
  const Shape& shape = start.shape();
  if (!shape.IsTuple() || shape.tuple_size() < 2) {
    return ErrorAt(opcode_offset,
                   "an async start's shape must be a tuple "
                   "((operands...), result, ...)");
  }
  auto wrapped =
      std::make_unique<Instruction>(wrapped_opcode, shape.tuple_shape(1),
                                    absl::StrCat(start.name(), ".wrapped"));
  wrapped->location = start.location;
  return wrapped;
}

absl::Status HloTextParser::AddWrappedComputation(
    Instruction* start, std::unique_ptr<Instruction> wrapped) {
  std::string name = absl::StrCat(
      "wrapped_",
      absl::StrReplaceAll(OpcodeName(wrapped->opcode()), {{"-", "_"}}));
  auto computation = std::make_unique<Computation>(std::move(name));
  for (int64_t i = 0; i < start->operand_count(); ++i) {
    auto parameter = std::make_unique<Instruction>(
        Opcode::kParameter, start->operand(i)->shape(),
        absl::StrCat(wrapped->name(), ".param_", i));
    parameter->set_parameter_number(i);
    parameter->location = start->location;
    wrapped->AppendOperand(computation->AddInstruction(std::move(parameter)));
  }
  Instruction* root = computation->AddInstruction(std::move(wrapped));
  computation->set_root(root);
  if (const std::string* thread =
          start->attrs().Get<std::string>(attr::kAsyncExecutionThread)) {
    computation->set_execution_thread(*thread);
  }
  Computation* added = module_->AddComputation(std::move(computation));
  start->mutable_attrs()->Set(attr::kCalls, added);
  return absl::OkStatus();
}

void HloTextParser::InferAsyncCalls(Instruction* instruction) {
  if (instruction->attrs().Has(attr::kCalls) ||
      instruction->operand_count() < 1) {
    return;
  }
  const Instruction* previous = instruction->operand(0);
  if (previous->opcode() != Opcode::kAsyncStart &&
      previous->opcode() != Opcode::kAsyncUpdate) {
    return;
  }
  const AttrValue* calls = previous->attrs().Find(attr::kCalls);
  if (calls == nullptr) return;
  instruction->mutable_attrs()->Set(attr::kCalls, *calls);
  // A forward reference not yet resolved: share the pending names.
  auto it = pending_calls_.find(previous);
  if (it != pending_calls_.end()) {
    PendingComputationAttr copy = pending_[it->second];
    copy.instruction = instruction;
    pending_calls_[instruction] = pending_.size();
    pending_.push_back(std::move(copy));
  }
}

}  // namespace text_internal
}  // namespace kiln
