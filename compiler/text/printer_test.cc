#include "compiler/text/printer.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/module.h"
#include "compiler/text/parser.h"
#include "compiler/text/text_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

std::unique_ptr<Module> ParseOk(absl::string_view text,
                                bool check_shapes = true) {
  ParseOptions options;
  options.check_shapes = check_shapes;
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text, options);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? std::move(*module) : nullptr;
}

// XLA's own format, byte for byte: this text is its own canonical print.
constexpr absl::string_view kCanonical =
    R"(HloModule jit_f, is_scheduled=true, input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {}, must-alias) }, buffer_donor={ (1, {}) }, entry_computation_layout={(f32[8]{0}, s32[])->(f32[8]{0}, s32[])}, allow_spmd_sharding_propagation_to_output={true}, replica_count=2, num_partitions=4, frontend_attributes={fa="1",json={k=2}}

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %sum = f32[] add(f32[] %x, f32[] %y)
}, execution_thread="host"

ENTRY %main (p0: f32[8], p1: s32[]) -> (f32[8], s32[]) {
  %p0 = f32[8]{0} parameter(0), sharding={replicated}
  %p1 = s32[] parameter(1)
  %c = f32[] constant(0)
  %r = f32[] reduce(f32[8]{0} %p0, f32[] %c), dimensions={0}, to_apply=%add
  %b = f32[8]{0} broadcast(f32[] %r), dimensions={}, frontend_attributes={_xla="x"}, control-predecessors={%c}, metadata={op_name="b"}, backend_config="cfg"
  ROOT %t = (f32[8]{0}, s32[]) tuple(f32[8]{0} %b, s32[] %p1)
}

)";

TEST(PrinterTest, CanonicalTextPrintsBackUnchanged) {
  std::unique_ptr<Module> module = ParseOk(kCanonical);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(PrintModule(*module), kCanonical);
}

TEST(PrinterTest, CalleesBeforeCallersEntryLast) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=outer
}
outer {
  q = f32[] parameter(0)
  ROOT c2 = f32[] call(q), to_apply=inner
}
inner {
  ROOT r = f32[] parameter(0)
}
)");
  ASSERT_NE(module, nullptr);
  const std::string printed = PrintModule(*module);
  const size_t inner = printed.find("%inner (");
  const size_t outer = printed.find("%outer (");
  const size_t entry = printed.find("ENTRY %e (");
  ASSERT_NE(inner, std::string::npos);
  ASSERT_NE(outer, std::string::npos);
  ASSERT_NE(entry, std::string::npos);
  EXPECT_LT(inner, outer);
  EXPECT_LT(outer, entry);
}

TEST(PrinterTest, OperandIndexComments) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  p = f32[] parameter(0)
  ROOT t = (f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[], f32[]) tuple(p, p, p, p, p, p, p, p, p, p, p)
})");
  ASSERT_NE(module, nullptr);
  const std::string line = PrintInstruction(*module->entry()->root());
  EXPECT_EQ(line,
            "%t = (f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[], "
            "f32[], f32[], f32[], f32[], /*index=10*/f32[]) tuple(f32[] %p, "
            "f32[] %p, f32[] %p, f32[] "
            "%p, f32[] %p, /*index=5*/f32[] %p, f32[] %p, f32[] %p, f32[] "
            "%p, f32[] %p, /*index=10*/f32[] %p)");
}

TEST(PrinterTest, Options) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  p = f32[2] parameter(0)
  c = f32[2] constant({1, 2})
  ROOT a = f32[2] add(p, c), metadata={op_name="a"}
})");
  ASSERT_NE(module, nullptr);
  PrintOptions options;
  options.print_operand_shapes = false;
  options.print_metadata = false;
  options.print_percent = false;
  EXPECT_EQ(PrintInstruction(*module->entry()->root(), options),
            "a = f32[2]{0} add(p, c)");
  EXPECT_EQ(PrintInstruction(*module->entry()->root()),
            "%a = f32[2]{0} add(f32[2]{0} %p, f32[2]{0} %c), "
            "metadata={op_name=\"a\"}");
  PrintOptions elide;
  elide.elide_literals_above = 1;
  EXPECT_EQ(PrintInstruction(*module->entry()->FindInstruction("c"), elide),
            "%c = f32[2]{0} constant({...})");
}

