#include "compiler/builder/random_io.h"

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/instruction.h"

namespace kiln {
namespace {

// The builder of `operands` after checking them, or null (error recorded,
// or no builder to record it in).
XlaBuilder* CheckedBuilder(absl::Span<const XlaOp> operands,
                           absl::string_view what) {
  XlaBuilder* builder = XlaBuilder::BuilderOf(operands);
  if (builder == nullptr) return nullptr;
  if (!builder->CheckOperands(operands, what).ok()) return nullptr;
  return builder;
}

XlaOp Rng(RandomDistribution distribution, XlaOp a, XlaOp b,
          const Shape& shape) {
  XlaBuilder* builder = CheckedBuilder({a, b}, "rng");
  if (builder == nullptr) return XlaOp();
  AttributeMap attrs;
  attrs.Set(attr::kDistribution, ToEnumValue(distribution));
  return builder->AddInstruction(Opcode::kRng, {a, b}, std::move(attrs), shape);
}

// after-all() with no operand: a token that orders after nothing, as
// XLA's CreateToken.
XlaOp FreshToken(XlaBuilder* builder) {
  return builder->AddInstruction(Opcode::kAfterAll, {}, {});
}

XlaOp TupleElement(XlaBuilder* builder, XlaOp tuple, int64_t index) {
  AttributeMap attrs;
  attrs.Set(attr::kIndex, index);
  return builder->AddInstruction(Opcode::kGetTupleElement, {tuple},
                                 std::move(attrs));
}

AttributeMap ChannelAttrs(const ChannelHandle& handle) {
  AttributeMap attrs;
  attrs.Set(attr::kChannelId, handle.handle);
  if (handle.type != ChannelHandle::Type::kDeviceToDevice) {
    attrs.Set(attr::kIsHostTransfer, true);
  }
  return attrs;
}

// An error when `handle` is not of type `expected`.
absl::Status CheckChannelType(absl::string_view what,
                              const ChannelHandle& handle,
                              ChannelHandle::Type expected,
                              absl::string_view expected_name,
                              absl::string_view section) {
  if (handle.type == expected) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(what, ": channel ", handle.handle, " must be a ",
                   expected_name, " channel (", section, ")"));
}

// send and its send-done; `declared` is the send's shape when the data's
// layout is fixed.
XlaOp SendAndDone(XlaBuilder* builder, XlaOp operand, XlaOp token,
                  const ChannelHandle& handle,
                  std::optional<Shape> declared = std::nullopt) {
  XlaOp send = builder->AddInstruction(Opcode::kSend, {operand, token},
                                       ChannelAttrs(handle), declared);
  return builder->AddInstruction(Opcode::kSendDone, {send},
                                 ChannelAttrs(handle));
}

XlaOp RecvAndDone(XlaBuilder* builder, XlaOp token, const Shape& shape,
                  const ChannelHandle& handle) {
  XlaOp recv = builder->AddInstruction(
      Opcode::kRecv, {token}, ChannelAttrs(handle),
      Shape::Tuple({shape, Shape::Scalar(ElementType::kU32), Shape::Token()}));
  return builder->AddInstruction(Opcode::kRecvDone, {recv},
                                 ChannelAttrs(handle));
}

EnumValue ScheduleSpelling(CustomCallSchedule schedule) {
  switch (schedule) {
    case CustomCallSchedule::kLatest:
      return EnumValue{"SCHEDULE_LATEST"};
    case CustomCallSchedule::kEarliest:
      return EnumValue{"SCHEDULE_EARLIEST"};
    case CustomCallSchedule::kNone:
      break;
  }
  return EnumValue{"SCHEDULE_NONE"};
}

EnumValue ApiVersionSpelling(CustomCallApiVersion version) {
  switch (version) {
    case CustomCallApiVersion::kUnspecified:
      return EnumValue{"API_VERSION_UNSPECIFIED"};
    case CustomCallApiVersion::kStatusReturning:
      return EnumValue{"API_VERSION_STATUS_RETURNING"};
    case CustomCallApiVersion::kStatusReturningUnified:
      return EnumValue{"API_VERSION_STATUS_RETURNING_UNIFIED"};
    case CustomCallApiVersion::kTypedFfi:
      return EnumValue{"API_VERSION_TYPED_FFI"};
    case CustomCallApiVersion::kOriginal:
      break;
  }
  return EnumValue{"API_VERSION_ORIGINAL"};
}

// The custom-call attributes of `options` that differ from XLA's defaults
// (XLA prints only those).
AttributeMap CustomCallAttrs(absl::string_view target,
                             const CustomCallOptions& options) {
  AttributeMap attrs;
  attrs.Set(attr::kCustomCallTarget, std::string(target));
  if (options.has_side_effect) attrs.Set(attr::kCustomCallHasSideEffect, true);
  if (!options.output_operand_aliasing.empty()) {
    OutputOperandAliasing aliasing;
    for (const CustomCallAlias& alias : options.output_operand_aliasing) {
      aliasing.aliases.push_back(
          {alias.output_index, alias.operand, alias.operand_index});
    }
    attrs.Set(attr::kOutputToOperandAliasing, std::move(aliasing));
  }
  if (options.schedule != CustomCallSchedule::kNone) {
    attrs.Set(attr::kSchedule, ScheduleSpelling(options.schedule));
  }
  if (options.api_version != CustomCallApiVersion::kOriginal) {
    attrs.Set(attr::kApiVersion, ApiVersionSpelling(options.api_version));
  }
  return attrs;
}

// Adds the custom-call; `opaque` becomes its backend_config, which XLA
// prints as a quoted string after the op's own attributes.
XlaOp AddCustomCall(XlaBuilder* builder, absl::Span<const XlaOp> operands,
                    AttributeMap attrs, const Shape& shape,
                    absl::string_view opaque) {
  XlaOp call = builder->AddInstruction(Opcode::kCustomCall, operands,
                                       std::move(attrs), shape);
  if (call.valid() && !opaque.empty()) {
    absl::Status set = builder->SetBackendConfig(
        call, RawText{absl::StrCat("\"", absl::CEscape(opaque), "\"")});
    if (!set.ok()) return XlaOp();
  }
  return call;
}

}  // namespace

