// ShardedTensor, the thread transport, and einsum over a sharded operand.
#include <trntensor/sharded.hpp>
#include <trntensor/subscripts.hpp>

#include <trncore/options.hpp>

#include <trncore/detail/checks.hpp>
#include <trncore/detail/parallel.hpp>
#include <trncore/error.hpp>

#include <algorithm>
#include <cstring>

namespace trntensor {

ThreadTransport::ThreadTransport(int threads) : threads_(threads) {
  trncore::detail::check_threads("trntensor::ThreadTransport", threads);
}

namespace {

template <class T>
void add_in_shard_order(std::span<const std::span<const T>> partials, std::span<T> out, int threads) {
  const auto n = static_cast<std::int64_t>(out.size());
  for (const auto& p : partials)
    if (static_cast<std::int64_t>(p.size()) != n)
      throw trncore::DimensionMismatch(
          "trntensor::ThreadTransport::reduce_sum",
          "a partial has " + std::to_string(p.size()) + " elements but the output " + std::to_string(n),
          "pass partials of the output's size");
  trncore::detail::for_aligned_ranges(n, 0, threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      T acc = partials.empty() ? T(0) : partials[0][static_cast<std::size_t>(i)];
      for (std::size_t s = 1; s < partials.size(); ++s) acc += partials[s][static_cast<std::size_t>(i)];
      out[static_cast<std::size_t>(i)] = acc;
    }
  });
}

// Copies `src` (dense, row-major) into the block of `dst` starting at `offset` along `axis`.
template <class T>
void place_block(const Tensor<T>& src, Tensor<T>& dst, int axis, std::int64_t offset) {
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= dst.extent(d);
  for (int d = axis + 1; d < dst.rank(); ++d) inner *= dst.extent(d);
  const std::int64_t rows = src.extent(axis), total = dst.extent(axis);
  for (std::int64_t o = 0; o < outer; ++o)
    if (rows * inner > 0)
      std::memcpy(dst.data() + (o * total + offset) * inner, src.data() + o * rows * inner,
                  static_cast<std::size_t>(rows * inner) * sizeof(T));
}

}  // namespace

void ThreadTransport::for_each_shard(std::int64_t shards, const std::function<void(std::int64_t)>& work) {
  auto task = [&work](std::int64_t s) { work(s); };
  trncore::detail::parallel_for(shards, threads_, task);
}
void ThreadTransport::reduce_sum(std::span<const std::span<const double>> partials, std::span<double> out) {
  add_in_shard_order(partials, out, threads_);
}
void ThreadTransport::reduce_sum(std::span<const std::span<const float>> partials, std::span<float> out) {
  add_in_shard_order(partials, out, threads_);
}

template <class T>
ShardedTensor<T>::ShardedTensor(TensorView<const T> full, int axis, int shards) : axis_(axis), shape_(full.shape()) {
  if (axis < 0 || axis >= full.rank() || shards < 1)
    throw trncore::InvalidArgument("trntensor::ShardedTensor",
                                   "axis " + std::to_string(axis) + " of a rank-" + std::to_string(full.rank()) +
                                       " tensor into " + std::to_string(shards) + " shards",
                                   "use 0 <= axis < rank and shards >= 1");
  const std::int64_t n = full.extent(axis);
  std::int64_t begin = 0;
  for (int s = 0; s < shards; ++s) {
    const std::int64_t len = n / shards + (s < n % shards ? 1 : 0);
    offsets_.push_back(begin);
    blocks_.push_back(Tensor<T>::copy_of(full.slice(axis, begin, begin + len)));
    begin += len;
  }
}

template <class T>
Tensor<T> ShardedTensor<T>::gather() const {
  Tensor<T> t(shape_);
  for (std::size_t s = 0; s < blocks_.size(); ++s) place_block(blocks_[s], t, axis_, offsets_[s]);
  return t;
}

