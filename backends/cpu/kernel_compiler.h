// Compiles generated C++ into a shared object with the host compiler and
// loads it with dlopen, behind a content-addressed cache on disk.
//
// The cache key is a 128-bit fingerprint of the source, the compiler's
// identity (its path and `--version` output) and the flags. Entries live in
// $KILN_CACHE_DIR (default ~/.cache/kiln)/cpu/<key>.so, each ending in a
// trailer that holds the fingerprint of the bytes before it: a torn or
// corrupt entry is detected and rebuilt. Entries are written to a private
// temporary folder and renamed into place, so parallel compiles of the same
// kernels never see a partial file. A warm run compiles nothing.
#ifndef KILN_BACKENDS_CPU_KERNEL_COMPILER_H_
#define KILN_BACKENDS_CPU_KERNEL_COMPILER_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace kiln::cpu {

struct KernelCompilerOptions {
  // -march=native when false (the default); a baseline x86-64 (or the
  // compiler's default target elsewhere) when true, for kernels that must
  // run on other machines.
  bool portable = false;
  // Empty: $KILN_CACHE_DIR, else $HOME/.cache/kiln, else /tmp/kiln-cache.
  std::string cache_dir;
  // Added to KernelCompilerFlags (and to the cache key).
  std::vector<std::string> extra_flags;
};

// What one BuildKernelLibrary call did, for `kiln compile --emit=stats`
// and `kiln bench`.
struct KernelBuildStats {
  bool cache_hit = false;
  bool rebuilt_corrupt_entry = false;
  double compile_seconds = 0;  // Host compiler time (0 on a hit).
  std::string path;            // The cache entry.
};

// A loaded shared object; unloaded when the last reference goes.
class KernelLibrary {
 public:
  explicit KernelLibrary(void* handle) : handle_(handle) {}
  ~KernelLibrary();
  KernelLibrary(const KernelLibrary&) = delete;
  KernelLibrary& operator=(const KernelLibrary&) = delete;

  // The address of `symbol`, or null.
  void* Find(const std::string& symbol) const;

 private:
  void* handle_;
};

// The host compiler: $KILN_CXX, else g++ or clang++ found on PATH. An
// error that says to set KILN_CXX when there is none.
absl::StatusOr<std::string> FindHostCompiler();

// The flags kernels are compiled with (IEEE semantics: no fast-math, no
// contraction of a*b+c into an FMA).
std::vector<std::string> KernelCompilerFlags(const KernelCompilerOptions& o);

// Compiles `prelude` followed by `source` (or takes the result from the
// cache) and loads it. A non-empty prelude is precompiled once per cache
// (a GCC .gch or Clang .pch beside a copy of it) and included, which makes
// small kernels several times faster to compile; if that fails the text is
// compiled whole. Errors carry the compiler's output.
absl::StatusOr<std::shared_ptr<KernelLibrary>> BuildKernelLibrary(
    const std::string& source, const KernelCompilerOptions& options,
    KernelBuildStats* stats = nullptr, absl::string_view prelude = "");

// A content-addressed entry of the kernel cache for another backend's
// compiled kernels (the gpu backend's PTX or cubin): the bytes stored at
// $cache/<kind>/<key><extension> with the same trailer and atomic writes
// as the compiled kernels. Returns the stored bytes when the entry is
// intact, else `build()`'s, which it stores first (a failed store is not
// an error: the bytes are still returned). `key` is a Fingerprint128 of
// everything the bytes depend on. Fills stats->cache_hit, path and
// rebuilt_corrupt_entry (compile_seconds is the caller's to fill).
absl::StatusOr<std::string> CachedArtifact(
    absl::string_view kind, const std::string& key, absl::string_view extension,
    const std::function<absl::StatusOr<std::string>()>& build,
    const KernelCompilerOptions& options, KernelBuildStats* stats = nullptr);

// 32 hex digits: a stable 128-bit fingerprint (two FNV-1a lanes with a
// final mix). Not cryptographic: it guards against accidents, not attacks.
std::string Fingerprint128(absl::string_view data);

}  // namespace kiln::cpu

#endif  // KILN_BACKENDS_CPU_KERNEL_COMPILER_H_
