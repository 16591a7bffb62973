#include "compiler/ops/testing/shape_test_util.h"

#include "absl/strings/str_cat.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/module.h"
#include "compiler/text/parser.h"

namespace kiln {
namespace testing {
namespace {

std::string EntryModule(absl::string_view body) {
  return absl::StrCat("HloModule m\n\nENTRY e {\n", body, "\n}\n");
}

}  // namespace

absl::StatusOr<Shape> InferEntryRoot(absl::string_view module_text,
                                     ShapeForm form) {
  ParseOptions options;
  options.check_shapes = false;  // The test wants the rule's own error.
  absl::StatusOr<std::unique_ptr<Module>> module =
      ParseModule(module_text, options);
  if (!module.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("parse error: ", module.status().message()));
  }
  return InferShape(*(*module)->entry()->root(), form);
}

absl::StatusOr<Shape> InferRoot(absl::string_view body, ShapeForm form) {
  return InferEntryRoot(EntryModule(body), form);
}

std::string InferRootText(absl::string_view body, ShapeForm form) {
  absl::StatusOr<Shape> shape = InferRoot(body, form);
  if (shape.ok()) return shape->ToString(/*print_layout=*/false);
  if (absl::IsFailedPrecondition(shape.status())) {
    return std::string(shape.status().message());
  }
  return absl::StrCat("error: ", shape.status().message());
}

}  // namespace testing
}  // namespace kiln
