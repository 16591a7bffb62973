// custom-call (registered, unregistered, failing, wrong result shape),
// infeed/outfeed and send/recv on one device.
#include <deque>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/evaluator/typed.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::LiteralText;
using eval_test::RunToCompactText;
using eval_test::RunToText;

// Adds its two f32 operands element by element and adds the number in the
// opaque text.
absl::StatusOr<Literal> AddPlusOpaque(absl::Span<const Literal* const> ops,
                                      const Shape& shape,
                                      absl::string_view opaque) {
  if (ops.size() != 2) return absl::InvalidArgumentError("wants 2 operands");
  absl::StatusOr<Literal> out = Literal::Create(shape);
  if (!out.ok()) return out;
  const float extra = opaque.empty() ? 0 : std::stof(std::string(opaque));
  for (int64_t i = 0; i < out->element_count(); ++i) {
    out->SetDouble(i, ops[0]->GetDouble(i) + ops[1]->GetDouble(i) + extra);
  }
  return out;
}

std::string CustomCallModule(const std::string& target,
                             const std::string& extra = "") {
  return EntryModule({"f32[3]", "f32[3]"},
                     absl::StrCat("ROOT r = f32[3] custom-call(p0, p1), "
                                  "custom_call_target=\"",
                                  target, "\"", extra));
}

TEST(CustomCallTest, RunsTheRegisteredCallbackWithOperandsShapeAndOpaque) {
  CustomCallRegistry registry;
  registry.Register("my_add", AddPlusOpaque);
  EvalOptions options;
  options.custom_calls = &registry;
  EXPECT_EQ(RunToText(CustomCallModule("my_add", ", backend_config=\"10\""),
                      {"f32[3] {1, 2, 3}", "f32[3] {4, 5, 6}"}, options),
            "f32[3] {15, 17, 19}");
  EXPECT_EQ(RunToText(CustomCallModule("my_add"),
                      {"f32[3] {1, 2, 3}", "f32[3] {4, 5, 6}"}, options),
            "f32[3] {5, 7, 9}");
}

TEST(CustomCallTest, FallsBackToTheGlobalRegistry) {
  GlobalCustomCallRegistry().Register("io_kernels_test_global", AddPlusOpaque);
  EXPECT_EQ(RunToText(CustomCallModule("io_kernels_test_global"),
                      {"f32[3] {1, 1, 1}", "f32[3] {2, 2, 2}"}),
            "f32[3] {3, 3, 3}");
}

TEST(CustomCallTest, UnregisteredTargetNamesTargetAndInstruction) {
  EXPECT_EQ(RunToText(CustomCallModule("no_such_target"),
                      {"f32[3] {1, 2, 3}", "f32[3] {4, 5, 6}"}),
            "error: test.hlo:8:8: error: r: custom-call target "
            "\"no_such_target\" is not registered (register a callback with "
            "CustomCallRegistry::Register)");
}

TEST(CustomCallTest, ShardingAnnotationIsTheValueUnlessRegistered) {
  const std::string module =
      EntryModule({"f32[3]"},
                  "ROOT r = f32[3] custom-call(p0), "
                  "custom_call_target=\"Sharding\", sharding={replicated}");
  EXPECT_EQ(RunToText(module, {"f32[3] {1, -0, 3}"}), "f32[3] {1, -0, 3}");
  CustomCallRegistry registry;
  registry.Register("Sharding", AddPlusOpaque);  // Wants two operands.
  EvalOptions options;
  options.custom_calls = &registry;
  EXPECT_NE(RunToText(module, {"f32[3] {1, 2, 3}"}, options).find("failed"),
            std::string::npos);
  // Another shape is not an annotation.
  EXPECT_NE(RunToText(EntryModule({"f32[3]"},
                                  "ROOT r = f32[2] custom-call(p0), "
                                  "custom_call_target=\"Sharding\""),
                      {"f32[3] {1, 2, 3}"})
                .find("not registered"),
            std::string::npos);
}

