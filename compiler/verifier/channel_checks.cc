// Channel checks: a send/recv and its done name the same channel, the sends
// and recvs of one channel agree on what travels over it, and a channel is
// either a point-to-point (send/recv) channel or a collective one, never
// both. Several sends (or recvs) on one channel are allowed: pipelined
// loops issue one per stage, and XLA's verifier accepts them.
#include <cstdint>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/opcode.h"
#include "compiler/verifier/verifier_internal.h"

namespace kiln::verifier_internal {
namespace {

bool IsSendRecv(Opcode opcode) {
  return opcode == Opcode::kSend || opcode == Opcode::kRecv ||
         opcode == Opcode::kSendDone || opcode == Opcode::kRecvDone;
}

std::string ChannelText(const Instruction& instruction) {
  const int64_t* id = instruction.attrs().Get<int64_t>(attr::kChannelId);
  return id == nullptr ? "none" : absl::StrCat(*id);
}

bool IsHostTransfer(const Instruction& instruction) {
  const bool* host = instruction.attrs().Get<bool>(attr::kIsHostTransfer);
  return host != nullptr && *host;
}

// send-done and recv-done finish the transfer their operand started: same
// channel, same kind of transfer.
void CheckDoneMatchesStart(const Instruction& done, VerifyReport* report) {
  if (done.operand_count() != 1 || done.operand(0) == nullptr) return;
  const Instruction& start = *done.operand(0);
  if (start.opcode() != Opcode::kSend && start.opcode() != Opcode::kRecv) {
    return;  // Through a get-tuple-element: nothing to compare with.
  }
  if (ChannelText(done) != ChannelText(start)) {
    report->errors.push_back(InstructionError(
        done,
        absl::StrCat("channel_id is ", ChannelText(done), " but its operand ",
                     start.name(), " uses channel_id ", ChannelText(start)),
        "channel.done"));
  }
  if (IsHostTransfer(done) != IsHostTransfer(start)) {
    report->errors.push_back(InstructionError(
        done,
        absl::StrCat("is_host_transfer is ",
                     IsHostTransfer(done) ? "true" : "false",
                     " but its operand ", start.name(), " has ",
                     IsHostTransfer(start) ? "true" : "false"),
        "channel.done"));
  }
}

// The array (or tuple) a send carries or a recv receives.
const Shape* TransferData(const Instruction& instruction) {
  if (instruction.opcode() == Opcode::kSend) {
    if (instruction.operand_count() < 1) return nullptr;
    return &instruction.operand(0)->shape();
  }
  const Shape& shape = instruction.shape();
  if (!shape.IsTuple() || shape.tuple_size() < 1) return nullptr;
  return &shape.tuple_shape(0);
}

struct ChannelUse {
  const Instruction* first_transfer = nullptr;  // First send or recv.
  const Instruction* first_collective = nullptr;
};

// `transfer` against the first send/recv seen on its channel.
void CheckTransferAgrees(const Instruction& transfer, const Instruction& first,
                         VerifyReport* report) {
  constexpr absl::string_view kRule = "channel.send_recv";
  if (IsHostTransfer(transfer) != IsHostTransfer(first)) {
    report->errors.push_back(InstructionError(
        transfer,
        absl::StrCat("is_host_transfer differs from ", first.name(),
                     " on the same channel_id ", ChannelText(transfer)),
        kRule));
    return;
  }
  // A host channel is one-directional and each end is checked alone; a
  // device channel moves one buffer from the send to the recv.
  if (IsHostTransfer(transfer)) return;
  const Shape* mine = TransferData(transfer);
  const Shape* theirs = TransferData(first);
  if (mine == nullptr || theirs == nullptr || mine->Compatible(*theirs)) {
    return;
  }
  report->errors.push_back(InstructionError(
      transfer,
      absl::StrCat(OpcodeName(transfer.opcode()), " of ", mine->ToString(false),
                   " on channel_id ", ChannelText(transfer), " does not match ",
                   first.name(), " (", OpcodeName(first.opcode()), " of ",
                   theirs->ToString(false), ")"),
      kRule));
}

void CheckKindsAgree(const Instruction& instruction, const ChannelUse& use,
                     VerifyReport* report) {
  const Instruction* other = IsSendRecv(instruction.opcode())
                                 ? use.first_collective
                                 : use.first_transfer;
  if (other == nullptr) return;
  report->errors.push_back(InstructionError(
      instruction,
      absl::StrCat("channel_id ", ChannelText(instruction), " is also used by ",
                   other->name(), " (", OpcodeName(other->opcode()),
                   "); a channel is either send/recv or collective"),
      "channel.kind"));
}

}  // namespace

void CheckChannels(const Module& module, VerifyReport* report) {
  std::map<int64_t, ChannelUse> channels;
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      const Opcode opcode = instruction->opcode();
      if (opcode == Opcode::kSendDone || opcode == Opcode::kRecvDone) {
        CheckDoneMatchesStart(*instruction, report);
      }
      const int64_t* id = instruction->attrs().Get<int64_t>(attr::kChannelId);
      if (id == nullptr) continue;
      ChannelUse& use = channels[*id];
      CheckKindsAgree(*instruction, use, report);
      if (opcode == Opcode::kSend || opcode == Opcode::kRecv) {
        if (use.first_transfer == nullptr) {
          use.first_transfer = instruction;
        } else {
          CheckTransferAgrees(*instruction, *use.first_transfer, report);
        }
      } else if (!IsSendRecv(opcode) && use.first_collective == nullptr) {
        use.first_collective = instruction;
      }
    }
  }
}

}  // namespace kiln::verifier_internal
