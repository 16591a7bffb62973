#include "backends/pjrt/support_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace kiln::pjrt::internal {
namespace {

// "path size mtime" of a file, "" if it cannot be stat'ed.
std::string Identity(const std::string& path) {
  std::error_code error;
  const std::filesystem::path canonical =
      std::filesystem::canonical(path, error);
  struct stat info;
  if (error || stat(canonical.c_str(), &info) != 0) return "";
  return absl::StrCat(canonical.string(), " ", info.st_size, " ",
                      info.st_mtim.tv_sec, ".", info.st_mtim.tv_nsec);
}

// FNV-1a: a hash that stays the same from one process to the next (the
// file name must; absl::Hash is seeded per process).
uint64_t StableHash(const std::string& text) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace

std::string SupportFilePath(const std::string& plugin_path) {
  if (const char* off = std::getenv("KILN_PJRT_SUPPORT_CACHE");
      off != nullptr && std::string(off) == "0") {
    return "";
  }
  const std::string plugin = Identity(plugin_path);
  const std::string kiln = Identity("/proc/self/exe");
  if (plugin.empty() || kiln.empty()) return "";
  std::string base;
  if (const char* env = std::getenv("KILN_CACHE_DIR"); env && *env) {
    base = env;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = absl::StrCat(home, "/.cache/kiln");
  } else {
    return "";
  }
  return absl::StrFormat("%s/pjrt-supports/%016x.txt", base,
                         StableHash(absl::StrCat(plugin, "\n", kiln)));
}

std::vector<std::pair<std::string, bool>> ReadSupportFile(
    const std::string& path) {
  std::vector<std::pair<std::string, bool>> answers;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> parts = absl::StrSplit(line, '\t');
    if (parts.size() != 2 || parts[0].empty() ||
        (parts[1] != "0" && parts[1] != "1")) {
      continue;  // A torn or foreign line.
    }
    answers.emplace_back(parts[0], parts[1] == "1");
  }
  return answers;
}

void AppendSupport(const std::string& path, const std::string& key,
                   bool supported) {
  if (path.empty() || key.find_first_of("\t\n") != std::string::npos) return;
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(),
                                      error);
  const int fd =
      open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const std::string line = absl::StrCat(key, "\t", supported ? "1" : "0", "\n");
  // One write of a short line: appends from several processes interleave
  // by whole lines.
  [[maybe_unused]] ssize_t written = write(fd, line.data(), line.size());
  close(fd);
}

}  // namespace kiln::pjrt::internal
