// ContractionPlan: from subscripts and shapes to reduce, contract and finish steps (the execution is in
// execute.cpp).
#include <trntensor/plan.hpp>

#include "options_check.hpp"
#include "path_search.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace trntensor {
namespace {

constexpr std::string_view kFunction = "trntensor::ContractionPlan";

using detail::LabelSet;

LabelSet to_set(const std::vector<int>& labels) {
  LabelSet s;
  for (int l : labels) s.set(static_cast<std::size_t>(l));
  return s;
}

std::vector<int> unique_in_order(const std::vector<int>& labels) {
  std::vector<int> u;
  for (int l : labels)
    if (std::find(u.begin(), u.end(), l) == u.end()) u.push_back(l);
  return u;
}

std::vector<int> filter(const std::vector<int>& order, const LabelSet& keep) {
  std::vector<int> r;
  for (int l : order)
    if (keep[static_cast<std::size_t>(l)]) r.push_back(l);
  return r;
}

std::int64_t product(const std::vector<int>& labels, const std::vector<std::int64_t>& extents) {
  std::int64_t p = 1;
  for (int l : labels) p *= extents[static_cast<std::size_t>(l)];
  return p;
}

double size_of(const std::vector<int>& labels, const std::vector<std::int64_t>& extents) {
  double p = 1;
  for (int l : labels) p *= static_cast<double>(extents[static_cast<std::size_t>(l)]);
  return p;
}

// Whether `out` is the concatenation of first, second and third as sets, in that group order.
bool grouped(const std::vector<int>& out, const LabelSet& first, const LabelSet& second, const LabelSet& third) {
  std::size_t p = 0;
  for (const LabelSet* g : {&first, &second, &third})
    for (std::size_t c = g->count(); c > 0; --c, ++p)
      if (p >= out.size() || !(*g)[static_cast<std::size_t>(out[p])]) return false;
  return p == out.size();
}

std::string labels_string(const Subscripts& s, const std::vector<int>& labels) {
  std::string r;
  for (int l : labels) r += s.names[static_cast<std::size_t>(l)];
  return r;
}

}  // namespace

std::string_view to_string(PathAlgorithm algorithm) noexcept {
  switch (algorithm) {
    case PathAlgorithm::automatic: return "automatic";
    case PathAlgorithm::optimal: return "optimal";
    case PathAlgorithm::greedy: return "greedy";
    case PathAlgorithm::left_to_right: return "left_to_right";
  }
  return "unknown";
}

