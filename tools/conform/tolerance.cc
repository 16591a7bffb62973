#include "tools/conform/tolerance.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "compiler/ir/attr_names.h"
#include "compiler/ir/attributes.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"

namespace kiln::conform {
namespace {

// ULPs per transcendental op: {f64, f32, 16-bit floats, 8-bit and narrower
// floats, complex}. Narrow types are usually computed in a wider type and
// rounded once, hence the single ULP. Keep in sync with the table in
// docs/conformance.md.
struct UlpRow {
  const char* op;
  int64_t f64, f32, f16, narrow, complex;
};

constexpr UlpRow kUlpTable[] = {
    {"exponential", 2, 2, 1, 1, 4},
    {"exponential-minus-one", 2, 2, 1, 1, 4},
    {"log", 2, 2, 1, 1, 4},
    {"log-plus-one", 2, 2, 1, 1, 4},
    {"logistic", 2, 2, 1, 1, 4},
    {"tanh", 2, 2, 1, 1, 4},
    {"sine", 2, 2, 1, 1, 4},
    {"cosine", 2, 2, 1, 1, 4},
    {"tan", 3, 3, 1, 1, 4},
    {"sinh", 2, 2, 1, 1, 4},
    {"cosh", 2, 2, 1, 1, 4},
    {"asin", 2, 2, 1, 1, 4},
    {"acos", 2, 2, 1, 1, 4},
    {"atan", 2, 2, 1, 1, 4},
    {"asinh", 2, 2, 1, 1, 4},
    {"acosh", 2, 2, 1, 1, 4},
    {"atanh", 2, 2, 1, 1, 4},
    {"atan2", 2, 2, 1, 1, 4},
    {"power", 4, 4, 1, 1, 8},
    {"rsqrt", 2, 2, 1, 1, 4},
    {"cbrt", 2, 2, 1, 1, 4},
    {"erf", 2, 2, 1, 1, 4},
    // Correctly rounded on real types, not on complex ones.
    {"sqrt", -1, -1, -1, -1, 4},
    {"divide", -1, -1, -1, -1, 2},
    {"multiply", -1, -1, -1, -1, 2},
    {"abs", -1, -1, -1, -1, 2},
};

int64_t Product(const std::vector<int64_t>& dims,
                const std::vector<int64_t>& which) {
  int64_t n = 1;
  for (int64_t d : which) {
    if (d >= 0 && d < static_cast<int64_t>(dims.size())) n *= dims[d];
  }
  return n;
}

int64_t WindowSize(const Instruction& instruction) {
  const Window* window = instruction.attrs().Get<Window>(attr::kWindow);
  if (window == nullptr) return 1;
  int64_t n = 1;
  for (const WindowDimension& d : window->dimensions) n *= d.size;
  return n;
}

const std::vector<int64_t>& OperandDims(const Instruction& instruction,
                                        size_t i) {
  static const std::vector<int64_t>* const kNone = new std::vector<int64_t>();
  if (i >= instruction.operands().size() ||
      !instruction.operands()[i]->shape().IsArray()) {
    return *kNone;
  }
  return instruction.operands()[i]->shape().dimensions();
}

int64_t ConvolutionLength(const Instruction& instruction) {
  const auto* numbers =
      instruction.attrs().Get<ConvolutionDimensionNumbers>(attr::kDimLabels);
  const std::vector<int64_t>& kernel = OperandDims(instruction, 1);
  if (numbers == nullptr || kernel.empty()) return WindowSize(instruction);
  return Product(kernel, numbers->kernel_spatial_dimensions) *
         Product(kernel, {numbers->kernel_input_feature_dimension});
}

// Elements combined into one output element by `instruction`, or 0.
int64_t ReductionLength(const Instruction& instruction) {
  const std::vector<int64_t>& dims0 = OperandDims(instruction, 0);
  switch (instruction.opcode()) {
    case Opcode::kReduce: {
      const Int64List* dims =
          instruction.attrs().Get<Int64List>(attr::kDimensions);
      return dims == nullptr ? 0 : Product(dims0, *dims);
    }
    case Opcode::kReduceWindow:
    case Opcode::kSelectAndScatter:
      return WindowSize(instruction);
    case Opcode::kDot:
    case Opcode::kScaledDot:
    case Opcode::kRaggedDot: {
      const Int64List* dims =
          instruction.attrs().Get<Int64List>(attr::kLhsContractingDims);
      return dims == nullptr ? 1 : Product(dims0, *dims);
    }
    case Opcode::kConvolution:
      return ConvolutionLength(instruction);
    case Opcode::kFft: {
      const Int64List* lengths =
          instruction.attrs().Get<Int64List>(attr::kFftLength);
      if (lengths == nullptr) return 0;
      int64_t n = 1;
      for (int64_t l : *lengths) n *= l;
      return n;
    }
    case Opcode::kCholesky:
    case Opcode::kTriangularSolve:
    case Opcode::kBatchNormTraining:
    case Opcode::kBatchNormGrad:
    case Opcode::kBatchNormInference: {
      int64_t n = 1;
      for (int64_t d : dims0) n = std::max(n, d);
      return n * (dims0.empty() ? 1 : static_cast<int64_t>(dims0.size()));
    }
    case Opcode::kAllReduce:
    case Opcode::kAllReduceStart:
    case Opcode::kReduceScatter: {
      const ModuleConfig& config = instruction.parent()->parent()->config();
      return std::max<int64_t>(1, config.replica_count * config.num_partitions);
    }
    case Opcode::kScan:
      return dims0.empty() ? 1 : *std::max_element(dims0.begin(), dims0.end());
    default:
      return 0;
  }
}

double Epsilon(ElementType type) {
  const ElementTypeInfo& info = GetElementTypeInfo(
      IsComplexType(type) ? GetElementTypeInfo(type).component : type);
  return std::ldexp(1.0, -std::max(info.mantissa_bits, 1));
}

}  // namespace

Tolerance Tolerance::Ulps(int64_t n) {
  Tolerance t;
  t.exact = false;
  t.ulps = n;
  return t;
}

Tolerance Tolerance::AbsRel(double abs, double rel) {
  Tolerance t;
  t.exact = false;
  t.abs = abs;
  t.rel = rel;
  return t;
}

Tolerance Tolerance::Loosest(const Tolerance& other) const {
  Tolerance t;
  t.exact = exact && other.exact;
  t.ulps = std::max(ulps, other.ulps);
  t.abs = std::max(abs, other.abs);
  t.rel = std::max(rel, other.rel);
  return t;
}

std::string Tolerance::ToString() const {
  if (exact) return "exact";
  std::vector<std::string> parts;
  if (ulps > 0 || (abs == 0 && rel == 0))
    parts.push_back(absl::StrCat("ulp=", ulps));
  if (abs > 0 || rel > 0) {
    parts.push_back(absl::StrCat("abs=", abs));
    parts.push_back(absl::StrCat("rel=", rel));
  }
  return absl::StrJoin(parts, " ");
}

absl::StatusOr<Tolerance> ParseTolerance(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (text == "exact") return Tolerance::Exact();
  Tolerance t;
  t.exact = false;
  bool any = false;
  for (absl::string_view item :
       absl::StrSplit(text, absl::ByAnyChar(" \t"), absl::SkipEmpty())) {
    any = true;
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(item, absl::MaxSplits('=', 1));
    bool ok = false;
    if (kv.first == "ulp") {
      ok = absl::SimpleAtoi(kv.second, &t.ulps) && t.ulps >= 0;
    } else if (kv.first == "abs") {
      ok = absl::SimpleAtod(kv.second, &t.abs) && t.abs >= 0;
    } else if (kv.first == "rel") {
      ok = absl::SimpleAtod(kv.second, &t.rel) && t.rel >= 0;
    }
    if (!ok) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad tolerance item '", item,
          "': expected exact, ulp=N, abs=X or rel=Y (non-negative)"));
    }
  }
  if (!any) {
    return absl::InvalidArgumentError(
        "empty tolerance: expected exact, ulp=N or abs=X rel=Y");
  }
  return t;
}

