#include "compiler/text/xla_dumps/dump_files.h"

#include <algorithm>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/text/text_test_util.h"

namespace kiln {

std::string DumpDir() { return RunfilesDir("compiler/text/xla_dumps"); }

std::vector<std::string> DumpFiles() { return HloFilesIn(DumpDir()); }

std::string ReadDump(const std::string& path) { return ReadWholeFile(path); }

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::set<std::string> KnownFailures(const std::string& check) {
  std::set<std::string> files;
  std::istringstream lines(ReadDump(DumpDir() + "/known_failures.txt"));
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string file, kind;
    if (!(fields >> file >> kind) || file[0] == '#') continue;
    if (kind == check) files.insert(file);
  }
  return files;
}

std::string TrimTrailingNewlines(const std::string& text) {
  size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ')) --end;
  return text.substr(0, end) + "\n";
}

std::string XlaText(const std::string& dump) {
  size_t start = 0;
  while (dump.compare(start, 2, "//") == 0) {
    const size_t newline = dump.find('\n', start);
    if (newline == std::string::npos) return "";
    start = newline + 1;
  }
  return TrimTrailingNewlines(dump.substr(start));
}

std::string WithoutStackFrameTables(const std::string& text) {
  const size_t start = text.find("\n\nFileNames\n");
  if (start == std::string::npos) return text;
  const size_t frames = text.find("\nStackFrames\n", start);
  if (frames == std::string::npos) return text;
  // The StackFrames section ends at its first blank line.
  size_t end = text.find("\n\n", frames + 1);
  if (end == std::string::npos) return text;
  end = text.find_first_not_of('\n', end);
  if (end == std::string::npos) end = text.size();
  return absl::StrCat(text.substr(0, start), "\n\n", text.substr(end));
}

PrintOptions OptionsLike(const std::string& xla_text) {
  // JAX's as_text(dialect="hlo") is XLA's short-parsable form, whose ENTRY
  // has no '%'; --xla_dump_to style dumps use XLA's default options.
  PrintOptions options;
  if (!absl::StrContains(xla_text, "\nENTRY %")) {
    options = ShortParsablePrintOptions();
  } else {
    options.print_operand_shapes = false;
  }
  options.float_style = FloatTextStyle::kXla;
  return options;
}

std::string LineDifferences(const std::string& xla, const std::string& kiln,
                            int max_lines) {
  const std::vector<std::string> want = absl::StrSplit(xla, '\n');
  const std::vector<std::string> got = absl::StrSplit(kiln, '\n');
  std::string out;
  int reported = 0;
  const size_t lines = std::max(want.size(), got.size());
  for (size_t i = 0; i < lines && reported < max_lines; ++i) {
    const std::string none = "<no line>";
    const std::string& a = i < want.size() ? want[i] : none;
    const std::string& b = i < got.size() ? got[i] : none;
    if (a == b) continue;
    ++reported;
    absl::StrAppend(&out, "line ", i + 1, ":\n  xla:  ", a, "\n  kiln: ", b,
                    "\n");
  }
  if (want.size() != got.size()) {
    absl::StrAppend(&out, "xla has ", want.size(), " lines, kiln ", got.size(),
                    "\n");
  }
  return out;
}

}  // namespace kiln
