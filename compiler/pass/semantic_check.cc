#include "compiler/pass/semantic_check.h"

#include <cmath>
#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/element_type.h"
#include "compiler/ir/literal_text.h"

namespace kiln {
namespace {

bool IsNanElement(const Literal& literal, int64_t i) {
  const ElementType type = literal.element_type();
  if (IsFloatType(type)) return std::isnan(literal.GetDouble(i));
  if (IsComplexType(type)) {
    const std::complex<double> v = literal.GetComplex(i);
    return std::isnan(v.real()) || std::isnan(v.imag());
  }
  return false;
}

std::string ElementText(const Literal& literal, int64_t i) {
  const ElementType type = literal.element_type();
  if (IsFloatType(type)) return FloatBitsToString(type, literal.GetBits(i));
  if (IsComplexType(type)) {
    const std::complex<double> v = literal.GetComplex(i);
    return absl::StrCat("(", v.real(), ", ", v.imag(), ")");
  }
  if (IsUnsignedIntType(type)) return absl::StrCat(literal.GetUint64(i));
  return absl::StrCat(literal.GetInt64(i));
}

// The multi-dimensional index of row-major linear index `i`.
std::string IndexText(const Shape& shape, int64_t i) {
  std::vector<int64_t> index(shape.dimensions().size());
  for (int64_t d = static_cast<int64_t>(index.size()) - 1; d >= 0; --d) {
    const int64_t size = shape.dimensions()[d];
    index[d] = size == 0 ? 0 : i % size;
    i = size == 0 ? 0 : i / size;
  }
  return absl::StrCat("[", absl::StrJoin(index, ", "), "]");
}

std::optional<std::string> DescribeArrayDifference(const Literal& expected,
                                                   const Literal& actual) {
  for (int64_t i = 0; i < expected.element_count(); ++i) {
    if (expected.GetBits(i) == actual.GetBits(i)) continue;
    if (IsNanElement(expected, i) && IsNanElement(actual, i)) continue;
    return absl::StrCat("element ", i, " (index ",
                        IndexText(expected.shape(), i), "): expected ",
                        ElementText(expected, i), ", actual ",
                        ElementText(actual, i));
  }
  return std::nullopt;
}

std::optional<std::string> DescribeAt(const Literal& expected,
                                      const Literal& actual,
                                      std::vector<int64_t>* path) {
  const std::string where =
      path->empty() ? std::string("output")
                    : absl::StrCat("output {", absl::StrJoin(*path, ","), "}");
  const bool both_tuples =
      expected.shape().IsTuple() && actual.shape().IsTuple() &&
      expected.tuple_elements().size() == actual.tuple_elements().size();
  if (!both_tuples && !expected.shape().Compatible(actual.shape())) {
    return absl::StrCat(where, ": expected shape ",
                        expected.shape().ToString(false), ", actual shape ",
                        actual.shape().ToString(false));
  }
  if (expected.shape().IsTuple()) {
    for (size_t i = 0; i < expected.tuple_elements().size(); ++i) {
      path->push_back(i);
      std::optional<std::string> difference = DescribeAt(
          expected.tuple_elements()[i], actual.tuple_elements()[i], path);
      path->pop_back();
      if (difference) return difference;
    }
    return std::nullopt;
  }
  if (!IsArrayType(expected.element_type())) return std::nullopt;
  if (expected.dynamic_sizes() != actual.dynamic_sizes()) {
    return absl::StrCat(where, ": expected dynamic sizes ",
                        DynamicSizesToString(expected), ", actual ",
                        DynamicSizesToString(actual));
  }
  std::optional<std::string> difference =
      DescribeArrayDifference(expected, actual);
  if (difference) return absl::StrCat(where, " ", *difference);
  return std::nullopt;
}

std::string ArgumentsText(const std::vector<Literal>& arguments) {
  std::vector<std::string> texts;
  for (const Literal& argument : arguments) {
    texts.push_back(LiteralToString(argument));
  }
  return absl::StrCat("(", absl::StrJoin(texts, "; "), ")");
}

}  // namespace

std::optional<std::string> DescribeDifference(const Literal& expected,
                                              const Literal& actual) {
  std::vector<int64_t> path;
  return DescribeAt(expected, actual, &path);
}

absl::StatusOr<SemanticChecker> SemanticChecker::Create(
    const Module& module, std::vector<std::vector<Literal>> argument_sets,
    EvalOptions options) {
  SemanticChecker checker;
  checker.options_ = std::move(options);
  for (size_t i = 0; i < argument_sets.size(); ++i) {
    absl::StatusOr<Literal> result =
        Evaluate(module, argument_sets[i], checker.options_);
    ++checker.evaluations_;
    if (!result.ok()) {
      return absl::Status(
          result.status().code(),
          absl::StrCat("check-semantics: the input module cannot be "
                       "evaluated on argument set ",
                       i, ": ", result.status().message()));
    }
    checker.expected_.push_back(*std::move(result));
  }
  checker.argument_sets_ = std::move(argument_sets);
  return checker;
}

absl::Status SemanticChecker::Check(absl::string_view pass_name,
                                    const Module& module) {
  for (size_t i = 0; i < argument_sets_.size(); ++i) {
    // Only on failure: the arguments' text is as large as the arguments.
    const auto context = [&] {
      return absl::StrCat("check-semantics: pass '", pass_name,
                          "' changed the result on argument set ", i, " ",
                          ArgumentsText(argument_sets_[i]), ": ");
    };
    absl::StatusOr<Literal> actual =
        Evaluate(module, argument_sets_[i], options_);
    ++evaluations_;
    if (!actual.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          context(), "evaluation now fails: ", actual.status().message()));
    }
    std::optional<std::string> difference =
        DescribeDifference(expected_[i], *actual);
    if (difference) {
      return absl::FailedPreconditionError(
          absl::StrCat(context(), *difference));
    }
  }
  return absl::OkStatus();
}

}  // namespace kiln
