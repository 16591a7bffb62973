#include "tools/conform/exec_backend.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "compiler/ir/computation.h"
#include "compiler/ir/instruction.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "compiler/text/printer.h"
#include "tools/cli/npy.h"

namespace kiln::conform {
namespace {

std::string ShellQuote(absl::string_view text) {
  return absl::StrCat("'", absl::StrReplaceAll(text, {{"'", "'\\''"}}), "'");
}

absl::Status WriteFile(const std::string& path, absl::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) return absl::UnavailableError(absl::StrCat(path, ": cannot write"));
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot read"));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string Tail(const std::string& text, size_t n = 2000) {
  std::string tail =
      text.size() > n ? "..." + text.substr(text.size() - n) : text;
  return std::string(absl::StripAsciiWhitespace(tail));
}

// A temporary directory removed on destruction (unless kept).
class TempDir {
 public:
  static absl::StatusOr<TempDir> Create(bool keep) {
    const char* base = getenv("TMPDIR");
    std::string pattern =
        absl::StrCat(base != nullptr && *base != '\0' ? base : "/tmp",
                     "/kiln_conform_XXXXXX");
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr) {
      return absl::UnavailableError("cannot create a temporary directory");
    }
    return TempDir(buffer.data(), keep);
  }
  TempDir(TempDir&& other) noexcept
      : path_(std::move(other.path_)), keep_(other.keep_) {
    other.path_.clear();
  }
  ~TempDir() {
    if (path_.empty() || keep_) return;
    std::error_code error;
    std::filesystem::remove_all(path_, error);
  }
  const std::string& path() const { return path_; }

 private:
  TempDir(std::string path, bool keep) : path_(std::move(path)), keep_(keep) {}
  std::string path_;
  bool keep_;
};

struct CommandResult {
  bool timed_out = false;
  int exit_status = -1;  // When it exited.
  int signal = 0;        // When a signal killed it.
};

