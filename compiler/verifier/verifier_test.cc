#include "compiler/verifier/verifier.h"

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/module.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using verifier_test::ParseForVerifier;
using verifier_test::VerifierErrors;

using ::testing::Contains;
using ::testing::ElementsAre;

constexpr char kGood[] = R"(HloModule good

ENTRY %main (x: f32[4], y: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %y = f32[4]{0} parameter(1)
  ROOT %sum = f32[4]{0} add(f32[4]{0} %x, f32[4]{0} %y)
}
)";

constexpr char kTwoComputations[] = R"(HloModule calls

%callee (a: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  ROOT %neg = f32[4]{0} negate(f32[4]{0} %a)
}

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %n1 = f32[4]{0} negate(f32[4]{0} %x)
  ROOT %c = f32[4]{0} call(f32[4]{0} %n1), to_apply=%callee
}
)";

TEST(VerifierTest, GoodModuleVerifies) {
  std::unique_ptr<Module> module = ParseForVerifier(kGood);
  ASSERT_NE(module, nullptr);
  VerifyReport report = VerifyModuleReport(*module);
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.instructions_checked, 3);
  EXPECT_TRUE(VerifyModule(*module).ok());
}

TEST(VerifierTest, DeclaredShapeMustMatchInferred) {
  std::unique_ptr<Module> module = ParseForVerifier(R"(HloModule bad

ENTRY %main (x: f32[4], y: f32[4]) -> f32[3] {
  %x = f32[4]{0} parameter(0)
  %y = f32[4]{0} parameter(1)
  ROOT %sum = f32[3]{0} add(f32[4]{0} %x, f32[4]{0} %y)
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:6:8: error: sum: declared shape f32[3] "
                          "does not match inferred shape f32[4] "
                          "(shape.inferred)"));
  absl::Status first = VerifyModule(*module);
  EXPECT_EQ(first.code(), absl::StatusCode::kInvalidArgument);
}

TEST(VerifierTest, InferenceErrorGetsLocation) {
  std::unique_ptr<Module> module = ParseForVerifier(R"(HloModule bad

ENTRY %main (x: f32[4], y: s32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %y = s32[4]{0} parameter(1)
  ROOT %sum = f32[4]{0} add(f32[4]{0} %x, s32[4]{0} %y)
}
)");
  ASSERT_NE(module, nullptr);
  std::vector<std::string> errors = VerifierErrors(*module);
  ASSERT_EQ(errors.size(), 1);
  // The message after the name is the shape rule's own (compiler/ops).
  EXPECT_EQ(errors[0].rfind("test.hlo:6:8: error: sum: ", 0), 0) << errors[0];
  EXPECT_NE(errors[0].find("(operation_semantics.md"), std::string::npos)
      << errors[0];
}

TEST(VerifierTest, LayoutMustBeValid) {
  std::unique_ptr<Module> module = ParseForVerifier(kGood);
  ASSERT_NE(module, nullptr);
  Instruction* sum = module->entry()->root();
  sum->mutable_shape()->set_layout(Layout({1}));
  std::vector<std::string> errors = VerifierErrors(*module);
  ASSERT_EQ(errors.size(), 1);
  EXPECT_EQ(errors[0].rfind("test.hlo:6:8: error: sum: declared shape "
                            "f32[4]{1} is invalid: ",
                            0),
            0)
      << errors[0];
  EXPECT_NE(errors[0].find("(shape.valid)"), std::string::npos) << errors[0];
}

