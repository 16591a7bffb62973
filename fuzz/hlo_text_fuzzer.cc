// libFuzzer target for the HLO text parser and printer.
//
// Properties checked on every input:
//   - parsing never crashes, leaks or allocates without bound (the sanitizers
//     and libFuzzer's -rss_limit_mb/-malloc_limit_mb catch those);
//   - verifying (client and strict form) never crashes, and a module the
//     verifier accepts also parses with the parser's shape checks on;
//   - whatever parses prints to text that parses back, and printing that
//     gives the same text again: print(parse(print(m))) == print(m);
//   - the same for a single shape (ParseShape / Shape::ToString).
// A violated property aborts, which libFuzzer reports as a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/strings/string_view.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "compiler/verifier/verifier.h"
#include "fuzz/fuzz_target.h"

namespace kiln {
namespace {

// Small enough that a fuzzed constant cannot exhaust the fuzzer's memory.
constexpr int64_t kMaxFuzzLiteralBytes = 1 << 20;

[[noreturn]] void Fail(const char* what, absl::string_view first,
                       absl::string_view second) {
  std::fprintf(stderr,
               "hlo_text_fuzzer: %s\n--- first:\n%.*s\n--- second:\n%.*s\n",
               what, static_cast<int>(first.size()), first.data(),
               static_cast<int>(second.size()), second.data());
  std::abort();
}

void CheckModuleRoundTrip(absl::string_view text) {
  // Parsed without the shape checks, so that modules breaking a shape rule
  // still reach the verifier and the printer.
  ParseOptions options;
  options.filename = "<fuzz>";
  options.max_literal_bytes = kMaxFuzzLiteralBytes;
  options.check_shapes = false;
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text, options);
  if (!module.ok()) return;  // Rejecting bad input cleanly is fine.
  // Verifying whatever parses must never crash; errors are fine. Both forms
  // run, since strict form takes other paths through the shape rules.
  VerifyOptions verify;
  const bool verifies = VerifyModuleReport(**module, verify).ok();
  verify.form = ShapeForm::kStrict;
  VerifyModuleReport(**module, verify);
  // The parser's shape checks are a subset of the verifier's: a module the
  // verifier accepts must parse with them on.
  ParseOptions checked = options;
  checked.check_shapes = true;
  absl::StatusOr<std::unique_ptr<Module>> checked_module =
      ParseModule(text, checked);
  if (verifies && !checked_module.ok()) {
    Fail("the verifier accepts a module the checked parse rejects", text,
         checked_module.status().message());
  }
  std::string printed = PrintModule(**module);
  options.filename = "<fuzz print>";
  absl::StatusOr<std::unique_ptr<Module>> reparsed =
      ParseModule(printed, options);
  if (!reparsed.ok()) {
    Fail("the print of a parsed module does not parse", printed,
         reparsed.status().message());
  }
  std::string reprinted = PrintModule(**reparsed);
  if (reprinted != printed) {
    Fail("print(parse(print(m))) != print(m)", printed, reprinted);
  }
}

void CheckShapeRoundTrip(absl::string_view text) {
  absl::StatusOr<Shape> shape = ParseShape(text);
  if (!shape.ok()) return;
  std::string printed = shape->ToString();
  absl::StatusOr<Shape> reparsed = ParseShape(printed);
  if (!reparsed.ok()) {
    Fail("the print of a parsed shape does not parse", printed,
         reparsed.status().message());
  }
  if (reparsed->ToString() != printed) {
    Fail("shape print is not a fixed point", printed, reparsed->ToString());
  }
}

}  // namespace
}  // namespace kiln

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::string_view text(reinterpret_cast<const char*>(data), size);
  kiln::CheckModuleRoundTrip(text);
  // Shapes are short; long inputs would only slow the fuzzer down.
  if (size <= 512) kiln::CheckShapeRoundTrip(text);
  return 0;
}