XlaOp RngUniform(XlaOp a, XlaOp b, const Shape& shape) {
  return Rng(RandomDistribution::kUniform, a, b, shape);
}

XlaOp RngNormal(XlaOp mu, XlaOp sigma, const Shape& shape) {
  return Rng(RandomDistribution::kNormal, mu, sigma, shape);
}

XlaOp RngBitGenerator(RandomAlgorithm algorithm, XlaOp initial_state,
                      const Shape& shape) {
  XlaBuilder* builder = CheckedBuilder({initial_state}, "rng-bit-generator");
  if (builder == nullptr) return XlaOp();
  const Shape state = *builder->GetShape(initial_state);
  AttributeMap attrs;
  attrs.Set(attr::kAlgorithm, ToEnumValue(algorithm));
  return builder->AddInstruction(Opcode::kRngBitGenerator, {initial_state},
                                 std::move(attrs),
                                 Shape::Tuple({state, shape}));
}

XlaOp RngGetAndUpdateState(XlaBuilder* builder, int64_t delta) {
  AttributeMap attrs;
  attrs.Set(attr::kDelta, delta);
  return builder->AddInstruction(Opcode::kRngGetAndUpdateState, {},
                                 std::move(attrs));
}

XlaOp Infeed(XlaBuilder* builder, const Shape& shape,
             absl::string_view config) {
  XlaOp infeed = InfeedWithToken(FreshToken(builder), shape, config);
  if (!infeed.valid()) return XlaOp();
  return TupleElement(builder, infeed, 0);
}

