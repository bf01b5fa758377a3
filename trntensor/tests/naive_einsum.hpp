#pragma once
// The tests' oracle: an einsum expression given structurally (labels per operand axis, output labels, extents;
// no parsing) and evaluated by one nested loop over every label assignment in long double. Independent of the
// library's parser, planner and kernels. Also writes the structure as a subscripts string.

#include <trntensor/tensor.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace trntensor::test {

struct Expr {
  // Label ids; names[id] is the letter, or "" for a broadcast (ellipsis) axis.
  std::vector<std::vector<int>> inputs;
  std::vector<int> output;
  std::vector<std::int64_t> extents;  // per label
  std::vector<std::string> names;
  // Per operand: the axis extents actually stored (1 where the operand broadcasts the label).
  std::vector<Shape> shapes;
  // How the subscripts are written: the text itself.
  std::string text;
};

// out[output assignment] = Σ over all label assignments Π_o operand_o[its indices]; |·| of every factor when
// `absolute` (the magnitude the componentwise bounds are relative to).
template <class T>
std::vector<long double> naive_einsum(const Expr& e, const std::vector<std::vector<T>>& values, bool absolute = false) {
  const std::size_t nl = e.extents.size();
  std::int64_t out_size = 1, total = 1;
  for (int l : e.output) out_size *= e.extents[static_cast<std::size_t>(l)];
  for (auto x : e.extents) total *= x;
  std::vector<long double> out(static_cast<std::size_t>(out_size), 0.0L);
  if (total == 0) return out;
  std::vector<std::int64_t> idx(nl, 0);
  for (std::int64_t t = 0; t < total; ++t) {
    long double p = 1;
    for (std::size_t o = 0; o < e.inputs.size(); ++o) {
      std::int64_t off = 0;
      for (std::size_t d = 0; d < e.inputs[o].size(); ++d) {
        const std::int64_t ext = e.shapes[o][d];
        off = off * ext + (ext == 1 ? 0 : idx[static_cast<std::size_t>(e.inputs[o][d])]);
      }
      const long double v = values[o][static_cast<std::size_t>(off)];
      p *= absolute ? std::fabs(v) : v;
    }
    std::int64_t oo = 0;
    for (int l : e.output) oo = oo * e.extents[static_cast<std::size_t>(l)] + idx[static_cast<std::size_t>(l)];
    out[static_cast<std::size_t>(oo)] += p;
    for (std::size_t d = nl; d-- > 0;) {
      if (++idx[d] < e.extents[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace trntensor::test
