// The convolution-family attribute kinds: window={...}, dim_labels=,
// padding=, slice={...}. Printing follows XLA's window_util::ToString,
// ConvolutionDimensionNumbersToString, PaddingConfigToString and the slice
// printer, including which defaults are omitted.
#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/text/attr_text_internal.h"

namespace kiln {
namespace text_internal {
namespace {

// "3x3" / "3": one integer per window dimension, joined by 'x'.
absl::Status ParseDxD(AttrScanner* s, Int64List* out) {
  do {
    absl::StatusOr<int64_t> value = s->ParseInt("an integer");
    if (!value.ok()) return value.status();
    out->push_back(*value);
  } while (s->Consume('x'));
  return absl::OkStatus();
}

// "low_high" pairs joined by 'x': "0_1x0_1".
absl::Status ParseWindowPad(AttrScanner* s, Int64List* low, Int64List* high) {
  do {
    absl::StatusOr<int64_t> lo = s->ParseInt("padding low");
    if (!lo.ok()) return lo.status();
    if (!s->Consume('_')) return s->Expected("'_' in low_high padding");
    absl::StatusOr<int64_t> hi = s->ParseInt("padding high");
    if (!hi.ok()) return hi.status();
    low->push_back(*lo);
    high->push_back(*hi);
  } while (s->Consume('x'));
  return absl::OkStatus();
}

struct WindowFields {
  Int64List size, stride, pad_low, pad_high, lhs_dilate, rhs_dilate,
      rhs_reversal;
};

// The window fields in XLA's printing order, with their parsed lists.
struct WindowFieldInfo {
  absl::string_view name;
  Int64List WindowFields::*list;
};
constexpr WindowFieldInfo kWindowFields[] = {
    {"size", &WindowFields::size},
    {"stride", &WindowFields::stride},
    {"pad", &WindowFields::pad_low},
    {"lhs_dilate", &WindowFields::lhs_dilate},
    {"rhs_dilate", &WindowFields::rhs_dilate},
    {"rhs_reversal", &WindowFields::rhs_reversal},
};

absl::Status ParseWindowField(AttrScanner* s, WindowFields* fields,
                              std::vector<bool>* seen) {
  s->SkipSpace();
  const size_t start = s->pos();
  absl::string_view name = s->ParseIdentifier();
  for (size_t i = 0; i < std::size(kWindowFields); ++i) {
    if (kWindowFields[i].name != name) continue;
    if ((*seen)[i]) return s->ErrorAt(start, "window field given twice");
    (*seen)[i] = true;
    if (!s->SkipAndConsume('=')) return s->Expected("'=' after window field");
    s->SkipSpace();
    if (name == "pad") {
      return ParseWindowPad(s, &fields->pad_low, &fields->pad_high);
    }
    return ParseDxD(s, &(fields->*kWindowFields[i].list));
  }
  return s->ErrorAt(start, absl::StrCat("unknown window field '", name,
                                        "' (expected size, stride, pad, "
                                        "lhs_dilate, rhs_dilate or "
                                        "rhs_reversal)"));
}

absl::StatusOr<Window> BuildWindow(AttrScanner* s, size_t start,
                                   const WindowFields& f) {
  const size_t rank = f.size.size();
  for (const WindowFieldInfo& info : kWindowFields) {
    const size_t n = (f.*info.list).size();
    if (n != 0 && n != rank) {
      return s->ErrorAt(start,
                        absl::StrCat("window field '", info.name, "' has ", n,
                                     " dimensions but size= has ", rank));
    }
  }
  Window window;
  window.dimensions.resize(rank);
  for (size_t i = 0; i < rank; ++i) {
    WindowDimension& dim = window.dimensions[i];
    dim.size = f.size[i];
    if (!f.stride.empty()) dim.stride = f.stride[i];
    if (!f.pad_low.empty()) {
      dim.padding_low = f.pad_low[i];
      dim.padding_high = f.pad_high[i];
    }
    if (!f.lhs_dilate.empty()) dim.base_dilation = f.lhs_dilate[i];
    if (!f.rhs_dilate.empty()) dim.window_dilation = f.rhs_dilate[i];
    if (!f.rhs_reversal.empty()) {
      if (f.rhs_reversal[i] != 0 && f.rhs_reversal[i] != 1) {
        return s->ErrorAt(start, "rhs_reversal entries must be 0 or 1");
      }
      dim.window_reversal = f.rhs_reversal[i] == 1;
    }
  }
  return window;
}

void AppendField(const Window& window, absl::string_view heading,
                 int64_t (*get)(const WindowDimension&), std::string* out) {
  absl::StrAppend(out, heading, "=");
  for (size_t i = 0; i < window.dimensions.size(); ++i) {
    if (i > 0) out->push_back('x');
    absl::StrAppend(out, get(window.dimensions[i]));
  }
}

template <typename Pred>
bool Any(const Window& window, Pred pred) {
  return std::any_of(window.dimensions.begin(), window.dimensions.end(), pred);
}

}  // namespace

absl::StatusOr<AttrValue> ParseWindowValue(const AttrSpec&, AttrScanner* s) {
  s->SkipSpace();
  const size_t start = s->pos();
  if (!s->Consume('{')) return s->Expected("'{' to start a window");
  WindowFields fields;
  std::vector<bool> seen(std::size(kWindowFields), false);
  while (!s->SkipAndConsume('}')) {
    if (s->AtEnd()) return s->Expected("'}' to close the window");
    absl::Status status = ParseWindowField(s, &fields, &seen);
    if (!status.ok()) return status;
  }
  absl::StatusOr<Window> window = BuildWindow(s, start, fields);
  if (!window.ok()) return window.status();
  return AttrValue(*std::move(window));
}

void PrintWindow(const Window& window, std::string* out) {
  out->push_back('{');
  if (!window.dimensions.empty()) {
    AppendField(
        window, "size", [](const WindowDimension& d) { return d.size; }, out);
  }
  if (Any(window, [](const WindowDimension& d) { return d.stride != 1; })) {
    AppendField(
        window, " stride", [](const WindowDimension& d) { return d.stride; },
        out);
  }
  if (Any(window, [](const WindowDimension& d) {
        return d.padding_low != 0 || d.padding_high != 0;
      })) {
    out->append(" pad=");
    for (size_t i = 0; i < window.dimensions.size(); ++i) {
      if (i > 0) out->push_back('x');
      absl::StrAppend(out, window.dimensions[i].padding_low, "_",
                      window.dimensions[i].padding_high);
    }
  }
  if (Any(window,
          [](const WindowDimension& d) { return d.base_dilation != 1; })) {
    AppendField(
        window, " lhs_dilate",
        [](const WindowDimension& d) { return d.base_dilation; }, out);
  }
  if (Any(window,
          [](const WindowDimension& d) { return d.window_dilation != 1; })) {
    AppendField(
        window, " rhs_dilate",
        [](const WindowDimension& d) { return d.window_dilation; }, out);
  }
  if (Any(window, [](const WindowDimension& d) { return d.window_reversal; })) {
    AppendField(
        window, " rhs_reversal",
        [](const WindowDimension& d) -> int64_t { return d.window_reversal; },
        out);
  }
  out->push_back('}');
}

// --- dim_labels=b01f_01io->b01f ---------------------------------------------

namespace {

// The labels of one operand: its two named dimensions and spatial digits.
struct LabelSpec {
  char first, second;  // 'b','f' or 'i','o'
  int64_t* first_dim;
  int64_t* second_dim;
  std::vector<int64_t>* spatial;
};

bool IsLabelChar(char c) {
  return (c >= 'a' && c <= 'z') || IsDigit(c) || c == '?';
}

// One operand's labels, e.g. "b01f". '?' marks a dimension that has no role
// (custom calls print such labels); the digits number the spatial
// dimensions 0..n-1, each once.
absl::Status ParseLabels(AttrScanner* s, const LabelSpec& spec) {
  const size_t start = s->pos();
  while (IsLabelChar(s->Peek()) && !s->AtEnd()) s->Advance();
  absl::string_view labels = s->text().substr(start, s->pos() - start);
  int64_t spatial_count = 0;
  for (char c : labels) spatial_count += IsDigit(c) ? 1 : 0;
  spec.spatial->assign(spatial_count, -1);
  bool has_first = false, has_second = false;
  for (size_t i = 0; i < labels.size(); ++i) {
    const char c = labels[i];
    const int64_t digit = c - '0';
    if (c == '?') continue;
    if (c == spec.first && !has_first) {
      *spec.first_dim = i;
      has_first = true;
    } else if (c == spec.second && !has_second) {
      *spec.second_dim = i;
      has_second = true;
    } else if (IsDigit(c) && digit < spatial_count &&
               (*spec.spatial)[digit] == -1) {
      (*spec.spatial)[digit] = i;
    } else {
      return s->ErrorAt(
          start + i,
          absl::StrCat("unexpected dimension label '", labels.substr(i, 1),
                       "' (expected ", std::string(1, spec.first), ", ",
                       std::string(1, spec.second), ", '?' ",
                       "or a spatial digit below ", spatial_count,
                       ", each once)"));
    }
  }
  if (!has_first || !has_second) {
    return s->ErrorAt(start, absl::StrCat("dimension labels need both '",
                                          std::string(1, spec.first), "' and '",
                                          std::string(1, spec.second), "'"));
  }
  return absl::OkStatus();
}

// XLA writes spatial dimension i as StrCat(i) and unused positions as '?'.
// Out-of-range dimension numbers (only possible in values built by code)
// are skipped rather than indexed.
void AppendLabels(int64_t first_dim, char first, int64_t second_dim,
                  char second, const std::vector<int64_t>& spatial,
                  std::string* out) {
  constexpr int64_t kMaxLabels = 1 << 12;
  auto in_range = [](int64_t dim) { return dim >= 0 && dim < kMaxLabels; };
  int64_t size = 0;
  for (int64_t dim : {first_dim, second_dim}) {
    if (in_range(dim)) size = std::max(size, dim + 1);
  }
  for (int64_t dim : spatial) {
    if (in_range(dim)) size = std::max(size, dim + 1);
  }
  std::vector<std::string> labels(size, "?");
  if (in_range(first_dim)) labels[first_dim] = std::string(1, first);
  if (in_range(second_dim)) labels[second_dim] = std::string(1, second);
  for (size_t i = 0; i < spatial.size(); ++i) {
    if (in_range(spatial[i])) labels[spatial[i]] = absl::StrCat(i);
  }
  for (const std::string& label : labels) out->append(label);
}

}  // namespace

absl::StatusOr<AttrValue> ParseConvDimLabelsValue(const AttrSpec&,
                                                  AttrScanner* s) {
  ConvolutionDimensionNumbers d;
  s->SkipSpace();
  const size_t start = s->pos();
  absl::Status status =
      ParseLabels(s, {'b', 'f', &d.input_batch_dimension,
                      &d.input_feature_dimension, &d.input_spatial_dimensions});
  if (!status.ok()) return status;
  if (!s->Consume('_')) return s->Expected("'_' after the input labels");
  status = ParseLabels(
      s, {'i', 'o', &d.kernel_input_feature_dimension,
          &d.kernel_output_feature_dimension, &d.kernel_spatial_dimensions});
  if (!status.ok()) return status;
  if (!s->Consume('-') || !s->Consume('>')) {
    return s->Expected("'->' after the kernel labels");
  }
  status = ParseLabels(
      s, {'b', 'f', &d.output_batch_dimension, &d.output_feature_dimension,
          &d.output_spatial_dimensions});
  if (!status.ok()) return status;
  if (d.input_spatial_dimensions.size() != d.kernel_spatial_dimensions.size() ||
      d.input_spatial_dimensions.size() != d.output_spatial_dimensions.size()) {
    return s->ErrorAt(start,
                      "input, kernel and output labels must have the "
                      "same number of spatial dimensions");
  }
  return AttrValue(std::move(d));
}

void PrintConvDimLabels(const ConvolutionDimensionNumbers& d,
                        std::string* out) {
  AppendLabels(d.input_batch_dimension, 'b', d.input_feature_dimension, 'f',
               d.input_spatial_dimensions, out);
  out->push_back('_');
  AppendLabels(d.kernel_input_feature_dimension, 'i',
               d.kernel_output_feature_dimension, 'o',
               d.kernel_spatial_dimensions, out);
  out->append("->");
  AppendLabels(d.output_batch_dimension, 'b', d.output_feature_dimension, 'f',
               d.output_spatial_dimensions, out);
}

// --- padding=0_0x1_2_1 ------------------------------------------------------

absl::StatusOr<AttrValue> ParsePaddingValue(const AttrSpec&, AttrScanner* s) {
  PaddingConfig padding;
  s->SkipSpace();
  const char first = s->Peek();
  if (!IsDigit(first) && first != '-') {
    // A rank-0 pad prints an empty config.
    if (s->AtEnd() || first == ',' || first == ')') {
      return AttrValue(std::move(padding));
    }
    return s->Expected("padding like 0_0x1_1_2");
  }
  do {
    PaddingDimension dim;
    absl::StatusOr<int64_t> low = s->ParseInt("padding low");
    if (!low.ok()) return low.status();
    if (!s->Consume('_')) return s->Expected("'_' in padding");
    absl::StatusOr<int64_t> high = s->ParseInt("padding high");
    if (!high.ok()) return high.status();
    dim.low = *low;
    dim.high = *high;
    if (s->Consume('_')) {
      absl::StatusOr<int64_t> interior = s->ParseInt("interior padding");
      if (!interior.ok()) return interior.status();
      dim.interior = *interior;
    }
    padding.dimensions.push_back(dim);
  } while (s->Consume('x'));
  return AttrValue(std::move(padding));
}

void PrintPadding(const PaddingConfig& padding, std::string* out) {
  // XLA prints interior padding for every dimension or for none.
  const bool interior =
      std::any_of(padding.dimensions.begin(), padding.dimensions.end(),
                  [](const PaddingDimension& d) { return d.interior != 0; });
  for (size_t i = 0; i < padding.dimensions.size(); ++i) {
    const PaddingDimension& d = padding.dimensions[i];
    if (i > 0) out->push_back('x');
    absl::StrAppend(out, d.low, "_", d.high);
    if (interior) absl::StrAppend(out, "_", d.interior);
  }
}

// --- slice={[0:2], [1:5:2]} ------------------------------------------------

absl::StatusOr<AttrValue> ParseSliceValue(const AttrSpec&, AttrScanner* s) {
  SliceRanges slice;
  if (!s->SkipAndConsume('{')) return s->Expected("'{' to start a slice");
  if (!s->SkipAndConsume('}')) {
    do {
      if (!s->SkipAndConsume('[')) return s->Expected("'[' to start a range");
      SliceRange range;
      absl::StatusOr<int64_t> start = s->ParseInt("slice start");
      if (!start.ok()) return start.status();
      if (!s->SkipAndConsume(':')) return s->Expected("':' in slice range");
      absl::StatusOr<int64_t> limit = s->ParseInt("slice limit");
      if (!limit.ok()) return limit.status();
      range.start = *start;
      range.limit = *limit;
      if (s->SkipAndConsume(':')) {
        absl::StatusOr<int64_t> stride = s->ParseInt("slice stride");
        if (!stride.ok()) return stride.status();
        range.stride = *stride;
      }
      if (!s->SkipAndConsume(']')) return s->Expected("']' to end a range");
      slice.ranges.push_back(range);
    } while (s->SkipAndConsume(','));
    if (!s->SkipAndConsume('}')) return s->Expected("',' or '}' in slice");
  }
  return AttrValue(std::move(slice));
}

void PrintSlice(const SliceRanges& slice, std::string* out) {
  // Strides are printed for every range unless all are 1, as XLA does.
  const bool strides =
      std::any_of(slice.ranges.begin(), slice.ranges.end(),
                  [](const SliceRange& r) { return r.stride != 1; });
  out->push_back('{');
  for (size_t i = 0; i < slice.ranges.size(); ++i) {
    const SliceRange& r = slice.ranges[i];
    if (i > 0) out->append(", ");
    absl::StrAppend(out, "[", r.start, ":", r.limit);
    if (strides) absl::StrAppend(out, ":", r.stride);
    out->push_back(']');
  }
  out->push_back('}');
}

}  // namespace text_internal
}  // namespace kiln