XlaOp InfeedWithToken(XlaOp token, const Shape& shape,
                      absl::string_view config) {
  XlaBuilder* builder = CheckedBuilder({token}, "infeed");
  if (builder == nullptr) return XlaOp();
  AttributeMap attrs;
  if (!config.empty()) attrs.Set(attr::kInfeedConfig, std::string(config));
  return builder->AddInstruction(Opcode::kInfeed, {token}, std::move(attrs),
                                 Shape::Tuple({shape, Shape::Token()}));
}

void Outfeed(XlaOp operand, const Shape& shape_with_layout,
             absl::string_view outfeed_config) {
  XlaBuilder* builder = CheckedBuilder({operand}, "outfeed");
  if (builder == nullptr) return;
  OutfeedWithToken(operand, FreshToken(builder), shape_with_layout,
                   outfeed_config);
}

XlaOp OutfeedWithToken(XlaOp operand, XlaOp token,
                       const Shape& shape_with_layout,
                       absl::string_view outfeed_config) {
  XlaBuilder* builder = CheckedBuilder({operand, token}, "outfeed");
  if (builder == nullptr) return XlaOp();
  AttributeMap attrs;
  Shape outfeed_shape = shape_with_layout;
  outfeed_shape.SetDefaultLayoutIfMissing();
  attrs.Set(attr::kOutfeedShape, std::move(outfeed_shape));
  if (!outfeed_config.empty()) {
    attrs.Set(attr::kOutfeedConfig, std::string(outfeed_config));
  }
  return builder->AddInstruction(Opcode::kOutfeed, {operand, token},
                                 std::move(attrs));
}

void Send(XlaOp operand, const ChannelHandle& handle) {
  XlaBuilder* builder = CheckedBuilder({operand}, "send");
  if (builder == nullptr) return;
  SendWithToken(operand, FreshToken(builder), handle);
}

XlaOp SendWithToken(XlaOp operand, XlaOp token, const ChannelHandle& handle) {
  XlaBuilder* builder = CheckedBuilder({operand, token}, "send");
  if (builder == nullptr) return XlaOp();
  absl::Status ok =
      CheckChannelType("send", handle, ChannelHandle::Type::kDeviceToDevice,
                       "device-to-device", "operation_semantics.md, Send");
  if (!ok.ok()) return builder->ReportError(ok);
  return SendAndDone(builder, operand, token, handle);
}

XlaOp Recv(XlaBuilder* builder, const Shape& shape,
           const ChannelHandle& handle) {
  XlaOp done = RecvWithToken(FreshToken(builder), shape, handle);
  if (!done.valid()) return XlaOp();
  return TupleElement(builder, done, 0);
}

XlaOp RecvWithToken(XlaOp token, const Shape& shape,
                    const ChannelHandle& handle) {
  XlaBuilder* builder = CheckedBuilder({token}, "recv");
  if (builder == nullptr) return XlaOp();
  absl::Status ok =
      CheckChannelType("recv", handle, ChannelHandle::Type::kDeviceToDevice,
                       "device-to-device", "operation_semantics.md, Recv");
  if (!ok.ok()) return builder->ReportError(ok);
  return RecvAndDone(builder, token, shape, handle);
}

XlaOp SendToHost(XlaOp operand, XlaOp token, const Shape& shape_with_layout,
                 const ChannelHandle& handle) {
  XlaBuilder* builder = CheckedBuilder({operand, token}, "send");
  if (builder == nullptr) return XlaOp();
  absl::Status ok =
      CheckChannelType("send", handle, ChannelHandle::Type::kDeviceToHost,
                       "device-to-host", "operation_semantics.md, Send");
  if (!ok.ok()) return builder->ReportError(ok);
  // The send's data keeps the requested layout; the send's rule checks
  // that it is the operand's shape.
  Shape data = shape_with_layout;
  data.SetDefaultLayoutIfMissing();
  return SendAndDone(
      builder, operand, token, handle,
      Shape::Tuple({data, Shape::Scalar(ElementType::kU32), Shape::Token()}));
}

