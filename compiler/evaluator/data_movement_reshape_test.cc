// Reshape, bitcast, copy, copy-start/copy-done, iota and the dynamic-shape
// ops. Expected values are the spec's examples (operation_semantics.md) or
// worked out by hand (bit patterns from IEEE 754: 1.0f = 0x3F800000).
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::LiteralText;
using eval_test::RunToText;

// An expected value written as literal text ("f32[2,2] {{1, 2}, {3, 4}}"),
// in the form RunToText prints (XLA's one-line literal text).
std::string Norm(const std::string& text) {
  absl::StatusOr<Literal> literal = ParseLiteral(text);
  return literal.ok()
             ? LiteralText(*literal)
             : "bad expectation: " + std::string(literal.status().message());
}

std::string Eval(const std::vector<std::string>& parameter_shapes,
                 const std::string& body,
                 const std::vector<std::string>& arguments) {
  return RunToText(EntryModule(parameter_shapes, body), arguments);
}

constexpr char kV[] =
    "f32[4,2,3] {{{10, 11, 12}, {15, 16, 17}}, {{20, 21, 22}, {25, 26, 27}}, "
    "{{30, 31, 32}, {35, 36, 37}}, {{40, 41, 42}, {45, 46, 47}}}";

// Spec, Reshape: v reshaped to {24} and {8,3}, and the 1x1 <-> scalar case.
TEST(ReshapeTest, SpecExamples) {
  EXPECT_EQ(
      Eval({"f32[4,2,3]"}, "ROOT r = f32[24] reshape(p0)", {kV}),
      Norm("f32[24] {10, 11, 12, 15, 16, 17, 20, 21, 22, 25, 26, 27, 30, 31, "
           "32, 35, 36, 37, 40, 41, 42, 45, 46, 47}"));
  EXPECT_EQ(
      Eval({"f32[4,2,3]"}, "ROOT r = f32[8,3] reshape(p0)", {kV}),
      Norm("f32[8,3] {{10, 11, 12}, {15, 16, 17}, {20, 21, 22}, {25, 26, 27}, "
           "{30, 31, 32}, {35, 36, 37}, {40, 41, 42}, {45, 46, 47}}"));
  EXPECT_EQ(
      Eval({"f32[1,1]"}, "ROOT r = f32[] reshape(p0)", {"f32[1,1] {{5}}"}),
      Norm("f32[] 5"));
  EXPECT_EQ(Eval({"f32[]"}, "ROOT r = f32[1,1] reshape(p0)", {"f32[] 5"}),
            Norm("f32[1,1] {{5}}"));
}

TEST(BitcastTest, DefaultLayoutsActAsReshape) {
  EXPECT_EQ(Eval({"f32[2,3]"}, "ROOT b = f32[6] bitcast(p0)",
                 {"f32[2,3] {{1, 2, 3}, {4, 5, 6}}"}),
            Norm("f32[6] {1, 2, 3, 4, 5, 6}"));
}

// f32[2,3]{0,1} stores column by column: 1 4 2 5 3 6; read back row-major
// as f32[3,2]{1,0} that is the transpose of the logical values.
TEST(BitcastTest, OperandLayoutGivesThePhysicalOrder) {
  EXPECT_EQ(Eval({"f32[2,3]{0,1}"}, "ROOT b = f32[3,2]{1,0} bitcast(p0)",
                 {"f32[2,3] {{1, 2, 3}, {4, 5, 6}}"}),
            Norm("f32[3,2] {{1, 4}, {2, 5}, {3, 6}}"));
}

// The physical stream 1..6 written into f32[2,3]{0,1} fills column by column.
TEST(BitcastTest, ResultLayoutGivesThePhysicalOrder) {
  EXPECT_EQ(Eval({"f32[6]"}, "ROOT b = f32[2,3]{0,1} bitcast(p0)",
                 {"f32[6] {1, 2, 3, 4, 5, 6}"}),
            Norm("f32[2,3] {{1, 3, 5}, {2, 4, 6}}"));
}

