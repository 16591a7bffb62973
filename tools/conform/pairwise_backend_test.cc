// The conformance tolerance of reductions is measured from an accurate
// centre (the evaluator's sums are accurate, reduction_wide.h, and the
// cases' expected values are exact or correctly rounded), so a backend that
// sums in a tree in the element type, as XLA's CPU and GPU backends do,
// must pass the same reduce cases. This test registers such a backend:
// the reference evaluator with every recognised float add-reduce replaced
// by a pairwise sum in the element type (each partial sum rounded to the
// type, the init value added last), and runs the suite's reduce cases on
// it.
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "backends/backend.h"
#include "backends/reference/reference_backend.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/reduction_fast_path.h"
#include "compiler/ir/float_convert.h"
#include "gtest/gtest.h"
#include "tools/conform/case_file.h"
#include "tools/conform/runner.h"

namespace kiln {
namespace {

constexpr char kTargetPrefix[] = "kiln.test.pairwise_sum.";

double RoundTo(ElementType type, double value) {
  if (type == ElementType::kF64) return value;
  return BitsToFloat(type, FloatToBits(type, value));
}

// The pairwise sum of values[lo, hi) in `type`, each partial sum rounded.
double Pairwise(const std::vector<double>& values, size_t lo, size_t hi,
                ElementType type) {
  if (hi - lo == 1) return values[lo];
  const size_t mid = lo + (hi - lo) / 2;
  return RoundTo(
      type, Pairwise(values, lo, mid, type) + Pairwise(values, mid, hi, type));
}

// reduce(input, init) over `reduced` (dimension numbers) with add, as a
// tree in the element type.
absl::StatusOr<Literal> PairwiseReduce(const Literal& input,
                                       const Literal& init, const Shape& shape,
                                       const std::vector<bool>& reduced) {
  if (input.has_dynamic_sizes()) {
    return absl::UnimplementedError("pairwise test backend: dynamic sizes");
  }
  absl::StatusOr<Literal> result = Literal::Create(shape);
  if (!result.ok()) return result.status();
  const ElementType type = input.element_type();
  const std::vector<int64_t>& dims = input.shape().dimensions();
  const int64_t rank = static_cast<int64_t>(dims.size());
  std::vector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * dims[d + 1];
  }
  std::vector<int64_t> kept, red;
  for (int64_t d = 0; d < rank; ++d) (reduced[d] ? red : kept).push_back(d);
  std::vector<double> values;
  for (int64_t o = 0; o < result->element_count(); ++o) {
    // The kept dimensions' index of output element o, row-major.
    int64_t base = 0;
    int64_t rest = o;
    for (int64_t k = static_cast<int64_t>(kept.size()) - 1; k >= 0; --k) {
      base += (rest % dims[kept[k]]) * strides[kept[k]];
      rest /= dims[kept[k]];
    }
    values.clear();
    std::vector<int64_t> index(red.size(), 0);
    bool empty = false;
    for (int64_t d : red) empty = empty || dims[d] == 0;
    while (!empty) {
      int64_t at = base;
      for (size_t r = 0; r < red.size(); ++r) at += index[r] * strides[red[r]];
      values.push_back(input.GetDouble(at));
      int64_t r = static_cast<int64_t>(red.size()) - 1;
      for (; r >= 0; --r) {
        if (++index[r] < dims[red[r]]) break;
        index[r] = 0;
      }
      if (r < 0) break;
    }
    double sum = init.GetDouble(0);
    if (!values.empty()) {
      sum = RoundTo(type, sum + Pairwise(values, 0, values.size(), type));
    }
    result->SetDouble(o, sum);
  }
  return result;
}

// Replaces each reduce of one float array with a single-add combiner by a
// custom-call the registry computes pairwise. Returns how many.
int64_t RewriteReduces(Module& module, CustomCallRegistry& registry) {
  int64_t rewritten = 0;
  for (Computation* computation : module.computations()) {
    for (Instruction* reduce : computation->instructions()) {
      if (reduce->opcode() != Opcode::kReduce || reduce->operand_count() != 2 ||
          !reduce->shape().IsArray() ||
          !IsFloatType(reduce->shape().element_type())) {
        continue;
      }
      Computation* const* to_apply =
          reduce->attrs().Get<Computation*>("to_apply");
      const Int64List* dims = reduce->attrs().Get<Int64List>("dimensions");
      if (to_apply == nullptr || dims == nullptr ||
          eval::MatchCombinerOp(**to_apply, reduce->shape().element_type()) !=
              eval::CombinerOp::kAdd) {
        continue;
      }
      std::vector<bool> reduced(reduce->operand(0)->shape().rank(), false);
      for (int64_t d : *dims) reduced[d] = true;
      const std::string target =
          absl::StrCat(kTargetPrefix, absl::StrJoin(*dims, ","));
      auto call = std::make_unique<Instruction>(
          Opcode::kCustomCall, reduce->shape(),
          absl::StrCat(reduce->name(), ".pairwise"));
      call->AppendOperand(reduce->operand(0));
      call->AppendOperand(reduce->operand(1));
      call->mutable_attrs()->Set("custom_call_target", target);
      Instruction* added = computation->AddInstruction(std::move(call));
      // `reduce` (and `dims`) are gone after this.
      EXPECT_TRUE(computation->ReplaceInstruction(reduce, added).ok());
      registry.Register(target,
                        [reduced](absl::Span<const Literal* const> in,
                                  const Shape& shape, absl::string_view) {
                          return PairwiseReduce(*in[0], *in[1], shape, reduced);
                        });
      ++rewritten;
    }
  }
  return rewritten;
}

int64_t total_rewritten = 0;

class PairwiseExecutable : public Executable {
 public:
  PairwiseExecutable(std::unique_ptr<Module> module,
                     std::vector<Shape> parameters)
      : Executable(std::move(parameters), 1), module_(std::move(module)) {
    total_rewritten += RewriteReduces(*module_, registry_);
    options_.custom_calls = &registry_;
  }
  absl::StatusOr<Literal> Run(absl::Span<const Literal> arguments) override {
    return Evaluate(*module_, arguments, options_);
  }

