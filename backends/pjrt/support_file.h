// Internal to backends/pjrt: Supports() answers kept on disk, so that
// `kiln conform --isolate` (one process per case) probes each op and type
// once per plugin rather than once per case. One file per plugin file and
// Kiln binary (their paths, sizes and modification times name it): a new
// plugin or a rebuilt Kiln starts afresh. Lines are "KEY\t0|1", appended
// with single writes (processes running side by side may share the file);
// unreadable lines are ignored. Under $KILN_CACHE_DIR/pjrt-supports/, else
// ~/.cache/kiln/pjrt-supports/; KILN_PJRT_SUPPORT_CACHE=0 turns it off.
#ifndef KILN_BACKENDS_PJRT_SUPPORT_FILE_H_
#define KILN_BACKENDS_PJRT_SUPPORT_FILE_H_

#include <string>
#include <utility>
#include <vector>

namespace kiln::pjrt::internal {

// The file for the plugin at `plugin_path`; "" when caching is off or the
// plugin or Kiln's binary cannot be stat'ed.
std::string SupportFilePath(const std::string& plugin_path);

// The answers in `path` (none when it does not exist), in file order.
std::vector<std::pair<std::string, bool>> ReadSupportFile(
    const std::string& path);

// Appends one answer, creating the folder and file if needed. Best effort:
// a cache that cannot be written only costs probe compiles.
void AppendSupport(const std::string& path, const std::string& key,
                   bool supported);

}  // namespace kiln::pjrt::internal

#endif  // KILN_BACKENDS_PJRT_SUPPORT_FILE_H_