TEST(PrinterTest, NoPercentAppliesToComputationReferences) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
add { x = f32[] parameter(0)
  ROOT n = f32[] negate(x) }
ENTRY e {
  p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply=add
})");
  ASSERT_NE(module, nullptr);
  PrintOptions options;
  options.print_percent = false;
  options.print_operand_shapes = false;
  EXPECT_EQ(PrintInstruction(*module->entry()->root(), options),
            "c = f32[] call(p), to_apply=add");
  EXPECT_EQ(PrintInstruction(*module->entry()->root()),
            "%c = f32[] call(f32[] %p), to_apply=%add");
}

TEST(PrinterTest, ComputationWithoutRootKeywordPrintsRoot) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
e {
  p = f32[] parameter(0)
  n = f32[] negate(p)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(PrintComputation(*module->entry()),
            "%e (p: f32[]) -> f32[] {\n  %p = f32[] parameter(0)\n  ROOT %n = "
            "f32[] negate(f32[] %p)\n}");
}

TEST(PrinterTest, FrontendAttributesPrintExactlyAsWritten) {
  // Quoted values keep their escapes, also when they start with '{'; braced
  // values (as in JAX's Shardy dumps) stay bare with their backslashes.
  constexpr absl::string_view kText =
      R"(HloModule m, entry_computation_layout={()->f32[]}, frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<[\"x\"=2]>}}

ENTRY %e () -> f32[] {
  ROOT %c = f32[] constant(0), frontend_attributes={a="q\"x\101\n",b="{\"k\": 1}",c="{x",xla.sdy.sharding="#sdy.sharding<@mesh, [{\"x\"}]>"}
}

)";
  std::unique_ptr<Module> module = ParseOk(kText);
  ASSERT_NE(module, nullptr);
  const Instruction* c = module->entry()->root();
  ASSERT_EQ(c->frontend_attributes.size(), 4u);
  EXPECT_EQ(c->frontend_attributes[1].second, R"("{\"k\": 1}")");
  EXPECT_EQ(module->config().frontend_attributes[0].second,
            R"({mesh = #sdy.mesh<[\"x\"=2]>})");
  EXPECT_EQ(PrintModule(*module), kText);
}

TEST(PrinterTest, FrontendAttributesSetByCodeAreQuotedAndEscaped) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  ROOT p = f32[] parameter(0)
})");
  ASSERT_NE(module, nullptr);
  module->entry()->root()->frontend_attributes = {{"a", "say \"hi\""},
                                                  {"b", "{open"}};
  const std::string printed = PrintModule(*module);
  EXPECT_NE(printed.find(R"(frontend_attributes={a="say \"hi\"",b="{open"})"),
            std::string::npos)
      << printed;
  EXPECT_TRUE(ParseModule(printed).ok());
}

TEST(PrinterTest, EntryComputationLayoutFilledInWhenMissing) {
  // As XLA does: the layouts of the entry's parameters and root (default
  // layouts where the text writes none).
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  b = s32[] parameter(1)
  a = f32[2,3]{0,1} parameter(0)
  ROOT t = (f32[2,3]{0,1}, s32[]) tuple(a, b)
})");
  ASSERT_NE(module, nullptr);
  ASSERT_TRUE(module->config().entry_computation_layout.has_value());
  const ComputationLayout& layout = *module->config().entry_computation_layout;
  ASSERT_EQ(layout.parameters.size(), 2u);
  EXPECT_EQ(layout.parameters[0].ToString(), "f32[2,3]{0,1}");
  EXPECT_EQ(layout.parameters[1].ToString(), "s32[]");
  EXPECT_EQ(layout.result.ToString(), "(f32[2,3]{0,1}, s32[])");
  const std::string header =
      "HloModule m, entry_computation_layout={(f32[2,3]{0,1}, s32[])->"
      "(f32[2,3]{0,1}, s32[])}\n";
  EXPECT_EQ(PrintModule(*module).substr(0, header.size()), header);
}

