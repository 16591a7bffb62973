#include "backends/cpu/kernel_compiler.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

#include "absl/base/const_init.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"

namespace kiln::cpu {
namespace {

constexpr absl::string_view kTrailerMagic = "KILNSUM1";
constexpr size_t kTrailerSize = 8 + 32;  // Magic, then 32 hex digits.

uint64_t Fnv1a(absl::string_view data, uint64_t hash) {
  for (unsigned char c : data) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

uint64_t Mix(uint64_t x) {  // SplitMix64's finalizer.
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::string ShellQuote(absl::string_view text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

// Runs `command` through the shell; returns its exit status and output.
std::pair<int, std::string> RunCommand(const std::string& command) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    output.append(buffer, n);
  }
  const int status = pclose(pipe);
  return {status, output};
}

bool IsExecutable(const std::string& path) {
  return access(path.c_str(), X_OK) == 0;
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

absl::Status MakeDirectories(const std::string& path) {
  std::string partial;
  for (absl::string_view part : absl::StrSplit(path, '/')) {
    partial = partial.empty() && path[0] == '/'
                  ? absl::StrCat("/", part)
                  : absl::StrCat(partial, "/", part);
    if (part.empty()) continue;
    if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot create the kernel cache folder ", partial,
                       " (set KILN_CACHE_DIR to a writable folder)"));
    }
  }
  return absl::OkStatus();
}

// The cache's root folder.
std::string CacheRoot(const KernelCompilerOptions& options) {
  std::string base = options.cache_dir;
  if (base.empty()) {
    if (const char* env = std::getenv("KILN_CACHE_DIR"); env && *env) {
      base = env;
    } else if (const char* home = std::getenv("HOME"); home && *home) {
      base = absl::StrCat(home, "/.cache/kiln");
    } else {
      base = "/tmp/kiln-cache";
    }
  }
  return base;
}

std::string CacheDir(const KernelCompilerOptions& options) {
  return absl::StrCat(CacheRoot(options), "/cpu");
}

// Writes `bytes` and their trailer to `entry` through a private temporary
// file renamed into place, so that a reader never sees a partial entry.
absl::Status WriteEntry(const std::string& dir, const std::string& entry,
                        absl::string_view bytes) {
  std::string scratch = absl::StrCat(dir, "/tmp.XXXXXX");
  const int fd = mkstemp(scratch.data());
  if (fd < 0) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create a temporary file in ", dir));
  }
  close(fd);
  {
    std::ofstream out(scratch, std::ios::binary | std::ios::trunc);
    out << bytes << kTrailerMagic << Fingerprint128(bytes);
    if (!out) {
      std::remove(scratch.c_str());
      return absl::InternalError(absl::StrCat("cannot write ", scratch));
    }
  }
  if (std::rename(scratch.c_str(), entry.c_str()) != 0) {
    std::remove(scratch.c_str());
    return absl::InternalError(
        absl::StrCat("cannot move ", scratch, " to ", entry));
  }
  return absl::OkStatus();
}

// The compiler's path and version text, asked once per compiler.
absl::StatusOr<std::string> CompilerIdentity(const std::string& compiler) {
  static absl::Mutex mutex(absl::kConstInit);
  static auto* identities = new absl::flat_hash_map<std::string, std::string>();
  absl::MutexLock lock(&mutex);
  auto found = identities->find(compiler);
  if (found != identities->end()) return found->second;
  auto [status, output] = RunCommand(ShellQuote(compiler) + " --version");
  if (status != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("the host compiler ", compiler, " does not run (", output,
                     "); set KILN_CXX to a C++17 compiler"));
  }
  std::string identity = absl::StrCat(compiler, "\n", output);
  (*identities)[compiler] = identity;
  return identity;
}

// The entry at `path` when it is whole: the trailer's fingerprint matches
// the bytes before it.
bool EntryIsIntact(const std::string& path) {
  absl::StatusOr<std::string> bytes = ReadFile(path);
  if (!bytes.ok() || bytes->size() < kTrailerSize) return false;
  absl::string_view all(*bytes);
  absl::string_view body = all.substr(0, all.size() - kTrailerSize);
  absl::string_view trailer = all.substr(all.size() - kTrailerSize);
  return trailer.substr(0, kTrailerMagic.size()) == kTrailerMagic &&
         trailer.substr(kTrailerMagic.size()) == Fingerprint128(body);
}

bool IsClang(const std::string& identity) {
  return identity.find("clang") != std::string::npos;
}

