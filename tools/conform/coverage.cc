#include "tools/conform/coverage.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/opcode.h"

namespace kiln::conform {
namespace {

// Section titles whose name differs from the opcode's spelling (after
// dropping case, blanks and '-'). Sections not listed here or matching an
// opcode by name describe no op of their own.
const std::map<std::string, std::vector<std::string>>& Aliases() {
  static const auto* const kAliases =
      new std::map<std::string, std::vector<std::string>>{
          {"Async", {"async-start", "async-update", "async-done"}},
          {"BitcastConvertType", {"bitcast-convert"}},
          {"BroadcastInDim", {"broadcast"}},
          {"Clz", {"count-leading-zeros"}},
          {"Collapse", {"reshape"}},
          {"CompositeCall", {"call"}},
          {"ConcatInDim (Concatenate)", {"concatenate"}},
          {"Conv (Convolution)", {"convolution"}},
          {"ConvWithGeneralPadding", {"convolution"}},
          {"ConvWithGeneralDimensions", {"convolution"}},
          {"ConvGeneral", {"convolution"}},
          {"ConvGeneralDilated", {"convolution"}},
          {"ConvertElementType", {"convert"}},
          {"Cos", {"cosine"}},
          {"CrossReplicaSum", {"all-reduce"}},
          {"Div", {"divide"}},
          {"DotGeneral", {"dot"}},
          {"Eq", {"compare"}},
          {"Ne", {"compare"}},
          {"Ge", {"compare"}},
          {"Gt", {"compare"}},
          {"Le", {"compare"}},
          {"Lt", {"compare"}},
          {"Exp", {"exponential"}},
          {"Expm1", {"exponential-minus-one"}},
          {"Log1p", {"log-plus-one"}},
          {"Max", {"maximum"}},
          {"Min", {"minimum"}},
          {"Mul", {"multiply"}},
          {"Neg", {"negate"}},
          {"OptimizationBarrier", {"opt-barrier"}},
          {"PopulationCount", {"popcnt"}},
          {"Pow", {"power"}},
          {"Rem", {"remainder"}},
          {"Reshape (explicit)", {"reshape"}},
          {"Rev (reverse)", {"reverse"}},
          {"RngNormal", {"rng"}},
          {"RngUniform", {"rng"}},
          {"Round", {"round-nearest-afz"}},
          {"Sin", {"sine"}},
          {"Sub", {"subtract"}},
      };
  return *kAliases;
}

std::string Squash(absl::string_view text) {
  std::string out;
  for (char c : text) {
    if (absl::ascii_isalnum(c)) out += absl::ascii_tolower(c);
  }
  return out;
}

}  // namespace

std::vector<std::string> OpcodesOfSection(absl::string_view title) {
  auto alias = Aliases().find(std::string(title));
  if (alias != Aliases().end()) return alias->second;
  const std::string squashed = Squash(title);
  for (Opcode opcode : AllOpcodes()) {
    if (Squash(OpcodeName(opcode)) == squashed) {
      return {std::string(OpcodeName(opcode))};
    }
  }
  return {};
}

Coverage ComputeCoverage(const std::vector<Case>& cases,
                         const std::vector<CaseTraits>& traits,
                         const SpecIndex& spec) {
  std::map<std::string, std::string> section_of;  // opcode -> first section
  for (const SpecSection& section : spec.sections()) {
    for (const std::string& op : OpcodesOfSection(section.title)) {
      section_of.emplace(op, section.title);
    }
  }
  std::map<std::string, int64_t> counts;
  std::map<std::string, std::set<ElementType>> types;
  for (size_t i = 0; i < cases.size(); ++i) {
    for (const std::string& op : traits[i].ops) {
      ++counts[op];
      types[op].insert(traits[i].types.begin(), traits[i].types.end());
    }
  }
  Coverage coverage;
  for (Opcode opcode : AllOpcodes()) {
    OpCoverage op;
    op.op = std::string(OpcodeName(opcode));
    auto section = section_of.find(op.op);
    if (section != section_of.end()) op.section = section->second;
    op.cases = counts[op.op];
    for (ElementType t : types[op.op])
      op.types.emplace_back(ElementTypeName(t));
    if (!op.section.empty()) {
      ++coverage.spec_ops;
      coverage.spec_ops_without_cases += op.cases == 0;
    }
    coverage.ops.push_back(std::move(op));
  }
  const std::vector<SpecSection>& sections = spec.sections();
  for (size_t s = 0; s < sections.size(); ++s) {
    for (const SpecSentence& sentence : sections[s].sentences) {
      ++coverage.sentences;
      bool cited = false;
      for (size_t i = 0; i < cases.size() && !cited; ++i) {
        for (const SpecReference& reference : cases[i].spec) {
          if (spec.Cites(reference, static_cast<int>(s), sentence)) {
            cited = true;
            break;
          }
        }
      }
      if (!cited)
        coverage.uncited.push_back({sections[s].title, sentence.text});
    }
  }
  return coverage;
}

std::string CoverageText(const Coverage& coverage) {
  std::string text =
      "Ops of the spec (op, spec section, cases, element types):\n";
  std::vector<const OpCoverage*> missing;
  std::vector<const OpCoverage*> outside;
  for (const OpCoverage& op : coverage.ops) {
    if (op.section.empty()) {
      if (op.cases > 0) outside.push_back(&op);
      continue;
    }
    if (op.cases == 0) missing.push_back(&op);
    absl::StrAppend(
        &text, absl::StrFormat("  %-28s %-28s %5d  %s\n", op.op, op.section,
                               op.cases, absl::StrJoin(op.types, ",")));
  }
  if (!outside.empty()) {
    text += "Ops with cases but no spec section of their own:\n";
    for (const OpCoverage* op : outside) {
      absl::StrAppend(&text,
                      absl::StrFormat("  %-28s %5d  %s\n", op->op, op->cases,
                                      absl::StrJoin(op->types, ",")));
    }
  }
  text += "Ops of the spec with no case:";
  for (const OpCoverage* op : missing) absl::StrAppend(&text, " ", op->op);
  absl::StrAppend(&text, missing.empty() ? " none\n" : "\n");
  absl::StrAppend(&text, "Spec sentences with no case (",
                  coverage.uncited.size(), " of ", coverage.sentences, "):\n");
  for (const UncitedSentence& s : coverage.uncited) {
    absl::StrAppend(&text, "  [", s.section, "] ", s.text, "\n");
  }
  absl::StrAppend(
      &text, "coverage: ", coverage.spec_ops - coverage.spec_ops_without_cases,
      " of ", coverage.spec_ops, " spec ops have cases, ",
      coverage.sentences - static_cast<int64_t>(coverage.uncited.size()),
      " of ", coverage.sentences, " spec sentences are cited\n");
  return text;
}

}  // namespace kiln::conform