// Element counts and byte sizes are int64 everywhere: a shape beyond them
// is refused with the shape in the message, for every array leaf (tuple
// elements too), whatever the element type.
TEST(VerifierTest, ShapesWhoseSizeOverflowsInt64AreRefused) {
  std::unique_ptr<Module> module = ParseForVerifier(R"(HloModule big

ENTRY %main {
  %x = f32[4294967296,4294967296] parameter(0)
  %y = (s8[2], f64[1152921504606846976]) parameter(1)
  %z = pred[4611686018427387904,2] parameter(2)
  ROOT %t = s8[9223372036854775807] parameter(3)
}
)");
  ASSERT_NE(module, nullptr);
  std::vector<std::string> errors = VerifierErrors(*module);
  ASSERT_EQ(errors.size(), 3) << errors[0];
  EXPECT_EQ(errors[0].rfind("test.hlo:4:3: error: x: declared shape "
                            "f32[4294967296,4294967296] is too large: ",
                            0),
            0)
      << errors[0];
  EXPECT_NE(errors[0].find("more than 2^63 - 1 elements (shape.size)"),
            std::string::npos)
      << errors[0];
  EXPECT_NE(errors[1].find("f64[1152921504606846976] has "
                           "1152921504606846976 elements, more than 2^63 - 1 "
                           "bytes (shape.size)"),
            std::string::npos)
      << errors[1];
  EXPECT_NE(errors[2].find("pred[4611686018427387904,2] has more than"),
            std::string::npos)
      << errors[2];
}

constexpr char kImplicitBroadcast[] = R"(HloModule client

ENTRY %main (x: f32[2,3], y: f32[3]) -> f32[2,3] {
  %x = f32[2,3]{1,0} parameter(0)
  %y = f32[3]{0} parameter(1)
  ROOT %sum = f32[2,3]{1,0} add(f32[2,3]{1,0} %x, f32[3]{0} %y), broadcast_dimensions={1}
}
)";

TEST(VerifierTest, StrictFormRejectsImplicitBroadcast) {
  std::unique_ptr<Module> module = ParseForVerifier(kImplicitBroadcast);
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(VerifyModule(*module).ok()) << VerifyModule(*module);
  VerifyOptions strict;
  strict.form = ShapeForm::kStrict;
  std::vector<std::string> errors = VerifierErrors(*module, strict);
  ASSERT_EQ(errors.size(), 1);
  EXPECT_EQ(errors[0].rfind("test.hlo:6:8: error: sum: ", 0), 0) << errors[0];
  EXPECT_NE(errors[0].find("broadcast_dimensions"), std::string::npos)
      << errors[0];
}

TEST(VerifierTest, ComputationNeedsRoot) {
  std::unique_ptr<Module> module = ParseForVerifier(kGood);
  ASSERT_NE(module, nullptr);
  module->entry()->set_root(nullptr);
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:4:3: error: main: computation has no ROOT "
                          "(structure.root)"));
}

TEST(VerifierTest, RejectsCycles) {
  std::unique_ptr<Module> module = ParseForVerifier(kTwoComputations);
  ASSERT_NE(module, nullptr);
  Instruction* n1 = module->entry()->FindInstruction("n1");
  Instruction* call = module->entry()->root();
  n1->ReplaceOperandWith(0, call);
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:11:8: error: main: computation main has a "
                          "cycle through n1 (structure.acyclic)"));
}

TEST(VerifierTest, OperandsMustBeLocal) {
  std::unique_ptr<Module> module = ParseForVerifier(kTwoComputations);
  ASSERT_NE(module, nullptr);
  Instruction* n1 = module->entry()->FindInstruction("n1");
  Instruction* a = module->FindComputation("callee")->parameter(0);
  n1->ReplaceOperandWith(0, a);
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:10:3: error: n1: operand 0 (a) belongs to "
                          "another computation "
                          "(structure.operand_computation)"));
}

TEST(VerifierTest, ParameterNumbersOutOfRange) {
  std::unique_ptr<Module> module = ParseForVerifier(kGood);
  ASSERT_NE(module, nullptr);
  module->entry()->FindInstruction("y")->set_parameter_number(2);
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:5:3: error: y: parameter number 2 is out "
                          "of range [0, 2) (structure.parameter_numbers)"));
}

