// DistTensor, redistribution by all-to-all, and einsum over distributed operands with its communication plan.
#include <trntensor/mpi/dist_tensor.hpp>

#include <trntensor/einsum.hpp>
#include <trntensor/subscripts.hpp>

#include <trncore/error.hpp>

#include <algorithm>
#include <numeric>
#include <sstream>

namespace trntensor::mpi {

using trncore::mpi::CollectiveCheck;
using trncore::mpi::Communicator;
using trncore::mpi::ErrorKind;

Range even_range(std::int64_t n, int ranks, int rank) noexcept {
  const auto p = static_cast<std::int64_t>(std::max(ranks, 1)), r = static_cast<std::int64_t>(rank);
  return {r * (n / p) + std::min(r, n % p), n / p + (r < n % p ? 1 : 0)};
}

namespace {

std::int64_t product(const Shape& s) {
  return std::accumulate(s.begin(), s.end(), std::int64_t{1}, std::multiplies<>());
}

// dst = src elementwise (same shape, any strides).
template <class T>
void copy_into(TensorView<T> dst, TensorView<const T> src) {
  const int r = src.rank();
  if (src.size() == 0) return;
  std::vector<std::int64_t> idx(static_cast<std::size_t>(r), 0);
  for (std::int64_t e = 0, n = src.size(); e < n; ++e) {
    dst(idx) = src(idx);
    for (int d = r - 1; d >= 0; --d) {
      if (++idx[static_cast<std::size_t>(d)] < src.extent(d)) break;
      idx[static_cast<std::size_t>(d)] = 0;
    }
  }
}

// The block of `shape` owned under a split along `axis` with range `r` (the whole shape for axis −1).
Shape block_shape(Shape shape, int axis, Range r) {
  if (axis >= 0) shape[static_cast<std::size_t>(axis)] = r.count;
  return shape;
}

std::int64_t overlap(Range a, Range b) {
  return std::max<std::int64_t>(0, std::min(a.begin + a.count, b.begin + b.count) - std::max(a.begin, b.begin));
}

// x's block sliced along `axis` to [r.begin, r.end) (global indices; x's own split axis is already local).
template <class T>
TensorView<const T> slice_global(const DistTensor<T>& x, int axis, Range r) {
  TensorView<const T> v = x.local().view();
  if (axis == x.axis()) {
    const Range mine = x.range();
    const std::int64_t b = std::max(r.begin, mine.begin), e = std::min(r.begin + r.count, mine.begin + mine.count);
    return v.slice(axis, b - mine.begin, std::max(b, e) - mine.begin);
  }
  return v.slice(axis, r.begin, r.begin + r.count);
}

// x split along `axis` with `target` ranges (one per rank); returns the new block and the bytes that crossed.
template <class T>
Tensor<T> move_blocks(const DistTensor<T>& x, int axis, const std::vector<Range>& target, std::int64_t& bytes) {
  const Communicator& comm = x.comm();
  const int p = comm.size(), me = comm.rank();
  const Range mine_new = target[static_cast<std::size_t>(me)];
  Tensor<T> out(block_shape(x.shape(), axis, mine_new));
  bytes = 0;
  if (x.axis() == -1) {  // replicated → split: local slicing
    copy_into<T>(out.view(), x.local().view().slice(axis, mine_new.begin, mine_new.begin + mine_new.count));
    return out;
  }
  // What rank s sends rank d: s's old block ∩ d's new range along `axis`.
  const std::int64_t other = product(x.shape()) / std::max<std::int64_t>(1, x.shape()[static_cast<std::size_t>(axis)]) /
                             std::max<std::int64_t>(1, x.shape()[static_cast<std::size_t>(x.axis())]);
  const auto box = [&](int s, int d) {
    const Range so = x.ranges()[static_cast<std::size_t>(s)], dn = target[static_cast<std::size_t>(d)];
    if (axis == x.axis())
      return overlap(so, dn) * product(x.shape()) /
             std::max<std::int64_t>(1, x.shape()[static_cast<std::size_t>(axis)]);
    return so.count * dn.count * other;
  };
  std::vector<T> send;
  std::vector<std::int64_t> counts(static_cast<std::size_t>(p));
  for (int d = 0; d < p; ++d) {
    const Tensor<T> part = Tensor<T>::copy_of(slice_global(x, axis, target[static_cast<std::size_t>(d)]));
    counts[static_cast<std::size_t>(d)] = part.size();
    send.insert(send.end(), part.values().begin(), part.values().end());
  }
  for (int s = 0; s < p; ++s)
    for (int d = 0; d < p; ++d)
      if (s != d) bytes += box(s, d) * static_cast<std::int64_t>(sizeof(T));
  const std::vector<T> recv = comm.alltoallv(std::span<const T>(send), std::span<const std::int64_t>(counts));
  std::int64_t at = 0;
  for (int s = 0; s < p; ++s) {
    const Range so = x.ranges()[static_cast<std::size_t>(s)];
    Shape sh = out.shape();
    TensorView<T> dst = out.view();
    if (axis == x.axis()) {
      const std::int64_t b = std::max(so.begin, mine_new.begin);
      const std::int64_t n = overlap(so, mine_new);
      sh[static_cast<std::size_t>(axis)] = n;
      dst = dst.slice(axis, b - mine_new.begin, b - mine_new.begin + n);
    } else {
      sh[static_cast<std::size_t>(x.axis())] = so.count;
      dst = dst.slice(x.axis(), so.begin, so.begin + so.count);
    }
    const std::int64_t n = product(sh);
    copy_into<T>(dst, TensorView<const T>(recv.data() + at, sh));
    at += n;
  }
  return out;
}

}  // namespace

template <class T>
DistTensor<T>::DistTensor(const Communicator& comm, Shape shape, int axis, Range mine, Tensor<T> local)
    : comm_(&comm), shape_(std::move(shape)), axis_(axis), local_(std::move(local)) {
  constexpr std::string_view kFn = "trntensor::mpi::DistTensor";
  {
    CollectiveCheck check(comm, kFn);
    check.same("rank (number of axes)", static_cast<std::int64_t>(shape_.size()));
    check.same("split axis", axis_);
    for (std::size_t d = 0; d < shape_.size(); ++d) check.same("extent " + std::to_string(d), shape_[d]);
    check.require(axis_ >= -1 && axis_ < static_cast<int>(shape_.size()), ErrorKind::invalid_argument,
                  "split axis " + std::to_string(axis_) + " of a rank-" + std::to_string(shape_.size()) + " tensor",
                  "use -1 (replicated) or 0 <= axis < rank");
    const Shape want =
        axis_ >= 0 && axis_ < static_cast<int>(shape_.size()) ? block_shape(shape_, axis_, mine) : shape_;
    check.require(local_.shape() == want, ErrorKind::dimension_mismatch,
                  "the local block has shape " + detail::shape_string(local_.shape()) + " but the range needs " +
                      detail::shape_string(want),
                  "pass the block of the rank's range, row-major");
    check.finish();
  }
  if (axis_ >= 0)
    ranges_ = trncore::mpi::gather_ranges(comm, kFn, "the split axis", shape_[static_cast<std::size_t>(axis_)], mine);
}

template <class T>
DistTensor<T> DistTensor<T>::from_function(const Communicator& comm, Shape shape, int axis,
                                           const std::function<T(std::span<const std::int64_t>)>& f) {
  const bool split = axis >= 0 && axis < static_cast<int>(shape.size());
  const Range mine = split ? even_range(shape[static_cast<std::size_t>(axis)], comm.size(), comm.rank())
                           : Range{0, shape.empty() ? 1 : shape[0]};
  Tensor<T> local(split ? block_shape(shape, axis, mine) : shape);
  std::vector<std::int64_t> idx(shape.size(), 0), global(shape.size(), 0);
  for (std::int64_t e = 0, n = local.size(); e < n; ++e) {
    global = idx;
    if (split) global[static_cast<std::size_t>(axis)] += mine.begin;
    local.data()[e] = f(global);
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[static_cast<std::size_t>(d)] < local.extent(d)) break;
      idx[static_cast<std::size_t>(d)] = 0;
    }
  }
  return DistTensor(comm, std::move(shape), axis, mine, std::move(local));
}

