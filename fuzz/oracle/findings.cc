#include "fuzz/oracle/findings.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"

namespace kiln::fuzz {
namespace {

namespace fs = std::filesystem;

absl::Status WriteText(const fs::path& path, const std::string& text,
                       bool append = false) {
  std::ofstream out(path, append ? std::ios::app : std::ios::trunc);
  out << text;
  out.close();
  if (!out)
    return absl::InternalError(absl::StrCat("cannot write ", path.string()));
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadText(const fs::path& path) {
  std::ifstream in(path);
  if (!in)
    return absl::NotFoundError(absl::StrCat("cannot read ", path.string()));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

std::string ArgumentsText(const std::vector<std::vector<Literal>>& arguments) {
  std::string text;
  for (size_t d = 0; d < arguments.size(); ++d) {
    absl::StrAppend(&text, "# device ", d, "\n");
    for (const Literal& argument : arguments[d]) {
      absl::StrAppend(&text, LiteralToString(argument), "\n");
    }
  }
  return text;
}

absl::StatusOr<std::vector<std::vector<Literal>>> ParseArgumentsText(
    const std::string& text) {
  std::vector<std::vector<Literal>> arguments;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    if (absl::StartsWith(line, "# device")) {
      arguments.emplace_back();
      continue;
    }
    if (arguments.empty()) arguments.emplace_back();
    absl::StatusOr<Literal> literal = ParseLiteral(line);
    if (!literal.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "args.txt:", line_number, ": ", literal.status().message()));
    }
    arguments.back().push_back(*std::move(literal));
  }
  if (arguments.empty()) arguments.emplace_back();
  return arguments;
}

absl::StatusOr<bool> WriteFinding(const std::string& dir,
                                  const Finding& finding) {
  std::error_code error;
  const fs::path folder = fs::path(dir) / finding.signature;
  const bool known = fs::exists(folder / "oracle.txt", error);
  fs::create_directories(folder, error);
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot make ", folder.string(), ": ", error.message()));
  }
  absl::Status seeds =
      WriteText(folder / "seeds.txt", absl::StrCat(finding.seed, "\n"), true);
  if (!seeds.ok() || known)
    return seeds.ok() ? absl::StatusOr<bool>(false) : seeds;
  const Outcome& o = finding.outcome;
  const std::string info = absl::StrCat(
      "oracle: ", OracleName(finding.oracle), "\nkind: ", o.kind,
      "\nblamed: ", o.blamed, "\nbackend: ", finding.options.backend,
      "\npipeline: ", finding.options.pipeline, "\nseed: ", finding.seed, "\n",
      finding.options.referee.empty()
          ? std::string()
          : absl::StrCat("referee: ", finding.options.referee, "\n"));
  const std::string replay = absl::StrCat(
      "#!/bin/sh\n# Re-checks this finding; exit status 1 while it still "
      "fails.\nexec \"${KILN:-kiln}\" fuzz --replay=\"$(dirname \"$0\")\"\n");
  for (const auto& [name, text] :
       std::vector<std::pair<const char*, std::string>>{
           {"module.hlo", finding.module_text},
           {"original.hlo", finding.original_text},
           {"args.txt", ArgumentsText(finding.arguments)},
           {"detail.txt", o.detail + "\n"},
           {"expected.txt", o.expected + "\n"},
           {"actual.txt", o.actual + "\n"},
           {"replay.sh", replay},
           {"oracle.txt", info}}) {  // Last: its presence marks it complete.
    absl::Status written = WriteText(folder / name, text);
    if (!written.ok()) return written;
  }
  fs::permissions(folder / "replay.sh", fs::perms::owner_exec,
                  fs::perm_options::add, error);
  return true;
}

absl::StatusOr<Finding> ReadFinding(const std::string& finding_dir) {
  const fs::path folder(finding_dir);
  Finding finding;
  finding.signature = folder.filename().string();
  absl::StatusOr<std::string> info = ReadText(folder / "oracle.txt");
  if (!info.ok()) return info.status();
  for (absl::string_view line : absl::StrSplit(*info, '\n')) {
    std::pair<std::string, std::string> kv = absl::StrSplit(line, ": ");
    if (kv.first == "oracle") {
      absl::StatusOr<OracleKind> kind = ParseOracle(kv.second);
      if (!kind.ok()) return kind.status();
      finding.oracle = *kind;
    } else if (kv.first == "kind") {
      finding.outcome.kind = kv.second;
    } else if (kv.first == "blamed") {
      finding.outcome.blamed = kv.second;
    } else if (kv.first == "backend") {
      finding.options.backend = kv.second;
    } else if (kv.first == "pipeline") {
      finding.options.pipeline = kv.second;
    } else if (kv.first == "referee") {
      finding.options.referee = kv.second;
    } else if (kv.first == "seed") {
      if (!absl::SimpleAtoi(kv.second, &finding.seed)) finding.seed = 0;
    }
  }
  absl::StatusOr<std::string> module = ReadText(folder / "module.hlo");
  if (!module.ok()) return module.status();
  finding.module_text = *std::move(module);
  absl::StatusOr<std::string> args = ReadText(folder / "args.txt");
  if (!args.ok()) return args.status();
  absl::StatusOr<std::vector<std::vector<Literal>>> arguments =
      ParseArgumentsText(*args);
  if (!arguments.ok()) return arguments.status();
  finding.arguments = *std::move(arguments);
  return finding;
}

std::vector<std::string> FindingDirs(const std::string& dir) {
  std::error_code error;
  if (fs::exists(fs::path(dir) / "oracle.txt", error)) return {dir};
  std::vector<std::string> dirs;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (entry.is_directory() &&
        fs::exists(entry.path() / "oracle.txt", error)) {
      dirs.push_back(entry.path().string());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

}  // namespace kiln::fuzz
