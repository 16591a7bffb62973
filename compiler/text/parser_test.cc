#include "compiler/text/parser.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

std::unique_ptr<Module> ParseOk(absl::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status() << "\n" << text;
  return module.ok() ? std::move(*module) : nullptr;
}

// The error message of parsing `text`, which must fail.
std::string ParseError(absl::string_view text, ParseOptions options = {}) {
  options.filename = "test.hlo";
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text, options);
  EXPECT_FALSE(module.ok()) << text;
  if (module.ok()) return "";
  EXPECT_EQ(module.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(module.status().message());
}

::testing::AssertionResult HasError(const std::string& message,
                                    absl::string_view position,
                                    absl::string_view fragment) {
  const std::string prefix = absl::StrCat("test.hlo:", position, ": error: ");
  if (message.rfind(prefix, 0) != 0) {
    return ::testing::AssertionFailure()
           << "message '" << message << "' does not start with '" << prefix
           << "'";
  }
  if (message.find(std::string(fragment)) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "message '" << message << "' does not contain '" << fragment
           << "'";
  }
  return ::testing::AssertionSuccess();
}

constexpr absl::string_view kAddModule =
    R"(HloModule add_module, entry_computation_layout={(f32[2]{0}, f32[2]{0})->f32[2]{0}}

%add.clone (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %x, f32[] %y)
}

ENTRY %main (p0: f32[2], p1: f32[2]) -> f32[2] {
  %p0 = f32[2]{0} parameter(0)
  %p1 = f32[2] parameter(1)  // layout omitted: the default is filled in
  /* a block comment */ %a = f32[2]{0} add(f32[2]{0} %p0, /*index=1*/p1)
  ROOT %m = f32[2]{0} multiply(%a, f32[2]{0} %p1), metadata={op_name="m"}
}
)";

TEST(ParserTest, ParsesStructure) {
  std::unique_ptr<Module> module = ParseOk(kAddModule);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->name(), "add_module");
  ASSERT_EQ(module->computations().size(), 2u);
  Computation* entry = module->entry();
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->name(), "main");
  EXPECT_EQ(entry->instruction_count(), 4);
  ASSERT_EQ(entry->parameters().size(), 2u);
  EXPECT_EQ(entry->parameter(1)->name(), "p1");
  Instruction* root = entry->root();
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->name(), "m");
  EXPECT_EQ(root->opcode(), Opcode::kMultiply);
  ASSERT_EQ(root->operand_count(), 2);
  EXPECT_EQ(root->operand(0)->name(), "a");
  EXPECT_EQ(root->operand(1), entry->parameter(1));
  ASSERT_TRUE(root->metadata.has_value());
  EXPECT_EQ(root->metadata->text, "{op_name=\"m\"}");
  Instruction* a = entry->FindInstruction("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->operand(0), entry->parameter(0));
  EXPECT_EQ(a->operand(1), entry->parameter(1));
}

TEST(ParserTest, FillsDefaultLayout) {
  std::unique_ptr<Module> module = ParseOk(kAddModule);
  ASSERT_NE(module, nullptr);
  const Shape& shape = module->entry()->parameter(1)->shape();
  ASSERT_TRUE(shape.has_layout());
  EXPECT_EQ(shape.layout(), Layout::Default(1));
}

TEST(ParserTest, SetsLocations) {
  std::unique_ptr<Module> module = ParseOk(kAddModule);
  ASSERT_NE(module, nullptr);
  const Instruction* a = module->entry()->FindInstruction("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->location.file, "<input>");
  EXPECT_EQ(a->location.line, 12);
  EXPECT_EQ(a->location.column, 25);
  const Instruction* x = module->entry()->parameter(0);
  EXPECT_EQ(x->location.line, 10);
  EXPECT_EQ(x->location.column, 3);
}

TEST(ParserTest, LastInstructionIsRootWithoutRootKeyword) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0)
  b = f32[] negate(a)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry()->root()->name(), "b");
  EXPECT_EQ(module->entry()->root()->shape(), Shape::Scalar(ElementType::kF32));
}

TEST(ParserTest, LastComputationIsEntryWithoutEntryKeyword) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
c1 { ROOT a = f32[] parameter(0) }
c2 { ROOT b = s32[] parameter(0) })");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry()->name(), "c2");
}

