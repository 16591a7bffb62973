// Host and device transfers: infeed, outfeed, send/recv and their -done
// forms. send's value is (data, context, token) and recv's (data,
// context, token) as in HLO; the -done forms take the token (and data).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/stablehlo/ops.h"
#include "compiler/stablehlo/types.h"

namespace kiln::stablehlo {
namespace {

std::string ConfigAttr(const Instruction& i, absl::string_view hlo_name,
                       absl::string_view mlir_name) {
  const std::string* config = i.attrs().Get<std::string>(hlo_name);
  return absl::StrCat(mlir_name, " = ", StringLiteral(config ? *config : ""));
}

absl::StatusOr<Value> EmitInfeed(FunctionEmitter& e, const Instruction& i) {
  return EmitSimple(e, i, "stablehlo.infeed",
                    ConfigAttr(i, attr::kInfeedConfig, "infeed_config"));
}

absl::StatusOr<Value> EmitOutfeed(FunctionEmitter& e, const Instruction& i) {
  return EmitSimple(e, i, "stablehlo.outfeed",
                    ConfigAttr(i, attr::kOutfeedConfig, "outfeed_config"));
}

std::string TransferAttrs(const Instruction& i, int64_t host_type) {
  const int64_t* channel = i.attrs().Get<int64_t>(attr::kChannelId);
  const bool* host = i.attrs().Get<bool>(attr::kIsHostTransfer);
  bool is_host = host != nullptr && *host;
  return absl::StrCat(
      "channel_handle = ",
      ChannelHandle(channel ? *channel : 0, is_host ? host_type : 1),
      ", is_host_transfer = ", is_host ? "true" : "false");
}

absl::StatusOr<Value> EmitSend(FunctionEmitter& e, const Instruction& i) {
  const Shape& shape = i.shape();
  if (!shape.IsTuple() || shape.tuple_size() != 3) {
    return NoForm("send of an unexpected shape");
  }
  absl::StatusOr<std::vector<Value>> operands = e.OperandLeaves(i);
  if (!operands.ok()) return operands.status();
  Op op{"stablehlo.send",
        *std::move(operands),
        TransferAttrs(i, 2),
        {},
        {Shape::Token()}};
  absl::StatusOr<std::vector<Value>> token = e.Emit(op, i.name());
  if (!token.ok()) return token.status();
  absl::StatusOr<Value> context = EmitZero(e, shape.tuple_shape(1));
  if (!context.ok()) return context.status();
  return KnownTuple({e.Operand(i, 0), *std::move(context), (*token)[0]});
}

absl::StatusOr<Value> EmitSendDone(FunctionEmitter& e, const Instruction& i) {
  return Element(e, e.Operand(i, 0), 2);
}

absl::StatusOr<Value> EmitRecv(FunctionEmitter& e, const Instruction& i) {
  const Shape& shape = i.shape();
  if (!shape.IsTuple() || shape.tuple_size() != 3) {
    return NoForm("recv of an unexpected shape");
  }
  std::vector<Shape> results = LeafShapes(shape.tuple_shape(0));
  results.push_back(Shape::Token());
  Op op{"stablehlo.recv", {e.Operand(i, 0)}, TransferAttrs(i, 3), {}, results};
  Shape data_and_token = Shape::Tuple({shape.tuple_shape(0), Shape::Token()});
  absl::StatusOr<Value> got = e.EmitAs(op, data_and_token, i.name());
  if (!got.ok()) return got.status();
  absl::StatusOr<Value> context = EmitZero(e, shape.tuple_shape(1));
  if (!context.ok()) return context.status();
  return KnownTuple({got->elements[0], *std::move(context), got->elements[1]});
}

absl::StatusOr<Value> EmitRecvDone(FunctionEmitter& e, const Instruction& i) {
  absl::StatusOr<Value> data = Element(e, e.Operand(i, 0), 0);
  if (!data.ok()) return data.status();
  absl::StatusOr<Value> token = Element(e, e.Operand(i, 0), 2);
  if (!token.ok()) return token.status();
  return KnownTuple({*std::move(data), *std::move(token)});
}

}  // namespace

void AddIoHandlers(HandlerTable* table) {
  (*table)[Opcode::kInfeed] = &EmitInfeed;
  (*table)[Opcode::kOutfeed] = &EmitOutfeed;
  (*table)[Opcode::kSend] = &EmitSend;
  (*table)[Opcode::kSendDone] = &EmitSendDone;
  (*table)[Opcode::kRecv] = &EmitRecv;
  (*table)[Opcode::kRecvDone] = &EmitRecvDone;
}

}  // namespace kiln::stablehlo