TEST(CustomCallTest, XlaTopKOrdersRowsByItsComparator) {
  const std::string module = R"(
HloModule m
greater {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT gt = pred[] compare(a, b), direction=GT
}
ENTRY e {
  x = f32[2,5] parameter(0)
  ROOT t = (f32[2,3], s32[2,3]) custom-call(x), custom_call_target="TopK", called_computations={greater}
}
)";
  EXPECT_EQ(
      RunToCompactText(module,
                       {"f32[2,5] {{1, 5, 3, 5, 2}, {-1, -3, 0, 7, -0}}"}),
      "(f32[2,3], s32[2,3]) ({{5, 5, 3}, {7, 0, -0}}, {{1, 3, 2}, {3, 2, 4}})");
  // XLA's own form: a comparator of (values, positions), as a sort of the
  // row and an iota; here ties go to the higher position.
  const std::string with_positions = R"(
HloModule m
greater {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  gt = pred[] compare(a, b), direction=GT
  eq = pred[] compare(a, b), direction=EQ
  later = pred[] compare(i, j), direction=GT
  tie = pred[] and(eq, later)
  ROOT r = pred[] or(gt, tie)
}
ENTRY e {
  x = f32[5] parameter(0)
  ROOT t = (f32[2], s32[2]) custom-call(x), custom_call_target="TopK", called_computations={greater}
}
)";
  EXPECT_EQ(RunToCompactText(with_positions, {"f32[5] {5, 1, 5, 2, 3}"}),
            "(f32[2], s32[2]) ({5, 5}, {2, 0})");
  // Without a comparator it is an error naming the target.
  EXPECT_NE(RunToText(EntryModule({"f32[4]"},
                                  "ROOT t = (f32[2], s32[2]) custom-call(p0), "
                                  "custom_call_target=\"TopK\""),
                      {"f32[4] {1, 2, 3, 4}"})
                .find("\"TopK\" takes one array and a comparator"),
            std::string::npos);
}

TEST(CustomCallTest, CallbackErrorsAndWrongShapesAreErrors) {
  CustomCallRegistry registry;
  registry.Register("fails", [](absl::Span<const Literal* const>, const Shape&,
                                absl::string_view) {
    return absl::StatusOr<Literal>(absl::InternalError("boom"));
  });
  registry.Register("wrong_shape", [](absl::Span<const Literal* const>,
                                      const Shape&, absl::string_view) {
    return Literal::Create(Shape::Array(ElementType::kF32, {2}));
  });
  EvalOptions options;
  options.custom_calls = &registry;
  const std::vector<std::string> args = {"f32[3] {1, 2, 3}",
                                         "f32[3] {4, 5, 6}"};
  EXPECT_EQ(RunToText(CustomCallModule("fails"), args, options),
            "error: test.hlo:8:8: error: r: custom-call target \"fails\" "
            "failed: boom");
  EXPECT_EQ(RunToText(CustomCallModule("wrong_shape"), args, options),
            "error: test.hlo:8:8: error: r: custom-call target "
            "\"wrong_shape\" returned f32[2] for f32[3]");
}

const char kFeedModule[] = R"(HloModule feeds

ENTRY e {
  t0 = token[] after-all()
  in = ((f32[2], s32[]), token[]) infeed(t0)
  data = (f32[2], s32[]) get-tuple-element(in), index=0
  t1 = token[] get-tuple-element(in), index=1
  x = f32[2] get-tuple-element(data), index=0
  y = f32[2] add(x, x)
  t2 = token[] outfeed(y, t1), outfeed_shape=f32[2]
  in2 = (s32[3], token[]) infeed(t2)
  ROOT z = s32[3] get-tuple-element(in2), index=0
}
)";

TEST(InfeedOutfeedTest, ReadsTheQueueInOrderAndAppendsToTheOutfeed) {
  std::deque<Literal> infeed;
  infeed.push_back(
      Literal::Tuple({Literal::VectorF32({1.5f, -2}), Literal::ScalarS32(9)}));
  infeed.push_back(Literal::VectorS32({4, 5, 6}));
  std::vector<Literal> outfeed;
  EvalOptions options;
  options.infeed = &infeed;
  options.outfeed = &outfeed;
  EXPECT_EQ(RunToText(kFeedModule, {}, options), "s32[3] {4, 5, 6}");
  EXPECT_TRUE(infeed.empty());
  ASSERT_EQ(outfeed.size(), 1u);
  EXPECT_EQ(LiteralText(outfeed[0]), "f32[2] {3, -4}");
}