TEST(ParserTest, HeaderAttributes) {
  std::unique_ptr<Module> module = ParseOk(
      R"(HloModule m, is_scheduled=true, entry_computation_layout={(f32[2]{0}, s32[])->(f32[2]{0}, s32[])}, allow_spmd_sharding_propagation_to_output={true}, replica_count=2, num_partitions=4, input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {}, must-alias) }, buffer_donor={ (0, {}), (1, {2,3}) }, frontend_attributes={a="x",b={c=1}}

ENTRY e (p0: f32[2], p1: s32[]) -> (f32[2], s32[]) {
  p0 = f32[2]{0} parameter(0)
  p1 = s32[] parameter(1)
  ROOT t = (f32[2]{0}, s32[]) tuple(p0, p1)
}
)");
  ASSERT_NE(module, nullptr);
  const ModuleConfig& config = module->config();
  EXPECT_TRUE(config.is_scheduled);
  EXPECT_EQ(config.replica_count, 2);
  EXPECT_EQ(config.num_partitions, 4);
  ASSERT_TRUE(config.entry_computation_layout.has_value());
  ASSERT_EQ(config.entry_computation_layout->parameters.size(), 2u);
  EXPECT_EQ(config.entry_computation_layout->parameters[1],
            Shape::Scalar(ElementType::kS32));
  EXPECT_TRUE(config.entry_computation_layout->result.IsTuple());
  ASSERT_EQ(config.input_output_alias.size(), 2u);
  EXPECT_EQ(config.input_output_alias[0].output_index, std::vector<int64_t>{0});
  EXPECT_FALSE(config.input_output_alias[0].must_alias);
  EXPECT_TRUE(config.input_output_alias[1].must_alias);
  EXPECT_EQ(config.input_output_alias[1].parameter_number, 1);
  ASSERT_EQ(config.buffer_donor.size(), 2u);
  EXPECT_EQ(config.buffer_donor[1].parameter_index,
            (std::vector<int64_t>{2, 3}));
  ASSERT_EQ(config.frontend_attributes.size(), 2u);
  // Frontend attribute values are kept as written, quotes included.
  EXPECT_EQ(config.frontend_attributes[0],
            std::make_pair(std::string("a"), std::string("\"x\"")));
  EXPECT_EQ(config.frontend_attributes[1].second, "{c=1}");
  ASSERT_EQ(config.extra_attributes.size(), 1u);
  EXPECT_EQ(config.extra_attributes[0].first,
            "allow_spmd_sharding_propagation_to_output");
  EXPECT_EQ(config.extra_attributes[0].second.text, "{true}");
}

TEST(ParserTest, UnknownHeaderAttributeIsNamed) {
  std::string message = ParseError(
      "HloModule m, bogus=1\nENTRY e { ROOT a = f32[] parameter(0) }");
  EXPECT_TRUE(HasError(message, "1:14", "unknown module attribute 'bogus'"));
}

TEST(ParserTest, ForwardComputationReferencesAndExecutionThread) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY main {
  p = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=add
}
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}, execution_thread="host"
)");
  ASSERT_NE(module, nullptr);
  Computation* add = module->FindComputation("add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->execution_thread(), "host");
  const Instruction* reduce = module->entry()->root();
  const Computation* const* to_apply =
      reduce->attrs().Get<Computation*>("to_apply");
  ASSERT_NE(to_apply, nullptr);
  EXPECT_EQ(*to_apply, add);
  const Int64List* dims = reduce->attrs().Get<Int64List>("dimensions");
  ASSERT_NE(dims, nullptr);
  EXPECT_EQ(*dims, Int64List{0});
}

TEST(ParserTest, ComputationListAttribute) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
b0 { ROOT x = f32[] parameter(0) }
b1 { y = f32[] parameter(0)
  ROOT n = f32[] negate(y) }
ENTRY e {
  i = s32[] parameter(0)
  v = f32[] parameter(1)
  ROOT c = f32[] conditional(i, v, v), branch_computations={%b0, b1}
})");
  ASSERT_NE(module, nullptr);
  const ComputationList* branches =
      module->entry()->root()->attrs().Get<ComputationList>(
          "branch_computations");
  ASSERT_NE(branches, nullptr);
  ASSERT_EQ(branches->size(), 2u);
  EXPECT_EQ((*branches)[0]->name(), "b0");
  EXPECT_EQ((*branches)[1]->name(), "b1");
}

