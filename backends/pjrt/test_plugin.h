// Test helpers of backends/pjrt: where XLA's CPU plugin and the test
// plugins are in the runfiles, and the skip when the plugin (or the PJRT C
// API headers) could not be fetched: such tests are reported skipped, with
// the reason, and never count as passed (tools/count_test_results.py).
#ifndef KILN_BACKENDS_PJRT_TEST_PLUGIN_H_
#define KILN_BACKENDS_PJRT_TEST_PLUGIN_H_

#include <sys/stat.h>

#include <cstdlib>
#include <string>

#include "backends/pjrt/plugin.h"
#include "gtest/gtest.h"

namespace kiln::pjrt::testing {

inline bool FileExists(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0;
}

inline std::string Runfile(const std::string& path) {
  const char* root = std::getenv("TEST_SRCDIR");
  return std::string(root != nullptr ? root : ".") + "/" + path;
}

// A test plugin built beside the test ("no_get_api.so").
inline std::string TestPlugin(const std::string& name) {
  return Runfile("kiln/backends/pjrt/testdata/" + name);
}

// XLA's CPU plugin: $KILN_PJRT_PLUGIN, else the one tools/setup.sh fetched
// (empty when there is none).
inline std::string XlaCpuPlugin() {
  if (const char* path = std::getenv("KILN_PJRT_PLUGIN")) return path;
  for (const char* candidate :
       {"pjrt_c_api/lib/xla_cpu_plugin.so",
        "kiln/external/pjrt_c_api/lib/xla_cpu_plugin.so"}) {
    if (FileExists(Runfile(candidate))) return Runfile(candidate);
  }
  return "";
}

}  // namespace kiln::pjrt::testing

// Skips the test (GTEST_SKIP: reported as skipped, not passed) when Kiln
// was built without the PJRT C API headers or XLA's CPU plugin is missing.
#define KILN_REQUIRE_PJRT_HEADERS()                                   \
  if (!::kiln::pjrt::HaveApiHeaders()) {                              \
    GTEST_SKIP() << "skipped: Kiln was built without the PJRT C API " \
                    "headers (tools/setup.sh could not fetch them)";  \
  }
#define KILN_REQUIRE_XLA_CPU_PLUGIN()                                 \
  KILN_REQUIRE_PJRT_HEADERS();                                        \
  if (::kiln::pjrt::testing::XlaCpuPlugin().empty()) {                \
    GTEST_SKIP() << "skipped: XLA's CPU PJRT plugin was not fetched " \
                    "(tools/setup.sh could not download "             \
                    "lammps-jax-pjrt-cpu==0.11.2)";                   \
  }

#endif  // KILN_BACKENDS_PJRT_TEST_PLUGIN_H_
