// Async checks: every start is consumed by exactly one chain that reaches its
// done (async_ops.md: "each async-start and async-update instructions must
// have one user that is either another async-update or an async-done"), the
// steps of a chain share one wrapped computation, and that computation runs
// on the thread the async-start names. The dedicated pairs (copy-start/done,
// all-reduce-start/done, ..., send/send-done) follow the same shape of rule,
// as in XLA's verifier.
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/op_traits.h"
#include "compiler/ir/opcode.h"
#include "compiler/util/int_lists.h"
#include "compiler/verifier/verifier_internal.h"

namespace kiln::verifier_internal {
namespace {

constexpr absl::string_view kOperandRule = "async.operand";
constexpr absl::string_view kUsersRule = "async.users";
constexpr absl::string_view kComputationRule = "async.computation";
constexpr absl::string_view kThreadRule = "async.execution_thread";
// XLA's name for the thread of a computation that names none.
constexpr absl::string_view kMainThread = "main";

// The opcodes allowed for the one operand of a done-like op, or for the
// one user of a start-like op.
struct PairRule {
  Opcode opcode;
  std::vector<Opcode> operands;  // Empty: the operand is not constrained.
  std::vector<Opcode> users;     // Empty: the users are not constrained.
};

// One rule per asynchronous opcode, from its AsyncRole trait (op_traits.h):
// a start feeds its updates or its done, an update reads its start or an
// update and feeds an update or the done, a done reads its start or an
// update.
const std::vector<PairRule>& PairRules() {
  static const auto* const kRules = [] {
    auto* rules = new std::vector<PairRule>();
    for (Opcode opcode : AllOpcodes()) {
      const AsyncRole role = GetOpTraits(opcode).async_role;
      if (role == AsyncRole::kNone) continue;
      const Opcode start = AsyncStartOpcode(opcode);
      std::vector<Opcode> updates;
      for (Opcode update : AllOpcodes()) {
        const OpTraits& traits = GetOpTraits(update);
        if (traits.async_role == AsyncRole::kUpdate &&
            traits.async_partner == start) {
          updates.push_back(update);
        }
      }
      std::vector<Opcode> reads = {start};
      reads.insert(reads.end(), updates.begin(), updates.end());
      std::vector<Opcode> feeds = updates;
      feeds.push_back(AsyncDoneOpcode(opcode));
      PairRule rule{opcode, {}, {}};
      if (role != AsyncRole::kStart) rule.operands = reads;
      if (role != AsyncRole::kDone) rule.users = feeds;
      // A send or recv may also feed a tuple (pipelined loops carry the
      // in-flight transfer across iterations), and its done may then read
      // it back through a get-tuple-element.
      if (start == Opcode::kSend || start == Opcode::kRecv) {
        if (role == AsyncRole::kStart) rule.users.push_back(Opcode::kTuple);
        if (role == AsyncRole::kDone) {
          rule.operands.push_back(Opcode::kGetTupleElement);
        }
      }
      rules->push_back(std::move(rule));
    }
    return rules;
  }();
  return *kRules;
}

const PairRule* FindPairRule(Opcode opcode) {
  for (const PairRule& rule : PairRules()) {
    if (rule.opcode == opcode) return &rule;
  }
  return nullptr;
}

std::string OpcodeList(const std::vector<Opcode>& opcodes) {
  std::vector<std::string> names;
  for (Opcode opcode : opcodes) names.emplace_back(OpcodeName(opcode));
  return absl::StrJoin(names, " or ");
}

void CheckPairOperand(const Instruction& instruction, const PairRule& rule,
                      VerifyReport* report) {
  if (rule.operands.empty() || instruction.operand_count() == 0) return;
  const Instruction* operand = instruction.operand(0);
  if (operand == nullptr || util::Contains(rule.operands, operand->opcode()))
    return;
  report->errors.push_back(
      InstructionError(instruction,
                       absl::StrCat("operand 0 (", operand->name(), ") is ",
                                    OpcodeName(operand->opcode()),
                                    ", expected ", OpcodeList(rule.operands)),
                       kOperandRule));
}

// A send or recv that is the root of an async-wrapped computation is
// consumed by the async chain around it, not by a user of its own.
bool IsWrappedRoot(const Instruction& instruction,
                   const absl::flat_hash_set<const Computation*>& wrapped) {
  const Computation* parent = instruction.parent();
  return parent != nullptr && parent->root() == &instruction &&
         wrapped.contains(parent);
}

void CheckPairUsers(const Instruction& instruction, const PairRule& rule,
                    const absl::flat_hash_set<const Computation*>& wrapped,
                    VerifyReport* report) {
  if (rule.users.empty()) return;
  const bool is_transfer = instruction.opcode() == Opcode::kSend ||
                           instruction.opcode() == Opcode::kRecv;
  if (is_transfer && IsWrappedRoot(instruction, wrapped)) return;
  if (instruction.user_count() != 1) {
    std::vector<std::string> users;
    for (const Instruction* user : instruction.users()) {
      users.push_back(user->name());
    }
    report->errors.push_back(InstructionError(
        instruction,
        absl::StrCat("has ", instruction.user_count(), " users",
                     users.empty() ? "" : " (", absl::StrJoin(users, ", "),
                     users.empty() ? "" : ")", ", expected exactly one ",
                     OpcodeList(rule.users), " that continues the chain"),
        kUsersRule));
    return;
  }
  const Instruction* user = instruction.users().front();
  if (util::Contains(rule.users, user->opcode())) return;
  report->errors.push_back(
      InstructionError(instruction,
                       absl::StrCat("its user ", user->name(), " is ",
                                    OpcodeName(user->opcode()), ", expected ",
                                    OpcodeList(rule.users)),
                       kUsersRule));
}

const Computation* CalledComputation(const Instruction& instruction) {
  Computation* const* calls =
      instruction.attrs().Get<Computation*>(attr::kCalls);
  return calls == nullptr ? nullptr : *calls;
}

// async-update and async-done run the computation of the chain they end:
// calls= (which the parser copies from the start) must name the same one.
void CheckSameComputation(const Instruction& instruction,
                          VerifyReport* report) {
  if (instruction.operand_count() == 0) return;
  const Instruction* previous = instruction.operand(0);
  if (previous == nullptr || (previous->opcode() != Opcode::kAsyncStart &&
                              previous->opcode() != Opcode::kAsyncUpdate)) {
    return;  // async.operand reports it.
  }
  const Computation* mine = CalledComputation(instruction);
  const Computation* theirs = CalledComputation(*previous);
  if (mine == nullptr || theirs == nullptr || mine == theirs) return;
  report->errors.push_back(
      InstructionError(instruction,
                       absl::StrCat("calls ", mine->name(), " but its operand ",
                                    previous->name(), " calls ", theirs->name(),
                                    "; an async chain wraps one computation"),
                       kComputationRule));
}

// The wrapped computation runs on the thread the start names
// (async_execution_thread, "main" when absent). An async-update or
// async-done inherits the chain's thread; if it names one, it must agree.
void CheckExecutionThread(const Instruction& step, VerifyReport* report) {
  const Computation* wrapped = CalledComputation(step);
  if (wrapped == nullptr) return;
  const std::string* named =
      step.attrs().Get<std::string>(attr::kAsyncExecutionThread);
  if (named == nullptr && step.opcode() != Opcode::kAsyncStart) return;
  const std::string expected =
      named != nullptr ? *named : std::string(kMainThread);
  if (wrapped->execution_thread() == expected) return;
  report->errors.push_back(InstructionError(
      step,
      absl::StrCat("async_execution_thread is \"", expected,
                   "\" but the wrapped computation ", wrapped->name(),
                   " runs on \"", wrapped->execution_thread(), "\""),
      kThreadRule));
}

// async-start, -update and -done: the pair that wraps a computation.
bool IsAsyncChainOp(Opcode opcode) {
  return IsAsyncOpcode(opcode) &&
         AsyncStartOpcode(opcode) == Opcode::kAsyncStart;
}

// Computations other than async-wrapped ones run on their caller's thread.
void CheckCalleeThreads(const Instruction& caller, VerifyReport* report) {
  if (IsAsyncChainOp(caller.opcode()) || caller.parent() == nullptr) return;
  const std::string& thread = caller.parent()->execution_thread();
  for (const Computation* callee : caller.called_computations()) {
    if (callee == nullptr || callee->execution_thread() == thread) continue;
    report->errors.push_back(InstructionError(
        caller,
        absl::StrCat("calls ", callee->name(), ", which runs on \"",
                     callee->execution_thread(), "\", from computation ",
                     caller.parent()->name(), " on \"", thread,
                     "\"; only async ops change threads"),
        "thread.called_computation"));
  }
}

absl::flat_hash_set<const Computation*> AsyncWrappedComputations(
    const Module& module) {
  absl::flat_hash_set<const Computation*> wrapped;
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      if (instruction->opcode() != Opcode::kAsyncStart) continue;
      if (const Computation* called = CalledComputation(*instruction)) {
        wrapped.insert(called);
      }
    }
  }
  return wrapped;
}

}  // namespace

void CheckAsync(const Module& module, VerifyReport* report) {
  const absl::flat_hash_set<const Computation*> wrapped =
      AsyncWrappedComputations(module);
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      CheckCalleeThreads(*instruction, report);
      const PairRule* rule = FindPairRule(instruction->opcode());
      if (rule == nullptr) continue;
      CheckPairOperand(*instruction, *rule, report);
      CheckPairUsers(*instruction, *rule, wrapped, report);
      if (!IsAsyncChainOp(instruction->opcode())) continue;
      CheckExecutionThread(*instruction, report);
      if (instruction->opcode() != Opcode::kAsyncStart) {
        CheckSameComputation(*instruction, report);
      }
    }
  }
}

}  // namespace kiln::verifier_internal
