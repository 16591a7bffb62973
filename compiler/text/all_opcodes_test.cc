// Every opcode parses, prints and parses back: a minimal instruction is
// generated from each op's schema (its fewest operands and every attribute,
// required or not, with a sample value of the attribute's kind).
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/module.h"
#include "compiler/ir/opcode.h"
#include "compiler/ops/op_schema.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/text/text_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

// The sample modules exercise the syntax of every op, not its shape rule
// (the operands are arbitrary), so the parser's shape checks are off.
ParseOptions SyntaxOnly() {
  ParseOptions options;
  options.check_shapes = false;
  return options;
}

// A sample value in HLO text for each attribute kind.
std::string SampleValue(const AttrSpec& spec) {
  switch (spec.kind) {
    case AttrKind::kBool:
      return "true";
    case AttrKind::kInt64:
      return "1";
    case AttrKind::kFloat:
      return "0.5";
    case AttrKind::kString:
      return "\"sample\"";
    case AttrKind::kInt64List:
      return "{0}";
    case AttrKind::kInt64ListList:
      return "{{0,1}}";
    case AttrKind::kBoolList:
      return "{true}";
    case AttrKind::kWindow:
      return "{size=2 stride=1}";
    case AttrKind::kConvDimLabels:
      return "b0f_0io->b0f";
    case AttrKind::kPadding:
      return "0_1";
    case AttrKind::kSlice:
      return "{[0:1]}";
    case AttrKind::kReplicaGroups:
      return "{{0}}";
    case AttrKind::kEnum:
      // compare's type=FLOAT is implied for the f32 operands used here and
      // not kept (as in XLA), so use the other float comparison.
      if (spec.name == "type") return "TOTALORDER";
      return spec.enum_values.front();
    case AttrKind::kEnumList:
      return absl::StrCat("{", spec.enum_values.front(), "}");
    case AttrKind::kOutputOperandAliasing:
      return "{{}: (0, {})}";
    case AttrKind::kRawText:
      return "{sample}";
    case AttrKind::kShape:
      return "f32[2]{0}";
    case AttrKind::kShapeList:
      return "{f32[2]{0}, s32[]}";
    case AttrKind::kComputation:
      return "%callee";
    case AttrKind::kComputationList:
      return "{%callee, %callee}";
  }
  return "";
}

// A module whose entry ROOT is one `opcode` instruction with every
// attribute of its schema. Shapes are not checked by the parser yet, so
// f32[] everywhere is enough.
std::string ModuleFor(Opcode opcode) {
  const OpSchema& schema = GetOpSchema(opcode);
  std::string text =
      "HloModule all_ops\n\n%callee (a: f32[], b: f32[]) -> f32[] {\n"
      "  %a = f32[] parameter(0)\n  %b = f32[] parameter(1)\n"
      "  ROOT %s = f32[] add(f32[] %a, f32[] %b)\n}\n\nENTRY %main {\n";
  const int operand_count = std::max(schema.min_operands, 0);
  for (int i = 0; i < std::max(operand_count, 1); ++i) {
    absl::StrAppend(&text, "  %p", i, " = f32[] parameter(", i, ")\n");
  }
  absl::StrAppend(&text, "  ROOT %op = f32[] ", OpcodeName(opcode), "(");
  if (opcode == Opcode::kConstant) {
    text += "1";
  } else if (opcode == Opcode::kParameter) {
    text += "1";
  } else {
    for (int i = 0; i < operand_count; ++i) {
      absl::StrAppend(&text, i > 0 ? ", " : "", "%p", i);
    }
  }
  text += ")";
  for (const AttrSpec& spec : schema.attrs) {
    absl::StrAppend(&text, ", ", spec.name, "=", SampleValue(spec));
  }
  text += "\n}\n";
  return text;
}

class AllOpcodesTest : public ::testing::TestWithParam<Opcode> {};

TEST_P(AllOpcodesTest, ParsesPrintsAndParsesBack) {
  const Opcode opcode = GetParam();
  const std::string text = ModuleFor(opcode);
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(text, SyntaxOnly());
  ASSERT_TRUE(module.ok()) << module.status() << "\n" << text;
  const Instruction* root = (*module)->entry()->root();
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->opcode(), opcode);
  for (const AttrSpec& spec : GetOpSchema(opcode).attrs) {
    EXPECT_TRUE(root->attrs().Has(spec.name)) << spec.name;
  }
  const std::string printed = PrintModule(**module);
  EXPECT_NE(printed.find(absl::StrCat(" ", OpcodeName(opcode), "(")),
            std::string::npos)
      << printed;
  absl::StatusOr<std::unique_ptr<Module>> reparsed =
      ParseModule(printed, SyntaxOnly());
  ASSERT_TRUE(reparsed.ok()) << reparsed.status() << "\n" << printed;
  EXPECT_EQ(PrintModule(**reparsed), printed);
  EXPECT_EQ(ModuleDifference(**module, **reparsed), "");
}

TEST_P(AllOpcodesTest, MissingRequiredAttributeIsAnError) {
  const Opcode opcode = GetParam();
  const OpSchema& schema = GetOpSchema(opcode);
  for (const AttrSpec& dropped : schema.attrs) {
    if (!dropped.required) continue;
    // The sample operands are scalars, and broadcasting a scalar may leave
    // dimensions out (XLA); parser_test covers that case.
    if (opcode == Opcode::kBroadcast && dropped.name == "dimensions") continue;
    std::string text = ModuleFor(opcode);
    const std::string attr =
        absl::StrCat(", ", dropped.name, "=", SampleValue(dropped));
    text.erase(text.find(attr), attr.size());
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(text, SyntaxOnly());
    ASSERT_FALSE(module.ok()) << text;
    EXPECT_NE(module.status().message().find(
                  absl::StrCat("missing required attribute '", dropped.name)),
              absl::string_view::npos)
        << module.status();
  }
}

std::string OpcodeTestName(const ::testing::TestParamInfo<Opcode>& info) {
  std::string name(OpcodeName(info.param));
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryOpcode, AllOpcodesTest,
                         ::testing::ValuesIn(AllOpcodes().begin(),
                                             AllOpcodes().end()),
                         OpcodeTestName);

}  // namespace
}  // namespace kiln
