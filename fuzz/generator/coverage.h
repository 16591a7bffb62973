// Op x element type coverage of generated modules, against the ops of the
// spec (the ops the conformance suite has a case file for).
#ifndef KILN_FUZZ_GENERATOR_COVERAGE_H_
#define KILN_FUZZ_GENERATOR_COVERAGE_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/ir/module.h"

namespace kiln::fuzzgen {

// The spec's ops by HLO name (one per spec_tests/**/<op>.hlotest; the
// convert_from_* files are `convert`, send-recv is send, recv, send-done
// and recv-done, async files are their start/update/done ops).
const std::vector<std::string>& SpecOps();

class Coverage {
 public:
  // Counts every instruction of every computation of `module`: its op
  // with its result's element type and each operand's (arrays only).
  void Add(const Module& module);
  void AddModuleOutcome(bool strict_ok) {
    ++modules_;
    strict_ok_ += strict_ok ? 1 : 0;
  }

  // op -> element type name -> instructions.
  const std::map<std::string, std::map<std::string, int64_t>>& counts() const {
    return counts_;
  }
  // Spec ops never generated.
  std::vector<std::string> MissingSpecOps() const;
  int64_t modules() const { return modules_; }
  int64_t strict_ok() const { return strict_ok_; }

  // "ops: 96/110 of the spec (87.3%); op x type pairs: N; modules verifying
  // in strict form after legalization: 990/1000 (99.0%)", then the
  // missing ops and one line per op with its types and counts.
  std::string Report() const;

 private:
  std::map<std::string, std::map<std::string, int64_t>> counts_;
  int64_t modules_ = 0;
  int64_t strict_ok_ = 0;
};

}  // namespace kiln::fuzzgen

#endif  // KILN_FUZZ_GENERATOR_COVERAGE_H_
