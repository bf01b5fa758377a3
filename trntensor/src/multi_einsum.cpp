// multi_einsum: homogeneous groups (same subscripts and shapes) run as one einsum over stacked operands with
// an extra leading batch label, so each GEMM step is one batched GEMM over the whole group.
#include <trntensor/einsum.hpp>

#include "options_check.hpp"

#include <cctype>
#include <cstring>
#include <map>

namespace trntensor {
namespace {

// A letter absent from the subscripts (0 when all 52 are taken).
char unused_letter(std::string_view text) {
  for (char c : std::string_view("ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba"))
    if (text.find(c) == std::string_view::npos) return c;
  return 0;
}

// The subscripts with `z` prepended to every term and an explicit output.
std::string stacked_subscripts(std::string_view text, const Subscripts& parsed, char z) {
  const std::size_t arrow = text.find("->");
  const std::string_view lhs = text.substr(0, arrow);
  std::string s(1, z);
  for (char c : lhs) {
    s += c;
    if (c == ',') s += z;
  }
  s += "->";
  s += z;
  if (arrow != std::string_view::npos) {
    s += text.substr(arrow + 2);
  } else {
    bool ellipsis_written = false;
    for (int l : parsed.output) {
      const std::string& name = parsed.names[static_cast<std::size_t>(l)];
      if (name.rfind("...", 0) == 0) {
        if (!ellipsis_written) s += "...";
        ellipsis_written = true;
      } else {
        s += name;
      }
    }
  }
  return s;
}

}  // namespace

template <class T>
std::vector<Tensor<T>> multi_einsum(std::span<const EinsumTask<T>> tasks, const PlanOptions& options) {
  // Checked here as well, so a bad argument is refused even for an empty batch.
  trncore::validate(options, "trntensor::multi_einsum");
  detail::validate_plan_options(options, "trntensor::multi_einsum");
  std::vector<Tensor<T>> results(tasks.size());
  // Group by (subscripts, shapes), in order of first appearance.
  std::map<std::pair<std::string, std::vector<Shape>>, std::vector<std::size_t>> groups;
  std::vector<const std::vector<std::size_t>*> order;
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    std::vector<Shape> shapes;
    for (const auto& o : tasks[t].operands) shapes.push_back(o.shape());
    auto [it, fresh] = groups.try_emplace({tasks[t].subscripts, std::move(shapes)});
    it->second.push_back(t);
    if (fresh) order.push_back(&it->second);
  }
  for (const auto* members : order) {
    const EinsumTask<T>& first = tasks[members->front()];
    const char z = unused_letter(first.subscripts);
    if (members->size() == 1 || z == 0 || first.operands.empty()) {
      for (std::size_t t : *members) results[t] = einsum<T>(tasks[t].subscripts, tasks[t].operands, options);
      continue;
    }
    const auto g = static_cast<std::int64_t>(members->size());
    std::vector<Shape> shapes;
    for (const auto& o : first.operands) shapes.push_back(o.shape());
    const Subscripts parsed = parse_subscripts(first.subscripts, shapes);
    std::vector<Tensor<T>> stacked;
    for (std::size_t o = 0; o < shapes.size(); ++o) {
      Shape s{g};
      s.insert(s.end(), shapes[o].begin(), shapes[o].end());
      Tensor<T> st(std::move(s));
      const std::int64_t slab = st.size() / g;
      for (std::int64_t e = 0; e < g; ++e) {
        const Tensor<T> copy = Tensor<T>::copy_of(tasks[(*members)[static_cast<std::size_t>(e)]].operands[o]);
        if (slab > 0) std::memcpy(st.data() + e * slab, copy.data(), static_cast<std::size_t>(slab) * sizeof(T));
      }
      stacked.push_back(std::move(st));
    }
    std::vector<TensorView<const T>> views;
    for (const auto& st : stacked) views.push_back(st.view());
    const Tensor<T> out = einsum<T>(stacked_subscripts(first.subscripts, parsed, z), views, options);
    Shape each(out.shape().begin() + 1, out.shape().end());
    const std::int64_t slab = out.size() / g;
    for (std::int64_t e = 0; e < g; ++e) {
      std::vector<T> v(out.values().begin() + e * slab, out.values().begin() + (e + 1) * slab);
      results[(*members)[static_cast<std::size_t>(e)]] = Tensor<T>(each, std::move(v));
    }
  }
  return results;
}

template std::vector<Tensor<float>> multi_einsum<float>(std::span<const EinsumTask<float>>, const PlanOptions&);
template std::vector<Tensor<double>> multi_einsum<double>(std::span<const EinsumTask<double>>, const PlanOptions&);

}  // namespace trntensor
