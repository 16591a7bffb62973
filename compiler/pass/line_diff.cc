#include "compiler/pass/line_diff.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace kiln {
namespace {

enum class EditKind { kKeep, kDelete, kInsert };

struct Edit {
  EditKind kind;
  int64_t before_line;  // Index into `before` (kKeep, kDelete).
  int64_t after_line;   // Index into `after` (kKeep, kInsert).
};

using Lines = std::vector<absl::string_view>;

Lines SplitLines(absl::string_view text) {
  Lines lines = absl::StrSplit(text, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// Myers' greedy forward search over a[lo_a, hi_a) and b[lo_b, hi_b); returns
// the V array of every step d (the trace) for backtracking.
std::vector<std::vector<int64_t>> MyersTrace(const Lines& a, const Lines& b,
                                             int64_t lo_a, int64_t hi_a,
                                             int64_t lo_b, int64_t hi_b) {
  const int64_t n = hi_a - lo_a, m = hi_b - lo_b, max = n + m;
  const int64_t offset = max + 1;
  std::vector<int64_t> v(2 * max + 3, 0);
  std::vector<std::vector<int64_t>> trace;
  for (int64_t d = 0; d <= max; ++d) {
    for (int64_t k = -d; k <= d; k += 2) {
      int64_t x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
                      ? v[offset + k + 1]
                      : v[offset + k - 1] + 1;
      int64_t y = x - k;
      while (x < n && y < m && a[lo_a + x] == b[lo_b + y]) ++x, ++y;
      v[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push_back(v);
        return trace;
      }
    }
    trace.push_back(v);
  }
  return trace;
}

// The edit script of the middle part, from the trace, in forward order.
std::vector<Edit> Backtrack(const std::vector<std::vector<int64_t>>& trace,
                            int64_t lo_a, int64_t n, int64_t lo_b, int64_t m) {
  const int64_t offset = n + m + 1;
  std::vector<Edit> edits;
  int64_t x = n, y = m;
  for (int64_t d = static_cast<int64_t>(trace.size()) - 1; d > 0; --d) {
    const std::vector<int64_t>& v = trace[d - 1];
    const int64_t k = x - y;
    const bool down =
        k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]);
    const int64_t prev_k = down ? k + 1 : k - 1;
    const int64_t prev_x = v[offset + prev_k], prev_y = prev_x - prev_k;
    while (x > prev_x + (down ? 0 : 1) && y > prev_y + (down ? 1 : 0)) {
      --x, --y;
      edits.push_back({EditKind::kKeep, lo_a + x, lo_b + y});
    }
    if (down) {
      --y;
      edits.push_back({EditKind::kInsert, lo_a + x, lo_b + y});
    } else {
      --x;
      edits.push_back({EditKind::kDelete, lo_a + x, lo_b + y});
    }
  }
  while (x > 0 && y > 0) {
    --x, --y;
    edits.push_back({EditKind::kKeep, lo_a + x, lo_b + y});
  }
  std::reverse(edits.begin(), edits.end());
  return edits;
}

std::vector<Edit> EditScript(const Lines& a, const Lines& b) {
  int64_t prefix = 0;
  const int64_t size_a = a.size(), size_b = b.size();
  while (prefix < size_a && prefix < size_b && a[prefix] == b[prefix]) {
    ++prefix;
  }
  int64_t suffix = 0;
  while (suffix < size_a - prefix && suffix < size_b - prefix &&
         a[size_a - 1 - suffix] == b[size_b - 1 - suffix]) {
    ++suffix;
  }
  std::vector<Edit> edits;
  for (int64_t i = 0; i < prefix; ++i) {
    edits.push_back({EditKind::kKeep, i, i});
  }
  const int64_t hi_a = size_a - suffix, hi_b = size_b - suffix;
  std::vector<Edit> middle =
      Backtrack(MyersTrace(a, b, prefix, hi_a, prefix, hi_b), prefix,
                hi_a - prefix, prefix, hi_b - prefix);
  edits.insert(edits.end(), middle.begin(), middle.end());
  for (int64_t i = 0; i < suffix; ++i) {
    edits.push_back({EditKind::kKeep, hi_a + i, hi_b + i});
  }
  return edits;
}

// "a,b" in a hunk header: 1-based start and length (start is the line
// before when the range is empty, as diff -u writes it).
std::string HunkRange(int64_t start, int64_t length) {
  return absl::StrCat(length == 0 ? start : start + 1, ",", length);
}

// Appends the hunk covering edits[begin, end).
void AppendHunk(const std::vector<Edit>& edits, size_t begin, size_t end,
                const Lines& a, const Lines& b, std::string* out) {
  int64_t count_a = 0, count_b = 0;
  for (size_t i = begin; i < end; ++i) {
    if (edits[i].kind != EditKind::kInsert) ++count_a;
    if (edits[i].kind != EditKind::kDelete) ++count_b;
  }
  absl::StrAppend(out, "@@ -", HunkRange(edits[begin].before_line, count_a),
                  " +", HunkRange(edits[begin].after_line, count_b), " @@\n");
  for (size_t i = begin; i < end; ++i) {
    const Edit& edit = edits[i];
    switch (edit.kind) {
      case EditKind::kKeep:
        absl::StrAppend(out, " ", a[edit.before_line], "\n");
        break;
      case EditKind::kDelete:
        absl::StrAppend(out, "-", a[edit.before_line], "\n");
        break;
      case EditKind::kInsert:
        absl::StrAppend(out, "+", b[edit.after_line], "\n");
        break;
    }
  }
}

}  // namespace

std::string UnifiedLineDiff(absl::string_view before, absl::string_view after,
                            absl::string_view before_name,
                            absl::string_view after_name) {
  constexpr size_t kContext = 3;
  const Lines a = SplitLines(before), b = SplitLines(after);
  const std::vector<Edit> edits = EditScript(a, b);
  std::string out;
  size_t i = 0;
  while (i < edits.size()) {
    if (edits[i].kind == EditKind::kKeep) {
      ++i;
      continue;
    }
    // A hunk: context before, changes separated by at most 2*kContext kept
    // lines, context after.
    const size_t begin = i > kContext ? i - kContext : 0;
    size_t end = i, kept_run = 0;
    while (end < edits.size() && kept_run <= 2 * kContext) {
      kept_run = edits[end].kind == EditKind::kKeep ? kept_run + 1 : 0;
      ++end;
    }
    if (kept_run > kContext) end -= kept_run - kContext;
    if (out.empty()) {
      absl::StrAppend(&out, "--- ", before_name, "\n+++ ", after_name, "\n");
    }
    AppendHunk(edits, begin, end, a, b, &out);
    i = end;
  }
  return out;
}

}  // namespace kiln