// The folder holding kiln_prelude.h and its precompiled form for this
// compiler and these flags, made once per cache (in a private folder, then
// renamed into place; a concurrent maker's folder is as good as ours).
absl::StatusOr<std::string> PrecompiledPrelude(const std::string& compiler,
                                               const std::string& identity,
                                               std::vector<std::string> flags,
                                               absl::string_view prelude,
                                               const std::string& dir) {
  flags.erase(std::remove(flags.begin(), flags.end(), "-shared"), flags.end());
  const std::string key = Fingerprint128(
      absl::StrCat(prelude, "\n", identity, "\n", absl::StrJoin(flags, " ")));
  const std::string folder = absl::StrCat(dir, "/prelude-", key);
  const std::string pch = absl::StrCat(folder, "/kiln_prelude.h",
                                       IsClang(identity) ? ".pch" : ".gch");
  if (access(pch.c_str(), R_OK) == 0) return folder;
  std::string scratch = absl::StrCat(dir, "/tmp.XXXXXX");
  if (mkdtemp(scratch.data()) == nullptr) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create a temporary folder in ", dir));
  }
  {
    std::ofstream out(scratch + "/kiln_prelude.h", std::ios::binary);
    out << prelude;
  }
  std::vector<std::string> words = {ShellQuote(compiler)};
  for (const std::string& flag : flags) words.push_back(ShellQuote(flag));
  words.push_back("-x c++-header");
  words.push_back(ShellQuote(scratch + "/kiln_prelude.h"));
  words.push_back("-o " + ShellQuote(scratch + "/kiln_prelude.h" +
                                     (IsClang(identity) ? ".pch" : ".gch")));
  auto [status, output] = RunCommand(absl::StrJoin(words, " "));
  if (status != 0 || std::rename(scratch.c_str(), folder.c_str()) != 0) {
    RunCommand("rm -rf " + ShellQuote(scratch));
    if (access(pch.c_str(), R_OK) == 0) return folder;
    return absl::InternalError(
        absl::StrCat("cannot precompile the kernel prelude: ", output));
  }
  return folder;
}

absl::Status Compile(const std::string& compiler,
                     const std::vector<std::string>& flags,
                     const std::string& source, const std::string& dir,
                     const std::string& entry) {
  std::string scratch = absl::StrCat(dir, "/tmp.XXXXXX");
  if (mkdtemp(scratch.data()) == nullptr) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create a temporary folder in ", dir));
  }
  const std::string source_path = scratch + "/kernels.cc";
  const std::string object_path = scratch + "/kernels.so";
  auto cleanup = [&] {
    std::remove(source_path.c_str());
    std::remove(object_path.c_str());
    rmdir(scratch.c_str());
  };
  {
    std::ofstream out(source_path, std::ios::binary);
    out << source;
    if (!out) {
      cleanup();
      return absl::InternalError(absl::StrCat("cannot write ", source_path));
    }
  }
  std::vector<std::string> words = {ShellQuote(compiler)};
  for (const std::string& flag : flags) words.push_back(ShellQuote(flag));
  words.push_back("-o " + ShellQuote(object_path));
  words.push_back(ShellQuote(source_path));
  auto [status, output] = RunCommand(absl::StrJoin(words, " "));
  if (status != 0) {
    cleanup();
    if (output.size() > 8000) output = output.substr(0, 8000) + "\n...";
    return absl::InternalError(absl::StrCat(
        "the host compiler ", compiler,
        " failed on generated kernels (a Kiln bug; please report it):\n",
        output));
  }
  absl::StatusOr<std::string> object = ReadFile(object_path);
  if (!object.ok()) {
    cleanup();
    return object.status();
  }
  {
    std::ofstream out(object_path, std::ios::binary | std::ios::app);
    out << kTrailerMagic << Fingerprint128(*object);
  }
  const bool renamed = std::rename(object_path.c_str(), entry.c_str()) == 0;
  cleanup();
  if (!renamed) {
    return absl::InternalError(
        absl::StrCat("cannot move a compiled kernel to ", entry));
  }
  return absl::OkStatus();
}

absl::Mutex& LoadedMutex() {
  static absl::Mutex mutex(absl::kConstInit);
  return mutex;
}
absl::flat_hash_map<std::string, std::weak_ptr<KernelLibrary>>& Loaded() {
  static auto* loaded =
      new absl::flat_hash_map<std::string, std::weak_ptr<KernelLibrary>>();
  return *loaded;
}

}  // namespace

KernelLibrary::~KernelLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

void* KernelLibrary::Find(const std::string& symbol) const {
  return dlsym(handle_, symbol.c_str());
}

std::string Fingerprint128(absl::string_view data) {
  const uint64_t a = Mix(Fnv1a(data, 0xcbf29ce484222325ULL) ^ data.size());
  const uint64_t b = Mix(Fnv1a(data, 0x84222325cbf29ce4ULL) + data.size());
  return absl::StrFormat("%016x%016x", a, b);
}

absl::StatusOr<std::string> CachedArtifact(
    absl::string_view kind, const std::string& key, absl::string_view extension,
    const std::function<absl::StatusOr<std::string>()>& build,
    const KernelCompilerOptions& options, KernelBuildStats* stats) {
  KernelBuildStats local;
  if (stats == nullptr) stats = &local;
  const std::string dir = absl::StrCat(CacheRoot(options), "/", kind);
  const std::string entry = absl::StrCat(dir, "/", key, extension);
  stats->path = entry;
  stats->cache_hit = false;
  if (access(entry.c_str(), R_OK) == 0) {
    if (EntryIsIntact(entry)) {
      absl::StatusOr<std::string> bytes = ReadFile(entry);
      if (bytes.ok()) {
        stats->cache_hit = true;
        bytes->resize(bytes->size() - kTrailerSize);
        return bytes;
      }
    }
    stats->rebuilt_corrupt_entry = true;
  }
  absl::StatusOr<std::string> bytes = build();
  if (!bytes.ok()) return bytes.status();
  // A cache that cannot be written costs the next run a compile, no more.
  if (MakeDirectories(dir).ok()) WriteEntry(dir, entry, *bytes).IgnoreError();
  return bytes;
}

