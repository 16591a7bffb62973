// Every real XLA dump (compiler/text/xla_dumps: JAX programs lowered and
// compiled for CPU, before and after XLA's passes) verifies with zero
// errors in client and strict form: the verifier must not reject what XLA
// itself produces.
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/text/parser.h"
#include "compiler/text/xla_dumps/dump_files.h"
#include "compiler/verifier/verifier.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(XlaDumpsVerifyTest, EveryDumpVerifiesInBothForms) {
  const std::vector<std::string> files =
      DumpFiles();
  // 48 programs, each before and after XLA's passes.
  EXPECT_GE(files.size(), 90u);
  for (const std::string& path : files) {
    ParseOptions parse_options;
    parse_options.filename = path;
    parse_options.check_shapes = false;  // The verifier checks them below.
    absl::StatusOr<std::unique_ptr<Module>> module =
        ParseModule(ReadDump(path), parse_options);
    ASSERT_TRUE(module.ok()) << module.status();
    for (ShapeForm form : {ShapeForm::kClient, ShapeForm::kStrict}) {
      VerifyOptions options;
      options.form = form;
      VerifyReport report = VerifyModuleReport(**module, options);
      for (const absl::Status& error : report.errors) {
        ADD_FAILURE() << (form == ShapeForm::kStrict ? "strict: " : "client: ")
                      << error;
      }
      EXPECT_GT(report.instructions_checked, 0) << path;
    }
  }
}

}  // namespace
}  // namespace kiln
