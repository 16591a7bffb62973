#include "compiler/text/attr_text.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"
#include "compiler/ops/op_schema.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

AttrSpec Spec(AttrKind kind, std::vector<std::string> enums = {}) {
  return AttrSpec{"attr", kind, false, std::move(enums)};
}

// Parses all of `text`, checks the canonical print, and that the print
// reparses to an equal value that prints identically.
AttrValue RoundTrip(const AttrSpec& spec, const std::string& text,
                    const std::string& canonical) {
  size_t consumed = 0, error_offset = 0;
  absl::StatusOr<AttrValue> value =
      ParseAttrValue(spec, text, &consumed, &error_offset);
  EXPECT_TRUE(value.ok()) << text << ": " << value.status();
  if (!value.ok()) return AttrValue();
  EXPECT_EQ(consumed, text.size()) << text;
  std::string printed;
  PrintAttrValue(spec, *value, &printed);
  EXPECT_EQ(printed, canonical);
  absl::StatusOr<AttrValue> again =
      ParseAttrValue(spec, printed, &consumed, &error_offset);
  EXPECT_TRUE(again.ok()) << printed << ": " << again.status();
  if (!again.ok()) return *value;
  EXPECT_TRUE(*again == *value) << printed;
  std::string reprinted;
  PrintAttrValue(spec, *again, &reprinted);
  EXPECT_EQ(reprinted, printed);
  return *value;
}

AttrValue RoundTrip(const AttrSpec& spec, const std::string& text) {
  return RoundTrip(spec, text, text);
}

// Expects a parse error at `offset` whose message contains `fragment`.
void ExpectError(const AttrSpec& spec, const std::string& text, size_t offset,
                 const std::string& fragment) {
  size_t consumed = 0, error_offset = 12345;
  absl::StatusOr<AttrValue> value =
      ParseAttrValue(spec, text, &consumed, &error_offset);
  ASSERT_FALSE(value.ok()) << text;
  EXPECT_EQ(error_offset, offset) << text << ": " << value.status();
  EXPECT_NE(value.status().message().find(fragment), std::string::npos)
      << value.status();
  EXPECT_NE(value.status().message().find("attribute 'attr'"),
            std::string::npos)
      << value.status();
}

TEST(AttrTextTest, Bool) {
  EXPECT_EQ(std::get<bool>(RoundTrip(Spec(AttrKind::kBool), "true")), true);
  EXPECT_EQ(std::get<bool>(RoundTrip(Spec(AttrKind::kBool), "false")), false);
  ExpectError(Spec(AttrKind::kBool), "yes", 0, "true or false");
  ExpectError(Spec(AttrKind::kBool), "truex", 0, "true or false");
}

