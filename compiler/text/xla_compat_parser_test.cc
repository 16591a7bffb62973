// Modules XLA's parser loads that Kiln must load unchanged (issue 13): a
// module without an HloModule line, the old "HloModule name:" header,
// non-default layouts without entry_computation_layout, nested anonymous
// operands, broadcast of a scalar without dimensions, a scalar literal for
// an array constant, and the newer module attributes. Each case must also
// verify and keep the round-trip guarantee print(parse(print(m))) ==
// print(m).
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/text/text_test_util.h"
#include "compiler/verifier/verifier.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::unique_ptr<Module> ParseOk(absl::string_view text) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status() << "\n" << text;
  return module.ok() ? std::move(*module) : nullptr;
}

std::string ParseError(absl::string_view text) {
  ParseOptions options;
  options.filename = "test.hlo";
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text, options);
  EXPECT_FALSE(module.ok()) << text;
  return module.ok() ? "" : std::string(module.status().message());
}

// Parses `text`, checks that it verifies and round-trips, and returns the
// printed module.
std::string LoadVerifyAndRoundTrip(absl::string_view text) {
  std::unique_ptr<Module> module = ParseOk(text);
  if (module == nullptr) return "";
  const absl::Status verified = VerifyModule(*module);
  EXPECT_TRUE(verified.ok()) << verified << "\n" << text;
  const std::string printed = PrintModule(*module);
  std::unique_ptr<Module> reparsed = ParseOk(printed);
  if (reparsed == nullptr) return printed;
  EXPECT_EQ(PrintModule(*reparsed), printed);
  EXPECT_EQ(ModuleDifference(*module, *reparsed), "");
  return printed;
}

// --- A module without an HloModule line --------------------------------