TEST(VerifierTest, ParameterNumbersDuplicate) {
  std::unique_ptr<Module> module = ParseForVerifier(kGood);
  ASSERT_NE(module, nullptr);
  module->entry()->FindInstruction("y")->set_parameter_number(0);
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:5:3: error: y: parameter number 0 is also "
                          "used by x (structure.parameter_numbers)"));
}

TEST(VerifierTest, EntryMustExist) {
  std::unique_ptr<Module> module = ParseForVerifier(kGood);
  ASSERT_NE(module, nullptr);
  module->set_entry(nullptr);
  EXPECT_THAT(
      VerifierErrors(*module),
      ElementsAre("test.hlo:1:1: error: good: module has no entry computation "
                  "(structure.entry)"));
}

TEST(VerifierTest, CalledComputationsMustBeInModule) {
  std::unique_ptr<Module> module = ParseForVerifier(kTwoComputations);
  ASSERT_NE(module, nullptr);
  auto stray = std::make_unique<Computation>("stray");
  module->entry()->root()->RemapCalledComputations(
      [&](Computation*) { return stray.get(); });
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:11:8: error: c: calls computation stray, "
                          "which is not in the module "
                          "(structure.called_computation)"));
}

TEST(VerifierTest, RejectsRecursion) {
  std::unique_ptr<Module> module = ParseForVerifier(kTwoComputations);
  ASSERT_NE(module, nullptr);
  Computation* main = module->entry();
  main->root()->RemapCalledComputations([&](Computation*) { return main; });
  std::vector<std::string> errors = VerifierErrors(*module);
  ASSERT_EQ(errors.size(), 1);
  EXPECT_EQ(
      errors[0],
      "test.hlo:1:1: error: calls: computation main calls itself recursively "
      "(structure.recursion)");
}

TEST(VerifierTest, InstructionNamesMustBeUnique) {
  std::unique_ptr<Module> module = ParseForVerifier(kTwoComputations);
  ASSERT_NE(module, nullptr);
  module->entry()->FindInstruction("n1")->set_name("neg");
  EXPECT_THAT(VerifierErrors(*module),
              ElementsAre("test.hlo:10:3: error: neg: name is already used by "
                          "an instruction of computation callee "
                          "(structure.unique_names)"));
}

TEST(VerifierTest, EntryLayoutMustMatchEntry) {
  std::unique_ptr<Module> module = ParseForVerifier(kGood);
  ASSERT_NE(module, nullptr);
  ComputationLayout layout;
  layout.parameters = {Shape::Array(ElementType::kF32, {4}),
                       Shape::Array(ElementType::kS32, {4})};
  layout.result = Shape::Array(ElementType::kF32, {5});
  module->config().entry_computation_layout = layout;
  EXPECT_THAT(
      VerifierErrors(*module),
      ElementsAre(
          "test.hlo:1:1: error: good: entry_computation_layout parameter 1 is "
          "s32[4] but the entry parameter is f32[4] "
          "(config.entry_computation_layout)",
          "test.hlo:1:1: error: good: entry_computation_layout result is "
          "f32[5] but "
          "the entry ROOT is f32[4] "
          "(config.entry_computation_layout)"));
  layout.parameters.pop_back();
  module->config().entry_computation_layout = layout;
  layout.result = Shape::Array(ElementType::kF32, {4});
  module->config().entry_computation_layout = layout;
  EXPECT_THAT(
      VerifierErrors(*module),
      ElementsAre("test.hlo:1:1: error: good: entry_computation_layout has 1 "
                  "parameters but entry computation main has 2 "
                  "(config.entry_computation_layout)"));
}

