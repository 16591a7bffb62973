// collective-permute's four-operand in-place form and collective-broadcast's
// dynamic-root form on simulated devices (EvaluateReplicated). Device d's
// input is (d + 1) everywhere, so each result shows which device each slice
// came from; expected values are worked out by hand.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

// Runs `hlo` (no parameters) on `replicas` devices; each result, or the
// error as the only entry.
std::vector<std::string> RunOn(const std::string& hlo, int64_t replicas) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  if (!module.ok()) {
    return {absl::StrCat("parse error: ", module.status().message())};
  }
  std::vector<std::vector<Literal>> arguments(replicas);
  absl::StatusOr<std::vector<Literal>> results =
      EvaluateReplicated(**module, arguments, replicas, 1);
  if (!results.ok()) {
    return {absl::StrCat("error: ", results.status().message())};
  }
  std::vector<std::string> texts;
  for (const Literal& result : *results) {
    texts.push_back(LiteralToString(result));
  }
  return texts;
}

// The literal `text` printed as RunOn prints results.
std::string Printed(const std::string& text) {
  absl::StatusOr<Literal> literal = ParseLiteral(text);
  if (!literal.ok()) return absl::StrCat("bad literal ", text);
  return LiteralToString(*literal);
}

// An entry whose `input` is f32[2,2] filled with replica-id + 1 and whose
// `output` is f32[4,2] zeros, then `body`.
std::string PermuteModule(int replicas, const std::string& body) {
  return absl::StrCat("HloModule m, replica_count=", replicas, R"(

ENTRY e {
  id = u32[] replica-id()
  one = u32[] constant(1)
  idp1 = u32[] add(id, one)
  f = f32[] convert(idp1)
  input = f32[2,2] broadcast(f), dimensions={}
  zf = f32[] constant(0)
  output = f32[4,2] broadcast(zf), dimensions={}
  c0 = s32[] constant(0)
  c1 = s32[] constant(1)
  c2 = s32[] constant(2)
  c3 = s32[] constant(3)
)",
                      body, "\n}\n");
}

TEST(CollectivePermuteInPlaceTest, SharedStartIndices) {
  // Each device writes its whole input into rows 2..3 of its target's
  // output; rows 0..1 keep the output buffer's zeros.
  const std::string hlo = PermuteModule(
      2,
      "  in_start = (s32[], s32[]) tuple(c0, c0)\n"
      "  out_start = (s32[], s32[]) tuple(c2, c0)\n"
      "  ROOT r = f32[4,2] collective-permute(input, output, in_start, "
      "out_start), source_target_pairs={{0,1},{1,0}}, slice_sizes={{2,2}}");
  EXPECT_EQ(RunOn(hlo, 2),
            (std::vector<std::string>{
                Printed("f32[4,2] {{0, 0}, {0, 0}, {2, 2}, {2, 2}}"),
                Printed("f32[4,2] {{0, 0}, {0, 0}, {1, 1}, {1, 1}}")}));
}

TEST(CollectivePermuteInPlaceTest, StartIndicesPerPair) {
  // Pair 0 (0 -> 1): row 0 of device 0's input to row 3 of device 1's
  // output. Pair 1 (1 -> 0): row 1 of device 1's input to row 0 of device
  // 0's output. The input start is read on the source, the output start
  // on the target.
  const std::string hlo = PermuteModule(
      2,
      "  s00 = (s32[], s32[]) tuple(c0, c0)\n"
      "  s10 = (s32[], s32[]) tuple(c1, c0)\n"
      "  s30 = (s32[], s32[]) tuple(c3, c0)\n"
      "  in_start = ((s32[], s32[]), (s32[], s32[])) tuple(s00, s10)\n"
      "  out_start = ((s32[], s32[]), (s32[], s32[])) tuple(s30, s00)\n"
      "  ROOT r = f32[4,2] collective-permute(input, output, in_start, "
      "out_start), source_target_pairs={{0,1},{1,0}}, "
      "slice_sizes={{1,2},{1,2}}");
  EXPECT_EQ(RunOn(hlo, 2),
            (std::vector<std::string>{
                Printed("f32[4,2] {{2, 2}, {0, 0}, {0, 0}, {0, 0}}"),
                Printed("f32[4,2] {{0, 0}, {0, 0}, {0, 0}, {1, 1}}")}));
}

TEST(CollectivePermuteInPlaceTest, AnUntargetedDeviceKeepsItsOutput) {
  // Only device 1 is targeted; device 0's result is its output buffer.
  const std::string hlo = PermuteModule(
      2,
      "  start = (s32[], s32[]) tuple(c0, c0)\n"
      "  ROOT r = f32[4,2] collective-permute(input, output, start, start), "
      "source_target_pairs={{0,1}}, slice_sizes={{1,1}}");
  EXPECT_EQ(RunOn(hlo, 2),
            (std::vector<std::string>{
                Printed("f32[4,2] {{0, 0}, {0, 0}, {0, 0}, {0, 0}}"),
                Printed("f32[4,2] {{1, 0}, {0, 0}, {0, 0}, {0, 0}}")}));
}