TEST(BitcastTest, ElementTypeChangesReinterpretBytes) {
  // 1.0f = 0x3F800000, -2.0f = 0xC0000000.
  EXPECT_EQ(Eval({"f32[2]"}, "ROOT b = s32[2] bitcast(p0)", {"f32[2] {1, -2}"}),
            Norm("s32[2] {1065353216, -1073741824}"));
  // Little-endian bytes of 1.0f.
  EXPECT_EQ(Eval({"f32[1]"}, "ROOT b = u8[4] bitcast(p0)", {"f32[1] {1}"}),
            Norm("u8[4] {0, 0, 128, 63}"));
  // s4 -1 is the nibble 0xF; pred keeps 0/1.
  EXPECT_EQ(Eval({"s4[2]"}, "ROOT b = u4[2] bitcast(p0)", {"s4[2] {-1, 7}"}),
            Norm("u4[2] {15, 7}"));
  EXPECT_EQ(Eval({"u8[2]"}, "ROOT b = pred[2] bitcast(p0)", {"u8[2] {0, 5}"}),
            Norm("pred[2] {false, true}"));
}

TEST(BitcastTest, TiledLayoutsGoThroughMemoryOrder) {
  // One 2x2 tile holds the whole array in row-major order (more in
  // data_movement_tiled_test.cc).
  EXPECT_EQ(Eval({"f32[2,2]{1,0:T(2,2)}"}, "ROOT b = f32[4] bitcast(p0)",
                 {"f32[2,2] {{1, 2}, {3, 4}}"}),
            Norm("f32[4] {1, 2, 3, 4}"));
}

// Partial tiles pad the buffer: 4 elements can take 2^61 slots, whose byte
// size overflows int64. That is an error, not a wrapped size.
TEST(BitcastTest, TiledBufferByteSizeOverflowIsAnError) {
  const std::string result =
      Eval({"f32[2,2]{1,0:T(2147483648,1073741824)}"},
           "ROOT b = s32[2,2]{1,0:T(2147483648,1073741824)} bitcast(p0)",
           {"f32[2,2] {{1, 2}, {3, 4}}"});
  EXPECT_TRUE(absl::StrContains(result, "take more than 2^63 bytes")) << result;
}

TEST(CopyTest, ArraysAndTuples) {
  EXPECT_EQ(Eval({"c64[2]"}, "ROOT c = c64[2] copy(p0)",
                 {"c64[2] {(1, 2), (-0, nan)}"}),
            Norm("c64[2] {(1, 2), (-0, nan)}"));
  EXPECT_EQ(Eval({"(f32[2], s4[])"}, "ROOT c = (f32[2], s4[]) copy(p0)",
                 {"(f32[2], s4[]) ({1, 2}, -3)"}),
            Norm("(f32[2], s4[]) ( {1, 2}, -3 )"));
}

TEST(CopyTest, CopyStartYieldsItsTupleAndCopyDoneTheDestination) {
  EXPECT_EQ(Eval({"f32[2]"}, "ROOT cs = (f32[2], f32[2], u32[]) copy-start(p0)",
                 {"f32[2] {1, 2}"}),
            Norm("(f32[2], f32[2], u32[]) ( {1, 2}, {1, 2}, 0 )"));
  EXPECT_EQ(Eval({"f32[2]"},
                 "cs = (f32[2], f32[2], u32[]) copy-start(p0)\n"
                 "  ROOT cd = f32[2] copy-done(cs)",
                 {"f32[2] {3, 4}"}),
            Norm("f32[2] {3, 4}"));
}

// Spec, Iota: s32[4, 8] along either dimension (a narrower s32[4,3] here).
TEST(IotaTest, SpecExamples) {
  EXPECT_EQ(Eval({}, "ROOT i = s32[4,3] iota(), iota_dimension=0", {}),
            Norm("s32[4,3] {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}}"));
  EXPECT_EQ(Eval({}, "ROOT i = s32[4,3] iota(), iota_dimension=1", {}),
            Norm("s32[4,3] {{0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}}"));
}