int64_t TranscendentalUlps(absl::string_view op, ElementType type) {
  for (const UlpRow& row : kUlpTable) {
    if (op != row.op) continue;
    if (IsComplexType(type)) return row.complex;
    if (!IsFloatType(type)) return -1;
    switch (BitWidth(type)) {
      case 64:
        return row.f64;
      case 32:
        return row.f32;
      case 16:
        return row.f16;
      default:
        return row.narrow;
    }
  }
  return -1;
}

int64_t LongestReduction(const Module& module) {
  int64_t longest = 0;
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      longest = std::max(longest, ReductionLength(*instruction));
    }
  }
  return longest;
}

Tolerance DefaultTolerance(const Module& module, ElementType type) {
  Tolerance tolerance = Tolerance::Exact();
  if (!IsFloatType(type) && !IsComplexType(type)) return tolerance;
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      int64_t ulps =
          TranscendentalUlps(OpcodeName(instruction->opcode()), type);
      if (ulps >= 0) tolerance = tolerance.Loosest(Tolerance::Ulps(ulps));
    }
  }
  const int64_t n = LongestReduction(module);
  if (n > 1) {
    const double bound = static_cast<double>(n) * Epsilon(type);
    tolerance = tolerance.Loosest(Tolerance::AbsRel(bound, bound));
  }
  return tolerance;
}

}  // namespace kiln::conform
