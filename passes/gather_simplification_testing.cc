#include "passes/gather_simplification_testing.h"

#include <algorithm>
#include <memory>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/element_type.h"
#include "compiler/pass/semantic_check.h"
#include "compiler/text/parser.h"
#include "compiler/verifier/verifier.h"
#include "gtest/gtest.h"
#include "passes/pass_test_util.h"

namespace kiln {
namespace gather_scatter_testing {
namespace {

Literal RandomLiteral(const Shape& shape, std::mt19937& random, int64_t low,
                      int64_t high) {
  absl::StatusOr<Literal> literal = Literal::Create(shape);
  if (!literal.ok()) return Literal();
  const ElementType type = shape.element_type();
  std::uniform_int_distribution<int64_t> integers(low, high);
  std::uniform_int_distribution<int> small(-40, 40);
  for (int64_t i = 0; i < literal->element_count(); ++i) {
    if (IsIntegralType(type)) {
      literal->SetInt64(i, integers(random));
    } else if (type == ElementType::kPred) {
      literal->SetInt64(i, random() & 1);
    } else if (IsComplexType(type)) {
      literal->SetComplex(i, {small(random) / 4.0, small(random) / 4.0});
    } else {
      literal->SetDouble(i, small(random) / 4.0);
    }
  }
  return *std::move(literal);
}

std::vector<Literal> ParseArguments(const std::vector<std::string>& texts) {
  std::vector<Literal> arguments;
  for (const std::string& text : texts) {
    absl::StatusOr<Literal> literal = ParseLiteral(text);
    EXPECT_TRUE(literal.ok()) << literal.status() << ": " << text;
    if (literal.ok()) arguments.push_back(*std::move(literal));
  }
  return arguments;
}

void ExpectStrict(const Module& module, absl::string_view when) {
  VerifyOptions options;
  options.form = ShapeForm::kStrict;
  absl::Status verified = VerifyModule(module, options);
  EXPECT_TRUE(verified.ok()) << when << ": " << verified << "\n"
                             << pass_test::Print(module);
}

// The operand side of a random gather/scatter: which operand dims are
// batching, indexed (index_map order), collapsed, and the window sizes.
struct RandomDims {
  std::vector<int64_t> operand, batch_sizes, index_map, collapsed,
      operand_batching, index_batching, window_positions;
  int64_t index_vector_dim = 0;
  std::vector<int64_t> indices;  // The indices' dims.
};

std::string List(const std::vector<int64_t>& values) {
  return absl::StrCat("{", absl::StrJoin(values, ","), "}");
}

std::string ShapeText(const std::string& type,
                      const std::vector<int64_t>& dims) {
  return absl::StrCat(type, "[", absl::StrJoin(dims, ","), "]");
}

RandomDims DrawDims(std::mt19937& random, int64_t* window_count) {
  auto draw = [&](int64_t low, int64_t high) {
    return std::uniform_int_distribution<int64_t>(low, high)(random);
  };
  RandomDims d;
  const int64_t rank = draw(1, 3);
  for (int64_t i = 0; i < rank; ++i) d.operand.push_back(draw(1, 4));
  const int64_t batch_rank = draw(0, 2);
  for (int64_t i = 0; i < batch_rank; ++i) d.batch_sizes.push_back(draw(1, 3));
  std::vector<int64_t> free_dims;
  for (int64_t i = 0; i < rank; ++i) free_dims.push_back(i);
  std::shuffle(free_dims.begin(), free_dims.end(), random);
  size_t next = 0;
  if (batch_rank > 0 && rank > 1 && draw(0, 1) == 1) {
    const int64_t dim = free_dims[next++];
    const int64_t position = draw(0, batch_rank - 1);
    d.operand_batching.push_back(dim);
    d.batch_sizes[position] = d.operand[dim];
    d.index_batching.push_back(position);  // A batch position for now.
  }
  const int64_t indexed = draw(0, rank - next);
  for (int64_t i = 0; i < indexed; ++i)
    d.index_map.push_back(free_dims[next + i]);
  for (size_t i = next; i < free_dims.size(); ++i) {
    if (draw(0, 2) == 0) d.collapsed.push_back(free_dims[i]);
  }
  std::sort(d.collapsed.begin(), d.collapsed.end());
  const int64_t vector_size = d.index_map.size();
  d.index_vector_dim = draw(0, batch_rank);
  const bool implicit = vector_size == 1 && draw(0, 1) == 1;
  if (implicit) d.index_vector_dim = batch_rank;
  d.indices = d.batch_sizes;
  if (!implicit) {
    d.indices.insert(d.indices.begin() + d.index_vector_dim, vector_size);
  }
  for (int64_t& position : d.index_batching) {
    position += (!implicit && position >= d.index_vector_dim) ? 1 : 0;
  }
  *window_count = rank - d.collapsed.size() - d.operand_batching.size();
  const int64_t out_rank = *window_count + batch_rank;
  std::vector<int64_t> positions;
  for (int64_t i = 0; i < out_rank; ++i) positions.push_back(i);
  std::shuffle(positions.begin(), positions.end(), random);
  positions.resize(*window_count);
  std::sort(positions.begin(), positions.end());
  d.window_positions = positions;
  return d;
}

std::string BatchingAttrs(const RandomDims& d, const char* operand_name,
                          const char* index_name) {
  if (d.operand_batching.empty()) return "";
  return absl::StrCat(", ", operand_name, "=", List(d.operand_batching), ", ",
                      index_name, "=", List(d.index_batching));
}

// Result/updates dims: window sizes at the window positions, the batch
// sizes elsewhere.
std::vector<int64_t> Interleave(const RandomDims& d,
                                const std::vector<int64_t>& window_sizes) {
  std::vector<int64_t> dims;
  size_t next_window = 0, next_batch = 0;
  const size_t rank = window_sizes.size() + d.batch_sizes.size();
  for (size_t i = 0; i < rank; ++i) {
    if (next_window < d.window_positions.size() &&
        d.window_positions[next_window] == static_cast<int64_t>(i)) {
      dims.push_back(window_sizes[next_window++]);
    } else {
      dims.push_back(d.batch_sizes[next_batch++]);
    }
  }
  return dims;
}

const char* IndexType(std::mt19937& random) {
  static const char* const kTypes[] = {"s32", "s64", "u8", "s8", "u32"};
  return kTypes[random() % 5];
}

}  // namespace

std::string RandomGatherModule(uint32_t seed) {
  std::mt19937 random(seed);
  int64_t window_count = 0;
  const RandomDims d = DrawDims(random, &window_count);
  std::vector<int64_t> sizes, window_sizes;
  for (size_t i = 0; i < d.operand.size(); ++i) {
    const int64_t dim = static_cast<int64_t>(i);
    const bool unit =
        std::find(d.collapsed.begin(), d.collapsed.end(), dim) !=
            d.collapsed.end() ||
        std::find(d.operand_batching.begin(), d.operand_batching.end(), dim) !=
            d.operand_batching.end();
    sizes.push_back(
        unit ? 1
             : std::uniform_int_distribution<int64_t>(1, d.operand[i])(random));
    if (!unit) window_sizes.push_back(sizes.back());
  }
  const std::string type = IndexType(random);
  return eval_test::EntryModule(
      {ShapeText("f32", d.operand), ShapeText(type, d.indices)},
      absl::StrCat("ROOT g = ", ShapeText("f32", Interleave(d, window_sizes)),
                   " gather(p0, p1), offset_dims=", List(d.window_positions),
                   ", collapsed_slice_dims=", List(d.collapsed),
                   ", start_index_map=", List(d.index_map),
                   BatchingAttrs(d, "operand_batching_dims",
                                 "start_indices_batching_dims"),
                   ", index_vector_dim=", d.index_vector_dim,
                   ", slice_sizes=", List(sizes)));
}

std::string RandomScatterModule(uint32_t seed) {
  std::mt19937 random(seed);
  int64_t window_count = 0;
  const RandomDims d = DrawDims(random, &window_count);
  std::vector<int64_t> window_sizes;
  for (size_t i = 0; i < d.operand.size(); ++i) {
    const int64_t dim = static_cast<int64_t>(i);
    if (std::find(d.collapsed.begin(), d.collapsed.end(), dim) !=
            d.collapsed.end() ||
        std::find(d.operand_batching.begin(), d.operand_batching.end(), dim) !=
            d.operand_batching.end()) {
      continue;
    }
    window_sizes.push_back(
        std::uniform_int_distribution<int64_t>(1, d.operand[i])(random));
  }
  static const char* const kOps[] = {"add", "subtract", "maximum", ""};
  const std::string op = kOps[random() % 4];
  const bool pair = random() % 3 == 0;
  const std::string type = IndexType(random);
  const std::string updates = ShapeText("f32", Interleave(d, window_sizes));
  const std::string operand = ShapeText("f32", d.operand);
  std::string combiner;
  std::vector<std::string> parameters;
  std::string operands;
  if (!pair) {
    combiner = op.empty() ? "combine {\n  a = f32[] parameter(0)\n"
                            "  ROOT b = f32[] parameter(1)\n}\n"
                          : absl::StrCat(
                                "combine {\n  a = f32[] parameter(0)\n"
                                "  b = f32[] parameter(1)\n  ROOT r = f32[] ",
                                op, "(a, b)\n}\n");
    parameters = {operand, ShapeText(type, d.indices), updates};
    operands = "p0, p1, p2";
  } else {
    combiner = absl::StrCat(
        "combine {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
        "  c = f32[] parameter(2)\n  e = f32[] parameter(3)\n"
        "  x = f32[] ",
        op.empty() ? "copy(c)" : absl::StrCat(op, "(a, c)"),
        "\n  y = f32[] subtract(e, b)\n"
        "  ROOT t = (f32[], f32[]) tuple(x, y)\n}\n");
    parameters = {operand, operand, ShapeText(type, d.indices), updates,
                  updates};
    operands = "p0, p1, p2, p3, p4";
  }
  const std::string result =
      pair ? absl::StrCat("(", operand, ", ", operand, ")") : operand;
  return eval_test::EntryModule(
      parameters,
      absl::StrCat("ROOT s = ", result, " scatter(", operands,
                   "), update_window_dims=", List(d.window_positions),
                   ", inserted_window_dims=", List(d.collapsed),
                   ", scatter_dims_to_operand_dims=", List(d.index_map),
                   BatchingAttrs(d, "input_batching_dims",
                                 "scatter_indices_batching_dims"),
                   ", index_vector_dim=", d.index_vector_dim,
                   ", to_apply=combine"),
      combiner);
}

std::vector<Literal> RandomArguments(const Module& module, uint32_t seed,
                                     int64_t low, int64_t high) {
  std::mt19937 random(seed);
  std::vector<Literal> arguments;
  for (const Instruction* parameter : module.entry()->parameters()) {
    arguments.push_back(RandomLiteral(parameter->shape(), random, low, high));
  }
  return arguments;
}

std::string RunAndCompare(const std::string& hlo, const std::string& pass,
                          const ValueCheck& check) {
  absl::StatusOr<std::unique_ptr<Module>> module = pass_test::Parse(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return "";
  ExpectStrict(**module, "before the pass");
  std::vector<std::vector<Literal>> sets;
  for (int seed = 1; seed <= check.random_sets; ++seed) {
    sets.push_back(
        RandomArguments(**module, seed, check.int_low, check.int_high));
  }
  for (const std::vector<std::string>& texts : check.fixed_sets) {
    sets.push_back(ParseArguments(texts));
  }
  absl::StatusOr<SemanticChecker> checker =
      SemanticChecker::Create(**module, std::move(sets));
  EXPECT_TRUE(checker.ok()) << checker.status();
  absl::StatusOr<bool> changed = pass_test::RunPass(pass, **module);
  EXPECT_TRUE(changed.ok()) << changed.status();
  if (!changed.ok()) return "";
  if (check.check_change) {
    EXPECT_EQ(*changed, check.expect_change) << pass_test::Print(**module);
  }
  ExpectStrict(**module, "after the pass");
  EXPECT_TRUE(pass_test::RoundTrips(**module));
  if (checker.ok()) {
    absl::Status same = checker->Check(pass, **module);
    EXPECT_TRUE(same.ok()) << same << "\n" << pass_test::Print(**module);
  }
  return pass_test::Print(**module);
}

BeforeAfter EvaluateAround(const std::string& hlo, const std::string& pass,
                           const std::vector<std::string>& arguments) {
  BeforeAfter result;
  absl::StatusOr<std::unique_ptr<Module>> module = pass_test::Parse(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return result;
  const std::vector<Literal> values = ParseArguments(arguments);
  auto evaluate = [&]() -> std::string {
    absl::StatusOr<Literal> value = Evaluate(**module, values);
    if (!value.ok()) return absl::StrCat("error: ", value.status().message());
    return eval_test::LiteralText(*value);
  };
  result.before = evaluate();
  absl::StatusOr<bool> changed = pass_test::RunPass(pass, **module);
  EXPECT_TRUE(changed.ok()) << changed.status();
  ExpectStrict(**module, "after the pass");
  result.after = evaluate();
  result.printed = pass_test::Print(**module);
  return result;
}

std::string Combiner(const std::string& name, const std::string& type,
                     const std::string& op) {
  return name + " {\n  a = " + type + "[] parameter(0)\n  b = " + type +
         "[] parameter(1)\n  ROOT r = " + type + "[] " + op + "(a, b)\n}\n";
}

const char kOverwrite[] =
    "assign {\n  a = f32[] parameter(0)\n  ROOT b = f32[] parameter(1)\n}\n";

std::string CheckJaxScatterSpecExample(const std::string& pass) {
  // compiler/evaluator/indexing_generated_test.cc: values from JAX.
  const std::string hlo = eval_test::EntryModule(
      {"s32[2,3,4,2]", "s64[2,2,3,2]", "s32[2,2,3,2,2]"},
      "ROOT s = s32[2,3,4,2] scatter(p0, p1, p2), update_window_dims={3,4}, "
      "inserted_window_dims={1}, input_batching_dims={0}, "
      "scatter_indices_batching_dims={1}, "
      "scatter_dims_to_operand_dims={2,1}, index_vector_dim=3, "
      "to_apply=add",
      Combiner("add", "s32", "add"));
  const std::string ones =
      "s32[2,2,3,2,2] {{{{{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}, {{1, 1}, {1, "
      "1}}}, {{{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}}}, "
      "{{{{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}}, {{{1, 1}, "
      "{1, 1}}, {{1, 1}, {1, 1}}, {{1, 1}, {1, 1}}}}}";
  const std::vector<std::string> arguments = {
      "s32[2,3,4,2] {{{{1, 2}, {3, 4}, {5, 6}, {7, 8}}, {{9, 10}, "
      "{11, 12}, {13, 14}, {15, 16}}, {{17, 18}, {19, 20}, {21, "
      "22}, {23, 24}}}, {{{25, 26}, {27, 28}, {29, 30}, {31, 32}}, "
      "{{33, 34}, {35, 36}, {37, 38}, {39, 40}}, {{41, 42}, {43, "
      "44}, {45, 46}, {47, 48}}}}",
      "s64[2,2,3,2] {{{{0, 0}, {1, 0}, {2, 1}}, {{0, 1}, {1, 1}, "
      "{0, 9}}}, {{{0, 0}, {2, 1}, {2, 2}}, {{1, 2}, {0, 1}, {1, "
      "0}}}}",
      ones};
  const auto values = EvaluateAround(hlo, pass, arguments);
  absl::StatusOr<Literal> expected = ParseLiteral(
      "s32[2,3,4,2] {{{{3, 4}, {6, 7}, {6, 7}, {7, 8}}, {{9, 10}, {11, "
      "12}, {15, 16}, {17, 18}}, {{17, 18}, {19, 20}, {22, 23}, {24, "
      "25}}}, {{{25, 26}, {28, 29}, {30, 31}, {31, 32}}, {{35, 36}, {38, "
      "39}, {38, 39}, {39, 40}}, {{41, 42}, {44, 45}, {46, 47}, {47, "
      "48}}}}");
  if (!expected.ok()) {
    ADD_FAILURE() << expected.status();
    return "";
  }
  EXPECT_EQ(values.after, eval_test::LiteralText(*expected));
  EXPECT_EQ(values.after, values.before);
  ValueCheck check;
  check.fixed_sets = {arguments};
  return RunAndCompare(hlo, pass, check);
}

}  // namespace gather_scatter_testing
}  // namespace kiln
