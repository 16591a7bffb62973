#include "compiler/ops/testing/family_shape_test_util.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/module.h"
#include "compiler/ops/shape_inference.h"
#include "compiler/text/parser.h"

namespace kiln {
namespace shape_test {
namespace {

// The tests want the rules' own errors, not the parser's first one.
ParseOptions UncheckedParse() {
  ParseOptions options;
  options.check_shapes = false;
  return options;
}

}  // namespace

absl::StatusOr<std::string> InferText(absl::string_view hlo,
                                      absl::string_view name) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(hlo, UncheckedParse());
  if (!module.ok()) return module.status();
  const Instruction* instruction = nullptr;
  if (name.empty()) {
    instruction = (*module)->entry()->root();
  } else {
    for (const Computation* computation : (*module)->computations()) {
      instruction = computation->FindInstruction(name);
      if (instruction != nullptr) break;
    }
  }
  if (instruction == nullptr) {
    return absl::NotFoundError(absl::StrCat("no instruction ", name));
  }
  absl::StatusOr<Shape> shape = InferShape(*instruction, ShapeForm::kStrict);
  if (!shape.ok()) return shape.status();
  return shape->ToString(/*print_layout=*/false);
}

std::string InferError(absl::string_view hlo, absl::string_view name) {
  absl::StatusOr<std::string> shape = InferText(hlo, name);
  if (shape.ok()) return absl::StrCat("OK: ", *shape);
  return std::string(shape.status().message());
}

std::vector<std::string> DeclaredShapeMismatches(
    absl::string_view hlo, const std::vector<Opcode>& opcodes) {
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(hlo, UncheckedParse());
  if (!module.ok()) return {std::string(module.status().message())};
  std::vector<std::string> mismatches;
  int checked = 0;
  for (const Instruction* instruction : (*module)->entry()->instructions()) {
    if (std::find(opcodes.begin(), opcodes.end(), instruction->opcode()) ==
        opcodes.end()) {
      continue;
    }
    ++checked;
    absl::StatusOr<Shape> shape = InferShape(*instruction, ShapeForm::kStrict);
    if (!shape.ok()) {
      mismatches.push_back(std::string(shape.status().message()));
    } else if (!shape->Compatible(instruction->shape())) {
      mismatches.push_back(absl::StrCat(instruction->name(), ": inferred ",
                                        shape->ToString(false), ", declared ",
                                        instruction->shape().ToString(false)));
    }
  }
  if (checked == 0) mismatches.push_back("no instruction checked");
  return mismatches;
}

std::string ReadCorpusFile(absl::string_view name) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  const std::string dir =
      srcdir == nullptr
          ? "compiler/text/testdata"
          : absl::StrCat(srcdir, "/", workspace == nullptr ? "kiln" : workspace,
                         "/compiler/text/testdata");
  std::ifstream in(absl::StrCat(dir, "/", name), std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace shape_test
}  // namespace kiln
