#include "tools/cli/io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
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

namespace {

// Where `message` has "NAME:LINE[:COL]: error: ", and the offset just after
// it; npos when nowhere.
std::pair<size_t, size_t> FindLocation(const std::string& name,
                                       absl::string_view message) {
  const std::string head = absl::StrCat(name, ":");
  for (size_t at = message.find(head); at != absl::string_view::npos;
       at = message.find(head, at + 1)) {
    size_t i = at + head.size();
    // LINE, then optionally :COL.
    for (int part = 0; part < 2; ++part) {
      const size_t digits = i;
      while (i < message.size() && absl::ascii_isdigit(message[i])) ++i;
      if (i == digits) break;
      if (part == 0 && i < message.size() && message[i] == ':' &&
          i + 1 < message.size() && absl::ascii_isdigit(message[i + 1])) {
        ++i;
        continue;
      }
      break;
    }
    if (i > at + head.size() &&
        absl::StartsWith(message.substr(i), ": error: ")) {
      return {at, i + std::strlen(": error: ")};
    }
  }
  return {absl::string_view::npos, absl::string_view::npos};
}

}  // namespace

bool HasFileLocation(const std::string& display_name,
                     absl::string_view message) {
  return FindLocation(display_name, message).first != absl::string_view::npos;
}

std::string FileError(const std::string& display_name,
                      const absl::Status& status) {
  const absl::string_view message = status.message();
  const auto [at, after] = FindLocation(display_name, message);
  if (at == 0 ||
      absl::StartsWith(message, absl::StrCat(display_name, ": error: "))) {
    return std::string(message);
  }
  if (at == absl::string_view::npos) {
    // Errors without a position: a verifier error about a module built in
    // memory ("error: ..."), a pass's error, an unreadable file.
    if (absl::StartsWith(message, "error: ")) {
      return absl::StrCat(display_name, ": ", message);
    }
    return absl::StrCat(display_name, ": error: ", message);
  }
  absl::string_view prefix = message.substr(0, at);
  absl::ConsumeSuffix(&prefix, " ");
  absl::ConsumeSuffix(&prefix, ":");
  return absl::StrCat(message.substr(0, after).substr(at), prefix, ": ",
                      message.substr(after));
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
