// Device-group and aliasing attribute kinds (replica_groups=,
// output_to_operand_aliasing=) and verbatim raw text.
#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/text/attr_text_internal.h"
#include "compiler/util/int_lists.h"

namespace kiln {
namespace text_internal {
namespace {

// Product of `dims`, or -1 if a dim is negative or the product overflows.
int64_t CheckedProduct(const std::vector<int64_t>& dims) {
  int64_t product = 1;
  for (int64_t dim : dims) {
    if (dim < 0) return -1;
    if (dim != 0 && product > INT64_MAX / dim) return -1;
    product *= dim;
  }
  return product;
}

// Drops size-1 dimensions from `dims` and renumbers `perm` to match.
void DropUnitDims(std::vector<int64_t>* dims, std::vector<int64_t>* perm) {
  std::vector<int64_t> new_index(dims->size(), -1);
  std::vector<int64_t> kept;
  for (size_t i = 0; i < dims->size(); ++i) {
    if ((*dims)[i] == 1) continue;
    new_index[i] = static_cast<int64_t>(kept.size());
    kept.push_back((*dims)[i]);
  }
  std::vector<int64_t> new_perm;
  for (int64_t p : *perm) {
    if (new_index[p] >= 0) new_perm.push_back(new_index[p]);
  }
  *dims = std::move(kept);
  *perm = std::move(new_perm);
}

// Merges dimensions that stay adjacent after the transpose
// (perm[i + 1] == perm[i] + 1) into one.
void MergeAdjacentDims(std::vector<int64_t>* dims, std::vector<int64_t>* perm) {
  for (size_t i = 0; i + 1 < perm->size();) {
    const int64_t major = (*perm)[i];
    if ((*perm)[i + 1] != major + 1) {
      ++i;
      continue;
    }
    (*dims)[major] *= (*dims)[major + 1];
    dims->erase(dims->begin() + major + 1);
    perm->erase(perm->begin() + i + 1);
    for (int64_t& p : *perm) {
      if (p > major) --p;
    }
  }
}

absl::Status ParseBracketList(AttrScanner* s, std::vector<int64_t>* out,
                              char open, char close) {
  if (!s->SkipAndConsume(open)) {
    return s->Expected(absl::StrCat("'", std::string(1, open), "'"));
  }
  if (s->SkipAndConsume(close)) return absl::OkStatus();
  do {
    absl::StatusOr<int64_t> value = s->ParseInt("an integer");
    if (!value.ok()) return value.status();
    out->push_back(*value);
  } while (s->SkipAndConsume(','));
  if (!s->SkipAndConsume(close)) {
    return s->Expected(absl::StrCat("',' or '", std::string(1, close), "'"));
  }
  return absl::OkStatus();
}

// [2,2]<=[4] or [2,2]<=[2,2]T(1,0).
absl::StatusOr<ReplicaGroups> ParseIotaGroups(AttrScanner* s) {
  const size_t start = s->pos();
  ReplicaGroups groups;
  groups.is_iota = true;
  absl::Status status = ParseBracketList(s, &groups.iota_group_shape, '[', ']');
  if (!status.ok()) return status;
  s->SkipSpace();
  const size_t arrow = s->pos();
  if (!s->Consume('<') || !s->Consume('=')) {
    s->set_pos(arrow);
    return s->Expected("'<=' in iota replica groups");
  }
  status = ParseBracketList(s, &groups.iota_reshape_dims, '[', ']');
  if (!status.ok()) return status;
  if (s->SkipAndConsume('T')) {
    status = ParseBracketList(s, &groups.iota_transpose_perm, '(', ')');
    if (!status.ok()) return status;
  }
  if (groups.iota_group_shape.size() != 2) {
    return s->ErrorAt(start, "iota replica groups need [num_groups,size]");
  }
  if (!CanonicalizeIotaReplicaGroups(&groups)) {
    return s->ErrorAt(start,
                      "inconsistent iota replica groups: the dims "
                      "must have equal non-overflowing products and "
                      "T(...) must be a permutation");
  }
  return groups;
}

// Index just past the group that opens at `pos` with `open`, skipping
// 'single-quoted' axis names; npos if it never closes.
size_t SkipBalanced(absl::string_view text, size_t pos, char open, char close) {
  int64_t depth = 0;
  for (size_t i = pos; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'') {
      i = text.find('\'', i + 1);
      if (i == absl::string_view::npos) return i;
    } else if (c == open) {
      ++depth;
    } else if (c == close && --depth == 0) {
      return i + 1;
    }
  }
  return absl::string_view::npos;
}

// mesh['x'=2,'y'=2] {'y'}: the mesh-axes form newer XLA prints. Kiln's
// ReplicaGroups has no fields for it, so the value is kept verbatim as
// RawText (code reading ReplicaGroups then sees another kind).
absl::StatusOr<AttrValue> ParseMeshGroups(AttrScanner* s) {
  const size_t start = s->pos();
  absl::string_view text = s->text();
  size_t end = SkipBalanced(text, start + 4, '[', ']');
  if (end == absl::string_view::npos) {
    return s->ErrorAt(start, "unbalanced '[' in mesh replica groups");
  }
  s->set_pos(end);
  s->SkipSpace();
  if (s->Peek() == '{') {
    end = SkipBalanced(text, s->pos(), '{', '}');
    if (end == absl::string_view::npos) {
      return s->ErrorAt(start, "unbalanced '{' in mesh replica groups");
    }
  }
  s->set_pos(end);
  return AttrValue(RawText{std::string(text.substr(start, end - start))});
}

}  // namespace

bool CanonicalizeIotaReplicaGroups(ReplicaGroups* groups) {
  std::vector<int64_t>& dims = groups->iota_reshape_dims;
  std::vector<int64_t>& perm = groups->iota_transpose_perm;
  const int64_t total = CheckedProduct(dims);
  if (total < 0 || total != CheckedProduct(groups->iota_group_shape)) {
    return false;
  }
  if (perm.empty()) {
    perm.resize(dims.size());
    std::iota(perm.begin(), perm.end(), 0);
  }
  if (!util::IsPermutation(perm, dims.size())) return false;
  DropUnitDims(&dims, &perm);
  MergeAdjacentDims(&dims, &perm);
  if (std::is_sorted(perm.begin(), perm.end())) {
    dims = {total};
    perm.clear();
  }
  return true;
}

absl::StatusOr<AttrValue> ParseReplicaGroupsValue(const AttrSpec&,
                                                  AttrScanner* s) {
  s->SkipSpace();
  if (s->text().substr(s->pos(), 5) == "mesh[") return ParseMeshGroups(s);
  if (s->Peek() == '[') {
    absl::StatusOr<ReplicaGroups> groups = ParseIotaGroups(s);
    if (!groups.ok()) return groups.status();
    return AttrValue(*std::move(groups));
  }
  ReplicaGroups groups;
  if (!s->Consume('{')) return s->Expected("'{' or '[' for replica groups");
  if (!s->SkipAndConsume('}')) {
    do {
      std::vector<int64_t> group;
      absl::Status status = ParseInt64ListInto(s, &group);
      if (!status.ok()) return status;
      groups.groups.push_back(std::move(group));
    } while (s->SkipAndConsume(','));
    if (!s->SkipAndConsume('}')) return s->Expected("',' or '}' in groups");
  }
  return AttrValue(std::move(groups));
}

void PrintReplicaGroups(const ReplicaGroups& groups, std::string* out) {
  if (!groups.is_iota) {
    out->push_back('{');
    for (size_t i = 0; i < groups.groups.size(); ++i) {
      if (i > 0) out->push_back(',');
      AppendInt64List(groups.groups[i], out);
    }
    out->push_back('}');
    return;
  }
  ReplicaGroups canonical = groups;
  if (!CanonicalizeIotaReplicaGroups(&canonical)) canonical = groups;
  absl::StrAppend(out, "[", absl::StrJoin(canonical.iota_group_shape, ","),
                  "]<=[", absl::StrJoin(canonical.iota_reshape_dims, ","), "]");
  if (!canonical.iota_transpose_perm.empty()) {
    absl::StrAppend(out, "T(",
                    absl::StrJoin(canonical.iota_transpose_perm, ","), ")");
  }
}

// --- output_to_operand_aliasing={{0}: (1, {}), {1}: (0, {2})} --------------

absl::StatusOr<AttrValue> ParseAliasingValue(const AttrSpec&, AttrScanner* s) {
  OutputOperandAliasing aliasing;
  if (!s->SkipAndConsume('{')) return s->Expected("'{' to start aliasing");
  if (!s->SkipAndConsume('}')) {
    do {
      OutputOperandAlias alias;
      absl::Status status = ParseInt64ListInto(s, &alias.output_index);
      if (!status.ok()) return status;
      if (!s->SkipAndConsume(':')) return s->Expected("':' after output index");
      if (!s->SkipAndConsume('(')) return s->Expected("'(' before operand");
      absl::StatusOr<int64_t> operand = s->ParseInt("an operand number");
      if (!operand.ok()) return operand.status();
      alias.operand = *operand;
      if (!s->SkipAndConsume(',')) return s->Expected("',' after operand");
      status = ParseInt64ListInto(s, &alias.operand_index);
      if (!status.ok()) return status;
      if (!s->SkipAndConsume(')'))
        return s->Expected("')' after operand index");
      aliasing.aliases.push_back(std::move(alias));
    } while (s->SkipAndConsume(','));
    if (!s->SkipAndConsume('}')) return s->Expected("',' or '}' in aliasing");
  }
  return AttrValue(std::move(aliasing));
}

void PrintAliasing(const OutputOperandAliasing& aliasing, std::string* out) {
  out->push_back('{');
  for (size_t i = 0; i < aliasing.aliases.size(); ++i) {
    const OutputOperandAlias& alias = aliasing.aliases[i];
    if (i > 0) out->append(", ");
    AppendInt64List(alias.output_index, out);
    absl::StrAppend(out, ": (", alias.operand, ", ");
    AppendInt64List(alias.operand_index, out);
    out->push_back(')');
  }
  out->push_back('}');
}

// --- raw text ---------------------------------------------------------------

namespace {

bool IsOpen(char c) { return c == '{' || c == '[' || c == '('; }
bool IsClose(char c) { return c == '}' || c == ']' || c == ')'; }

// Scans from `pos` to the end of a value: a balanced bracket group when
// `pos` opens one, else a run up to a top-level ',', closing bracket or
// newline. Quoted strings are skipped whole. Returns npos when a bracket or
// string is left open.
size_t FindRawEnd(absl::string_view text, size_t pos) {
  const bool group = IsOpen(text[pos]);
  int64_t depth = 0;
  size_t i = pos;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      i = AttrScanner::FindStringEnd(text, i);
      if (i == absl::string_view::npos) return i;
      continue;
    }
    if (IsOpen(c)) {
      ++depth;
    } else if (IsClose(c)) {
      if (depth == 0) return i;  // Closes something outside the value.
      if (--depth == 0 && group) return i + 1;
    } else if (depth == 0 && (c == ',' || c == '\n' || c == '\r')) {
      return i;
    }
    ++i;
  }
  return (group || depth > 0) ? absl::string_view::npos : text.size();
}

}  // namespace

absl::StatusOr<AttrValue> ParseRawTextValue(const AttrSpec&, AttrScanner* s) {
  s->SkipSpace();
  const size_t start = s->pos();
  if (s->AtEnd()) return s->Expected("a value");
  if (IsClose(s->Peek()) || s->Peek() == ',') return s->Expected("a value");
  size_t end = FindRawEnd(s->text(), start);
  if (end == absl::string_view::npos) {
    return s->ErrorAt(start, "unbalanced brackets or unterminated string");
  }
  absl::string_view text = s->text();
  while (end > start && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  s->set_pos(end);
  return AttrValue(RawText{std::string(text.substr(start, end - start))});
}

}  // namespace text_internal
}  // namespace kiln