// Runs `command` with /bin/sh in its own process group, killing the group
// at the time limit. Only async-signal-safe calls happen after fork().
absl::StatusOr<CommandResult> RunShell(const std::string& command,
                                       const std::string& directory,
                                       double time_limit_seconds) {
  const std::string out = directory + "/stdout.txt";
  const std::string err = directory + "/stderr.txt";
  const pid_t pid = fork();
  if (pid < 0) return absl::UnavailableError("fork failed");
  if (pid == 0) {
    setpgid(0, 0);
    const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in_fd = open("/dev/null", O_RDONLY);
    if (out_fd < 0 || err_fd < 0 || in_fd < 0) _exit(126);
    dup2(in_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);  // Also from the parent, so the kill below cannot race.
  const auto start = std::chrono::steady_clock::now();
  CommandResult result;
  int status = 0;
  auto pause = std::chrono::milliseconds(1);
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (time_limit_seconds > 0 && elapsed > time_limit_seconds) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      result.timed_out = true;
      return result;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
  kill(-pid, SIGKILL);  // Leftover children of the shell, if any.
  if (WIFEXITED(status)) result.exit_status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

// One literal per line, a blank line between them: `kiln run --args_file`
// reads it, and so can any adapter.
std::string ArgsText(absl::Span<const std::vector<Literal>> arguments) {
  std::string text;
  for (const std::vector<Literal>& device : arguments) {
    for (const Literal& argument : device) {
      absl::StrAppend(&text, LiteralToString(argument), "\n\n");
    }
  }
  return text;
}

absl::Status WriteNpyArguments(
    const std::string& directory,
    absl::Span<const std::vector<Literal>> arguments) {
  const bool several = arguments.size() > 1;
  for (size_t d = 0; d < arguments.size(); ++d) {
    for (size_t i = 0; i < arguments[d].size(); ++i) {
      if (!arguments[d][i].shape().IsArray()) continue;
      const std::string name =
          several ? absl::StrCat("device_", d, "_arg_", i, ".npy")
                  : absl::StrCat("arg_", i, ".npy");
      absl::Status s = cli::WriteNpyFile(absl::StrCat(directory, "/", name),
                                         arguments[d][i]);
      if (!s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

// Assembles one device's result from its parts (lines of result.txt or
// .npy files) given the entry's result shape.
absl::StatusOr<Literal> Assemble(std::vector<Literal> parts,
                                 const Shape& result_shape) {
  if (!result_shape.IsTuple()) {
    if (parts.size() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected one result, the command gave ", parts.size()));
    }
    return std::move(parts[0]);
  }
  if (parts.size() == 1 && parts[0].shape().IsTuple()) {
    return std::move(parts[0]);
  }
  return Literal::Tuple(std::move(parts));
}

absl::StatusOr<std::vector<Literal>> ReadTextResults(const std::string& text,
                                                     const Shape& result_shape,
                                                     int64_t devices) {
  std::vector<std::vector<Literal>> parts(devices);
  int64_t device = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    if (absl::StartsWith(line, "device ")) {
      std::vector<absl::string_view> words =
          absl::StrSplit(line.substr(7), absl::ByAnyChar(" :"));
      if (words.empty() || !absl::SimpleAtoi(words[0], &device) || device < 0 ||
          device >= devices) {
        return absl::InvalidArgumentError(
            absl::StrCat("result.txt: bad device line '", line, "'"));
      }
      continue;
    }
    absl::StatusOr<Literal> literal = ParseLiteral(line);
    if (!literal.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("result.txt: bad literal '", line.substr(0, 200),
                       "': ", literal.status().message()));
    }
    parts[device].push_back(*std::move(literal));
  }
  std::vector<Literal> results;
  for (int64_t d = 0; d < devices; ++d) {
    absl::StatusOr<Literal> result =
        Assemble(std::move(parts[d]), result_shape);
    if (!result.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "result.txt, device ", d, ": ", result.status().message()));
    }
    results.push_back(*std::move(result));
  }
  return results;
}

absl::StatusOr<std::vector<Literal>> ReadNpyResults(
    const std::string& directory, const Shape& result_shape, int64_t devices) {
  std::vector<Shape> part_shapes;
  if (result_shape.IsTuple()) {
    part_shapes = result_shape.tuple_shapes();
  } else {
    part_shapes.push_back(result_shape);
  }
  std::vector<Literal> results;
  for (int64_t d = 0; d < devices; ++d) {
    std::vector<Literal> parts;
    for (size_t i = 0; i < part_shapes.size(); ++i) {
      const std::string name =
          devices > 1 ? absl::StrCat("device_", d, "_result_", i, ".npy")
                      : absl::StrCat("result_", i, ".npy");
      cli::NpyReadOptions options;
      options.raw_type = part_shapes[i].element_type();
      absl::StatusOr<Literal> part =
          cli::ReadNpyFile(absl::StrCat(directory, "/", name), options);
      if (!part.ok()) {
        return absl::NotFoundError(
            absl::StrCat("the command wrote neither result.txt nor ", name,
                         ": ", part.status().message()));
      }
      parts.push_back(*std::move(part));
    }
    absl::StatusOr<Literal> result = Assemble(std::move(parts), result_shape);
    if (!result.ok()) return result.status();
    results.push_back(*std::move(result));
  }
  return results;
}

class ExecExecutable : public Executable {
 public:
  ExecExecutable(const ExecOptions& options, std::string module_text,
                 std::vector<Shape> parameters, Shape result_shape,
                 const CompileOptions& compile)
      : Executable(std::move(parameters),
                   compile.replica_count * compile.num_partitions),
        options_(options),
        module_text_(std::move(module_text)),
        result_shape_(std::move(result_shape)),
        compile_(compile) {}

  absl::StatusOr<Literal> Run(absl::Span<const Literal> arguments) override {
    std::vector<std::vector<Literal>> all(1);
    for (const Literal& a : arguments) all[0].push_back(a);
    absl::StatusOr<std::vector<Literal>> results = RunReplicated(all);
    if (!results.ok()) return results.status();
    return std::move((*results)[0]);
  }

  absl::StatusOr<std::vector<Literal>> RunReplicated(
      absl::Span<const std::vector<Literal>> arguments) override;

 private:
  std::string Command(const std::string& directory) const;
  absl::Status Explain(const CommandResult& result,
                       const std::string& directory) const;

  ExecOptions options_;
  std::string module_text_;
  Shape result_shape_;
  CompileOptions compile_;
};

std::string ExecExecutable::Command(const std::string& directory) const {
  const std::string module = directory + "/module.hlo";
  const std::string args = directory + "/args.txt";
  const std::string out = directory + "/result.txt";
  const std::string command = absl::StrReplaceAll(
      options_.command,
      {{"{module}", ShellQuote(module)},
       {"{args}", ShellQuote(args)},
       {"{out}", ShellQuote(out)},
       {"{dir}", ShellQuote(directory)},
       {"{replicas}", absl::StrCat(compile_.replica_count)},
       {"{partitions}", absl::StrCat(compile_.num_partitions)}});
  return absl::StrCat(
      "KILN_CONFORM_DIR=", ShellQuote(directory),
      " KILN_CONFORM_MODULE=", ShellQuote(module),
      " KILN_CONFORM_ARGS=", ShellQuote(args),
      " KILN_CONFORM_OUT=", ShellQuote(out),
      " KILN_CONFORM_REPLICAS=", compile_.replica_count,
      " KILN_CONFORM_PARTITIONS=", compile_.num_partitions,
      "; export KILN_CONFORM_DIR KILN_CONFORM_MODULE KILN_CONFORM_ARGS "
      "KILN_CONFORM_OUT KILN_CONFORM_REPLICAS KILN_CONFORM_PARTITIONS; ",
      command);
}

absl::Status ExecExecutable::Explain(const CommandResult& result,
                                     const std::string& directory) const {
  absl::StatusOr<std::string> err = ReadFile(directory + "/stderr.txt");
  const std::string stderr_tail =
      err.ok() && !err->empty() ? absl::StrCat("; stderr: ", Tail(*err)) : "";
  if (result.timed_out) {
    return absl::DeadlineExceededError(absl::StrCat(
        "exec: the command ran past the time limit of ",
        options_.time_limit_seconds, " s and was killed", stderr_tail));
  }
  if (result.signal != 0) {
    return absl::AbortedError(
        absl::StrCat("exec: the command crashed (signal ", result.signal, ", ",
                     strsignal(result.signal), ")", stderr_tail));
  }
  if (result.exit_status == 126 || result.exit_status == 127) {
    return absl::FailedPreconditionError(
        absl::StrCat("exec: the shell could not run the command (exit ",
                     result.exit_status, ")", stderr_tail));
  }
  if (result.exit_status == kExecUnsupportedExit) {
    return absl::UnimplementedError(
        absl::StrCat("exec: the command reports the module unsupported (exit ",
                     kExecUnsupportedExit, ")", stderr_tail));
  }
  return absl::InternalError(
      absl::StrCat("exec: the command failed with exit status ",
                   result.exit_status, stderr_tail));
}

absl::StatusOr<std::vector<Literal>> ExecExecutable::RunReplicated(
    absl::Span<const std::vector<Literal>> arguments) {
  absl::StatusOr<TempDir> dir = TempDir::Create(options_.keep_files);
  if (!dir.ok()) return dir.status();
  const std::string& d = dir->path();
  for (absl::Status s : {WriteFile(d + "/module.hlo", module_text_),
                         WriteFile(d + "/args.txt", ArgsText(arguments)),
                         WriteNpyArguments(d, arguments)}) {
    if (!s.ok()) return s;
  }
  absl::StatusOr<CommandResult> result =
      RunShell(Command(d), d, options_.time_limit_seconds);
  if (!result.ok()) return result.status();
  if (result->timed_out || result->signal != 0 || result->exit_status != 0) {
    return Explain(*result, d);
  }
  const int64_t devices = static_cast<int64_t>(arguments.size());
  absl::StatusOr<std::string> text = ReadFile(d + "/result.txt");
  if (text.ok()) return ReadTextResults(*text, result_shape_, devices);
  return ReadNpyResults(d, result_shape_, devices);
}

class ExecBackend : public Backend {
 public:
  explicit ExecBackend(ExecOptions options) : options_(std::move(options)) {}
  absl::string_view name() const override { return "exec"; }
  // An external toolchain answers for itself: it exits with status 77 on
  // what it does not support.
  bool Supports(Opcode, ElementType) const override { return true; }
  bool accepts_client_form() const override { return true; }

  absl::StatusOr<std::unique_ptr<Executable>> Compile(
      const Module& module, const CompileOptions& options) override {
    absl::StatusOr<std::vector<Shape>> parameters =
        EntryParameterShapes(module);
    if (!parameters.ok()) return parameters.status();
    if (module.entry() == nullptr || module.entry()->root() == nullptr) {
      return absl::InvalidArgumentError("exec: the module has no entry root");
    }
    return std::unique_ptr<Executable>(new ExecExecutable(
        options_, PrintModule(module), *std::move(parameters),
        module.entry()->root()->shape(), options));
  }

 private:
  ExecOptions options_;
};

}  // namespace

absl::Status ExecExpectRejection(const ExecOptions& options,
                                 const std::string& module_text) {
  CompileOptions compile;
  ExecExecutable executable(options, module_text, {}, Shape(), compile);
  absl::StatusOr<std::vector<Literal>> results =
      executable.RunReplicated(std::vector<std::vector<Literal>>(1));
  if (results.ok() || absl::IsNotFound(results.status()) ||
      absl::IsInvalidArgument(results.status())) {
    return absl::FailedPreconditionError(
        "exec: the command accepted a module that must be rejected (exit 0)");
  }
  if (absl::IsInternal(results.status())) return absl::OkStatus();
  return results.status();
}

std::unique_ptr<Backend> MakeExecBackend(const ExecOptions& options) {
  return std::make_unique<ExecBackend>(options);
}

}  // namespace kiln::conform