// The -start/-done form of the in-place op: an untargeted device's result
// is its output buffer, not zeros of the whole start tuple.
TEST(CollectivePermuteInPlaceTest, StartFormUntargetedDeviceKeepsItsOutput) {
  const std::string hlo = PermuteModule(
      2,
      "  start = (s32[], s32[]) tuple(c0, c0)\n"
      "  s = (f32[2,2], f32[4,2], u32[], u32[]) collective-permute-start("
      "input, output, start, start), source_target_pairs={{0,1}}, "
      "slice_sizes={{1,1}}\n"
      "  ROOT r = f32[4,2] collective-permute-done(s)");
  EXPECT_EQ(RunOn(hlo, 2),
            (std::vector<std::string>{
                Printed("f32[4,2] {{0, 0}, {0, 0}, {0, 0}, {0, 0}}"),
                Printed("f32[4,2] {{1, 0}, {0, 0}, {0, 0}, {0, 0}}")}));
}

TEST(CollectivePermuteInPlaceTest, OutOfBoundsSlicesAreErrors) {
  const std::string hlo = PermuteModule(
      2,
      "  in_start = (s32[], s32[]) tuple(c0, c0)\n"
      "  out_start = (s32[], s32[]) tuple(c3, c0)\n"
      "  ROOT r = f32[4,2] collective-permute(input, output, in_start, "
      "out_start), source_target_pairs={{0,1},{1,0}}, slice_sizes={{2,2}}");
  const std::vector<std::string> result = RunOn(hlo, 2);
  ASSERT_EQ(result.size(), 1u);
  EXPECT_TRUE(absl::StrContains(result[0], "out of bounds")) << result[0];
  // slice_sizes must give one entry, or one per pair.
  const std::string bad_sizes = PermuteModule(
      2,
      "  start = (s32[], s32[]) tuple(c0, c0)\n"
      "  ROOT r = f32[4,2] collective-permute(input, output, start, start), "
      "source_target_pairs={{0,1}}, slice_sizes={{1,1},{1,1}}");
  const std::vector<std::string> sizes = RunOn(bad_sizes, 2);
  ASSERT_EQ(sizes.size(), 1u);
  EXPECT_TRUE(absl::StrContains(sizes[0], "slice_sizes has 2 entries"))
      << sizes[0];
}

// x = (replica-id + 1) * {1, 10}; `root` = s32[1] {root_value}.
std::string BroadcastModule(const std::string& root_value,
                            const std::string& groups) {
  return absl::StrCat(R"(HloModule m, replica_count=3

ENTRY e {
  id = u32[] replica-id()
  one = u32[] constant(1)
  idp1 = u32[] add(id, one)
  f = f32[] convert(idp1)
  fb = f32[2] broadcast(f), dimensions={}
  scale = f32[2] constant({1, 10})
  x = f32[2] multiply(fb, scale)
  ids = s32[] convert(id)
  root = s32[1] )",
                      root_value, R"(
  ROOT r = f32[2] collective-broadcast(x, root), replica_groups=)",
                      groups, R"(, has_dynamic_root=true
})");
}

TEST(CollectiveBroadcastDynamicRootTest, TheRootOperandPicksTheSource) {
  // Rank 2 of group {0,1,2} is replica 2: 3 * {1, 10}.
  EXPECT_EQ(RunOn(BroadcastModule("constant({2})", "{{0,1,2}}"), 3),
            (std::vector<std::string>{"f32[2] {3, 30}", "f32[2] {3, 30}",
                                      "f32[2] {3, 30}"}));
  // The rank is a position in the group: rank 0 of {2,0,1} is replica 2.
  EXPECT_EQ(RunOn(BroadcastModule("constant({0})", "{{2,0,1}}"), 3),
            (std::vector<std::string>{"f32[2] {3, 30}", "f32[2] {3, 30}",
                                      "f32[2] {3, 30}"}));
}

TEST(CollectiveBroadcastDynamicRootTest, BadRootsAreErrors) {
  std::vector<std::string> result =
      RunOn(BroadcastModule("constant({3})", "{{0,1,2}}"), 3);
  ASSERT_EQ(result.size(), 1u);
  EXPECT_TRUE(
      absl::StrContains(result[0], "root rank 3 is outside the group of 3"))
      << result[0];
  // Each device gives its own replica id as the root: they disagree.
  result =
      RunOn(BroadcastModule("broadcast(ids), dimensions={}", "{{0,1,2}}"), 3);
  ASSERT_EQ(result.size(), 1u);
  EXPECT_TRUE(absl::StrContains(result[0], "give different roots"))
      << result[0];
}

}  // namespace
}  // namespace kiln
