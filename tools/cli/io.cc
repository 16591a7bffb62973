#include "tools/cli/io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

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

}  // namespace

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