TEST(IotaTest, EveryElementKind) {
  EXPECT_EQ(Eval({}, "ROOT i = f64[3] iota(), iota_dimension=0", {}),
            Norm("f64[3] {0, 1, 2}"));
  EXPECT_EQ(Eval({}, "ROOT i = c64[3] iota(), iota_dimension=0", {}),
            Norm("c64[3] {(0, 0), (1, 0), (2, 0)}"));
  EXPECT_EQ(Eval({}, "ROOT i = u16[2,2] iota(), iota_dimension=1", {}),
            Norm("u16[2,2] {{0, 1}, {0, 1}}"));
  // s4 wraps after 7: 8 -> -8, 9 -> -7.
  EXPECT_EQ(Eval({}, "ROOT i = s4[10] iota(), iota_dimension=0", {}),
            Norm("s4[10] {0, 1, 2, 3, 4, 5, 6, 7, -8, -7}"));
}

// Spec: a float iota is convert(integer iota): f8e4m3fn has 3 fraction
// bits, so from 16 on it steps by 2 and 17, 19 round to even (16, 20).
TEST(IotaTest, NarrowFloatsRoundToNearestEven) {
  EXPECT_EQ(
      Eval({}, "ROOT i = f8e4m3fn[20] iota(), iota_dimension=0", {}),
      Norm("f8e4m3fn[20] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, "
           "15, 16, 16, 18, 20}"));
}

TEST(DynamicShapeTest, GetDimensionSizeReadsTheValue) {
  EXPECT_EQ(Eval({"f32[2,5]"},
                 "ROOT g = s32[] get-dimension-size(p0), dimensions={1}",
                 {"f32[2,5] {{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}}"}),
            Norm("s32[] 5"));
  // A dynamic parameter takes an argument of its actual size.
  EXPECT_EQ(Eval({"f32[<=4]"},
                 "ROOT g = s32[] get-dimension-size(p0), dimensions={0}",
                 {"f32[3] {1, 2, 3}"}),
            Norm("s32[] 3"));
}

TEST(DynamicShapeTest, SetDimensionSizeSetsTheSize) {
  // The value keeps its bounded storage; only the first 2 are valid (and
  // printed). docs/evaluator_dynamic.md has more.
  EXPECT_EQ(Eval({"f32[4]"},
                 "n = s32[] constant(2)\n"
                 "  ROOT d = f32[<=4] set-dimension-size(p0, n), "
                 "dimensions={0}",
                 {"f32[4] {1, 2, 3, 4}"}),
            Norm("f32[<=4](2) {1, 2}"));
  const std::string bad = Eval({"f32[4]"},
                               "n = s32[] constant(5)\n"
                               "  ROOT d = f32[<=4] set-dimension-size(p0, n), "
                               "dimensions={0}",
                               {"f32[4] {1, 2, 3, 4}"});
  EXPECT_TRUE(absl::StrContains(bad,
                                "d: size 5 of dimension 0 is outside "
                                "[0, 4]"))
      << bad;
}

TEST(DynamicShapeTest, DynamicReshapePlacesElementsInTheBoundedArray) {
  EXPECT_EQ(Eval({"f32[6]"},
                 "a = s32[] constant(2)\n  b = s32[] constant(3)\n"
                 "  ROOT r = f32[2,3] dynamic-reshape(p0, a, b)",
                 {"f32[6] {1, 2, 3, 4, 5, 6}"}),
            Norm("f32[2,3] {{1, 2, 3}, {4, 5, 6}}"));
  // Sizes 2x3 inside bounds 2x4: row-major 2x3 data, the dynamic
  // dimension's size is 3.
  EXPECT_EQ(Eval({"f32[6]"},
                 "a = s32[] constant(2)\n  b = s32[] constant(3)\n"
                 "  ROOT r = f32[2,<=4] dynamic-reshape(p0, a, b)",
                 {"f32[6] {1, 2, 3, 4, 5, 6}"}),
            Norm("f32[2,<=4](2,3) {{1, 2, 3}, {4, 5, 6}}"));
  const std::string bad =
      Eval({"f32[6]"},
           "a = s32[] constant(2)\n  b = s32[] constant(2)\n"
           "  ROOT r = f32[2,<=4] dynamic-reshape(p0, a, b)",
           {"f32[6] {1, 2, 3, 4, 5, 6}"});
  EXPECT_TRUE(absl::StrContains(bad,
                                "the sizes hold 4 elements but the "
                                "operand f32[6] holds 6"))
      << bad;
}

}  // namespace
}  // namespace kiln