TEST(PrinterTest, WrittenEntryComputationLayoutIsKept) {
  std::unique_ptr<Module> module = ParseOk(
      R"(HloModule m, entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{0,1}}
ENTRY e {
  ROOT a = f32[2,3]{0,1} parameter(0)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->config().entry_computation_layout->result.ToString(),
            "f32[2,3]{0,1}");
}

TEST(PrinterTest, CompareTypeOmittedWhenDefault) {
  // s2 and u2 break compare's type rule; the printer must still keep their
  // explicit types, so the parser's shape checks are off here.
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  f = f32[] parameter(0)
  s = s8[] parameter(1)
  u = u32[] parameter(2)
  p = pred[] parameter(3)
  x = c64[] parameter(4)
  f1 = pred[] compare(f, f), direction=LT, type=FLOAT
  f2 = pred[] compare(f, f), direction=LT, type=TOTALORDER
  s1 = pred[] compare(s, s), direction=LT, type=SIGNED
  s2 = pred[] compare(s, s), direction=LT, type=UNSIGNED
  u1 = pred[] compare(u, u), direction=LT, type=UNSIGNED
  u2 = pred[] compare(u, u), direction=LT, type=SIGNED
  p1 = pred[] compare(p, p), direction=EQ, type=UNSIGNED
  x1 = pred[] compare(x, x), direction=EQ, type=FLOAT
  ROOT t = (pred[], pred[], pred[], pred[], pred[], pred[], pred[], pred[]) tuple(f1, f2, s1, s2, u1, u2, p1, x1)
})",
                                           /*check_shapes=*/false);
  ASSERT_NE(module, nullptr);
  const std::string printed = PrintModule(*module);
  auto line_of = [&](absl::string_view name) {
    const size_t start = printed.find(absl::StrCat("%", name, " = "));
    return start == std::string::npos
               ? std::string()
               : printed.substr(start, printed.find('\n', start) - start);
  };
  for (absl::string_view name : {"f1", "s1", "u1", "p1", "x1"}) {
    EXPECT_EQ(line_of(name).find("type="), std::string::npos) << name;
    EXPECT_FALSE(module->entry()->FindInstruction(name)->attrs().Has("type"));
  }
  EXPECT_NE(line_of("f2").find("direction=LT, type=TOTALORDER"),
            std::string::npos);
  EXPECT_NE(line_of("s2").find("type=UNSIGNED"), std::string::npos);
  EXPECT_NE(line_of("u2").find("type=SIGNED"), std::string::npos);
}

TEST(PrinterTest, ParametersPrintInNumberOrderInSignature) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
ENTRY e {
  b = s32[] parameter(1)
  a = f32[] parameter(0)
  ROOT t = (f32[], s32[]) tuple(a, b)
})");
  ASSERT_NE(module, nullptr);
  const std::string printed = PrintComputation(*module->entry());
  EXPECT_EQ(printed.substr(0, printed.find('{')),
            "%e (a: f32[], b: s32[]) -> (f32[], s32[]) ");
  // Instruction order is the text order.
  EXPECT_LT(printed.find("%b = "), printed.find("%a = "));
}

TEST(PrinterTest, AsyncChainsLeaveImpliedCallsOut) {
  constexpr absl::string_view kText =
      R"(HloModule m, entry_computation_layout={(f32[10]{0})->f32[10]{0}}

%w (x: f32[10]) -> f32[10] {
  %x = f32[10]{0} parameter(0)
  ROOT %n = f32[10]{0} negate(f32[10]{0} %x)
}, execution_thread="t"

ENTRY %e (p: f32[10]) -> f32[10] {
  %p = f32[10]{0} parameter(0)
  %s = ((f32[10]{0}), f32[10]{0}, s32[]) async-start(f32[10]{0} %p), async_execution_thread="t", calls=%w
  %u = ((f32[10]{0}), f32[10]{0}, s32[]) async-update(((f32[10]{0}), f32[10]{0}, s32[]) %s)
  ROOT %d = f32[10]{0} async-done(((f32[10]{0}), f32[10]{0}, s32[]) %u)
}

)";
  std::unique_ptr<Module> module = ParseOk(kText);
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(module->entry()->root()->attrs().Has("calls"));
  EXPECT_EQ(PrintModule(*module), kText);
}

