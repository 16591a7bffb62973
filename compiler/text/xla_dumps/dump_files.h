// Finding and reading the XLA dumps of this folder from a test, and the
// normalization under which Kiln's print is compared with XLA's own text.
#ifndef KILN_COMPILER_TEXT_XLA_DUMPS_DUMP_FILES_H_
#define KILN_COMPILER_TEXT_XLA_DUMPS_DUMP_FILES_H_

#include <set>
#include <string>
#include <vector>

#include "compiler/text/printer.h"

namespace kiln {

// The runfiles folder holding the dumps.
std::string DumpDir();
// Every *.hlo file under DumpDir(), sorted.
std::vector<std::string> DumpFiles();
// The whole file.
std::string ReadDump(const std::string& path);

// XLA's text as XLA printed it: the generator's leading "//" header lines
// removed and trailing newlines trimmed to one.
std::string XlaText(const std::string& dump);
// `text` without XLA's stack frame tables (the FileNames, FunctionNames,
// FileLocations and StackFrames sections between the HloModule line and the
// first computation), which optimized dumps carry. Unchanged if none.
std::string WithoutStackFrameTables(const std::string& text);
// Print options that follow the dump's style: XLA's short-parsable form if
// the dump's ENTRY has no '%', else XLA's default form (which since 2023
// prints operand names without their shapes); floats in XLA's digit counts.
PrintOptions OptionsLike(const std::string& xla_text);
// Trailing newlines trimmed to one.
std::string TrimTrailingNewlines(const std::string& text);

// File names (no folder) listed in known_failures.txt with `check` ("parse"
// or "print"): dumps known to fail that check today. Lines: "<file> <check>
// <reason...>"; '#' starts a comment.
std::set<std::string> KnownFailures(const std::string& check);
// The file name without its folder.
std::string BaseName(const std::string& path);

// Empty if equal; else up to `max_lines` differing line pairs, each as
// "line N:\n  xla:  ...\n  kiln: ...\n".
std::string LineDifferences(const std::string& xla, const std::string& kiln,
                            int max_lines);

}  // namespace kiln

#endif  // KILN_COMPILER_TEXT_XLA_DUMPS_DUMP_FILES_H_
