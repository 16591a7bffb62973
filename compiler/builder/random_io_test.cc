#include "compiler/builder/random_io.h"

#include <memory>
#include <string>
#include <vector>

#include "compiler/builder/builder.h"
#include "compiler/ir/layout.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

Shape Array(ElementType type, std::vector<int64_t> dims) {
  return Shape::Array(type, std::move(dims));
}
Shape F32(std::vector<int64_t> dims) {
  return Array(ElementType::kF32, std::move(dims));
}
Shape U64(std::vector<int64_t> dims) {
  return Array(ElementType::kU64, std::move(dims));
}

std::string ShapeOf(XlaOp op) {
  return op.valid() ? op.instruction()->shape().ToString(false) : "<invalid>";
}

void ExpectError(const XlaBuilder& b, std::vector<std::string> parts) {
  ASSERT_FALSE(b.ok()) << "expected an error";
  const std::string message(b.first_error().message());
  for (const std::string& part : parts) {
    EXPECT_NE(message.find(part), std::string::npos)
        << "missing \"" << part << "\" in: " << message;
  }
}

std::string RoundTrip(XlaBuilder& b, XlaOp root) {
  absl::StatusOr<XlaComputation> built = b.Build(root);
  EXPECT_TRUE(built.ok()) << built.status();
  if (!built.ok()) return "";
  std::unique_ptr<Module> module = built->TakeModule();
  EXPECT_TRUE(VerifyModule(*module).ok()) << VerifyModule(*module);
  const std::string text = PrintModule(*module);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(text);
  EXPECT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << text;
  if (!reparsed.ok()) return text;
  EXPECT_TRUE(VerifyModule(**reparsed).ok()) << VerifyModule(**reparsed);
  EXPECT_EQ(PrintModule(**reparsed), text);
  return text;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(RandomIoBuilderTest, RngDistributions) {
  XlaBuilder b("rng");
  XlaOp zero = Parameter(&b, 0, F32({}), "zero");
  XlaOp one = Parameter(&b, 1, F32({}), "one");
  XlaOp lo = Parameter(&b, 2, Array(ElementType::kS32, {}), "lo");
  XlaOp hi = Parameter(&b, 3, Array(ElementType::kS32, {}), "hi");
  EXPECT_EQ(ShapeOf(RngUniform(lo, hi, Array(ElementType::kS32, {2}))),
            "s32[2]");
  XlaOp normal = RngNormal(zero, one, F32({3, 4}));
  EXPECT_EQ(ShapeOf(normal), "f32[3,4]");
  const std::string text = RoundTrip(b, normal);
  EXPECT_TRUE(Contains(text, "distribution=rng_uniform")) << text;
  EXPECT_TRUE(Contains(text, "distribution=rng_normal")) << text;
}

TEST(RandomIoBuilderTest, RngNormalNeedsFloatingPointParameters) {
  XlaBuilder b("bad_normal");
  XlaOp lo = Parameter(&b, 0, Array(ElementType::kS32, {}), "lo");
  EXPECT_FALSE(RngNormal(lo, lo, Array(ElementType::kS32, {2})).valid());
  ExpectError(b, {"rng", "operation_semantics.md, RngNormal"});
}

TEST(RandomIoBuilderTest, RngShapeTypeMustBeTheParameters) {
  XlaBuilder b("bad_type");
  XlaOp zero = Parameter(&b, 0, F32({}), "zero");
  EXPECT_FALSE(RngUniform(zero, zero, Array(ElementType::kS32, {2})).valid());
  ExpectError(b, {"rng", "requested shape s32[2] differs", "f32[2]"});
}

TEST(RandomIoBuilderTest, RngBitGeneratorStatePerAlgorithm) {
  XlaBuilder b("bits");
  XlaOp two = Parameter(&b, 0, U64({2}), "two");
  XlaOp three = Parameter(&b, 1, U64({3}), "three");
  const Shape data = Array(ElementType::kU32, {4, 4});
  EXPECT_EQ(ShapeOf(RngBitGenerator(RandomAlgorithm::kThreeFry, two, data)),
            "(u64[2], u32[4,4])");
  EXPECT_EQ(ShapeOf(RngBitGenerator(RandomAlgorithm::kPhilox, three, data)),
            "(u64[3], u32[4,4])");
  XlaOp state = RngGetAndUpdateState(&b, 16);
  EXPECT_EQ(ShapeOf(state), "u64[2]");
  XlaOp root = RngBitGenerator(RandomAlgorithm::kDefault, state, data);
  const std::string text = RoundTrip(b, root);
  EXPECT_TRUE(Contains(text, "algorithm=rng_three_fry")) << text;
  EXPECT_TRUE(Contains(text, "rng-get-and-update-state(), delta=16")) << text;
}

TEST(RandomIoBuilderTest, RngBitGeneratorRejectsAWrongState) {
  XlaBuilder b("bad_state");
  XlaOp three = Parameter(&b, 0, U64({3}), "three");
  EXPECT_FALSE(RngBitGenerator(RandomAlgorithm::kThreeFry, three,
                               Array(ElementType::kU32, {4}))
                   .valid());
  ExpectError(b, {"rng-bit-generator",
                  "initial state is u64[3], expected u64[2] for rng_three_fry",
                  "operation_semantics.md, RngBitGenerator"});
}

TEST(RandomIoBuilderTest, InfeedAndOutfeed) {
  XlaBuilder b("feeds");
  XlaOp token = Parameter(&b, 0, Shape::Token(), "token");
  XlaOp data = Infeed(&b, F32({2, 3}));
  ASSERT_EQ(ShapeOf(data), "f32[2,3]") << b.first_error();
  EXPECT_EQ(data.instruction()->opcode(), Opcode::kGetTupleElement);
  EXPECT_EQ(data.instruction()->operand(0)->operand(0)->opcode(),
            Opcode::kAfterAll);
  XlaOp with_token = InfeedWithToken(token, F32({2, 3}), "cfg");
  EXPECT_EQ(ShapeOf(with_token), "(f32[2,3], token[])");
  Outfeed(data, F32({2, 3}), "");
  Shape column_major = F32({2, 3});
  column_major.set_layout(Layout({0, 1}));
  XlaOp done = OutfeedWithToken(data, token, column_major, "out");
  EXPECT_EQ(ShapeOf(done), "token[]");
  const std::string text = RoundTrip(b, done);
  EXPECT_TRUE(Contains(text, "infeed_config=\"cfg\"")) << text;
  EXPECT_TRUE(Contains(text,
                       "outfeed_shape=f32[2,3]{0,1}, "
                       "outfeed_config=\"out\""))
      << text;
}

TEST(RandomIoBuilderTest, OutfeedShapeMustMatchTheOperand) {
  XlaBuilder b("bad_outfeed");
  XlaOp token = Parameter(&b, 0, Shape::Token(), "token");
  XlaOp x = Parameter(&b, 1, F32({2}), "x");
  EXPECT_FALSE(OutfeedWithToken(x, token, F32({3}), "").valid());
  ExpectError(b, {"outfeed", "outfeed_shape=f32[3]", "differs from operand 0",
                  "operation_semantics.md, Outfeed"});
}

TEST(RandomIoBuilderTest, SendAndRecv) {
  XlaBuilder b("channels");
  XlaOp token = Parameter(&b, 0, Shape::Token(), "token");
  XlaOp x = Parameter(&b, 1, F32({2}), "x");
  XlaOp sent = SendWithToken(x, token, ChannelHandle{1});
  EXPECT_EQ(ShapeOf(sent), "token[]");
  EXPECT_EQ(sent.instruction()->opcode(), Opcode::kSendDone);
  EXPECT_EQ(ShapeOf(RecvWithToken(sent, F32({2}), ChannelHandle{2})),
            "(f32[2], token[])");
  EXPECT_EQ(ShapeOf(Recv(&b, F32({4}), ChannelHandle{3})), "f32[4]");
  Send(x, ChannelHandle{4});
  const ChannelHandle to_host{5, ChannelHandle::Type::kDeviceToHost};
  const ChannelHandle from_host{6, ChannelHandle::Type::kHostToDevice};
  XlaOp host = SendToHost(x, token, F32({2}), to_host);
  EXPECT_EQ(ShapeOf(host), "token[]");
  XlaOp received = RecvFromHost(host, F32({2}), from_host);
  EXPECT_EQ(ShapeOf(received), "(f32[2], token[])");
  XlaOp recv = RecvStart(token, F32({1}), ChannelHandle{7});
  EXPECT_EQ(ShapeOf(recv), "(f32[1], u32[], token[])");
  EXPECT_EQ(ShapeOf(RecvDone(recv, ChannelHandle{7})), "(f32[1], token[])");
  XlaOp send = SendStart(x, token, ChannelHandle{8});
  EXPECT_EQ(ShapeOf(send), "(f32[2], u32[], token[])");
  XlaOp send_done = SendDone(send, ChannelHandle{8});
  EXPECT_EQ(ShapeOf(send_done), "token[]");
  const std::string text = RoundTrip(b, received);
  EXPECT_TRUE(Contains(text, "channel_id=5, is_host_transfer=true")) << text;
}

TEST(RandomIoBuilderTest, HostTransfersNeedHostChannels) {
  XlaBuilder b("bad_channel");
  XlaOp token = Parameter(&b, 0, Shape::Token(), "token");
  EXPECT_FALSE(RecvFromHost(token, F32({2}), ChannelHandle{1}).valid());
  ExpectError(b, {"recv", "channel 1 must be a host-to-device channel",
                  "operation_semantics.md, Recv"});
}

TEST(RandomIoBuilderTest, RecvDoneNeedsARecvContext) {
  XlaBuilder b("bad_done");
  XlaOp x = Parameter(&b, 0, F32({2}), "x");
  EXPECT_FALSE(RecvDone(x, ChannelHandle{1}).valid());
  ExpectError(b, {"recv-done", "expected (data, u32[], token[])", "RecvDone"});
}

TEST(RandomIoBuilderTest, CustomCalls) {
  XlaBuilder b("custom");
  XlaOp x = Parameter(&b, 0, F32({5}), "x");
  XlaOp plain = CustomCall(&b, "my_target", {x}, F32({2, 2}), "a\"b",
                           /*has_side_effect=*/true);
  EXPECT_EQ(ShapeOf(plain), "f32[2,2]");
  const CustomCallAlias in_place{{}, 0, {}};
  XlaOp aliased =
      CustomCall(&b, "in_place", {x}, F32({5}), "", false, {in_place},
                 CustomCallSchedule::kLatest, CustomCallApiVersion::kTypedFfi);
  EXPECT_EQ(ShapeOf(aliased), "f32[5]") << b.first_error();
  std::unique_ptr<XlaBuilder> sub = b.CreateSubBuilder("body");
  XlaOp p = Parameter(sub.get(), 0, F32({5}), "p");
  sub->AddInstruction(Opcode::kNegate, {p}, {});
  absl::StatusOr<XlaComputation> body = sub->Build();
  ASSERT_TRUE(body.ok()) << body.status();
  XlaOp called = CustomCallWithComputation(&b, "calls", {x}, *body, F32({5}));
  EXPECT_EQ(ShapeOf(called), "f32[5]") << b.first_error();
  Shape result = F32({5});
  result.set_layout(Layout({0}));
  XlaOp laid_out =
      CustomCallWithLayout(&b, "laid_out", {x}, result, {F32({5})});
  EXPECT_EQ(ShapeOf(laid_out), "f32[5]") << b.first_error();
  const std::string text = RoundTrip(b, laid_out);
  EXPECT_TRUE(Contains(text,
                       "custom_call_target=\"my_target\", "
                       "custom_call_has_side_effect=true"))
      << text;
  EXPECT_TRUE(Contains(text, "backend_config=\"a\\\"b\"")) << text;
  EXPECT_TRUE(Contains(text,
                       "output_to_operand_aliasing={{}: (0, {})}, "
                       "schedule=SCHEDULE_LATEST, "
                       "api_version=API_VERSION_TYPED_FFI"))
      << text;
  EXPECT_TRUE(Contains(text, "called_computations={%custom.body.1}")) << text;
  EXPECT_TRUE(Contains(text, "operand_layout_constraints={f32[5]{0}}")) << text;
}

TEST(RandomIoBuilderTest, CustomCallLayoutConstraintsMatchOperands) {
  XlaBuilder b("bad_custom");
  XlaOp x = Parameter(&b, 0, F32({5}), "x");
  EXPECT_FALSE(
      CustomCallWithLayout(&b, "t", {x}, F32({5}), {F32({6})}).valid());
  ExpectError(b, {"custom-call", "operand_layout_constraints shape 0 is",
                  "operation_semantics.md, CustomCall"});
}

}  // namespace
}  // namespace kiln