TEST(VerifierTest, InputOutputAliasMustReferToRealBuffers) {
  std::unique_ptr<Module> module = ParseForVerifier(kGood);
  ASSERT_NE(module, nullptr);
  InputOutputAlias good;  // {}: (0, {})
  module->config().input_output_alias = {good};
  EXPECT_TRUE(VerifyModule(*module).ok());
  InputOutputAlias bad_parameter = good;
  bad_parameter.parameter_number = 7;
  InputOutputAlias bad_output = good;
  bad_output.output_index = {0};
  InputOutputAlias bad_index = good;
  bad_index.parameter_index = {1};
  module->config().input_output_alias = {bad_parameter, bad_output, bad_index};
  EXPECT_THAT(
      VerifierErrors(*module),
      ElementsAre(
          "test.hlo:1:1: error: good: input_output_alias refers to parameter 7 "
          "but the "
          "entry has 2 (config.input_output_alias)",
          "test.hlo:1:1: error: good: input_output_alias output index {0} does "
          "not exist "
          "in the entry result f32[4] (config.input_output_alias)",
          "test.hlo:1:1: error: good: input_output_alias refers to index {1} "
          "of parameter "
          "0, which does not exist in f32[4] (config.input_output_alias)"));
}

TEST(VerifierTest, AliasShapesMustBeCompatible) {
  std::unique_ptr<Module> module = ParseForVerifier(R"(HloModule alias

ENTRY %main (x: f32[4], y: s32[4]) -> (f32[4], s32[4]) {
  %x = f32[4]{0} parameter(0)
  %y = s32[4]{0} parameter(1)
  ROOT %t = (f32[4]{0}, s32[4]{0}) tuple(f32[4]{0} %x, s32[4]{0} %y)
}
)");
  ASSERT_NE(module, nullptr);
  InputOutputAlias alias;
  alias.output_index = {1};
  alias.parameter_number = 0;
  module->config().input_output_alias = {alias};
  EXPECT_THAT(
      VerifierErrors(*module),
      ElementsAre(
          "test.hlo:1:1: error: alias: input_output_alias output {1} is "
          "s32[4] but parameter 0 at {} is f32[4] "
          "(config.input_output_alias)"));
}

TEST(VerifierTest, AliasingIsOneToOne) {
  std::unique_ptr<Module> module = ParseForVerifier(R"(HloModule alias

ENTRY %main (x: f32[4], y: f32[4]) -> (f32[4], f32[4]) {
  %x = f32[4]{0} parameter(0)
  %y = f32[4]{0} parameter(1)
  ROOT %t = (f32[4]{0}, f32[4]{0}) tuple(f32[4]{0} %x, f32[4]{0} %y)
}
)");
  ASSERT_NE(module, nullptr);
  InputOutputAlias first;
  first.output_index = {0};
  InputOutputAlias second;
  second.output_index = {1};
  second.parameter_number = 1;
  BufferDonor donor;  // (0, {})
  module->config().input_output_alias = {first, second};
  EXPECT_TRUE(VerifyModule(*module).ok()) << VerifyModule(*module);
  InputOutputAlias same_output = second;
  same_output.output_index = {0};
  InputOutputAlias same_input = first;
  same_input.output_index = {1};
  module->config().input_output_alias = {first, same_output, same_input};
  module->config().buffer_donor = {donor};
  EXPECT_THAT(
      VerifierErrors(*module),
      ElementsAre("test.hlo:1:1: error: alias: input_output_alias output {0} "
                  "is aliased "
                  "twice (config.input_output_alias)",
                  "test.hlo:1:1: error: alias: input_output_alias aliases "
                  "parameter 0 at {} "
                  "with more than one output (config.input_output_alias)",
                  "test.hlo:1:1: error: alias: buffer_donor parameter 0 at {} "
                  "is also in "
                  "input_output_alias (config.buffer_donor)"));
}

