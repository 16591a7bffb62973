#include "fuzz/generator/coverage.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/opcode.h"

namespace kiln::fuzzgen {

const std::vector<std::string>& SpecOps() {
  static const std::vector<std::string>* const kOps =
      new std::vector<std::string>{
          // collectives
          "all-gather", "all-reduce", "all-to-all", "all-reduce-start",
          "all-reduce-done", "collective-broadcast", "collective-permute",
          "partition-id", "ragged-all-to-all", "reduce-scatter", "replica-id",
          // control flow
          "add-dependency", "after-all", "async-start", "async-done", "call",
          "conditional", "constant", "copy-start", "copy-done",
          "dynamic-reshape", "fusion", "get-dimension-size",
          "get-tuple-element", "opt-barrier", "parameter", "set-dimension-size",
          "tuple", "while",
          // convolution, data movement
          "convolution", "broadcast", "concatenate", "dynamic-slice",
          "dynamic-update-slice", "iota", "pad", "reshape", "reverse", "slice",
          "transpose",
          // elementwise
          "abs", "add", "and", "atan2", "bitcast-convert", "cbrt", "ceil",
          "clamp", "compare", "complex", "convert", "copy", "cosh", "cosine",
          "count-leading-zeros", "divide", "erf", "exponential-minus-one",
          "exponential", "floor", "imag", "is-finite", "log-plus-one", "log",
          "logistic", "maximum", "minimum", "multiply", "negate", "not", "or",
          "popcnt", "power", "real", "reduce-precision", "remainder",
          "round-nearest-afz", "round-nearest-even", "rsqrt", "select",
          "shift-left", "shift-right-arithmetic", "shift-right-logical", "sign",
          "sine", "sqrt", "subtract", "tan", "tanh", "xor",
          // indexing, io
          "gather", "scatter", "bitcast", "custom-call", "domain", "infeed",
          "outfeed", "send", "send-done", "recv", "recv-done",
          // linalg
          "batch-norm-grad", "batch-norm-inference", "batch-norm-training",
          "cholesky", "dot", "fft", "ragged-dot", "scaled-dot",
          "triangular-solve",
          // random, reduction
          "rng-bit-generator", "rng-get-and-update-state", "rng", "map",
          "reduce-window", "reduce", "scan", "select-and-scatter", "sort",
          "topk"};
  return *kOps;
}

void Coverage::Add(const Module& module) {
  for (const Computation* computation : module.computations()) {
    for (const Instruction* instruction : computation->instructions()) {
      std::map<std::string, int64_t>& types =
          counts_[std::string(OpcodeName(instruction->opcode()))];
      std::set<ElementType> seen;
      if (instruction->shape().IsArray()) {
        seen.insert(instruction->shape().element_type());
      }
      for (const Instruction* operand : instruction->operands()) {
        if (operand->shape().IsArray()) {
          seen.insert(operand->shape().element_type());
        }
      }
      if (seen.empty()) seen.insert(instruction->shape().element_type());
      for (ElementType type : seen) {
        ++types[std::string(ElementTypeName(type))];
      }
    }
  }
}

std::vector<std::string> Coverage::MissingSpecOps() const {
  std::vector<std::string> missing;
  for (const std::string& op : SpecOps()) {
    if (counts_.find(op) == counts_.end()) missing.push_back(op);
  }
  return missing;
}

std::string Coverage::Report() const {
  const int64_t spec = SpecOps().size();
  const std::vector<std::string> missing = MissingSpecOps();
  int64_t pairs = 0;
  for (const auto& [op, types] : counts_) pairs += types.size();
  std::string text = absl::StrFormat(
      "ops: %d/%d of the spec (%.1f%%); op x type pairs: %d\n",
      spec - static_cast<int64_t>(missing.size()), spec,
      100.0 * (spec - static_cast<double>(missing.size())) / spec, pairs);
  if (modules_ > 0) {
    absl::StrAppend(
        &text,
        absl::StrFormat("modules verifying in strict form after legalization: "
                        "%d/%d (%.1f%%)\n",
                        strict_ok_, modules_, 100.0 * strict_ok_ / modules_));
  }
  if (!missing.empty()) {
    absl::StrAppend(&text, "spec ops never generated:");
    for (const std::string& op : missing) absl::StrAppend(&text, " ", op);
    absl::StrAppend(&text, "\n");
  }
  for (const auto& [op, types] : counts_) {
    absl::StrAppend(&text, op, ":");
    for (const auto& [type, count] : types) {
      absl::StrAppend(&text, " ", type, "=", count);
    }
    absl::StrAppend(&text, "\n");
  }
  return text;
}

}  // namespace kiln::fuzzgen
