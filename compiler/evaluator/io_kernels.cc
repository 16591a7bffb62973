// Kernels of the host I/O ops and custom-call:
//   infeed/outfeed      EvalOptions::infeed (a queue the caller fills) and
//                       EvalOptions::outfeed (a vector the caller drains)
//   send/recv (+ done)  EvalState::channels of the device, by channel_id:
//                       send appends, recv takes the oldest value; a recv
//                       with nothing sent is an error, never a wait. With
//                       _xla_send_recv_source_target_pairs under
//                       EvaluateReplicated: between devices (io_transfers.h)
//   custom-call         the callback registered for custom_call_target in
//                       EvalOptions::custom_calls (else the global
//                       registry)
// Under EvaluateReplicated the devices share the feeds and the callbacks,
// so those go through the hub's host mutex.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/collective_hub.h"
#include "compiler/evaluator/io_transfers.h"
#include "compiler/evaluator/kernel.h"
#include "compiler/evaluator/reduction_internal.h"
#include "compiler/ir/attr_names.h"

namespace kiln {
namespace eval {
namespace {

// Holds the hub's host mutex, when there is a hub, for its lifetime.
class HostLock {
 public:
  explicit HostLock(EvalContext& context) {
    if (context.collectives() != nullptr) {
      lock_ = std::unique_lock<std::mutex>(context.collectives()->host_mutex());
    }
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

absl::StatusOr<Literal> Token(const Instruction& instruction,
                              EvalContext& context) {
  return context.NewLiteral(instruction, Shape::Token());
}

// The declared data shape of infeed / recv: element 0 of the result tuple.
absl::StatusOr<Shape> DeclaredData(const Instruction& instruction) {
  const Shape& shape = instruction.shape();
  if (!shape.IsTuple() || shape.tuple_shapes().empty()) {
    return KernelError(instruction,
                       absl::StrCat("declared shape ", shape.ToString(false),
                                    " is not a (data, ..., token[]) tuple"));
  }
  return shape.tuple_shape(0);
}

absl::StatusOr<Literal> InfeedKernel(const Instruction& instruction,
                                     absl::Span<const Literal* const>,
                                     EvalContext& context) {
  absl::StatusOr<Shape> data_shape = DeclaredData(instruction);
  if (!data_shape.ok()) return data_shape.status();
  Literal data;
  // Spec (Infeed): "For an empty tuple shape, the Infeed operation is
  // effectively a no-op and proceeds without reading any data".
  if (data_shape->IsTuple() && data_shape->tuple_shapes().empty()) {
    data = Literal::Tuple({});
  } else {
    HostLock lock(context);
    std::deque<Literal>* queue = context.options().infeed;
    if (queue == nullptr || queue->empty()) {
      return KernelError(instruction,
                         "the infeed queue is empty (EvalOptions::infeed "
                         "has no value left to read)");
    }
    if (!queue->front().shape().Compatible(*data_shape)) {
      return KernelError(
          instruction,
          absl::StrCat("the next infeed value is ",
                       queue->front().shape().ToString(false),
                       ", but the infeed reads ", data_shape->ToString(false)));
    }
    data = std::move(queue->front());
    queue->pop_front();
  }
  absl::StatusOr<Literal> token = Token(instruction, context);
  if (!token.ok()) return token;
  return Literal::Tuple({std::move(data), *std::move(token)});
}

absl::StatusOr<Literal> OutfeedKernel(const Instruction& instruction,
                                      absl::Span<const Literal* const> operands,
                                      EvalContext& context) {
  {
    HostLock lock(context);
    if (context.options().outfeed != nullptr) {
      context.options().outfeed->push_back(*operands[0]);
    }
  }
  return Token(instruction, context);
}

absl::StatusOr<int64_t> ChannelOf(const Instruction& instruction) {
  const int64_t* channel = instruction.attrs().Get<int64_t>(attr::kChannelId);
  if (channel == nullptr) return KernelError(instruction, "needs channel_id=");
  return *channel;
}

// (data, u32[] context, token[]): the value send and recv produce.
absl::StatusOr<Literal> TransferContext(const Instruction& instruction,
                                        EvalContext& context, Literal data) {
  absl::StatusOr<Literal> word =
      context.NewLiteral(instruction, Shape::Scalar(ElementType::kU32));
  if (!word.ok()) return word;
  absl::StatusOr<Literal> token = Token(instruction, context);
  if (!token.ok()) return token;
  return Literal::Tuple({std::move(data), *std::move(word), *std::move(token)});
}

absl::StatusOr<Literal> SendKernel(const Instruction& instruction,
                                   absl::Span<const Literal* const> operands,
                                   EvalContext& context) {
  absl::StatusOr<int64_t> channel = ChannelOf(instruction);
  if (!channel.ok()) return channel.status();
  absl::StatusOr<std::optional<TransferPairs>> pairs =
      CrossDevicePairs(instruction, context);
  if (!pairs.ok()) return pairs.status();
  if (pairs->has_value()) {
    if (absl::Status s = SendToDevices(instruction, context, **pairs, *channel,
                                       *operands[0]);
        !s.ok()) {
      return s;
    }
  } else {
    context.state().channels[*channel].push_back(*operands[0]);
  }
  return TransferContext(instruction, context, *operands[0]);
}

absl::StatusOr<Literal> RecvKernel(const Instruction& instruction,
                                   absl::Span<const Literal* const>,
                                   EvalContext& context) {
  absl::StatusOr<int64_t> channel = ChannelOf(instruction);
  if (!channel.ok()) return channel.status();
  absl::StatusOr<Shape> data_shape = DeclaredData(instruction);
  if (!data_shape.ok()) return data_shape.status();
  absl::StatusOr<std::optional<TransferPairs>> pairs =
      CrossDevicePairs(instruction, context);
  if (!pairs.ok()) return pairs.status();
  if (pairs->has_value()) {
    // Between devices the data arrive at recv-done (the spec orders
    // Recv before Send before RecvDone, so recv must not wait).
    absl::StatusOr<Literal> placeholder =
        context.NewLiteral(instruction, *data_shape);
    if (!placeholder.ok()) return placeholder.status();
    return TransferContext(instruction, context, *std::move(placeholder));
  }
  auto it = context.state().channels.find(*channel);
  if (it == context.state().channels.end() || it->second.empty()) {
    return KernelError(instruction,
                       absl::StrCat("nothing was sent on channel ", *channel,
                                    " (a recv needs an earlier send on this "
                                    "device)"));
  }
  if (!it->second.front().shape().Compatible(*data_shape)) {
    return KernelError(
        instruction,
        absl::StrCat("channel ", *channel, " holds ",
                     it->second.front().shape().ToString(false),
                     ", but the recv reads ", data_shape->ToString(false)));
  }
  Literal data = std::move(it->second.front());
  it->second.pop_front();
  return TransferContext(instruction, context, std::move(data));
}

absl::StatusOr<Literal> SendDoneKernel(const Instruction& instruction,
                                       absl::Span<const Literal* const>,
                                       EvalContext& context) {
  return Token(instruction, context);
}

// (data, token) from recv's (data, context, token).
absl::StatusOr<Literal> RecvDoneKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  const std::vector<Literal>& elements = operands[0]->tuple_elements();
  if (elements.size() != 3) {
    return KernelError(
        instruction,
        absl::StrCat("operand is ", operands[0]->shape().ToString(false),
                     ", expected recv's (data, u32[], "
                     "token[])"));
  }
  absl::StatusOr<Literal> token = Token(instruction, context);
  if (!token.ok()) return token;
  // A recv between devices (io_transfers.h) is served here.
  const Instruction& recv = *instruction.operand(0);
  if (recv.opcode() == Opcode::kRecv) {
    absl::StatusOr<std::optional<TransferPairs>> pairs =
        CrossDevicePairs(recv, context);
    if (!pairs.ok()) return pairs.status();
    if (pairs->has_value()) {
      absl::StatusOr<int64_t> channel = ChannelOf(recv);
      if (!channel.ok()) return channel.status();
      absl::StatusOr<Literal> data = ReceiveFromDevice(
          recv, context, **pairs, *channel, elements[0].shape());
      if (!data.ok()) return data.status();
      return Literal::Tuple({*std::move(data), *std::move(token)});
    }
  }
  return Literal::Tuple({elements[0], *std::move(token)});
}

// backend_config as the callback sees it: a quoted string unquoted and
// unescaped, any other form ({...} JSON) verbatim, empty when absent.
std::string OpaqueText(const Instruction& instruction) {
  if (!instruction.backend_config.has_value()) return "";
  const std::string& text = instruction.backend_config->text;
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    std::string unescaped;
    if (absl::CUnescape(text.substr(1, text.size() - 2), &unescaped)) {
      return unescaped;
    }
  }
  return text;
}

// XLA's TopK custom call (what XLA's TopK rewriter and JAX's top_k leave
// in optimized modules): the top k of the operand's last dimension in the
// order of its comparator, k being the result's last dimension;
// (values, s32 indices) as the top-k op (docs/choices.md).
absl::StatusOr<Literal> XlaTopK(const Instruction& instruction,
                                absl::Span<const Literal* const> operands,
                                EvalContext& context) {
  const auto* called =
      instruction.attrs().Get<ComputationList>(attr::kCalledComputations);
  const Shape& shape = instruction.shape();
  if (operands.size() != 1 || !operands[0]->shape().IsArray() ||
      operands[0]->shape().rank() < 1 || called == nullptr ||
      called->size() != 1 || !shape.IsTuple() || shape.tuple_size() != 2 ||
      !shape.tuple_shape(0).IsArray() || shape.tuple_shape(0).rank() < 1) {
    return KernelError(instruction,
                       "custom-call target \"TopK\" takes one array and a "
                       "comparator (called_computations) and returns "
                       "(values, indices)");
  }
  const int64_t k = shape.tuple_shape(0).dimensions().back();
  absl::StatusOr<Literal> result = TopKOf(
      instruction, *operands[0], k, /*largest=*/true, (*called)[0], context);
  if (result.ok() && !result->shape().Compatible(shape)) {
    return KernelError(
        instruction,
        absl::StrCat("custom-call target \"TopK\": result ", shape.ToString(),
                     " is not (values, s32 "
                     "indices) of the top ",
                     k));
  }
  return result;
}

absl::StatusOr<Literal> CustomCallKernel(
    const Instruction& instruction, absl::Span<const Literal* const> operands,
    EvalContext& context) {
  const std::string* target =
      instruction.attrs().Get<std::string>(attr::kCustomCallTarget);
  if (target == nullptr) {
    return KernelError(instruction, "needs custom_call_target=");
  }
  const CustomCallRegistry& registry = context.options().custom_calls != nullptr
                                           ? *context.options().custom_calls
                                           : GlobalCustomCallRegistry();
  const CustomCallFn* callback = registry.Find(*target);
  if (callback == nullptr && *target == "Sharding" && operands.size() == 1 &&
      operands[0]->shape().Compatible(instruction.shape())) {
    // XLA's sharding annotation (jax.lax.with_sharding_constraint) is the
    // value itself: the SPMD partitioner consumes it, and a program run
    // whole has nothing to partition (docs/choices.md).
    return *operands[0];
  }
  if (callback == nullptr && *target == "TopK") {
    return XlaTopK(instruction, operands, context);
  }
  if (callback == nullptr) {
    return KernelError(
        instruction,
        absl::StrCat("custom-call target \"", *target,
                     "\" is not registered (register a callback with "
                     "CustomCallRegistry::Register)"));
  }
  absl::StatusOr<Literal> result;
  {
    HostLock lock(context);
    result =
        (*callback)(operands, instruction.shape(), OpaqueText(instruction));
  }
  if (!result.ok()) {
    return KernelError(instruction,
                       absl::StrCat("custom-call target \"", *target,
                                    "\" failed: ", result.status().message()));
  }
  if (instruction.shape().is_static() &&
      !result->shape().Compatible(instruction.shape())) {
    return KernelError(
        instruction,
        absl::StrCat("custom-call target \"", *target, "\" returned ",
                     result->shape().ToString(false), " for ",
                     instruction.shape().ToString(false)));
  }
  return result;
}

}  // namespace

void RegisterIoKernels(KernelTable* table) {
  table->Set(Opcode::kInfeed, &InfeedKernel);
  table->Set(Opcode::kOutfeed, &OutfeedKernel);
  table->Set(Opcode::kSend, &SendKernel);
  table->Set(Opcode::kSendDone, &SendDoneKernel);
  table->Set(Opcode::kRecv, &RecvKernel);
  table->Set(Opcode::kRecvDone, &RecvDoneKernel);
  table->Set(Opcode::kCustomCall, &CustomCallKernel);
}

}  // namespace eval
}  // namespace kiln