TEST(ParserTest, Constants) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  a = s32[3] constant({1, 2, 3})
  ROOT b = f32[] constant(2.5)
})");
  ASSERT_NE(module, nullptr);
  const Instruction* a = module->entry()->FindInstruction("a");
  ASSERT_TRUE(a->has_literal());
  EXPECT_EQ(a->literal(), Literal::VectorS32({1, 2, 3}));
  EXPECT_EQ(module->entry()->root()->literal(), Literal::ScalarF32(2.5f));
}

TEST(ParserTest, GenericAttributesKeptVerbatim) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  a = f32[] parameter(0), sharding={replicated}
  b = f32[] negate(a), control-predecessors={a}, backend_config="{\"x\":1}"
  ROOT c = f32[] negate(b), metadata={op_type="Neg" op_name="jit(f)/neg" source_file="f.py" source_line=3}, frontend_attributes={_xla_stream="1"}, backend_config={"k": [1, {"n": "}"}]}, result_accuracy={tolerance={atol=1e-5,rtol=0,ulps=1}}, statistics={stat_index_to_visualize=0}, origin={{"c"}}, control-predecessors={%a, %b}
})");
  ASSERT_NE(module, nullptr);
  const Computation* e = module->entry();
  const Instruction* a = e->FindInstruction("a");
  const Instruction* b = e->FindInstruction("b");
  const Instruction* c = e->root();
  EXPECT_EQ(a->sharding->text, "{replicated}");
  EXPECT_EQ(b->backend_config->text, "\"{\\\"x\\\":1}\"");
  ASSERT_EQ(b->control_predecessors().size(), 1u);
  EXPECT_EQ(b->control_predecessors()[0], a);
  EXPECT_EQ(c->metadata->text,
            "{op_type=\"Neg\" op_name=\"jit(f)/neg\" source_file=\"f.py\" "
            "source_line=3}");
  EXPECT_EQ(c->backend_config->text, "{\"k\": [1, {\"n\": \"}\"}]}");
  EXPECT_EQ(c->result_accuracy->text, "{tolerance={atol=1e-5,rtol=0,ulps=1}}");
  EXPECT_EQ(c->statistics_viz->text, "{stat_index_to_visualize=0}");
  EXPECT_EQ(c->origin->text, "{{\"c\"}}");
  ASSERT_EQ(c->frontend_attributes.size(), 1u);
  EXPECT_EQ(c->frontend_attributes[0].first, "_xla_stream");
  EXPECT_EQ(c->frontend_attributes[0].second, "\"1\"");
  EXPECT_EQ(c->control_predecessors().size(), 2u);
}

TEST(ParserTest, ParseShapeEntryPoint) {
  absl::StatusOr<Shape> shape = ParseShape("  (f32[2]{0}, s32[]) ");
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_TRUE(shape->IsTuple());
  EXPECT_FALSE(ParseShape("f32[2] junk").ok());
  EXPECT_FALSE(ParseShape("g32[2]").ok());
}

// --- Errors, with exact positions ---

TEST(ParserErrorTest, UnknownOpcode) {
  EXPECT_TRUE(HasError(
      ParseError("HloModule m\nENTRY e {\n  a = f32[] frobnicate()\n}"), "3:13",
      "unknown opcode 'frobnicate'"));
}

TEST(ParserErrorTest, UndefinedOperand) {
  EXPECT_TRUE(HasError(
      ParseError("HloModule m\nENTRY e {\n  a = f32[] negate(f32[] %nope)\n}"),
      "3:26", "undefined operand 'nope'"));
}

TEST(ParserErrorTest, DuplicateInstruction) {
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e {\n  a = f32[] "
                                  "parameter(0)\n  a = f32[] negate(a)\n}"),
                       "4:3", "duplicate instruction name 'a'"));
}

TEST(ParserErrorTest, DuplicateComputation) {
  EXPECT_TRUE(HasError(
      ParseError("HloModule m\nc { ROOT a = f32[] parameter(0) }\n%c { ROOT "
                 "b = f32[] parameter(0) }"),
      "3:1", "duplicate computation name 'c'"));
}

TEST(ParserErrorTest, BadShape) {
  EXPECT_TRUE(HasError(
      ParseError("HloModule m\nENTRY e {\n  a = q32[] parameter(0)\n}"), "3:7",
      "bad shape"));
}

TEST(ParserErrorTest, UnknownAttribute) {
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e {\n  a = f32[] "
                                  "parameter(0)\n  b = f32[] negate(a), "
                                  "colour=red\n}"),
                       "4:24", "unknown attribute 'colour'"));
}