absl::StatusOr<std::string> FindHostCompiler() {
  if (const char* env = std::getenv("KILN_CXX"); env != nullptr && *env) {
    return std::string(env);
  }
  const char* path = std::getenv("PATH");
  for (absl::string_view name : {"g++", "clang++"}) {
    for (absl::string_view dir :
         absl::StrSplit(path != nullptr ? path : "/usr/bin", ':')) {
      if (dir.empty()) continue;
      std::string candidate = absl::StrCat(dir, "/", name);
      if (IsExecutable(candidate)) return candidate;
    }
  }
  return absl::FailedPreconditionError(
      "the cpu backend needs a C++17 compiler for its kernels: none found "
      "(no clang++ or g++ on PATH); set KILN_CXX to the compiler's path");
}

std::vector<std::string> KernelCompilerFlags(
    const KernelCompilerOptions& options) {
  return {"-std=c++17", "-O3", "-fPIC", "-shared", "-w", "-fno-fast-math",
          "-ffp-contract=off", "-fno-math-errno",
          // FP exception flags are not observable to HLO; without this,
          // GCC will not turn float selects (clamps, NaN checks) into
          // blends, and such loops stay scalar. Values are unchanged.
          "-fno-trapping-math", "-fopenmp",
          options.portable ? "-march=x86-64" : "-march=native"};
}

absl::StatusOr<std::shared_ptr<KernelLibrary>> BuildKernelLibrary(
    const std::string& source, const KernelCompilerOptions& options,
    KernelBuildStats* stats, absl::string_view prelude) {
  KernelBuildStats local;
  if (stats == nullptr) stats = &local;
  absl::StatusOr<std::string> compiler = FindHostCompiler();
  if (!compiler.ok()) return compiler.status();
  absl::StatusOr<std::string> identity = CompilerIdentity(*compiler);
  if (!identity.ok()) return identity.status();
  std::vector<std::string> flags = KernelCompilerFlags(options);
  flags.insert(flags.end(), options.extra_flags.begin(),
               options.extra_flags.end());
  const std::string key = Fingerprint128(absl::StrCat(
      prelude, source, "\n", *identity, "\n", absl::StrJoin(flags, " ")));
  const std::string dir = CacheDir(options);
  const std::string entry = absl::StrCat(dir, "/", key, ".so");
  stats->path = entry;

  absl::MutexLock lock(&LoadedMutex());
  if (std::shared_ptr<KernelLibrary> loaded = Loaded()[key].lock()) {
    stats->cache_hit = true;
    return loaded;
  }
  if (absl::Status status = MakeDirectories(dir); !status.ok()) return status;
  stats->cache_hit = access(entry.c_str(), R_OK) == 0;
  if (stats->cache_hit && !EntryIsIntact(entry)) {
    stats->cache_hit = false;
    stats->rebuilt_corrupt_entry = true;
  }
  if (!stats->cache_hit) {
    const auto start = std::chrono::steady_clock::now();
    // The prelude (standard headers, the shared functors) is most of a
    // kernel's compile time: it is precompiled once per cache.
    std::string text = absl::StrCat(prelude, source);
    if (!prelude.empty()) {
      absl::StatusOr<std::string> folder =
          PrecompiledPrelude(*compiler, *identity, flags, prelude, dir);
      if (folder.ok()) {
        text = absl::StrCat("#include \"kiln_prelude.h\"\n", source);
        flags.push_back("-I" + *folder);
        if (IsClang(*identity)) {
          flags.push_back("-include-pch");
          flags.push_back(*folder + "/kiln_prelude.h.pch");
        }
      }
    }
    if (absl::Status status = Compile(*compiler, flags, text, dir, entry);
        !status.ok()) {
      return status;
    }
    stats->compile_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  // A library whose code OpenMP worker threads run stays mapped for the
  // life of the process: the threads outlive the parallel regions (idle in
  // libgomp's pool) and may return into it at exit.
  const bool uses_threads =
      source.find("omp parallel") != std::string::npos ||
      std::find(options.extra_flags.begin(), options.extra_flags.end(),
                "-fopenmp") != options.extra_flags.end();
  void* handle = dlopen(entry.c_str(), RTLD_NOW | RTLD_LOCAL |
                                           (uses_threads ? RTLD_NODELETE : 0));
  if (handle == nullptr) {
    const char* error = dlerror();
    return absl::InternalError(absl::StrCat("cannot load ", entry, ": ",
                                            error ? error : "unknown error"));
  }
  auto library = std::make_shared<KernelLibrary>(handle);
  Loaded()[key] = library;
  return library;
}

}  // namespace kiln::cpu