template <class T>
Range DistTensor<T>::range() const {
  if (axis_ >= 0) return ranges_[static_cast<std::size_t>(comm_->rank())];
  return {0, shape_.empty() ? 1 : shape_[0]};
}

template <class T>
Tensor<T> DistTensor<T>::gather_all() const {
  if (axis_ < 0) return local_;
  return redistribute(*this, -1).local();
}

template <class T>
DistTensor<T> redistribute(const DistTensor<T>& x, int axis, std::int64_t* bytes) {
  const Communicator& comm = x.comm();
  const int rank = static_cast<int>(x.shape().size());
  if (axis < -1 || axis >= rank)
    throw trncore::InvalidArgument("trntensor::mpi::redistribute",
                                   "axis " + std::to_string(axis) + " of a rank-" + std::to_string(rank) + " tensor",
                                   "use -1 (replicated) or 0 <= axis < rank");
  std::int64_t moved = 0;
  if (axis == -1) {  // allgather of the blocks, then placed along the old axis
    if (x.axis() == -1) {
      if (bytes != nullptr) *bytes = 0;
      return x;
    }
    const std::vector<T> all = comm.allgatherv(std::span<const T>(x.local().values()));
    Tensor<T> whole(x.shape());
    std::int64_t at = 0;
    for (int s = 0; s < comm.size(); ++s) {
      const Range r = x.ranges()[static_cast<std::size_t>(s)];
      const Shape sh = block_shape(x.shape(), x.axis(), r);
      copy_into<T>(whole.view().slice(x.axis(), r.begin, r.begin + r.count), TensorView<const T>(all.data() + at, sh));
      at += product(sh);
      moved += product(sh) * (comm.size() - 1) * static_cast<std::int64_t>(sizeof(T));
    }
    if (bytes != nullptr) *bytes = moved;
    return DistTensor<T>(comm, x.shape(), -1, Range{0, x.shape().empty() ? 1 : x.shape()[0]}, std::move(whole));
  }
  std::vector<Range> target;
  for (int r = 0; r < comm.size(); ++r)
    target.push_back(even_range(x.shape()[static_cast<std::size_t>(axis)], comm.size(), r));
  Tensor<T> block = move_blocks(x, axis, target, moved);
  if (bytes != nullptr) *bytes = moved;
  return DistTensor<T>(comm, x.shape(), axis, target[static_cast<std::size_t>(comm.rank())], std::move(block));
}