TEST(AttrTextTest, Int64IncludingLimits) {
  EXPECT_EQ(std::get<int64_t>(RoundTrip(Spec(AttrKind::kInt64), "-17")), -17);
  EXPECT_EQ(std::get<int64_t>(
                RoundTrip(Spec(AttrKind::kInt64), "9223372036854775807")),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(std::get<int64_t>(
                RoundTrip(Spec(AttrKind::kInt64), "-9223372036854775808")),
            std::numeric_limits<int64_t>::min());
  ExpectError(Spec(AttrKind::kInt64), "9223372036854775808", 0, "int64 range");
  ExpectError(Spec(AttrKind::kInt64), "  x", 2, "expected an integer");
}

TEST(AttrTextTest, FloatShortestRoundTrip) {
  EXPECT_EQ(std::get<double>(RoundTrip(Spec(AttrKind::kFloat), "0.001")),
            0.001);
  RoundTrip(Spec(AttrKind::kFloat), "1e-05");
  RoundTrip(Spec(AttrKind::kFloat), "0.00001", "1e-05");
  RoundTrip(Spec(AttrKind::kFloat), "-2.5");
  RoundTrip(Spec(AttrKind::kFloat), "0.1");
  RoundTrip(Spec(AttrKind::kFloat), "-inf");
  ExpectError(Spec(AttrKind::kFloat), "abc", 0, "floating-point");
}

TEST(AttrTextTest, StringWithEscapes) {
  AttrValue v = RoundTrip(Spec(AttrKind::kString), R"("a\"b\\c\nd")");
  EXPECT_EQ(std::get<std::string>(v), "a\"b\\c\nd");
  RoundTrip(Spec(AttrKind::kString), R"("")");
  ExpectError(Spec(AttrKind::kString), R"("abc)", 0, "unterminated");
  ExpectError(Spec(AttrKind::kString), "abc", 0, "quoted string");
}

TEST(AttrTextTest, Int64Lists) {
  AttrValue v = RoundTrip(Spec(AttrKind::kInt64List), "{1, 2,3 }", "{1,2,3}");
  EXPECT_EQ(std::get<Int64List>(v), (Int64List{1, 2, 3}));
  EXPECT_TRUE(
      std::get<Int64List>(RoundTrip(Spec(AttrKind::kInt64List), "{}")).empty());
  ExpectError(Spec(AttrKind::kInt64List), "{1,2,x}", 5, "integer");
  ExpectError(Spec(AttrKind::kInt64List), "{1,2", 4, "',' or '}'");
  AttrValue pairs = RoundTrip(Spec(AttrKind::kInt64ListList), "{{0,1}, {1,0}}",
                              "{{0,1},{1,0}}");
  EXPECT_EQ(std::get<Int64ListList>(pairs), (Int64ListList{{0, 1}, {1, 0}}));
  RoundTrip(Spec(AttrKind::kInt64ListList), "{}");
}

TEST(AttrTextTest, BoolLists) {
  AttrValue v = RoundTrip(Spec(AttrKind::kBoolList), "{true,false}");
  EXPECT_EQ(std::get<BoolList>(v), (BoolList{true, false}));
  AttrValue bare = RoundTrip(Spec(AttrKind::kBoolList), "true", "{true}");
  EXPECT_EQ(std::get<BoolList>(bare), (BoolList{true}));
}

TEST(AttrTextTest, WindowOmitsDefaultsLikeXla) {
  AttrValue v = RoundTrip(
      Spec(AttrKind::kWindow),
      "{size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=1x1 rhs_dilate=2x2 "
      "rhs_reversal=1x0}",
      "{size=3x3 stride=2x2 pad=0_1x0_1 rhs_dilate=2x2 rhs_reversal=1x0}");
  const Window& window = std::get<Window>(v);
  ASSERT_EQ(window.dimensions.size(), 2u);
  EXPECT_EQ(window.dimensions[0].size, 3);
  EXPECT_EQ(window.dimensions[0].stride, 2);
  EXPECT_EQ(window.dimensions[0].padding_low, 0);
  EXPECT_EQ(window.dimensions[0].padding_high, 1);
  EXPECT_EQ(window.dimensions[1].window_dilation, 2);
  EXPECT_EQ(window.dimensions[1].base_dilation, 1);
  EXPECT_TRUE(window.dimensions[0].window_reversal);
  EXPECT_FALSE(window.dimensions[1].window_reversal);
  RoundTrip(Spec(AttrKind::kWindow), "{size=2}");
  RoundTrip(Spec(AttrKind::kWindow), "{size=1x2 pad=-1_0x0_0 lhs_dilate=2x1}");
  RoundTrip(Spec(AttrKind::kWindow), "{}");
}

TEST(AttrTextTest, WindowErrors) {
  ExpectError(Spec(AttrKind::kWindow), "{size=3 bogus=1}", 8,
              "unknown window field 'bogus'");
  ExpectError(Spec(AttrKind::kWindow), "{size=3x3 stride=1}", 0,
              "'stride' has 1 dimensions");
  ExpectError(Spec(AttrKind::kWindow), "{size=3 size=3}", 8, "twice");
  ExpectError(Spec(AttrKind::kWindow), "{size=3 rhs_reversal=2}", 0, "0 or 1");
  ExpectError(Spec(AttrKind::kWindow), "{size=3", 7, "'}'");
}

TEST(AttrTextTest, ConvDimLabels) {
  AttrValue v = RoundTrip(Spec(AttrKind::kConvDimLabels), "b01f_01io->b01f");
  const auto& d = std::get<ConvolutionDimensionNumbers>(v);
  EXPECT_EQ(d.input_batch_dimension, 0);
  EXPECT_EQ(d.input_feature_dimension, 3);
  EXPECT_EQ(d.input_spatial_dimensions, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(d.kernel_input_feature_dimension, 2);
  EXPECT_EQ(d.kernel_output_feature_dimension, 3);
  EXPECT_EQ(d.kernel_spatial_dimensions, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(d.output_spatial_dimensions, (std::vector<int64_t>{1, 2}));
  AttrValue shuffled =
      RoundTrip(Spec(AttrKind::kConvDimLabels), "f10b_i10o->10bf");
  EXPECT_EQ(
      std::get<ConvolutionDimensionNumbers>(shuffled).input_spatial_dimensions,
      (std::vector<int64_t>{2, 1}));
  RoundTrip(Spec(AttrKind::kConvDimLabels), "bf_io->bf");
  RoundTrip(Spec(AttrKind::kConvDimLabels), "b012f_012io->b012f");
}

TEST(AttrTextTest, ConvDimLabelsWithUnknownPositions) {
  // Custom calls may leave dimensions unlabeled, printed as '?'.
  AttrValue v = RoundTrip(Spec(AttrKind::kConvDimLabels), "?b01f_0?1io->b01?f");
  const auto& d = std::get<ConvolutionDimensionNumbers>(v);
  EXPECT_EQ(d.input_batch_dimension, 1);
  EXPECT_EQ(d.input_spatial_dimensions, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(d.kernel_spatial_dimensions, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(d.output_feature_dimension, 4);
}

TEST(AttrTextTest, ConvDimLabelsErrors) {
  ExpectError(Spec(AttrKind::kConvDimLabels), "01f_01io->b01f", 0,
              "need both 'b' and 'f'");
  ExpectError(Spec(AttrKind::kConvDimLabels), "b01f_01io->b0f", 0,
              "same number of spatial");
  ExpectError(Spec(AttrKind::kConvDimLabels), "b00f_01io->b01f", 2,
              "unexpected dimension label '0'");
  ExpectError(Spec(AttrKind::kConvDimLabels), "b01f_01xo->b01f", 7,
              "unexpected dimension label 'x'");
  ExpectError(Spec(AttrKind::kConvDimLabels), "b01f-01io", 4, "'_'");
}

TEST(AttrTextTest, PaddingPrintsInteriorForAllOrNone) {
  AttrValue v = RoundTrip(Spec(AttrKind::kPadding), "0_0x1_2_1", "0_0_0x1_2_1");
  const PaddingConfig& padding = std::get<PaddingConfig>(v);
  ASSERT_EQ(padding.dimensions.size(), 2u);
  EXPECT_EQ(padding.dimensions[1].low, 1);
  EXPECT_EQ(padding.dimensions[1].high, 2);
  EXPECT_EQ(padding.dimensions[1].interior, 1);
  RoundTrip(Spec(AttrKind::kPadding), "0_1x-1_2");
  RoundTrip(Spec(AttrKind::kPadding), "3_4_0", "3_4");
  size_t consumed = 99, error_offset = 0;
  absl::StatusOr<AttrValue> empty = ParseAttrValue(
      Spec(AttrKind::kPadding), ", x=1", &consumed, &error_offset);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(std::get<PaddingConfig>(*empty).dimensions.empty());
  EXPECT_EQ(consumed, 0u);
  ExpectError(Spec(AttrKind::kPadding), "0x1", 1, "'_'");
}

TEST(AttrTextTest, SliceStridesPrintedForAllOrNone) {
  AttrValue v = RoundTrip(Spec(AttrKind::kSlice), "{[0:2], [1:5:2]}",
                          "{[0:2:1], [1:5:2]}");
  const SliceRanges& slice = std::get<SliceRanges>(v);
  ASSERT_EQ(slice.ranges.size(), 2u);
  EXPECT_EQ(slice.ranges[1].start, 1);
  EXPECT_EQ(slice.ranges[1].limit, 5);
  EXPECT_EQ(slice.ranges[1].stride, 2);
  RoundTrip(Spec(AttrKind::kSlice), "{[0:2:1], [3:4:1]}", "{[0:2], [3:4]}");
  RoundTrip(Spec(AttrKind::kSlice), "{}");
  ExpectError(Spec(AttrKind::kSlice), "{[0;2]}", 3, "':'");
}

TEST(AttrTextTest, ReplicaGroupsListForm) {
  AttrValue v = RoundTrip(Spec(AttrKind::kReplicaGroups), "{{0,1},{2,3}}");
  const ReplicaGroups& groups = std::get<ReplicaGroups>(v);
  EXPECT_FALSE(groups.is_iota);
  EXPECT_EQ(groups.groups, (Int64ListList{{0, 1}, {2, 3}}));
  RoundTrip(Spec(AttrKind::kReplicaGroups), "{}");
  RoundTrip(Spec(AttrKind::kReplicaGroups), "{ {0, 1} }", "{{0,1}}");
}

TEST(AttrTextTest, ReplicaGroupsIotaFormCanonicalLikeXla) {
  AttrValue v = RoundTrip(Spec(AttrKind::kReplicaGroups), "[2,2]<=[4]");
  const ReplicaGroups& groups = std::get<ReplicaGroups>(v);
  EXPECT_TRUE(groups.is_iota);
  EXPECT_EQ(groups.iota_group_shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(groups.iota_reshape_dims, (std::vector<int64_t>{4}));
  EXPECT_TRUE(groups.iota_transpose_perm.empty());
  AttrValue t = RoundTrip(Spec(AttrKind::kReplicaGroups), "[2,2]<=[2,2]T(1,0)");
  EXPECT_EQ(std::get<ReplicaGroups>(t).iota_transpose_perm,
            (std::vector<int64_t>{1, 0}));
  RoundTrip(Spec(AttrKind::kReplicaGroups), "[2,2]<=[2,2]", "[2,2]<=[4]");
  RoundTrip(Spec(AttrKind::kReplicaGroups), "[2,4]<=[2,2,2]T(2,0,1)",
            "[2,4]<=[4,2]T(1,0)");
  RoundTrip(Spec(AttrKind::kReplicaGroups), "[1,4]<=[1,4]T(1,0)", "[1,4]<=[4]");
  RoundTrip(Spec(AttrKind::kReplicaGroups), "[4,2]<=[2,2,2]T(1,0,2)");
}

TEST(AttrTextTest, ReplicaGroupsMeshFormKeptVerbatim) {
  const std::string mesh = "mesh['axis_0'=2,'axis_1'=2] {'axis_1'}";
  size_t consumed = 0, error_offset = 0;
  absl::StatusOr<AttrValue> v =
      ParseAttrValue(Spec(AttrKind::kReplicaGroups), mesh + ", to_apply=%a",
                     &consumed, &error_offset);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(std::get<RawText>(*v).text, mesh);
  EXPECT_EQ(consumed, mesh.size());
  RoundTrip(Spec(AttrKind::kReplicaGroups), mesh);
  ExpectError(Spec(AttrKind::kReplicaGroups), "mesh['a'=2", 0, "unbalanced");
}

TEST(AttrTextTest, ReplicaGroupsErrors) {
  ExpectError(Spec(AttrKind::kReplicaGroups), "[2,2]<=[5]", 0, "inconsistent");
  ExpectError(Spec(AttrKind::kReplicaGroups), "[2,2]<=[2,2]T(0,0)", 0,
              "inconsistent");
  ExpectError(Spec(AttrKind::kReplicaGroups), "[4]<=[4]", 0,
              "[num_groups,size]");
  ExpectError(Spec(AttrKind::kReplicaGroups), "[2,2]<[4]", 5, "'<='");
  ExpectError(Spec(AttrKind::kReplicaGroups),
              "[4294967296,4294967296]<=[4294967296,4294967296]", 0,
              "inconsistent");
}

TEST(AttrTextTest, EnumsAndEnumLists) {
  AttrSpec direction = Spec(AttrKind::kEnum, {"EQ", "NE", "LT"});
  EXPECT_EQ(std::get<EnumValue>(RoundTrip(direction, "NE")).spelling, "NE");
  ExpectError(direction, "XX", 0, "one of EQ, NE, LT");
  AttrSpec precision =
      Spec(AttrKind::kEnumList, {"default", "high", "highest"});
  AttrValue v = RoundTrip(precision, "{HIGH, default}", "{high,default}");
  EXPECT_EQ(std::get<EnumList>(v).spellings,
            (std::vector<std::string>{"high", "default"}));
  ExpectError(precision, "{high,low}", 6, "one of");
}

TEST(AttrTextTest, OutputOperandAliasing) {
  AttrValue v = RoundTrip(Spec(AttrKind::kOutputOperandAliasing),
                          "{{0}: (1, {}), {1}: (0, {2})}");
  const auto& aliasing = std::get<OutputOperandAliasing>(v);
  ASSERT_EQ(aliasing.aliases.size(), 2u);
  EXPECT_EQ(aliasing.aliases[1].output_index, (std::vector<int64_t>{1}));
  EXPECT_EQ(aliasing.aliases[1].operand, 0);
  EXPECT_EQ(aliasing.aliases[1].operand_index, (std::vector<int64_t>{2}));
  RoundTrip(Spec(AttrKind::kOutputOperandAliasing), "{ {}:(2,{0,1}) }",
            "{{}: (2, {0,1})}");
  RoundTrip(Spec(AttrKind::kOutputOperandAliasing), "{}");
  ExpectError(Spec(AttrKind::kOutputOperandAliasing), "{{0} (1, {})}", 5,
              "':'");
}

TEST(AttrTextTest, RawTextIsVerbatim) {
  const std::string braces = R"({devices=[2,1]0,1 metadata={op_name="a}\"b"}})";
  size_t consumed = 0, error_offset = 0;
  absl::StatusOr<AttrValue> v = ParseAttrValue(
      Spec(AttrKind::kRawText), braces + ", next=1", &consumed, &error_offset);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(std::get<RawText>(*v).text, braces);
  EXPECT_EQ(consumed, braces.size());
  RoundTrip(Spec(AttrKind::kRawText), R"("{\"x\":1}")");
  v = ParseAttrValue(Spec(AttrKind::kRawText), "s32[] 0 , x", &consumed,
                     &error_offset);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(std::get<RawText>(*v).text, "s32[] 0");
  v = ParseAttrValue(Spec(AttrKind::kRawText), "L.1@2:4)", &consumed,
                     &error_offset);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(std::get<RawText>(*v).text, "L.1@2:4");
  ExpectError(Spec(AttrKind::kRawText), "{a={b}", 0, "unbalanced");
  ExpectError(Spec(AttrKind::kRawText), R"({"a})", 0, "unbalanced");
  ExpectError(Spec(AttrKind::kRawText), ", x", 0, "expected a value");
}

// Every prefix of a valid value either parses or fails cleanly with an
// offset inside the text (run under ASan, this also checks bounds).
TEST(AttrTextTest, TruncatedValuesFailCleanly) {
  const std::vector<std::pair<AttrKind, std::string>> samples = {
      {AttrKind::kInt64List, "{1,-2,3}"},
      {AttrKind::kInt64ListList, "{{0,1},{1,0}}"},
      {AttrKind::kBoolList, "{true,false}"},
      {AttrKind::kString, R"("a\"b")"},
      {AttrKind::kFloat, "-1.5e-3"},
      {AttrKind::kWindow, "{size=3x3 stride=2x2 pad=0_1x0_1 rhs_reversal=1x0}"},
      {AttrKind::kConvDimLabels, "b01f_01io->b01f"},
      {AttrKind::kPadding, "0_1_2x3_4"},
      {AttrKind::kSlice, "{[0:2:1], [1:5:2]}"},
      {AttrKind::kReplicaGroups, "[2,4]<=[2,2,2]T(2,0,1)"},
      {AttrKind::kReplicaGroups, "mesh['a'=2] {'a'}"},
      {AttrKind::kOutputOperandAliasing, "{{0}: (1, {}), {1}: (0, {2})}"},
      {AttrKind::kRawText, R"({a={b="}"}})"},
      {AttrKind::kShape, "(f32[2,<=3]{1,0:T(8,128)S(1)}, token[])"},
      {AttrKind::kShapeList, "{f32[2]{0}, s32[]}"},
  };
  for (const auto& [kind, text] : samples) {
    for (size_t n = 0; n <= text.size(); ++n) {
      const std::string prefix = text.substr(0, n);
      size_t consumed = 0, error_offset = 0;
      absl::StatusOr<AttrValue> v =
          ParseAttrValue(Spec(kind), prefix, &consumed, &error_offset);
      if (v.ok()) {
        EXPECT_LE(consumed, prefix.size()) << prefix;
      } else {
        EXPECT_LE(error_offset, prefix.size()) << prefix;
      }
    }
  }
}

TEST(AttrTextTest, DeepRawTextDoesNotOverflow) {
  std::string deep(200000, '{');
  deep += std::string(200000, '}');
  RoundTrip(Spec(AttrKind::kRawText), deep);
}

TEST(AttrTextTest, ShapesAndShapeLists) {
  AttrValue v = RoundTrip(Spec(AttrKind::kShape), "f32[2,3]{1,0}");
  EXPECT_EQ(std::get<Shape>(v).dimensions(), (std::vector<int64_t>{2, 3}));
  AttrValue list = RoundTrip(Spec(AttrKind::kShapeList), "{f32[2]{0},s32[]}",
                             "{f32[2]{0}, s32[]}");
  EXPECT_EQ(std::get<ShapeList>(list).size(), 2u);
  RoundTrip(Spec(AttrKind::kShapeList), "{}");
  ExpectError(Spec(AttrKind::kShape), "f32[2", 5, "',' or ']'");
}

TEST(AttrTextTest, ComputationsPrintButDoNotParse) {
  ExpectError(Spec(AttrKind::kComputation), "%add", 0, "module parser");
  Computation add("add"), mul("mul");
  std::string out;
  PrintAttrValue(Spec(AttrKind::kComputation), AttrValue(&add), &out);
  EXPECT_EQ(out, "%add");
  out.clear();
  PrintAttrValue(Spec(AttrKind::kComputationList),
                 AttrValue(ComputationList{&add, &mul}), &out);
  EXPECT_EQ(out, "{%add, %mul}");
}

TEST(AttrTextTest, LeadingSpaceAndCommentsAreSkipped) {
  size_t consumed = 0, error_offset = 0;
  const std::string text = " /* note */ {1,2}, next";
  absl::StatusOr<AttrValue> v = ParseAttrValue(Spec(AttrKind::kInt64List), text,
                                               &consumed, &error_offset);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(consumed, text.find("}, ") + 1);
}

TEST(AttrTextTest, XlaPrintedExamplesParseWithSchemaSpecs) {
  const OpSchema& conv = GetOpSchema(Opcode::kConvolution);
  const AttrSpec* window = FindAttrSpec(conv, "window");
  ASSERT_NE(window, nullptr);
  RoundTrip(*window, "{size=5x5 pad=2_2x2_2}");
  const AttrSpec* fusion_kind =
      FindAttrSpec(GetOpSchema(Opcode::kFusion), "kind");
  ASSERT_NE(fusion_kind, nullptr);
  RoundTrip(*fusion_kind, "kLoop");
  const AttrSpec* target =
      FindAttrSpec(GetOpSchema(Opcode::kCustomCall), "custom_call_target");
  ASSERT_NE(target, nullptr);
  EXPECT_EQ(std::get<std::string>(RoundTrip(*target, R"("foo\"bar")")),
            "foo\"bar");
}

}  // namespace
}  // namespace kiln