TEST(XlaCompatTest, ModulesWithoutHeaderLoad) {
  struct Case {
    const char* text;
    const char* name;  // As XLA names it: "module_" + the entry's name.
    const char* entry;
  };
  const Case cases[] = {
      {"ENTRY e { ROOT p = f32[2] parameter(0) }", "module_e", "e"},
      {"\n// a comment first\nENTRY %main.3 {\n  p = f32[] parameter(0)\n"
       "  ROOT n = f32[] negate(p)\n}\n",
       "module_main.3", "main.3"},
      // Other computations before the entry, with and without signatures.
      {"add (a: f32[], b: f32[]) -> f32[] {\n  a = f32[] parameter(0)\n"
       "  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n"
       "ENTRY e {\n  p = f32[4] parameter(0)\n  z = f32[] constant(0)\n"
       "  ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=add\n}\n",
       "module_e", "e"},
      // No ENTRY keyword: the last computation is the entry.
      {"neg {\n  x = f32[] parameter(0)\n  ROOT n = f32[] negate(x)\n}\n"
       "main {\n  p = f32[] parameter(0)\n"
       "  ROOT c = f32[] call(p), to_apply=neg\n}\n",
       "module_main", "main"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    std::unique_ptr<Module> module = ParseOk(c.text);
    ASSERT_NE(module, nullptr);
    EXPECT_EQ(module->name(), c.name);
    EXPECT_EQ(module->entry()->name(), c.entry);
    EXPECT_THAT(LoadVerifyAndRoundTrip(c.text),
                StartsWith(absl::StrCat("HloModule ", c.name, ",")));
  }
}

TEST(XlaCompatTest, ModulesWithoutHeaderReportPositionedErrors) {
  EXPECT_THAT(ParseError("ENTRY e {\n  ROOT x = f32[] foo()\n}"),
              StartsWith("test.hlo:2:18: error: unknown opcode 'foo'"));
  EXPECT_THAT(ParseError("  \n"),
              StartsWith("test.hlo:2:1: error: expected 'HloModule' or a "
                         "computation"));
  EXPECT_THAT(ParseError("e {}"), HasSubstr("has no instructions"));
}

// --- The old header form ------------------------------------------------

TEST(XlaCompatTest, OldHeaderFormWithColonLoads) {
  for (absl::string_view header :
       {"HloModule old:", "HloModule old :", "HloModule %old:\n\n"}) {
    const std::string text = absl::StrCat(
        header, "\nENTRY e {\n  ROOT p = f32[2] parameter(0)\n}\n");
    SCOPED_TRACE(text);
    EXPECT_THAT(LoadVerifyAndRoundTrip(text), StartsWith("HloModule old,"));
  }
  EXPECT_THAT(ParseError("HloModule old::\nENTRY e { ROOT p = f32[] "
                         "parameter(0) }"),
              StartsWith("test.hlo:1:15: error: expected a computation name"));
}

// --- Layouts without entry_computation_layout ---------------------------

TEST(XlaCompatTest, FilledEntryLayoutTakesTheInstructionsLayouts) {
  struct Case {
    const char* text;
    const char* layout;
  };
  const Case cases[] = {
      {"ENTRY e { p = f32[2,3]{0,1} parameter(0)  ROOT n = f32[2,3]{0,1} "
       "negate(p) }",
       "entry_computation_layout={(f32[2,3]{0,1})->f32[2,3]{0,1}}"},
      // Mixed: one parameter with a layout, one without; a tuple root.
      {"HloModule m\nENTRY e {\n  a = f32[2,3,4]{0,2,1} parameter(0)\n"
       "  b = s32[5] parameter(1)\n"
       "  t = f32[3,2,4]{2,0,1} transpose(a), dimensions={1,0,2}\n"
       "  ROOT r = (f32[3,2,4]{2,0,1}, s32[5]{0}) tuple(t, b)\n}\n",
       "entry_computation_layout={(f32[2,3,4]{0,2,1}, s32[5]{0})->"
       "(f32[3,2,4]{2,0,1}, s32[5]{0})}"},
      // A root with a layout, parameters default.
      {"HloModule m\nENTRY e {\n  a = f32[2,3] parameter(0)\n"
       "  ROOT c = f32[2,3]{0,1} copy(a)\n}\n",
       "entry_computation_layout={(f32[2,3]{1,0})->f32[2,3]{0,1}}"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_THAT(LoadVerifyAndRoundTrip(c.text), HasSubstr(c.layout));
  }
}

// --- Nested anonymous operands ------------------------------------------

TEST(XlaCompatTest, NestedAnonymousOperandsLoad) {
  const std::string printed = LoadVerifyAndRoundTrip(
      "HloModule m\nENTRY e {\n"
      "  a = f32[] add(f32[] parameter(0), f32[] constant(1))\n"
      "  ROOT r = f32[2] broadcast(multiply(a, f32[] parameter(1))), "
      "dimensions={}\n}\n");
  // Named "<opcode>.anon" and made unique as XLA does, defined before
  // their user.
  EXPECT_THAT(printed, HasSubstr("  %parameter.anon = f32[] parameter(0)\n"
                                 "  %constant.anon = f32[] constant(1)\n"
                                 "  %a = f32[] add(f32[] %parameter.anon, "
                                 "f32[] %constant.anon)\n"
                                 "  %parameter.anon.1 = f32[] parameter(1)\n"
                                 "  %multiply.anon = f32[] multiply("));
  EXPECT_THAT(printed, HasSubstr("ROOT %r = f32[2]{0} broadcast(f32[] "
                                 "%multiply.anon), dimensions={}"));
  // The attributes after a nested operand belong to its user.
  std::unique_ptr<Module> module = ParseOk(
      "HloModule m\nENTRY e {\n  ROOT s = f32[] add(f32[] "
      "constant(1), f32[] constant(2)), metadata={op_name=\"s\"}\n}");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry()->instruction_count(), 3);
  EXPECT_TRUE(module->entry()->root()->metadata.has_value());
}

TEST(XlaCompatTest, NestedOperandErrorsArePositioned) {
  EXPECT_THAT(ParseError("HloModule m\nENTRY e {\n  ROOT s = f32[] add(f32[] "
                         "foo(1), f32[] constant(1))\n}"),
              StartsWith("test.hlo:3:28: error: unknown opcode 'foo'"));
  EXPECT_THAT(ParseError("HloModule m\nENTRY e {\n  ROOT s = f32[] add(f32[] "
                         "constant(1), x(2))\n}"),
              StartsWith("test.hlo:3:41: error: unknown opcode 'x'"));
  // Deep nesting is refused, not a stack overflow.
  std::string deep = "HloModule m\nENTRY e {\n  ROOT n = f32[] ";
  for (int i = 0; i < 1000; ++i) deep += "negate(";
  deep += "f32[] constant(1)";
  deep += std::string(1000, ')');
  deep += "\n}\n";
  EXPECT_THAT(ParseError(deep), HasSubstr("nested operands deeper than 256"));
}

// --- broadcast of a scalar without dimensions ---------------------------

TEST(XlaCompatTest, ScalarBroadcastMayOmitDimensions) {
  for (absl::string_view operand :
       {"f32[] p", "p", "f32[] negate(p)", "negate(p)"}) {
    const std::string text = absl::StrCat(
        "HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
        "  ROOT b = f32[2,3] broadcast(",
        operand, ")\n}\n");
    SCOPED_TRACE(text);
    EXPECT_THAT(LoadVerifyAndRoundTrip(text), HasSubstr("dimensions={}"));
  }
  // Anything but a scalar still needs dimensions, known now or once the
  // operand's shape is inferred.
  EXPECT_THAT(ParseError("HloModule m\nENTRY e {\n  p = f32[3] parameter(0)\n"
                         "  ROOT b = f32[2,3] broadcast(p)\n}"),
              StartsWith("test.hlo:4:21: error: missing required attribute "
                         "'dimensions' of broadcast"));
  EXPECT_THAT(ParseError("HloModule m\nENTRY e {\n  p = f32[3] parameter(0)\n"
                         "  ROOT b = f32[2,3] broadcast(negate(p))\n}"),
              StartsWith("test.hlo:4:21: error: missing required attribute "
                         "'dimensions' of broadcast (only a scalar operand "
                         "may leave it out; the operand is f32[3])"));
}

// --- A scalar literal for an array constant -----------------------------

TEST(XlaCompatTest, ScalarLiteralFillsArrayConstant) {
  struct Case {
    const char* constant;
    const char* printed;
  };
  const Case cases[] = {
      {"f32[9] constant(0)", "constant({0, 0, 0, 0, 0, 0, 0, 0, 0})"},
      {"s32[2,3] constant(-7)", "constant({ { -7, -7, -7 }, { -7, -7, -7 } })"},
      {"pred[3] constant(true)", "constant({1, 1, 1})"},
      {"bf16[2] constant(1.5)", "constant({1.5, 1.5})"},
      {"c64[2] constant((1, -2))", "constant({(1, -2), (1, -2)})"},
      {"u8[0] constant(3)", "constant({})"},
  };
  for (const Case& c : cases) {
    const std::string text = absl::StrCat(
        "HloModule m\nENTRY e {\n  ROOT c = ", c.constant, "\n}\n");
    SCOPED_TRACE(text);
    EXPECT_THAT(LoadVerifyAndRoundTrip(text), HasSubstr(c.printed));
  }
  EXPECT_THAT(ParseError("HloModule m\nENTRY e {\n  ROOT c = s8[4] "
                         "constant(300)\n}"),
              StartsWith("test.hlo:3:27: error: value 300 is out of range "
                         "for s8"));
  // Bounded like any constant (ParseOptions::max_literal_bytes).
  EXPECT_THAT(
      ParseError("HloModule m\nENTRY e {\n  ROOT c = f32[1000000000000] "
                 "constant(1)\n}"),
      StartsWith("test.hlo:3:40: error: cannot fill "
                 "f32[1000000000000] from a scalar"));
}

// --- Newer module attributes --------------------------------------------

TEST(XlaCompatTest, NewerModuleAttributesAreKeptVerbatim) {
  const std::string table =
      "origin_recovery_table={\n  {\"c2\"} : {\"c2\"},\n  \"\n"
      "    ENTRY %identity1 (p: s32[1,3]) -> s32[1,3] {\n"
      "      ROOT %p = s32[1,3]{1,0} parameter(0)\n    }\n  \"\n}";
  const std::string debug =
      "debug_attributes={\n  {\"c2\"}:({log_mode=default,callback_id=1,"
      "op_id=0,partitioned=false})\n}";
  const std::string text = absl::StrCat(
      "HloModule module, entry_computation_layout={()->s32[1,3]{1,0}}, ", table,
      ",\n", debug,
      "\n\nENTRY %e () -> s32[1,3] {\n  ROOT c2 = s32[1,3]{1,0} "
      "constant({{1,2,3}}), origin={{\"c2\"}}\n}\n");
  const std::string printed = LoadVerifyAndRoundTrip(text);
  EXPECT_THAT(printed, HasSubstr(absl::StrCat(", ", table, ", ", debug)));
  EXPECT_THAT(ParseError("HloModule m, debug_attributes={{\"a\"}:(\nENTRY e "
                         "{ ROOT p = f32[] parameter(0) }"),
              StartsWith("test.hlo:1:31: error: unbalanced '{'"));
}

// --- collective-permute's combined and in-place forms --------------------

TEST(XlaCompatTest, CollectivePermuteFormsLoad) {
  const char* const bodies[] = {
      // Combined: several operands, a tuple result.
      "  ROOT r = (f32[4,2], s32[4]) collective-permute(y, s), "
      "source_target_pairs={{0,1},{1,0}}",
      "  st = ((f32[4,2], s32[4]), (f32[4,2], s32[4]), u32[], u32[]) "
      "collective-permute-start(y, s), source_target_pairs={{0,1}}\n"
      "  ROOT d = (f32[4,2], s32[4]) collective-permute-done(st)",
      // In place, one buffer and tuple buffers with a read/write pair per
      // element and start indices per source-target pair.
      "  ROOT r = f32[8,2] collective-permute(y, big, io, io), "
      "source_target_pairs={{0,1}}, slice_sizes={{4,2}}",
      "  in = (f32[4,2], s32[4]) tuple(y, s)\n"
      "  out = (f32[8,2], s32[4]) tuple(big, s)\n"
      "  io2 = ((s32[], s32[]), (s32[], s32[])) tuple(io, io)\n"
      "  st = ((f32[4,2], s32[4]), (f32[8,2], s32[4]), u32[], u32[]) "
      "collective-permute-start(in, out, io2, io2), "
      "source_target_pairs={{0,1},{1,0}}, slice_sizes={{2,2},{1}}\n"
      "  ROOT d = (f32[8,2], s32[4]) collective-permute-done(st)",
  };
  for (const char* body : bodies) {
    const std::string text = absl::StrCat(
        "HloModule m, replica_count=2\nENTRY e {\n"
        "  y = f32[4,2] parameter(0)\n  s = s32[4] parameter(1)\n"
        "  big = f32[8,2] parameter(2)\n  z = s32[] constant(0)\n"
        "  io = (s32[], s32[]) tuple(z, z)\n",
        body, "\n}\n");
    SCOPED_TRACE(text);
    LoadVerifyAndRoundTrip(text);
  }
}

}  // namespace
}  // namespace kiln