std::int64_t DistEinsumPlan::total_bytes() const {
  std::int64_t t = 0;
  for (const auto& s : steps) t += s.bytes;
  return t;
}

std::string DistEinsumPlan::to_string() const {
  std::ostringstream o;
  o << "distributed einsum " << subscripts << " on " << ranks << " ranks, split over "
    << (split_label.empty() ? std::string("nothing (replicated)") : "label " + split_label) << ", "
    << (output_parallel ? "output-parallel" : "reduce-parallel") << "\n";
  for (const auto& s : steps) o << "  comm: " << s.what << ": " << s.bytes << " bytes\n";
  o << "  total communication: " << total_bytes() << " bytes\n  local plan (this rank):\n" << local_plan;
  return o.str();
}

template <class T>
DistTensor<T> einsum(std::string_view subscripts, std::span<const DistTensor<T>* const> operands,
                     const PlanOptions& options, DistEinsumPlan* plan) {
  constexpr std::string_view kFn = "trntensor::mpi::einsum";
  if (operands.empty() || std::any_of(operands.begin(), operands.end(), [](auto* o) { return o == nullptr; }))
    throw trncore::InvalidArgument(kFn, "no operands or a null operand", "pass one DistTensor per input term");
  const Communicator& comm = operands[0]->comm();
  const int p = comm.size(), me = comm.rank();
  Subscripts subs;
  {
    CollectiveCheck check(comm, kFn);
    check.capture([&] {
      trncore::validate(options, kFn);
      for (auto* o : operands)
        if (o->comm().size() != p)
          throw trncore::InvalidArgument(kFn, "operands on communicators of different sizes",
                                         "distribute every operand over the same ranks");
      std::vector<Shape> shapes;
      for (auto* o : operands) shapes.push_back(o->shape());
      subs = parse_subscripts(subscripts, shapes);
    });
    check.finish();
  }
  DistEinsumPlan dp;
  dp.subscripts = subs.to_string();
  dp.ranks = p;
  // The split label and its ranges: the first split operand's.
  int label = -1;
  std::vector<Range> ranges;
  for (std::size_t o = 0; o < operands.size() && label < 0; ++o)
    if (operands[o]->axis() >= 0) {
      label = subs.inputs[o][static_cast<std::size_t>(operands[o]->axis())];
      ranges = operands[o]->ranges();
    }
  std::vector<DistTensor<T>> moved;  // operands that had to be moved, kept alive here
  moved.reserve(operands.size());
  std::vector<TensorView<const T>> local;
  for (std::size_t o = 0; o < operands.size(); ++o) {
    const DistTensor<T>* x = operands[o];
    const auto& labels = subs.inputs[o];
    const auto has = std::find(labels.begin(), labels.end(), label);
    const int want_axis = has == labels.end() ? -1 : static_cast<int>(has - labels.begin());
    if (x->axis() >= 0 &&
        (want_axis < 0 || labels[static_cast<std::size_t>(x->axis())] != label || x->ranges() != ranges)) {
      std::int64_t bytes = 0;
      if (want_axis < 0) {
        moved.push_back(redistribute(*x, -1, &bytes));
        dp.steps.push_back({"allgather operand " + std::to_string(o) + " (it lacks label " +
                                subs.names[static_cast<std::size_t>(label)] + ")",
                            bytes});
      } else {
        Tensor<T> block = move_blocks(*x, want_axis, ranges, bytes);
        moved.emplace_back(comm, x->shape(), want_axis, ranges[static_cast<std::size_t>(me)], std::move(block));
        dp.steps.push_back({"redistribute operand " + std::to_string(o) + " from label " +
                                subs.names[static_cast<std::size_t>(labels[static_cast<std::size_t>(x->axis())])] +
                                " to label " + subs.names[static_cast<std::size_t>(label)] + " (all-to-all)",
                            bytes});
      }
      x = &moved.back();
    }
    // Every axis carrying the split label is restricted to this rank's range (the split axis already is).
    TensorView<const T> v = x->local().view();
    if (label >= 0)
      for (std::size_t d = 0; d < labels.size(); ++d)
        if (labels[d] == label && static_cast<int>(d) != x->axis() && v.extent(static_cast<int>(d)) != 1) {
          const Range r = ranges[static_cast<std::size_t>(me)];
          v = v.slice(static_cast<int>(d), r.begin, r.begin + r.count);
        }
    local.push_back(v);
  }
  const auto out_at = std::find(subs.output.begin(), subs.output.end(), label);
  dp.output_parallel = label < 0 || out_at != subs.output.end();
  dp.split_label = label < 0 ? std::string() : subs.names[static_cast<std::size_t>(label)];
  std::vector<Shape> local_shapes;
  for (const auto& v : local) local_shapes.push_back(v.shape());
  Tensor<T> part;
  {
    CollectiveCheck check(comm, kFn);
    check.capture([&] {
      dp.local_plan = ContractionPlan(subscripts, local_shapes, options).to_string();
      part = trntensor::einsum<T>(subscripts, std::span<const TensorView<const T>>(local), options);
    });
    check.finish();
  }
  Shape out_shape;
  for (int l : subs.output) out_shape.push_back(subs.extents[static_cast<std::size_t>(l)]);
  DistTensor<T> result = [&] {
    if (label < 0)
      return DistTensor<T>(comm, out_shape, -1, Range{0, out_shape.empty() ? 1 : out_shape[0]}, std::move(part));
    if (dp.output_parallel) {
      const int axis = static_cast<int>(out_at - subs.output.begin());
      return DistTensor<T>(comm, out_shape, axis, ranges[static_cast<std::size_t>(me)], std::move(part));
    }
    // Reduce-parallel: the partials added in ascending order of the ranges' begin (non-empty ranges only).
    std::vector<int> order(static_cast<std::size_t>(p));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return ranges[static_cast<std::size_t>(a)].begin < ranges[static_cast<std::size_t>(b)].begin;
    });
    std::vector<std::int64_t> blocks;
    for (int k = 0; k < p; ++k)
      if (order[static_cast<std::size_t>(k)] == me && ranges[static_cast<std::size_t>(me)].count > 0)
        blocks.push_back(k);
    const std::int64_t len = product(out_shape);
    const std::span<const T> mine = blocks.empty() ? std::span<const T>() : std::span<const T>(part.values());
    std::vector<T> sum = trncore::mpi::ordered_sum<T>(comm, blocks, mine, len);
    std::int64_t contributors = 0;
    for (const Range& r : ranges) contributors += r.count > 0 ? 1 : 0;
    dp.steps.push_back({"ordered_sum of the partial outputs (every contributing rank's partial to every rank)",
                        contributors * (p - 1) * len * static_cast<std::int64_t>(sizeof(T))});
    return DistTensor<T>(comm, out_shape, -1, Range{0, out_shape.empty() ? 1 : out_shape[0]},
                         Tensor<T>(out_shape, std::move(sum)));
  }();
  if (plan != nullptr) *plan = std::move(dp);
  return result;
}

#define TRNTENSOR_MPI_INSTANTIATE(T)                                                                            \
  template class DistTensor<T>;                                                                                 \
  template DistTensor<T> redistribute<T>(const DistTensor<T>&, int, std::int64_t*);                             \
  template DistTensor<T> einsum<T>(std::string_view, std::span<const DistTensor<T>* const>, const PlanOptions&, \
                                   DistEinsumPlan*);
TRNTENSOR_MPI_INSTANTIATE(float)
TRNTENSOR_MPI_INSTANTIATE(double)
#undef TRNTENSOR_MPI_INSTANTIATE

}  // namespace trntensor::mpi