TEST(ParserErrorTest, MissingRequiredAttribute) {
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e {\n  a = f32[2] "
                                  "parameter(0)\n  b = f32[2,3] "
                                  "broadcast(a)\n}"),
                       "4:16", "missing required attribute 'dimensions'"));
}

TEST(ParserErrorTest, WrongAttributeType) {
  const std::string message = ParseError(
      "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n  b = "
      "f32[2,3] broadcast(a), dimensions=\"x\"\n}");
  EXPECT_TRUE(HasError(message, "4:41", "dimensions")) << message;
}

TEST(ParserErrorTest, TwoRoots) {
  EXPECT_TRUE(
      HasError(ParseError("HloModule m\nENTRY e {\n  ROOT a = f32[] "
                          "parameter(0)\n  ROOT b = f32[] negate(a)\n}"),
               "4:3", "second ROOT"));
}

TEST(ParserErrorTest, UnbalancedBraces) {
  EXPECT_TRUE(HasError(
      ParseError("HloModule m\nENTRY e {\n  ROOT a = f32[] parameter(0)\n"),
      "2:7", "unbalanced braces"));
  EXPECT_TRUE(HasError(
      ParseError("HloModule m\nENTRY e {\n  ROOT a = f32[] parameter(0), "
                 "metadata={op_name=\"x\"\n"),
      "3:41", "unbalanced"));
}

TEST(ParserErrorTest, UnterminatedStringAndComment) {
  EXPECT_TRUE(HasError(
      ParseError("HloModule m\nENTRY e {\n  ROOT a = f32[] parameter(0), "
                 "backend_config=\"abc\n}"),
      "3:47", "unterminated string"));
  EXPECT_TRUE(
      HasError(ParseError("HloModule m\nENTRY e {\n  /* open\n  ROOT a = f32[] "
                          "parameter(0)\n}"),
               "3:3", "unterminated /* comment"));
}

TEST(ParserErrorTest, LiteralErrorIsPositioned) {
  const std::string message = ParseError(
      "HloModule m\nENTRY e {\n  ROOT a = s32[3] constant({1, 2, x})\n}");
  EXPECT_TRUE(HasError(message, "3:35", "")) << message;
}

TEST(ParserErrorTest, HugeConstantRefused) {
  ParseOptions options;
  options.max_literal_bytes = 1024;
  const std::string message = ParseError(
      "HloModule m\nENTRY e {\n  ROOT a = f32[1000000000] constant({1})\n}",
      options);
  EXPECT_TRUE(HasError(message, "3:37", "")) << message;
}

TEST(ParserErrorTest, ParameterNumbers) {
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e {\n  a = f32[] "
                                  "parameter(0)\n  ROOT b = f32[] "
                                  "parameter(2)\n}"),
                       "4:8", "parameter number 2 out of range"));
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e {\n  a = f32[] "
                                  "parameter(0)\n  ROOT b = f32[] "
                                  "parameter(0)\n}"),
                       "4:8", "duplicate parameter number 0"));
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e {\n  ROOT a = f32[] "
                                  "parameter(999999999999)\n}"),
                       "3:8", "out of range"));
}

TEST(ParserErrorTest, OperandCount) {
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e {\n  a = f32[] "
                                  "parameter(0)\n  ROOT b = f32[] add(a)\n}"),
                       "4:18", "add takes 2 operands but has 1"));
}

TEST(ParserErrorTest, CallCycle) {
  const std::string message = ParseError(R"(HloModule m
f { p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=g }
g { p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=f }
ENTRY e { p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=f })");
  EXPECT_TRUE(HasError(message, "5:36", "cycle")) << message;
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e { p = f32[] "
                                  "parameter(0)\n ROOT c = f32[] call(p), "
                                  "to_apply=e }"),
                       "3:35", "cycle"));
}

TEST(ParserErrorTest, UndefinedComputation) {
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e { p = f32[] "
                                  "parameter(0)\n ROOT c = f32[] call(p), "
                                  "to_apply=%missing }"),
                       "3:35", "undefined computation 'missing'"));
}

TEST(ParserErrorTest, UndefinedControlPredecessor) {
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e { p = f32[] "
                                  "parameter(0), control-predecessors={q} }"),
                       "2:57", "undefined control predecessor 'q'"));
}

TEST(ParserErrorTest, SignatureMismatch) {
  EXPECT_TRUE(HasError(
      ParseError("HloModule m\nENTRY e (a: f32[], b: f32[]) -> f32[] {\n  "
                 "ROOT a = f32[] parameter(0)\n}"),
      "2:7", "signature"));
}