TEST(VerifierTest, TokensOnlyFeedSideEffectOps) {
  std::unique_ptr<Module> module = ParseForVerifier(R"(HloModule tokens

ENTRY %main (x: f32[4]) -> (f32[4], token[]) {
  %x = f32[4]{0} parameter(0)
  %tok = token[] after-all()
  %dep = f32[4]{0} add-dependency(f32[4]{0} %x, token[] %tok)
  %neg = f32[4]{0} negate(f32[4]{0} %dep)
  ROOT %t = (f32[4]{0}, token[]) tuple(f32[4]{0} %neg, token[] %tok)
}
)");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(VerifyModule(*module).ok()) << VerifyModule(*module);
  Instruction* neg = module->entry()->FindInstruction("neg");
  neg->ReplaceOperandWith(0, module->entry()->FindInstruction("tok"));
  // The shape rule of negate may reject the token too; the token check
  // must in any case say what is wrong.
  EXPECT_THAT(VerifierErrors(*module),
              Contains("test.hlo:7:3: error: neg: operand 0 (tok) is a token, "
                       "which negate cannot consume (token.usage)"));
}

TEST(VerifierTest, ReportsEveryError) {
  std::unique_ptr<Module> module = ParseForVerifier(kTwoComputations);
  ASSERT_NE(module, nullptr);
  module->entry()->FindInstruction("n1")->set_name("neg");
  module->FindComputation("callee")->set_root(nullptr);
  EXPECT_EQ(VerifierErrors(*module).size(), 2);
}

TEST(VerifierTest, CountsInstructionsWithoutShapeRule) {
  std::unique_ptr<Module> module = ParseForVerifier(kTwoComputations);
  ASSERT_NE(module, nullptr);
  int64_t expected_without_rule = 0;
  for (const Computation* computation : module->computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      if (!HasShapeRule(instruction->opcode())) ++expected_without_rule;
    }
  }
  VerifyReport report = VerifyModuleReport(*module);
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.instructions_checked, 5);
  EXPECT_EQ(report.without_shape_rule, expected_without_rule);
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

class CorpusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusTest, VerifiesClean) {
  std::string text = ReadFile(GetParam());
  ASSERT_FALSE(text.empty()) << GetParam();
  ParseOptions options;
  options.filename = GetParam();
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text, options);
  ASSERT_TRUE(module.ok()) << module.status();
  VerifyReport report = VerifyModuleReport(**module);
  for (const absl::Status& error : report.errors) ADD_FAILURE() << error;
  EXPECT_GT(report.instructions_checked, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, CorpusTest,
    ::testing::Values("examples/tour.hlo", "compiler/text/testdata/async.hlo",
                      "compiler/text/testdata/async_late_binding.hlo",
                      "compiler/text/testdata/async_sugar.hlo",
                      "compiler/text/testdata/collectives.hlo",
                      "compiler/text/testdata/control_flow.hlo",
                      "compiler/text/testdata/convolution_dot.hlo",
                      "compiler/text/testdata/custom_call.hlo",
                      "compiler/text/testdata/data_movement.hlo",
                      "compiler/text/testdata/dynamic.hlo",
                      "compiler/text/testdata/elementwise.hlo",
                      "compiler/text/testdata/fusion.hlo",
                      "compiler/text/testdata/header.hlo",
                      "compiler/text/testdata/indexing.hlo",
                      "compiler/text/testdata/io.hlo",
                      "compiler/text/testdata/jax_dump.hlo",
                      "compiler/text/testdata/jax_sharded_dump.hlo",
                      "compiler/text/testdata/layouts.hlo",
                      "compiler/text/testdata/linalg_random.hlo",
                      "compiler/text/testdata/literals.hlo",
                      "compiler/text/testdata/metadata.hlo",
                      "compiler/text/testdata/misc.hlo",
                      "compiler/text/testdata/reduction.hlo",
                      "compiler/text/testdata/scan.hlo",
                      "compiler/text/testdata/short_form.hlo",
                      "compiler/text/testdata/types.hlo",
                      "compiler/text/testdata/xla_gpu_dump.hlo",
                      "compiler/text/testdata/xla_optimized_dump.hlo"));

}  // namespace
}  // namespace kiln