TEST(InfeedOutfeedTest, EmptyTupleInfeedReadsNothing) {
  // Spec: "For an empty tuple shape, the Infeed operation is effectively a
  // no-op and proceeds without reading any data".
  const char kEmpty[] = R"(HloModule empty

ENTRY e {
  t0 = token[] after-all()
  in = ((), token[]) infeed(t0)
  ROOT data = () get-tuple-element(in), index=0
}
)";
  EXPECT_EQ(RunToText(kEmpty), "() ( )");
  std::deque<Literal> infeed;
  infeed.push_back(Literal::VectorS32({1}));
  EvalOptions options;
  options.infeed = &infeed;
  EXPECT_EQ(RunToText(kEmpty, {}, options), "() ( )");
  EXPECT_EQ(infeed.size(), 1u);  // Nothing was read.
}

TEST(InfeedOutfeedTest, MissingOrMismatchedFeedIsAnError) {
  EXPECT_EQ(RunToText(kFeedModule),
            "error: test.hlo:5:3: error: in: the infeed queue is empty "
            "(EvalOptions::infeed has no value left to read)");
  std::deque<Literal> infeed;
  infeed.push_back(Literal::VectorS32({1}));
  EvalOptions options;
  options.infeed = &infeed;
  EXPECT_EQ(RunToText(kFeedModule, {}, options),
            "error: test.hlo:5:3: error: in: the next infeed value is s32[1], "
            "but the infeed reads (f32[2], s32[])");
  // The outfeed may be left unset: the values are dropped.
  std::deque<Literal> full;
  full.push_back(
      Literal::Tuple({Literal::VectorF32({1, 2}), Literal::ScalarS32(0)}));
  full.push_back(Literal::VectorS32({7, 8, 9}));
  options.infeed = &full;
  EXPECT_EQ(RunToText(kFeedModule, {}, options), "s32[3] {7, 8, 9}");
}

const char kSendRecvModule[] = R"(HloModule channels

ENTRY e {
  p = f32[2] parameter(0)
  t0 = token[] after-all()
  s = (f32[2], u32[], token[]) send(p, t0), channel_id=3
  r = (f32[2], u32[], token[]) recv(t0), channel_id=3
  sd = token[] send-done(s), channel_id=3
  rd = (f32[2], token[]) recv-done(r), channel_id=3
  ROOT v = f32[2] get-tuple-element(rd), index=0
}
)";

TEST(SendRecvTest, RecvGetsWhatWasSentOnTheChannel) {
  EXPECT_EQ(RunToText(kSendRecvModule, {"f32[2] {3, 4}"}), "f32[2] {3, 4}");
}

TEST(SendRecvTest, RecvWithNothingSentIsAnErrorNotAHang) {
  const char module[] = R"(HloModule channels

ENTRY e {
  p = f32[2] parameter(0)
  t0 = token[] after-all()
  s = (f32[2], u32[], token[]) send(p, t0), channel_id=1
  r = (f32[2], u32[], token[]) recv(t0), channel_id=2
  rd = (f32[2], token[]) recv-done(r), channel_id=2
  ROOT v = f32[2] get-tuple-element(rd), index=0
}
)";
  EXPECT_EQ(RunToText(module, {"f32[2] {3, 4}"}),
            "error: test.hlo:7:3: error: r: nothing was sent on channel 2 (a "
            "recv needs an earlier send on this device)");
}

TEST(SendRecvTest, RecvOfTheWrongShapeIsAnError) {
  const char module[] = R"(HloModule channels

ENTRY e {
  p = f32[2] parameter(0)
  t0 = token[] after-all()
  s = (f32[2], u32[], token[]) send(p, t0), channel_id=1
  r = (s32[2], u32[], token[]) recv(t0), channel_id=1
  rd = (s32[2], token[]) recv-done(r), channel_id=1
  ROOT v = s32[2] get-tuple-element(rd), index=0
}
)";
  EXPECT_EQ(RunToText(module, {"f32[2] {3, 4}"}),
            "error: test.hlo:7:3: error: r: channel 1 holds f32[2], but the "
            "recv reads s32[2]");
}

}  // namespace
}  // namespace kiln