TEST(ParserErrorTest, EmptyInputs) {
  EXPECT_TRUE(HasError(ParseError(""), "1:1", "expected 'HloModule'"));
  EXPECT_TRUE(HasError(ParseError("HloModule m"), "1:12", "no computations"));
  EXPECT_TRUE(
      HasError(ParseError("HloModule m\ne {}"), "2:1", "has no instructions"));
}

TEST(ParserErrorTest, DeepNestingRefused) {
  std::string text =
      "HloModule m\nENTRY e { ROOT a = f32[] parameter(0), metadata=";
  text += std::string(100000, '{');
  text += std::string(100000, '}');
  text += " }";
  EXPECT_TRUE(HasError(ParseError(text), "2:305", "nesting deeper than 256"));
}

}  // namespace
}  // namespace kiln

namespace kiln {
namespace {

TEST(ParserAsyncTest, SugaredAsyncOpsBuildWrappedComputation) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  p = f32[10] parameter(0)
  s = ((f32[10]), f32[20], s32[]) custom-call-start(p), async_execution_thread="t", custom_call_target="foo"
  u = ((f32[10]), f32[20], s32[]) custom-call-update(s)
  ROOT d = f32[20] custom-call-done(u)
})");
  ASSERT_NE(module, nullptr);
  const Instruction* start = module->entry()->FindInstruction("s");
  ASSERT_NE(start, nullptr);
  EXPECT_EQ(start->opcode(), Opcode::kAsyncStart);
  Computation* const* calls = start->attrs().Get<Computation*>("calls");
  ASSERT_NE(calls, nullptr);
  ASSERT_NE(*calls, nullptr);
  EXPECT_EQ((*calls)->execution_thread(), "t");
  const Instruction* wrapped = (*calls)->root();
  EXPECT_EQ(wrapped->opcode(), Opcode::kCustomCall);
  EXPECT_EQ(wrapped->shape(), *ParseShape("f32[20]{0}"));
  ASSERT_EQ(wrapped->operand_count(), 1);
  EXPECT_EQ(wrapped->operand(0)->opcode(), Opcode::kParameter);
  EXPECT_TRUE(wrapped->attrs().Has("custom_call_target"));
  EXPECT_FALSE(start->attrs().Has("custom_call_target"));
  const Instruction* done = module->entry()->root();
  EXPECT_EQ(done->opcode(), Opcode::kAsyncDone);
  Computation* const* done_calls = done->attrs().Get<Computation*>("calls");
  ASSERT_NE(done_calls, nullptr);
  EXPECT_EQ(*done_calls, *calls);
}

TEST(ParserAsyncTest, AsyncDoneTakesForwardReferencedCalls) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  p = f32[10] parameter(0)
  s = ((f32[10]), f32[10], s32[]) async-start(p), calls=w
  ROOT d = f32[10] async-done(s)
}
w {
  x = f32[10] parameter(0)
  ROOT n = f32[10] negate(x)
})");
  ASSERT_NE(module, nullptr);
  Computation* const* calls =
      module->entry()->root()->attrs().Get<Computation*>("calls");
  ASSERT_NE(calls, nullptr);
  EXPECT_EQ(*calls, module->FindComputation("w"));
}

TEST(ParserAsyncTest, SugarErrors) {
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e {\n  p = f32[] "
                                  "parameter(0)\n  s = f32[] "
                                  "negate-start(p)\n}"),
                       "4:13", "async start's shape must be a tuple"));
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e {\n  p = f32[] "
                                  "parameter(0)\n  s = ((f32[]), f32[]) "
                                  "negate-start(p), bogus=1\n}"),
                       "4:41", "unknown attribute 'bogus' for negate"));
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e {\n  p = f32[] "
                                  "parameter(0)\n  s = ((f32[]), f32[]) "
                                  "frob-start(p)\n}"),
                       "4:24", "unknown opcode 'frob-start'"));
  EXPECT_TRUE(HasError(ParseError("HloModule m\nENTRY e {\n  p = f32[] "
                                  "parameter(0)\n  s = ((f32[], f32[]), "
                                  "f32[]) negate-start(p, p)\n}"),
                       "4:31", "negate takes 1 operands but has 2"));
}

}  // namespace
}  // namespace kiln