template <class T>
Tensor<T> sharded_einsum(std::string_view subscripts, const ShardedTensor<T>& sharded, int position,
                         std::span<const TensorView<const T>> others, ShardTransport& transport,
                         const PlanOptions& options) {
  constexpr std::string_view kFunction = "trntensor::sharded_einsum";
  trncore::validate(options, kFunction);
  const int n_ops = static_cast<int>(others.size()) + 1;
  if (position < 0 || position >= n_ops)
    throw trncore::InvalidArgument(
        kFunction, "position " + std::to_string(position) + " for " + std::to_string(n_ops) + " operands",
        "give the sharded operand's index in the subscripts");
  std::vector<Shape> shapes;
  for (int o = 0, k = 0; o < n_ops; ++o)
    shapes.push_back(o == position ? sharded.shape() : others[static_cast<std::size_t>(k++)].shape());
  const Subscripts subs = parse_subscripts(subscripts, shapes);
  const int label = subs.inputs[static_cast<std::size_t>(position)][static_cast<std::size_t>(sharded.axis())];
  const auto out_at = std::find(subs.output.begin(), subs.output.end(), label);
  const bool output_parallel = out_at != subs.output.end();
  // Each shard's operands: its block, and every other axis carrying the split label (in the others, or a
  // diagonal in the sharded operand itself) sliced to the shard's range; extent-1 broadcast axes stay whole.
  const auto shard_operands = [&](std::int64_t s) {
    const auto& block = sharded.shard(static_cast<int>(s));
    const std::int64_t begin = sharded.offset(static_cast<int>(s)), end = begin + block.extent(sharded.axis());
    std::vector<TensorView<const T>> ops;
    for (int o = 0, k = 0; o < n_ops; ++o) {
      TensorView<const T> v = o == position ? block.view() : others[static_cast<std::size_t>(k++)];
      const auto& labels = subs.inputs[static_cast<std::size_t>(o)];
      for (std::size_t d = 0; d < labels.size(); ++d) {
        const bool split_axis = o == position && static_cast<int>(d) == sharded.axis();
        if (labels[d] == label && !split_axis && v.extent(static_cast<int>(d)) != 1)
          v = v.slice(static_cast<int>(d), begin, end);
      }
      ops.push_back(v);
    }
    return ops;
  };
  PlanOptions inner = options;
  inner.threads = 1;
  Shape out_shape;
  for (int l : subs.output) out_shape.push_back(subs.extents[static_cast<std::size_t>(l)]);
  const int out_axis = output_parallel ? static_cast<int>(out_at - subs.output.begin()) : -1;
  // Output-parallel: every shard's block is sized up front, so a transport that runs shards elsewhere can
  // share them into place (share_results).
  std::vector<Tensor<T>> results(static_cast<std::size_t>(sharded.shards()));
  if (output_parallel) {
    for (int s = 0; s < sharded.shards(); ++s) {
      Shape block = out_shape;
      block[static_cast<std::size_t>(out_axis)] = sharded.shard(s).extent(sharded.axis());
      results[static_cast<std::size_t>(s)] = Tensor<T>(block);
    }
  }
  transport.for_each_shard(sharded.shards(), [&](std::int64_t s) {
    const auto ops = shard_operands(s);
    results[static_cast<std::size_t>(s)] = einsum<T>(subscripts, ops, inner);
  });
  Tensor<T> out(out_shape);
  if (output_parallel) {
    std::vector<std::span<T>> blocks;
    for (auto& r : results) blocks.emplace_back(r.values());
    transport.share_results(std::span<const std::span<T>>(blocks));
    for (int s = 0; s < sharded.shards(); ++s)
      place_block(results[static_cast<std::size_t>(s)], out, out_axis, sharded.offset(s));
    return out;
  }
  std::vector<std::span<const T>> partials;
  for (const auto& r : results) partials.emplace_back(r.values());
  transport.reduce_sum(partials, std::span<T>(out.values()));
  return out;
}

template class ShardedTensor<float>;
template class ShardedTensor<double>;
template Tensor<float> sharded_einsum<float>(std::string_view, const ShardedTensor<float>&, int,
                                             std::span<const TensorView<const float>>, ShardTransport&,
                                             const PlanOptions&);
template Tensor<double> sharded_einsum<double>(std::string_view, const ShardedTensor<double>&, int,
                                               std::span<const TensorView<const double>>, ShardTransport&,
                                               const PlanOptions&);

}  // namespace trntensor
