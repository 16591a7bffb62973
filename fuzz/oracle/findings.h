// Findings on disk: DIR/<signature>/ holds the module (localized to the
// instruction that fails alone, when one does), the whole generated
// module, the arguments, the oracle and what it blamed, both results and
// the command that replays it. A signature seen again only adds its seed
// to seeds.txt. `kiln fuzz --replay` reads them back and re-checks.
#ifndef KILN_FUZZ_ORACLE_FINDINGS_H_
#define KILN_FUZZ_ORACLE_FINDINGS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/literal.h"
#include "compiler/ir/module.h"
#include "fuzz/oracle/oracle.h"

namespace kiln::fuzz {

struct Finding {
  std::string signature;
  OracleKind oracle = OracleKind::kBackend;
  OracleOptions options;
  uint64_t seed = 0;
  // The module to replay (localized when possible) and the generated one.
  std::string module_text;
  std::string original_text;
  std::vector<std::vector<Literal>> arguments;
  Outcome outcome;
};

// Writes `finding` under `dir` (made if missing). Returns true when the
// signature is new, false when it was known (its seed is appended to
// seeds.txt). Writes nothing outside dir/<signature>/.
absl::StatusOr<bool> WriteFinding(const std::string& dir,
                                  const Finding& finding);

// Reads one finding folder back (module, arguments, oracle, options).
absl::StatusOr<Finding> ReadFinding(const std::string& finding_dir);

// The finding folders under `dir`: `dir` itself when it holds oracle.txt,
// else its subfolders that do, sorted.
std::vector<std::string> FindingDirs(const std::string& dir);

// Arguments as text: "# device N" before each device's, one literal per
// line; and back.
std::string ArgumentsText(const std::vector<std::vector<Literal>>& arguments);
absl::StatusOr<std::vector<std::vector<Literal>>> ParseArgumentsText(
    const std::string& text);

}  // namespace kiln::fuzz

#endif  // KILN_FUZZ_ORACLE_FINDINGS_H_