namespace kiln {
namespace {

// Every prefix and many byte mutations of a valid module either parse or
// give an InvalidArgument error; none may crash or hang (ASan runs this).
TEST(ParserRobustnessTest, PrefixesAndMutations) {
  const std::string text(kAddModule);
  for (size_t length = 0; length <= text.size(); ++length) {
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(absl::string_view(text).substr(0, length));
    if (!module.ok()) {
      EXPECT_EQ(module.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
  const std::string alphabet = "{}()[]%,=\"/*:.-0123456789abcfxT\n ";
  uint32_t state = 12345;
  auto next = [&state] {
    state = state * 1103515245u + 12345u;
    return state >> 8;
  };
  for (int round = 0; round < 3000; ++round) {
    std::string mutated = text;
    const int edits = 1 + next() % 4;
    for (int e = 0; e < edits; ++e) {
      const size_t at = next() % mutated.size();
      const char c = alphabet[next() % alphabet.size()];
      switch (next() % 3) {
        case 0:
          mutated[at] = c;
          break;
        case 1:
          mutated.insert(mutated.begin() + at, c);
          break;
        default:
          mutated.erase(at, 1);
          break;
      }
    }
    absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(mutated);
    if (!module.ok()) {
      EXPECT_EQ(module.status().code(), absl::StatusCode::kInvalidArgument)
          << module.status();
    }
  }
}

}  // namespace
}  // namespace kiln

namespace kiln {
namespace {

// Deeply nested input in every position is refused with an error, never a
// stack overflow.
TEST(ParserRobustnessTest, DeepNestingEverywhere) {
  const std::string open(200000, '(');
  const std::string braces(200000, '{');
  const std::vector<std::string> inputs = {
      "HloModule m\nENTRY e { ROOT a = " + open + "f32[] parameter(0) }",
      "HloModule m\nENTRY e { ROOT a = f32[] constant(" + braces + ") }",
      "HloModule m\nENTRY e { p = f32[] parameter(0)\n ROOT a = f32[] "
      "negate(" +
          open + "f32[] p) }",
      "HloModule m, frontend_attributes={a=" + braces +
          "}\nENTRY e { ROOT "
          "a = f32[] parameter(0) }",
      "HloModule m\nENTRY e { ROOT a = f32[2] parameter(0), sharding=" +
          braces + " }",
  };
  for (const std::string& input : inputs) {
    absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(input);
    EXPECT_FALSE(module.ok());
    EXPECT_EQ(module.status().code(), absl::StatusCode::kInvalidArgument);
  }
}

// A long chain of instructions (each using the previous) parses without
// recursion trouble and keeps every location.
TEST(ParserRobustnessTest, LongChain) {
  std::string text = "HloModule m\nENTRY e {\n  i0 = f32[] parameter(0)\n";
  constexpr int kLength = 20000;
  for (int i = 1; i <= kLength; ++i) {
    absl::StrAppend(&text, "  i", i, " = f32[] negate(i", i - 1, ")\n");
  }
  text += "}\n";
  std::unique_ptr<Module> module = ParseOk(text);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry()->instruction_count(), kLength + 1);
  EXPECT_EQ(module->entry()->root()->location.line, kLength + 3);
}

}  // namespace
}  // namespace kiln

namespace kiln {
namespace {

TEST(ParserTest, ElidedConstantsAreAnErrorUnlessAllowed) {
  constexpr absl::string_view kText =
      "HloModule m\nENTRY e {\n  ROOT c = f32[3] constant({...})\n}\n";
  EXPECT_TRUE(HasError(ParseError(kText), "3:28", "elided"));
  ParseOptions allow;
  allow.allow_elided_constants = true;
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(kText, allow);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ((*module)->entry()->root()->literal().GetDouble(2), 0.0);
}

}  // namespace
}  // namespace kiln

namespace kiln {
namespace {

TEST(ParserTest, DeclaredOperandShapeMustMatchTheOperand) {
  constexpr absl::string_view kText =
      "HloModule m\nENTRY e {\n  a = f32[2] parameter(0)\n"
      "  ROOT n = f32[2] negate(f32[3] a)\n}\n";
  EXPECT_TRUE(HasError(ParseError(kText), "4:26",
                       "declared operand shape f32[3] is not compatible"));
  // Layouts may differ: XLA compares shapes without them.
  EXPECT_NE(ParseOk("HloModule m\nENTRY e {\n  a = f32[2,3]{0,1} parameter(0)\n"
                    "  ROOT n = f32[2,3] negate(f32[2,3]{1,0} a)\n}\n"),
            nullptr);
}

}  // namespace
}  // namespace kiln
