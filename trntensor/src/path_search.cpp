// Path search over label sets. Costs are doubles so that huge hypothetical intermediates compare instead of
// overflowing; the executed sizes are checked in int64 when tensors are allocated.
#include "path_search.hpp"

#include <algorithm>
#include <limits>

namespace trntensor::detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool over_limit(const PathProblem& p, const LabelSet& result) {
  return p.memory_limit && set_size(result, p.extents) > static_cast<double>(*p.memory_limit);
}

// Labels needed after combining the operands in `live` except those at positions i and j.
LabelSet needed_besides(const PathProblem& p, const std::vector<LabelSet>& live, std::size_t i, std::size_t j) {
  LabelSet needed = p.output;
  for (std::size_t t = 0; t < live.size(); ++t)
    if (t != i && t != j) needed |= live[t];
  return needed;
}

}  // namespace

double set_size(const LabelSet& labels, const std::vector<std::int64_t>& extents) {
  double s = 1;
  for (std::size_t l = 0; l < extents.size(); ++l)
    if (labels[l]) s *= static_cast<double>(extents[l]);
  return s;
}

double pair_flops(const LabelSet& a, const LabelSet& b, const LabelSet& needed,
                  const std::vector<std::int64_t>& extents) {
  const LabelSet all = a | b;
  const bool sums = (all & ~needed).any();
  return set_size(all, extents) * (sums ? 2.0 : 1.0);
}

double path_cost(const PathProblem& p, const std::vector<std::pair<int, int>>& pairs) {
  std::vector<LabelSet> ssa = p.operands;
  std::vector<bool> alive(ssa.size(), true);
  double cost = 0;
  for (std::size_t s = 0; s < pairs.size(); ++s) {
    const auto [x, y] = pairs[s];
    LabelSet needed = p.output;
    for (std::size_t t = 0; t < ssa.size(); ++t)
      if (alive[t] && static_cast<int>(t) != x && static_cast<int>(t) != y) needed |= ssa[t];
    cost += pair_flops(ssa[static_cast<std::size_t>(x)], ssa[static_cast<std::size_t>(y)], needed, p.extents);
    const LabelSet result = (ssa[static_cast<std::size_t>(x)] | ssa[static_cast<std::size_t>(y)]) & needed;
    if (s + 1 < pairs.size() && over_limit(p, result)) return kInf;
    alive[static_cast<std::size_t>(x)] = alive[static_cast<std::size_t>(y)] = false;
    ssa.push_back(result);
    alive.push_back(true);
  }
  return cost;
}

std::optional<Path> optimal_path(const PathProblem& p) {
  const int n = static_cast<int>(p.operands.size());
  if (n <= 1) return Path{};
  const std::uint32_t full = (1u << n) - 1;
  std::vector<LabelSet> uni(full + 1);
  for (std::uint32_t s = 1; s <= full; ++s) {
    const int low = __builtin_ctz(s);
    uni[s] = uni[s & (s - 1)] | p.operands[static_cast<std::size_t>(low)];
  }
  // result[S]: labels of the tensor that combines the operands in S.
  std::vector<LabelSet> result(full + 1);
  for (std::uint32_t s = 1; s <= full; ++s) result[s] = uni[s] & (p.output | uni[full & ~s]);
  std::vector<double> cost(full + 1, kInf);
  std::vector<std::uint32_t> split(full + 1, 0);
  for (int i = 0; i < n; ++i) cost[1u << i] = 0;
  for (std::uint32_t s = 1; s <= full; ++s) {
    if ((s & (s - 1)) == 0) continue;
    if (s != full && over_limit(p, result[s])) continue;
    const LabelSet needed = p.output | uni[full & ~s];
    const std::uint32_t low = s & (~s + 1);
    // Subsets containing the lowest operand: each unordered split once.
    for (std::uint32_t a = (s - 1) & s; a > 0; a = (a - 1) & s) {
      if ((a & low) == 0) continue;
      const std::uint32_t b = s & ~a;
      if (cost[a] == kInf || cost[b] == kInf) continue;
      const double c = cost[a] + cost[b] + pair_flops(result[a], result[b], needed, p.extents);
      if (c < cost[s]) {
        cost[s] = c;
        split[s] = a;
      }
    }
  }
  if (cost[full] == kInf) return std::nullopt;
  Path path;
  path.flops = cost[full];
  int next_id = n;
  // Post-order: emit the pairs of the subtrees, then this one; returns the SSA id of S's result.
  const auto emit = [&](auto&& self, std::uint32_t s) -> int {
    if ((s & (s - 1)) == 0) return __builtin_ctz(s);
    const int x = self(self, split[s]);
    const int y = self(self, s & ~split[s]);
    path.pairs.emplace_back(x, y);
    return next_id++;
  };
  emit(emit, full);
  return path;
}

std::optional<Path> greedy_path(const PathProblem& p) {
  std::vector<LabelSet> live = p.operands;
  std::vector<int> ids(live.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
  int next_id = static_cast<int>(live.size());
  Path path;
  while (live.size() > 1) {
    double best_flops = kInf, best_size = kInf;
    std::size_t bi = 0, bj = 0;
    for (std::size_t i = 0; i < live.size(); ++i)
      for (std::size_t j = i + 1; j < live.size(); ++j) {
        const LabelSet needed = needed_besides(p, live, i, j);
        const LabelSet r = (live[i] | live[j]) & needed;
        if (live.size() > 2 && over_limit(p, r)) continue;
        const double f = pair_flops(live[i], live[j], needed, p.extents);
        const double sz = set_size(r, p.extents);
        if (f < best_flops || (f == best_flops && sz < best_size)) {
          best_flops = f;
          best_size = sz;
          bi = i;
          bj = j;
        }
      }
    if (best_flops == kInf) return std::nullopt;
    const LabelSet r = (live[bi] | live[bj]) & needed_besides(p, live, bi, bj);
    path.pairs.emplace_back(ids[bi], ids[bj]);
    path.flops += best_flops;
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(bj));
    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(bj));
    live[bi] = r;
    ids[bi] = next_id++;
  }
  return path;
}

std::optional<Path> left_to_right_path(const PathProblem& p) {
  Path path;
  const int n = static_cast<int>(p.operands.size());
  for (int i = 1; i < n; ++i) path.pairs.emplace_back(i == 1 ? 0 : n + i - 2, i);
  path.flops = path_cost(p, path.pairs);
  if (path.flops == kInf) return std::nullopt;
  return path;
}

}  // namespace trntensor::detail