ContractionPlan::ContractionPlan(std::string_view subscripts, std::span<const Shape> shapes, const PlanOptions& options)
    : subs_(parse_subscripts(subscripts, shapes)), shapes_(shapes.begin(), shapes.end()), backend_(options.backend) {
  const PlanOptions& plan_options = options;
  trncore::validate(options, kFunction);
  detail::validate_plan_options(plan_options, kFunction);
  if (plan_options.optimal_limit < 1 || plan_options.optimal_limit > 16)
    throw trncore::InvalidArgument(kFunction, "optimal_limit = " + std::to_string(plan_options.optimal_limit),
                                   "use 1 <= optimal_limit <= 16 (the search costs 3^n)");
  if (plan_options.memory_limit && *plan_options.memory_limit < 0)
    throw trncore::InvalidArgument(kFunction, "memory_limit = " + std::to_string(*plan_options.memory_limit),
                                   "use a limit >= 0 elements, or leave it unset");
  if (subs_.names.size() > static_cast<std::size_t>(detail::kMaxLabels))
    throw trncore::NotSupported(kFunction, std::to_string(subs_.names.size()) + " distinct labels",
                                "use at most 128 labels (letters plus broadcast axes)");
  const auto& ext = subs_.extents;
  const int n = static_cast<int>(shapes.size());
  const LabelSet output = to_set(subs_.output);

  // Labels of each operand (diagonals taken), and how many operands hold each label.
  std::vector<std::vector<int>> labels(static_cast<std::size_t>(n));
  std::vector<int> holders(ext.size(), 0);
  for (int o = 0; o < n; ++o) {
    labels[static_cast<std::size_t>(o)] = unique_in_order(subs_.inputs[static_cast<std::size_t>(o)]);
    for (int l : labels[static_cast<std::size_t>(o)]) ++holders[static_cast<std::size_t>(l)];
  }
  int next_id = n;
  std::vector<int> live_ids(static_cast<std::size_t>(n));
  std::iota(live_ids.begin(), live_ids.end(), 0);
  std::vector<std::vector<int>> id_labels = labels;

  // Reduce steps: labels held by one operand and absent from the output are summed first (with one
  // operand, the finish step does it).
  if (n > 1)
    for (int o = 0; o < n; ++o) {
      const auto& l = labels[static_cast<std::size_t>(o)];
      LabelSet summed;
      for (int x : l)
        if (holders[static_cast<std::size_t>(x)] == 1 && !output[static_cast<std::size_t>(x)])
          summed.set(static_cast<std::size_t>(x));
      if (summed.none()) continue;
      PlanStep s;
      s.kind = StepKind::reduce;
      s.method = StepMethod::loop;
      s.operands = {o};
      s.result = next_id++;
      s.summed = filter(l, summed);
      s.result_labels = filter(l, ~summed);
      s.result_size = product(s.result_labels, ext);
      s.flops = size_of(l, ext) - static_cast<double>(s.result_size);
      s.mode = options.math_mode;
      id_labels.push_back(s.result_labels);
      live_ids[static_cast<std::size_t>(o)] = s.result;
      steps_.push_back(std::move(s));
    }

  // The pairwise order.
  detail::PathProblem problem;
  for (int id : live_ids) problem.operands.push_back(to_set(id_labels[static_cast<std::size_t>(id)]));
  problem.output = output;
  problem.extents = ext;
  problem.memory_limit = plan_options.memory_limit;
  algorithm_ = plan_options.algorithm;
  if (algorithm_ == PathAlgorithm::automatic)
    algorithm_ = n <= plan_options.optimal_limit ? PathAlgorithm::optimal : PathAlgorithm::greedy;
  std::optional<detail::Path> path;
  if (algorithm_ == PathAlgorithm::optimal) path = detail::optimal_path(problem);
  if (algorithm_ == PathAlgorithm::left_to_right) path = detail::left_to_right_path(problem);
  if (algorithm_ == PathAlgorithm::greedy) {
    path = detail::greedy_path(problem);
    const auto ltr = detail::left_to_right_path(problem);
    if (ltr && (!path || ltr->flops < path->flops)) {
      path = ltr;
      algorithm_ = PathAlgorithm::left_to_right;
    }
  }
  if (!path)
    throw trncore::ResourceExhausted(kFunction,
                                     "no contraction order of \"" + std::string(subscripts) +
                                         "\" keeps every intermediate within memory_limit = " +
                                         std::to_string(*plan_options.memory_limit) + " elements",
                                     "raise memory_limit, or leave it unset");

  // Contract steps. Path ids are positions in live_ids for the first n, then new results in order.
  std::vector<int> path_to_id = live_ids;
  std::vector<bool> alive(static_cast<std::size_t>(n), true);
  for (std::size_t p = 0; p < path->pairs.size(); ++p) {
    const auto [px, py] = path->pairs[p];
    int a = path_to_id[static_cast<std::size_t>(px)], b = path_to_id[static_cast<std::size_t>(py)];
    alive[static_cast<std::size_t>(px)] = alive[static_cast<std::size_t>(py)] = false;
    LabelSet needed = output;
    for (std::size_t t = 0; t < alive.size(); ++t)
      if (alive[t]) needed |= to_set(id_labels[static_cast<std::size_t>(path_to_id[t])]);
    const bool last = p + 1 == path->pairs.size();
    LabelSet la = to_set(id_labels[static_cast<std::size_t>(a)]), lb = to_set(id_labels[static_cast<std::size_t>(b)]);
    PlanStep s;
    s.kind = StepKind::contract;
    s.mode = options.math_mode;
    // The last step writes the output directly when its axes come as batch, m, n (or batch, n, m: then
    // the operands swap roles, computing the transpose product).
    if (last && grouped(subs_.output, la & lb & needed, lb & ~la, la & ~lb)) {
      std::swap(a, b);
      std::swap(la, lb);
    }
    s.operands = {a, b};
    const auto& oa = id_labels[static_cast<std::size_t>(a)];
    const auto& ob = id_labels[static_cast<std::size_t>(b)];
    s.writes_output = last && grouped(subs_.output, la & lb & needed, la & ~lb, lb & ~la);
    const auto& order_a = s.writes_output ? subs_.output : oa;
    const auto& order_b = s.writes_output ? subs_.output : ob;
    s.batch = filter(order_a, la & lb & needed);
    s.m = filter(order_a, la & ~lb);
    s.n = filter(order_b, lb & ~la);
    s.k = filter(oa, la & lb & ~needed);
    s.batch_size = product(s.batch, ext);
    s.m_size = product(s.m, ext);
    s.n_size = product(s.n, ext);
    s.k_size = product(s.k, ext);
    s.result_labels = s.batch;
    s.result_labels.insert(s.result_labels.end(), s.m.begin(), s.m.end());
    s.result_labels.insert(s.result_labels.end(), s.n.begin(), s.n.end());
    s.result_size = product(s.result_labels, ext);
    s.flops = detail::pair_flops(la, lb, needed, ext);
    s.method = (s.k.empty() && backend_ == trncore::Backend::host) ? StepMethod::direct : StepMethod::gemm;
    s.backend = s.method == StepMethod::gemm ? backend_ : trncore::Backend::host;
    s.result = next_id++;
    id_labels.push_back(s.result_labels);
    path_to_id.push_back(s.result);
    alive.push_back(true);
    steps_.push_back(std::move(s));
  }

  // Finish: whatever remains is summed over labels not in the output and permuted to the output order.
  int last_id = -1;
  for (std::size_t t = 0; t < alive.size(); ++t)
    if (alive[t]) last_id = path_to_id[t];
  const auto& ll = id_labels[static_cast<std::size_t>(last_id)];
  PlanStep f;
  f.kind = StepKind::finish;
  f.method = StepMethod::loop;
  f.operands = {last_id};
  f.result = next_id;
  f.summed = filter(ll, ~output);
  f.result_labels = subs_.output;
  f.result_size = product(f.result_labels, ext);
  f.flops = f.summed.empty() ? 0.0 : size_of(ll, ext) - static_cast<double>(f.result_size);
  f.mode = options.math_mode;
  steps_.push_back(std::move(f));
}