TEST(PrinterTest, StatisticsAndExtraHeaderAttributes) {
  std::unique_ptr<Module> module = ParseOk(
      "HloModule m, entry_computation_layout={()->f32[]}, "
      "alias_passthrough_params=true\n"
      "ENTRY e {\n  ROOT c = f32[] constant(1), "
      "statistics_viz={visualizing_index=1}\n}\n");
  ASSERT_NE(module, nullptr);
  const std::string printed = PrintModule(*module);
  // XLA's order: alias_passthrough_params before entry_computation_layout;
  // statistics_viz is spelled "statistics".
  EXPECT_EQ(printed,
            "HloModule m, alias_passthrough_params=true, "
            "entry_computation_layout={()->f32[]}\n\n"
            "ENTRY %e () -> f32[] {\n  ROOT %c = f32[] constant(1), "
            "statistics={visualizing_index=1}\n}\n\n");
}

TEST(PrinterTest, StackFrameTablesKeptVerbatim) {
  constexpr absl::string_view kText =
      R"(HloModule jit_f, entry_computation_layout={(f32[2]{0})->f32[2]{0}}

FileNames
1 "f.py"

FunctionNames
1 "<module>"
2 "f"

FileLocations
1 {file_name_id=1 function_name_id=1 line=5 end_line=5 column=2 end_column=8}

StackFrames
1 {file_location_id=1 parent_frame_id=1}


ENTRY %main.1 (x.1: f32[2]) -> f32[2] {
  %x.1 = f32[2]{0} parameter(0), metadata={op_name="x"}
  ROOT %n = f32[2]{0} negate(f32[2]{0} %x.1), metadata={op_name="n" stack_frame_id=1}
}

)";
  std::unique_ptr<Module> module = ParseOk(kText);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(PrintModule(*module), kText);
}

TEST(PrinterTest, ComputationNamedLikeATableSection) {
  std::unique_ptr<Module> module = ParseOk(R"(HloModule m
FileNames {
  ROOT p = f32[] parameter(0)
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry()->name(), "FileNames");
  EXPECT_TRUE(module->config().extra_attributes.empty());
}

TEST(PrinterTest, ShortParsableForm) {
  // As JAX's lower().as_text(dialect='hlo') writes it.
  constexpr absl::string_view kText =
      R"(HloModule jit_f, entry_computation_layout={(f32[4]{0})->f32[]}

region_0.3 {
  a.1 = f32[] parameter(0)
  b.1 = f32[] parameter(1)
  ROOT add.1 = f32[] add(a.1, b.1)
}

ENTRY main.5 {
  x.1 = f32[4]{0} parameter(0)
  c.1 = f32[] constant(0)
  t.1 = (f32[4]{0}, f32[4]{0}, f32[4]{0}, f32[4]{0}, f32[4]{0}, /*index=5*/f32[4]{0}) tuple(x.1, x.1, x.1, x.1, x.1, x.1)
  ROOT r.1 = f32[] reduce(x.1, c.1), dimensions={0}, to_apply=region_0.3
}

)";
  std::unique_ptr<Module> module = ParseOk(kText);
  ASSERT_NE(module, nullptr);
  const std::string printed = PrintModule(*module, ShortParsablePrintOptions());
  // Tuple shapes print their own /*index=N*/ comments (Shape::ToString);
  // compare the rest.
  std::string expected(kText);
  const std::string comment = "/*index=5*/";
  if (printed.find(comment) == std::string::npos) {
    expected.erase(expected.find(comment), comment.size());
  }
  EXPECT_EQ(printed, expected);
  absl::StatusOr<std::unique_ptr<Module>> reparsed = ParseModule(printed);
  ASSERT_TRUE(reparsed.ok()) << reparsed.status();
  EXPECT_EQ(ModuleDifference(*module, **reparsed), "");
}

}  // namespace
}  // namespace kiln
