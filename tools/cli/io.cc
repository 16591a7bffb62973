#include "tools/cli/io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

ABSL_FLAG(bool, split_input_file, false,
          "opt, verify: treat each part of the input between '// -----' "
          "lines as its own module; print the results separated by "
          "'// -----'");
ABSL_FLAG(bool, allow_elided_constants, false,
          "read constants printed as {...} (values left out) as zeros "
          "instead of refusing them");

namespace kiln::cli {
namespace {

absl::StatusOr<std::string> ReadStream(std::FILE* stream,
                                       const std::string& name) {
  std::string text;
  char buffer[1 << 16];
  size_t count;
  while ((count = std::fread(buffer, 1, sizeof(buffer), stream)) > 0) {
    text.append(buffer, count);
  }
  if (std::ferror(stream)) {
    return absl::UnavailableError(
        absl::StrCat(name, ": error: cannot read: ", std::strerror(errno)));
  }
  return text;
}

// True for a `// -----` line: "//", then only five or more '-'.
bool IsSplitMarker(absl::string_view line) {
  line = absl::StripAsciiWhitespace(line);
  if (!absl::ConsumePrefix(&line, "//")) return false;
  line = absl::StripLeadingAsciiWhitespace(line);
  return line.size() >= 5 && line.find_first_not_of('-') == line.npos;
}

}  // namespace

std::vector<std::string> SplitInputFile(const std::string& text) {
  std::vector<std::string> parts;
  std::string current;
  size_t line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (IsSplitMarker(line)) {
      parts.push_back(std::move(current));
      current = std::string(line_number + 1, '\n');
    } else {
      absl::StrAppend(&current, line, "\n");
    }
    ++line_number;
  }
  parts.push_back(std::move(current));
  return parts;
}

std::string DisplayName(const std::string& path) {
  return path == "-" ? "<stdin>" : path;
}

absl::StatusOr<std::string> ReadInput(const std::string& path) {
  if (path == "-") return ReadStream(stdin, DisplayName(path));
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return absl::NotFoundError(
        absl::StrCat(path, ": error: cannot open: ", std::strerror(errno)));
  }
  absl::StatusOr<std::string> text = ReadStream(file, path);
  std::fclose(file);
  return text;
}

void WriteStdout(absl::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
}

void WriteStderr(absl::string_view message) {
  std::fwrite(message.data(), 1, message.size(), stderr);
  std::fputc('\n', stderr);
}

ParseOptions InputParseOptions(const std::string& display_name) {
  ParseOptions options;
  options.filename = display_name;
  options.allow_elided_constants = absl::GetFlag(FLAGS_allow_elided_constants);
  return options;
}

}  // namespace kiln::cli