XlaOp RecvFromHost(XlaOp token, const Shape& shape,
                   const ChannelHandle& handle) {
  XlaBuilder* builder = CheckedBuilder({token}, "recv");
  if (builder == nullptr) return XlaOp();
  absl::Status ok =
      CheckChannelType("recv", handle, ChannelHandle::Type::kHostToDevice,
                       "host-to-device", "operation_semantics.md, Recv");
  if (!ok.ok()) return builder->ReportError(ok);
  return RecvAndDone(builder, token, shape, handle);
}

XlaOp SendStart(XlaOp operand, XlaOp token, const ChannelHandle& handle) {
  XlaBuilder* builder = CheckedBuilder({operand, token}, "send");
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(Opcode::kSend, {operand, token},
                                 ChannelAttrs(handle));
}

XlaOp SendDone(XlaOp send, const ChannelHandle& handle) {
  XlaBuilder* builder = CheckedBuilder({send}, "send-done");
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(Opcode::kSendDone, {send},
                                 ChannelAttrs(handle));
}

XlaOp RecvStart(XlaOp token, const Shape& shape, const ChannelHandle& handle) {
  XlaBuilder* builder = CheckedBuilder({token}, "recv");
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(
      Opcode::kRecv, {token}, ChannelAttrs(handle),
      Shape::Tuple({shape, Shape::Scalar(ElementType::kU32), Shape::Token()}));
}

XlaOp RecvDone(XlaOp recv, const ChannelHandle& handle) {
  XlaBuilder* builder = CheckedBuilder({recv}, "recv-done");
  if (builder == nullptr) return XlaOp();
  return builder->AddInstruction(Opcode::kRecvDone, {recv},
                                 ChannelAttrs(handle));
}

XlaOp CustomCall(XlaBuilder* builder, absl::string_view call_target_name,
                 absl::Span<const XlaOp> operands, const Shape& shape,
                 absl::string_view opaque, bool has_side_effect,
                 absl::Span<const CustomCallAlias> output_operand_aliasing,
                 CustomCallSchedule schedule,
                 CustomCallApiVersion api_version) {
  CustomCallOptions options;
  options.has_side_effect = has_side_effect;
  options.output_operand_aliasing.assign(output_operand_aliasing.begin(),
                                         output_operand_aliasing.end());
  options.schedule = schedule;
  options.api_version = api_version;
  return AddCustomCall(builder, operands,
                       CustomCallAttrs(call_target_name, options), shape,
                       opaque);
}

XlaOp CustomCallWithComputation(XlaBuilder* builder,
                                absl::string_view call_target_name,
                                absl::Span<const XlaOp> operands,
                                const XlaComputation& computation,
                                const Shape& shape,
                                const CustomCallOptions& options) {
  Computation* called = builder->Import(computation);
  if (called == nullptr) return XlaOp();
  AttributeMap attrs = CustomCallAttrs(call_target_name, options);
  attrs.Set(attr::kCalledComputations, ComputationList{called});
  return AddCustomCall(builder, operands, std::move(attrs), shape,
                       options.opaque);
}

XlaOp CustomCallWithLayout(XlaBuilder* builder,
                           absl::string_view call_target_name,
                           absl::Span<const XlaOp> operands,
                           const Shape& shape_with_layout,
                           absl::Span<const Shape> operand_shapes_with_layout,
                           const CustomCallOptions& options) {
  AttributeMap attrs = CustomCallAttrs(call_target_name, options);
  ShapeList constraints;
  for (Shape shape : operand_shapes_with_layout) {
    shape.SetDefaultLayoutIfMissing();
    constraints.push_back(std::move(shape));
  }
  attrs.Set(attr::kOperandLayoutConstraints, std::move(constraints));
  return AddCustomCall(builder, operands, std::move(attrs), shape_with_layout,
                       options.opaque);
}

}  // namespace kiln
