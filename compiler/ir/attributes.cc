#include "compiler/ir/attributes.h"

#include <numeric>
#include <string>
#include <utility>

#include "compiler/ir/computation.h"

namespace kiln {
namespace {

// The iota form is expanded only up to this many devices, so a hostile
// "[1000000000]<=[1000000000]" cannot allocate without bound.
constexpr int64_t kMaxExpandedDevices = int64_t{1} << 24;

// Product of `dims`, or -1 if a factor is negative or it exceeds the cap.
int64_t BoundedProduct(const std::vector<int64_t>& dims) {
  int64_t product = 1;
  for (int64_t d : dims) {
    if (d < 0 || __builtin_mul_overflow(product, d, &product) ||
        product > kMaxExpandedDevices) {
      return -1;
    }
  }
  return product;
}

bool IsPermutationOf(const std::vector<int64_t>& perm, size_t rank) {
  if (perm.size() != rank) return false;
  std::vector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(rank) || seen[p]) return false;
    seen[p] = true;
  }
  return true;
}

// Row-major strides of `dims`.
std::vector<int64_t> Strides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t i = static_cast<int64_t>(dims.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * dims[i + 1];
  }
  return strides;
}

// iota(total) reshaped to `dims`, transposed by `perm`, flattened.
std::vector<int64_t> TransposedIota(const std::vector<int64_t>& dims,
                                    const std::vector<int64_t>& perm,
                                    int64_t total) {
  std::vector<int64_t> in_strides = Strides(dims);
  std::vector<int64_t> out_dims(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) out_dims[i] = dims[perm[i]];
  std::vector<int64_t> out(total);
  std::vector<int64_t> index(perm.size(), 0);  // index into out_dims
  for (int64_t linear = 0; linear < total; ++linear) {
    int64_t source = 0;
    for (size_t i = 0; i < perm.size(); ++i) {
      source += index[i] * in_strides[perm[i]];
    }
    out[linear] = source;
    for (int64_t i = static_cast<int64_t>(index.size()) - 1; i >= 0; --i) {
      if (++index[i] < out_dims[i]) break;
      index[i] = 0;
    }
  }
  return out;
}

// Compares attribute values; computations by name, the rest by value.
struct ValueEquals {
  const AttrValue& other;
  bool operator()(Computation* a) const {
    return SameName(a, std::get<Computation*>(other));
  }
  bool operator()(const ComputationList& a) const {
    const auto& b = std::get<ComputationList>(other);
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!SameName(a[i], b[i])) return false;
    }
    return true;
  }
  template <typename T>
  bool operator()(const T& a) const {
    return a == std::get<T>(other);
  }
  static bool SameName(Computation* a, Computation* b) {
    if (a == nullptr || b == nullptr) return a == b;
    return a->name() == b->name();
  }
};

}  // namespace

bool WindowDimension::operator==(const WindowDimension& o) const {
  return size == o.size && stride == o.stride && padding_low == o.padding_low &&
         padding_high == o.padding_high &&
         window_dilation == o.window_dilation &&
         base_dilation == o.base_dilation &&
         window_reversal == o.window_reversal;
}

bool ConvolutionDimensionNumbers::operator==(
    const ConvolutionDimensionNumbers& o) const {
  return input_batch_dimension == o.input_batch_dimension &&
         input_feature_dimension == o.input_feature_dimension &&
         input_spatial_dimensions == o.input_spatial_dimensions &&
         kernel_input_feature_dimension == o.kernel_input_feature_dimension &&
         kernel_output_feature_dimension == o.kernel_output_feature_dimension &&
         kernel_spatial_dimensions == o.kernel_spatial_dimensions &&
         output_batch_dimension == o.output_batch_dimension &&
         output_feature_dimension == o.output_feature_dimension &&
         output_spatial_dimensions == o.output_spatial_dimensions;
}

std::vector<std::vector<int64_t>> ReplicaGroups::ExpandedGroups() const {
  if (!is_iota) return groups;
  // Invalid iota forms expand to nothing; the op verifier reports them.
  if (iota_group_shape.size() != 2) return {};
  int64_t total = BoundedProduct(iota_reshape_dims);
  if (total < 0 || BoundedProduct(iota_group_shape) != total) return {};
  std::vector<int64_t> perm = iota_transpose_perm;
  if (perm.empty()) {
    perm.resize(iota_reshape_dims.size());
    std::iota(perm.begin(), perm.end(), 0);
  }
  if (!IsPermutationOf(perm, iota_reshape_dims.size())) return {};
  std::vector<int64_t> flat = TransposedIota(iota_reshape_dims, perm, total);
  int64_t group_size = iota_group_shape[1];
  std::vector<std::vector<int64_t>> result(iota_group_shape[0]);
  for (int64_t g = 0; g < iota_group_shape[0]; ++g) {
    result[g].assign(flat.begin() + g * group_size,
                     flat.begin() + (g + 1) * group_size);
  }
  return result;
}

bool ReplicaGroups::operator==(const ReplicaGroups& o) const {
  if (is_iota && o.is_iota) {
    return iota_group_shape == o.iota_group_shape &&
           iota_reshape_dims == o.iota_reshape_dims &&
           iota_transpose_perm == o.iota_transpose_perm;
  }
  if (!is_iota && !o.is_iota) return groups == o.groups;
  // One iota, one list: equal when they denote the same groups.
  return ExpandedGroups() == o.ExpandedGroups();
}

const AttrValue* AttributeMap::Find(absl::string_view name) const {
  for (const auto& entry : entries_) {
    if (entry.first == name) return &entry.second;
  }
  return nullptr;
}

AttrValue* AttributeMap::Find(absl::string_view name) {
  // The caller may store a computation through the pointer.
  may_reference_computations_ = true;
  for (auto& entry : entries_) {
    if (entry.first == name) return &entry.second;
  }
  return nullptr;
}

void AttributeMap::Set(absl::string_view name, AttrValue value) {
  if (std::holds_alternative<Computation*>(value) ||
      std::holds_alternative<ComputationList>(value)) {
    may_reference_computations_ = true;
  }
  for (auto& entry : entries_) {
    if (entry.first != name) continue;
    entry.second = std::move(value);
    return;
  }
  entries_.emplace_back(std::string(name), std::move(value));
}

bool AttributeMap::Erase(absl::string_view name) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->first == name) {
      entries_.erase(it);
      return true;
    }
  }
  return false;
}

bool AttributeMap::Equals(const AttributeMap& other) const {
  if (entries_.size() != other.entries_.size()) return false;
  // Insertion order is not meaning: look each name up in the other map.
  for (const auto& [name, value] : entries_) {
    const AttrValue* theirs = other.Find(name);
    if (theirs == nullptr || theirs->index() != value.index()) return false;
    if (!std::visit(ValueEquals{*theirs}, value)) return false;
  }
  return true;
}

}  // namespace kiln
