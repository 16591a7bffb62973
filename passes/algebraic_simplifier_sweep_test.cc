// Exhaustive soundness sweeps of algebraic-simplifier: every binary op with
// every special constant on either side, for many element types, plus
// unary chains and convert round trips. Whatever the pass rewrites, the
// evaluator must give the same results on inputs full of -0, NaN, inf and
// integer extremes. Modules the parser refuses (an op a type does not
// have, a constant out of range) and modules the evaluator cannot run are
// skipped.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/module.h"
#include "compiler/pass/semantic_check.h"
#include "gtest/gtest.h"
#include "passes/algebraic_simplifier_test_util.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace {

using ::kiln::algsimp_test::Outcome;
using ::kiln::algsimp_test::RunOn;
using ::kiln::algsimp_test::SpecialArguments;
using ::kiln::eval_test::EntryModule;

struct SweepCount {
  int run = 0;
  int fired = 0;
};

// Runs the exact pass on `hlo` when it parses; expects unchanged results.
void CheckSound(const std::string& hlo, SweepCount* count) {
  absl::StatusOr<std::unique_ptr<Module>> module = pass_test::Parse(hlo);
  if (!module.ok() ||
      !SemanticChecker::Create(**module, SpecialArguments(**module)).ok()) {
    return;  // An op the type lacks: nothing to compare.
  }
  ++count->run;
  const Outcome outcome = RunOn(hlo);
  if (outcome.changed) ++count->fired;
  EXPECT_TRUE(outcome.semantics.ok()) << outcome.semantics << "\n"
                                      << hlo << "\nbecame\n"
                                      << outcome.text;
}

std::vector<std::string> ConstantsFor(const std::string& type) {
  if (type == "pred") return {"true", "false"};
  if (type[0] == 'c') {
    return {"(0, 0)", "(-0, -0)", "(-0, 0)", "(1, 0)", "(2, 0)"};
  }
  if (type[0] == 'f' || type == "bf16") {
    return {"0", "-0", "1", "-1", "2", "0.5", "3", "inf", "-inf", "nan"};
  }
  return {"0",   "1",    "-1",  "2",           "127",
          "255", "-128", "-32", "-2147483648", "2147483647"};
}

const char* const kTypes[] = {"f32", "f16", "bf16", "f8e4m3fnuz", "s32",
                              "u8",  "s8",  "pred", "c64"};
const char* const kBinaryOps[] = {"add",     "subtract", "multiply", "divide",
                                  "maximum", "minimum",  "power",    "and",
                                  "or",      "xor",      "remainder"};

TEST(AlgebraicSimplifierSweepTest, BinaryOpsWithEveryConstant) {
  SweepCount count;
  for (const std::string type : kTypes) {
    const std::string shape = type + "[4]";
    for (const std::string op : kBinaryOps) {
      CheckSound(EntryModule({shape}, absl::StrCat("ROOT r = ", shape, " ", op,
                                                   "(p0, p0)")),
                 &count);
      for (const std::string& constant : ConstantsFor(type)) {
        const std::string c =
            absl::StrCat("c = ", type, "[] constant(", constant, ")\n  ");
        CheckSound(EntryModule({shape}, absl::StrCat(c, "ROOT r = ", shape, " ",
                                                     op, "(p0, c)")),
                   &count);
        CheckSound(EntryModule({shape}, absl::StrCat(c, "ROOT r = ", shape, " ",
                                                     op, "(c, p0)")),
                   &count);
      }
    }
  }
  // The sweep must actually exercise the pass.
  EXPECT_GT(count.run, 500);
  EXPECT_GT(count.fired, 100);
}

TEST(AlgebraicSimplifierSweepTest, ComparisonsOfAValueWithItself) {
  SweepCount count;
  for (const std::string type : kTypes) {
    for (const char* direction : {"EQ", "NE", "GE", "GT", "LE", "LT"}) {
      for (const char* order : {"", ", type=TOTALORDER"}) {
        CheckSound(EntryModule({type + "[4]"},
                               absl::StrCat("ROOT r = pred[4] compare(p0, p0), "
                                            "direction=",
                                            direction, order)),
                   &count);
      }
    }
  }
  EXPECT_GT(count.fired, 20);
}

TEST(AlgebraicSimplifierSweepTest, UnaryChains) {
  SweepCount count;
  const char* const pairs[][2] = {{"negate", "negate"},
                                  {"not", "not"},
                                  {"negate", "abs"},
                                  {"abs", "abs"},
                                  {"negate", "negate"}};
  for (const std::string type : kTypes) {
    const std::string shape = type + "[4]";
    for (const auto& pair : pairs) {
      const std::string result_type =
          (std::string(pair[1]) == "abs" && type == "c64") ? "f32[4]" : shape;
      const std::string inner_type =
          (std::string(pair[0]) == "abs" && type == "c64") ? "f32[4]" : shape;
      CheckSound(
          EntryModule({shape}, absl::StrCat("a = ", inner_type, " ", pair[0],
                                            "(p0)\n  ROOT r = ", result_type,
                                            " ", pair[1], "(a)")),
          &count);
    }
  }
  EXPECT_GT(count.fired, 10);
}

TEST(AlgebraicSimplifierSweepTest, ConvertRoundTrips) {
  SweepCount count;
  const char* const types[] = {"f64",    "f32",      "f16", "bf16",
                               "f8e5m2", "f8e4m3fn", "s64", "s32",
                               "s8",     "u32",      "u8",  "pred"};
  for (const std::string from : types) {
    for (const std::string via : types) {
      CheckSound(
          EntryModule({from + "[4]"}, absl::StrCat("a = ", via,
                                                   "[4] convert(p0)\n"
                                                   "  ROOT r = ",
                                                   from, "[4] convert(a)")),
          &count);
    }
  }
  EXPECT_EQ(count.run, 144);
  EXPECT_GT(count.fired, 20);
}

TEST(AlgebraicSimplifierSweepTest, ReducesOverSizeOneDimsWithEveryInit) {
  SweepCount count;
  for (const std::string type : {"f32", "s32", "u8", "pred"}) {
    for (const std::string op : {"add", "multiply", "maximum", "minimum", "and",
                                 "or", "xor", "subtract"}) {
      const std::string reducer = absl::StrCat(
          "r {\n  a = ", type, "[] parameter(0)\n  b = ", type,
          "[] parameter(1)\n  ROOT s = ", type, "[] ", op, "(a, b)\n}\n");
      for (const std::string& init : ConstantsFor(type)) {
        CheckSound(
            EntryModule({type + "[3,1]"},
                        absl::StrCat("i = ", type, "[] constant(", init,
                                     ")\n  ROOT x = ", type,
                                     "[3] reduce(p0, i), dimensions={1}, "
                                     "to_apply=r"),
                        reducer),
            &count);
      }
    }
  }
  EXPECT_GT(count.fired, 10);
}

}  // namespace
}  // namespace kiln