std::vector<std::pair<int, int>> ContractionPlan::path() const {
  std::vector<std::pair<int, int>> p;
  for (const auto& s : steps_)
    if (s.kind == StepKind::contract) p.emplace_back(s.operands[0], s.operands[1]);
  return p;
}

double ContractionPlan::total_flops() const noexcept {
  double f = 0;
  for (const auto& s : steps_) f += s.flops;
  return f;
}

std::int64_t ContractionPlan::largest_intermediate() const noexcept {
  std::int64_t m = 0;
  const PlanStep* last = nullptr;
  for (const auto& s : steps_)
    if (s.kind == StepKind::contract) last = &s;
  for (const auto& s : steps_)
    if (s.kind == StepKind::contract && &s != last) m = std::max(m, s.result_size);
  return m;
}

Shape ContractionPlan::output_shape() const {
  Shape s;
  for (int l : subs_.output) s.push_back(subs_.extents[static_cast<std::size_t>(l)]);
  return s;
}

void ContractionPlan::set_mode(std::size_t step, trncore::MathMode mode) {
  if (step >= steps_.size() || steps_[step].kind != StepKind::contract)
    throw trncore::InvalidArgument("trntensor::ContractionPlan::set_mode",
                                   "step " + std::to_string(step) + " is not a contract step of this plan (" +
                                       std::to_string(steps_.size()) + " steps)",
                                   "pass the index of a contract step in steps()");
  steps_[step].mode = mode;
}

std::string ContractionPlan::to_string() const {
  std::string r = "ContractionPlan " + subs_.to_string() + "\n";
  r += "  shapes:";
  for (const auto& s : shapes_) r.append(" ").append(detail::shape_string(s));
  r.append("\n  path: ").append(trntensor::to_string(algorithm_)).append(", backend ");
  r.append(trncore::to_string(backend_)).append("\n");
  char buf[256];
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    const PlanStep& s = steps_[i];
    r.append("  ").append(std::to_string(i + 1)).append(". ");
    if (s.kind == StepKind::contract) {
      r.append("contract t").append(std::to_string(s.operands[0])).append(",t").append(std::to_string(s.operands[1]));
      r.append(" -> t").append(std::to_string(s.result)).append(" [").append(labels_string(subs_, s.result_labels));
      std::snprintf(buf, sizeof buf, "] %s %s batch=%lld m=%lld n=%lld k=%lld mode=%s%s",
                    s.method == StepMethod::gemm ? "gemm" : "direct",
                    std::string(trncore::to_string(s.backend)).c_str(), static_cast<long long>(s.batch_size),
                    static_cast<long long>(s.m_size), static_cast<long long>(s.n_size),
                    static_cast<long long>(s.k_size), std::string(trncore::to_string(s.mode)).c_str(),
                    s.writes_output ? " ->out" : "");
      r.append(buf);
    } else {
      r.append(s.kind == StepKind::reduce ? "reduce t" : "finish t").append(std::to_string(s.operands[0]));
      r.append(s.kind == StepKind::reduce ? " -> t" + std::to_string(s.result) : std::string(" -> out"));
      r.append(" [").append(labels_string(subs_, s.result_labels)).append("] summing [");
      r.append(labels_string(subs_, s.summed)).append("] host loop");
    }
    std::snprintf(buf, sizeof buf, " flops=%.6g size=%lld\n", s.flops, static_cast<long long>(s.result_size));
    r.append(buf);
  }
  std::snprintf(buf, sizeof buf, "  total flops=%.6g, largest intermediate=%lld elements\n", total_flops(),
                static_cast<long long>(largest_intermediate()));
  return r + buf;
}

}  // namespace trntensor
