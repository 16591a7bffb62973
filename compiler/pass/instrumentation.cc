#include "compiler/pass/instrumentation.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "compiler/pass/line_diff.h"
#include "compiler/pass/pipeline.h"
#include "compiler/text/printer.h"

namespace kiln {
namespace {

absl::Status Prefixed(const absl::Status& status, absl::string_view prefix) {
  return absl::Status(status.code(), absl::StrCat(prefix, status.message()));
}

absl::Status WriteFile(const std::string& path, absl::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), text.size());
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

}  // namespace

Instrumentation::Instrumentation(const PipelineOptions& options)
    : options_(options) {}

absl::StatusOr<std::unique_ptr<Instrumentation>> Instrumentation::Create(
    const PipelineOptions& options, const Module& module) {
  std::unique_ptr<Instrumentation> instrumentation(
      new Instrumentation(options));
  if (!options.dump_dir.empty()) {
    instrumentation->dump_re_ = std::make_unique<RE2>(options.dump_pass_re);
    if (!instrumentation->dump_re_->ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dump-pass-re: bad regular expression '", options.dump_pass_re,
          "': ", instrumentation->dump_re_->error()));
    }
    std::error_code error;
    std::filesystem::create_directories(options.dump_dir, error);
    if (error) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dump-dir: cannot create ", options.dump_dir, ": ", error.message()));
    }
  }
  if (options.verify_each) {
    absl::Status verified = VerifyModule(module, options.verify_options);
    if (!verified.ok()) {
      return Prefixed(verified, "the input module does not verify: ");
    }
  }
  if (!options.semantic_check_arguments.empty()) {
    absl::StatusOr<SemanticChecker> checker = SemanticChecker::Create(
        module, options.semantic_check_arguments, options.eval_options);
    if (!checker.ok()) return checker.status();
    instrumentation->semantic_checker_.emplace(*std::move(checker));
    instrumentation->checked_text_ = PrintModule(module);
  }
  return instrumentation;
}

absl::StatusOr<bool> Instrumentation::RunPass(Pass& pass, Module& module) {
  const std::string pass_name(pass.name());
  const bool dump =
      dump_re_ != nullptr && RE2::PartialMatch(pass_name, *dump_re_);
  const std::string before = dump ? PrintModule(module) : std::string();
  const absl::Time start = absl::Now();
  absl::StatusOr<bool> changed = pass.Run(module);
  Record(pass_name, changed.ok() && *changed, absl::Now() - start);
  if (!changed.ok()) {
    return Prefixed(changed.status(), absl::StrCat("pass '", pass_name, "': "));
  }
  if (options_.verify_each) {
    absl::Status verified = VerifyModule(module, options_.verify_options);
    if (!verified.ok()) {
      return Prefixed(verified,
                      absl::StrCat("after pass '", pass_name,
                                   "': the module does not verify: "));
    }
  }
  if (dump) {
    absl::Status dumped = Dump(pass_name, before, module);
    if (!dumped.ok()) return dumped;
  }
  ++pass_runs_;
  // Whether the pass reports a change or not, the printed module decides:
  // "unchanged" is a claim the check should not trust, and a module that
  // prints as the one last evaluated gives that one's results, which were
  // the reference's.
  if (semantic_checker_) {
    std::string text = PrintModule(module);
    if (text == checked_text_) {
      ++unchanged_passes_;
    } else {
      absl::Status same = semantic_checker_->Check(pass_name, module);
      if (!same.ok()) return same;
      checked_text_ = std::move(text);
    }
  }
  return changed;
}

SemanticCheckStatistics Instrumentation::semantic_statistics() const {
  SemanticCheckStatistics stats;
  if (semantic_checker_) stats.evaluations = semantic_checker_->evaluations();
  stats.unchanged_passes = unchanged_passes_;
  return stats;
}

absl::Status Instrumentation::Dump(absl::string_view pass_name,
                                   const std::string& before,
                                   const Module& module) const {
  const std::string after = PrintModule(module);
  const std::string stem =
      absl::StrFormat("%s/%03d-%s", options_.dump_dir, pass_runs_, pass_name);
  absl::Status written = WriteFile(absl::StrCat(stem, ".hlo"), after);
  if (!written.ok()) return written;
  const std::string label = absl::StrCat(module.name(), " ");
  return WriteFile(
      absl::StrCat(stem, ".diff"),
      UnifiedLineDiff(before, after, absl::StrCat(label, "before ", pass_name),
                      absl::StrCat(label, "after ", pass_name)));
}

void Instrumentation::Record(absl::string_view pass_name, bool changed,
                             absl::Duration time) {
  PassStatistics* entry = nullptr;
  for (PassStatistics& stats : stats_) {
    if (stats.name == pass_name) entry = &stats;
  }
  if (entry == nullptr) {
    stats_.push_back(PassStatistics{std::string(pass_name)});
    entry = &stats_.back();
  }
  ++entry->runs;
  entry->changed += changed ? 1 : 0;
  entry->time += time;
}

absl::StatusOr<bool> RunPipeline(Pass& pass, Module& module,
                                 const PipelineOptions& options,
                                 std::vector<PassStatistics>* statistics,
                                 SemanticCheckStatistics* semantic_statistics) {
  absl::StatusOr<std::unique_ptr<Instrumentation>> instrumentation =
      Instrumentation::Create(options, module);
  if (!instrumentation.ok()) return instrumentation.status();
  absl::StatusOr<bool> changed =
      RunPassWith(pass, module, instrumentation->get());
  if (statistics != nullptr) *statistics = (*instrumentation)->statistics();
  if (semantic_statistics != nullptr) {
    *semantic_statistics = (*instrumentation)->semantic_statistics();
  }
  return changed;
}

std::string FormatSemanticCheckStatistics(const SemanticCheckStatistics& stats,
                                          int64_t argument_sets) {
  return absl::StrFormat(
      "check-semantics: %d evaluations (%d argument sets), %d unchanged "
      "passes not evaluated\n",
      stats.evaluations, argument_sets, stats.unchanged_passes);
}

std::string FormatPassStatistics(const std::vector<PassStatistics>& stats) {
  absl::Duration total;
  for (const PassStatistics& entry : stats) total += entry.time;
  const double total_ms = absl::ToDoubleMilliseconds(total);
  std::string out = absl::StrFormat("%-32s %6s %8s %12s %6s\n", "pass", "runs",
                                    "changed", "time (ms)", "%");
  for (const PassStatistics& entry : stats) {
    const double ms = absl::ToDoubleMilliseconds(entry.time);
    absl::StrAppendFormat(&out, "%-32s %6d %8d %12.3f %6.1f\n", entry.name,
                          entry.runs, entry.changed, ms,
                          total_ms > 0 ? 100 * ms / total_ms : 0.0);
  }
  absl::StrAppendFormat(&out, "%-32s %6s %8s %12.3f %6.1f\n", "total", "", "",
                        total_ms, 100.0);
  return out;
}

}  // namespace kiln