 private:
  std::unique_ptr<Module> module_;
  CustomCallRegistry registry_;
  EvalOptions options_;
};

class PairwiseBackend : public Backend {
 public:
  absl::string_view name() const override { return "pairwise-test"; }
  bool Supports(Opcode opcode, ElementType type) const override {
    return reference_.Supports(opcode, type);
  }
  bool accepts_client_form() const override { return true; }
  absl::StatusOr<std::unique_ptr<Executable>> Compile(
      const Module& module, const CompileOptions& options) override {
    if (options.replica_count * options.num_partitions != 1) {
      return absl::UnimplementedError("pairwise test backend: one device");
    }
    absl::StatusOr<std::vector<Shape>> parameters =
        CheckCompilable(*this, module, options);
    if (!parameters.ok()) return parameters.status();
    return std::unique_ptr<Executable>(std::make_unique<PairwiseExecutable>(
        module.Clone(), *std::move(parameters)));
  }

 private:
  ReferenceBackend reference_;
};

KILN_REGISTER_BACKEND(
    pairwise_test,
    [](absl::string_view) -> absl::StatusOr<std::unique_ptr<Backend>> {
      return std::unique_ptr<Backend>(std::make_unique<PairwiseBackend>());
    });

TEST(PairwiseBackendTest, TreeSumsInTheElementTypePassTheReduceCases) {
  absl::StatusOr<std::vector<std::string>> files =
      conform::FindCaseFiles({"spec_tests"});
  ASSERT_TRUE(files.ok()) << files.status();
  absl::StatusOr<std::vector<conform::Case>> all = conform::LoadCases(*files);
  ASSERT_TRUE(all.ok()) << all.status();
  std::vector<conform::Case> cases;
  for (conform::Case& c : *all) {
    if (c.kind != conform::CaseKind::kRun) continue;
    bool has_reduce = false;
    for (const std::string& op : conform::ComputeTraits(c).ops) {
      has_reduce = has_reduce || op == "reduce";
    }
    if (has_reduce) cases.push_back(std::move(c));
  }
  absl::StatusOr<conform::BackendSpec> backend =
      conform::BackendSpec::Parse("pairwise_test", 60, false);
  ASSERT_TRUE(backend.ok()) << backend.status();
  conform::RunOptions options;
  options.jobs = 1;
  const conform::SuiteRun run = conform::RunCases(cases, *backend, options);
  int64_t passed = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const conform::CaseResult& result = run.results[i];
    EXPECT_NE(result.outcome, conform::Outcome::kFail)
        << cases[i].name << " (" << cases[i].Location()
        << "): " << result.message;
    if (result.outcome == conform::Outcome::kPass) ++passed;
  }
  std::cout << passed << " of " << cases.size()
            << " reduce cases pass on the pairwise backend; " << total_rewritten
            << " reduces computed as trees\n";
  // The suite's float add-reduces (reduce.f32/f16/bf16.long_sum_* among
  // them, where sequential, tree and wide sums differ).
  EXPECT_GE(total_rewritten, 15);
}

}  // namespace
}  // namespace kiln
