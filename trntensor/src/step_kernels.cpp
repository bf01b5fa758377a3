// Step kernels: see step_kernels.hpp. Operands are used in place as GEMM matrices whenever their label groups
// are dense in memory (no copy); otherwise they are gathered into [batch][rows][cols] first.
#include "step_kernels.hpp"

#include <trnblas/batched.hpp>
#include <trnblas/gemm.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace trntensor::detail {
namespace {

// A label group of an operand seen as one axis: dense when each label's stride is the next one's stride
// times its extent. `free` when every extent is 1 (any stride will do).
struct Fused {
  bool ok = true;
  bool free = true;
  std::int64_t stride = 0;
};

template <class T>
Fused fuse(const Operand<T>& x, const std::vector<int>& group) {
  Fused f;
  std::int64_t expect = 0;
  for (std::size_t p = group.size(); p-- > 0;) {
    const int axis = x.axis_of(group[p]);
    const std::int64_t e = x.view.extent(axis), s = x.view.stride(axis);
    if (e == 1) continue;
    if (s == 0) f.ok = false;  // a broadcast axis cannot be a BLAS dimension
    if (f.free) {
      f.free = false;
      f.stride = s;
    } else if (s != expect) {
      f.ok = false;
    }
    expect = s * e;
  }
  return f;
}

template <class T>
struct MatrixArg {
  const T* data = nullptr;
  trnblas::Op op = trnblas::Op::no_trans;
  std::int64_t ld = 1;
  std::int64_t batch_stride = 0;
  std::vector<T> packed;
};

// x as a batch of rows×cols row-major matrices op(M): in place when possible, else gathered.
template <class T>
MatrixArg<T> as_matrix(const Operand<T>& x, const std::vector<int>& batch, const std::vector<int>& rows,
                       const std::vector<int>& cols, std::int64_t nb, std::int64_t nr, std::int64_t nc) {
  MatrixArg<T> m;
  const Fused fb = fuse(x, batch), fr = fuse(x, rows), fc = fuse(x, cols);
  if (fb.ok && fr.ok && fc.ok) {
    bool fits = true;
    if ((fc.free || fc.stride == 1) && (fr.free || fr.stride >= std::max<std::int64_t>(1, nc))) {
      m.op = trnblas::Op::no_trans;
      m.ld = fr.free ? std::max<std::int64_t>(1, nc) : fr.stride;
    } else if ((fr.free || fr.stride == 1) && (fc.free || fc.stride >= std::max<std::int64_t>(1, nr))) {
      m.op = trnblas::Op::trans;
      m.ld = fc.free ? std::max<std::int64_t>(1, nr) : fc.stride;
    } else {
      fits = false;
    }
    if (fits) {
      m.data = x.view.data();
      m.batch_stride = fb.free ? 0 : fb.stride;
      return m;
    }
  }
  std::vector<int> order = batch;
  order.insert(order.end(), rows.begin(), rows.end());
  order.insert(order.end(), cols.begin(), cols.end());
  m.packed.resize(static_cast<std::size_t>(nb * nr * nc));
  gather(x, order, m.packed.data());
  m.data = m.packed.data();
  m.op = trnblas::Op::no_trans;
  m.ld = std::max<std::int64_t>(1, nc);
  m.batch_stride = nr * nc;
  return m;
}

template <class T>
T element(const MatrixArg<T>& x, std::int64_t b, std::int64_t i, std::int64_t j) {
  return x.data[b * x.batch_stride + (x.op == trnblas::Op::no_trans ? i * x.ld + j : i + j * x.ld)];
}

template <class T>
constexpr double unit_roundoff() {
  return std::numeric_limits<T>::epsilon() / 2;
}

}  // namespace

double gamma(double n, double u) {
  const double nu = n * u;
  return nu < 1 ? nu / (1 - nu) : std::numeric_limits<double>::infinity();
}

double output_stage_bound(bool trivial, double u) { return trivial ? 0.0 : (1 + u) * (1 + u) * (1 + u) - 1; }

template <class T>
double sum_into(const Operand<T>& x, const std::vector<int>& out_labels, const std::vector<int>& summed,
                TensorView<T> out, T alpha, T beta) {
  const std::size_t ro = out_labels.size(), rs = summed.size();
  Shape oe(ro), os(ro), ox(ro), se(rs), ss(rs);
  std::int64_t n_out = 1, n_sum = 1;
  for (std::size_t d = 0; d < ro; ++d) {
    const int axis = x.axis_of(out_labels[d]);
    oe[d] = x.view.extent(axis);
    ox[d] = x.view.stride(axis);
    os[d] = out.stride(static_cast<int>(d));
    n_out *= oe[d];
  }
  for (std::size_t d = 0; d < rs; ++d) {
    const int axis = x.axis_of(summed[d]);
    se[d] = x.view.extent(axis);
    ss[d] = x.view.stride(axis);
    n_sum *= se[d];
  }
  const bool trivial = alpha == T(1) && beta == T(0);
  if (n_out > 0) {
    std::vector<std::int64_t> oi(ro, 0), si(rs, 0);
    std::int64_t xo = 0, yo = 0;
    for (std::int64_t e = 0; e < n_out; ++e) {
      T acc = 0;
      std::int64_t xs = 0;
      for (std::int64_t t = 0; t < n_sum; ++t) {
        acc += x.view.data()[xo + xs];
        for (std::size_t d = rs; d-- > 0;) {
          xs += ss[d];
          if (++si[d] < se[d]) break;
          xs -= ss[d] * se[d];
          si[d] = 0;
        }
      }
      T& y = out.data()[yo];
      y = trivial ? acc : (beta == T(0) ? alpha * acc : alpha * acc + beta * y);
      for (std::size_t d = ro; d-- > 0;) {
        xo += ox[d];
        yo += os[d];
        if (++oi[d] < oe[d]) break;
        xo -= ox[d] * oe[d];
        yo -= os[d] * oe[d];
        oi[d] = 0;
      }
    }
  }
  const double u = unit_roundoff<T>();
  const double sum_bound = n_sum > 1 ? gamma(static_cast<double>(n_sum - 1), u) : 0.0;
  return (1 + sum_bound) * (1 + output_stage_bound(trivial, u)) - 1;
}

template <class T>
Operand<T> run_contract(const PlanStep& s, const Operand<T>& a, const Operand<T>& b, const std::vector<int>& out_labels,
                        TensorView<T>* out, T alpha, T beta, const trncore::Options& options, StepOutcome& outcome) {
  const std::int64_t nb = s.batch_size, m = s.m_size, n = s.n_size, k = s.k_size;
  const double u = unit_roundoff<T>();
  // Where C goes: the caller's output when it is [batch][m][n] with unit n stride, else a new tensor.
  Operand<T> result;
  T* c = nullptr;
  std::int64_t ldc = std::max<std::int64_t>(1, n), sc = m * n;
  bool into_out = false;
  if (out != nullptr && nb * m * n > 0 && k > 0) {
    Operand<T> y;
    y.view = *out;
    y.labels = out_labels;
    const Fused fb = fuse(y, s.batch), fm = fuse(y, s.m), fn = fuse(y, s.n);
    if (fb.ok && fm.ok && fn.ok && (fn.free || fn.stride == 1) &&
        (fm.free || fm.stride >= std::max<std::int64_t>(1, n))) {
      into_out = true;
      c = out->data();
      ldc = fm.free ? std::max<std::int64_t>(1, n) : fm.stride;
      sc = fb.free ? 0 : fb.stride;
    }
  }
  if (!into_out) {
    Shape shape;
    for (int l : s.result_labels)
      shape.push_back(a.axis_of(l) < static_cast<int>(a.labels.size()) ? a.view.extent(a.axis_of(l))
                                                                       : b.view.extent(b.axis_of(l)));
    result.owner = std::make_shared<Tensor<T>>(std::move(shape));
    result.labels = s.result_labels;
    result.view = result.owner->view();
    c = result.owner->data();
    alpha = T(1);
    beta = T(0);
  }
  const bool trivial = alpha == T(1) && beta == T(0);
  if (nb * m * n == 0) return result;
  if (k == 0) {  // an empty sum: the result is zero (a new tensor, already zero-initialised)
    outcome.method = "empty sum";
    return result;
  }
  const MatrixArg<T> ma = as_matrix(a, s.batch, s.m, s.k, nb, m, k);
  const MatrixArg<T> mb = as_matrix(b, s.batch, s.k, s.n, nb, k, n);
  if (s.method == StepMethod::direct) {
    // k = 1: one product per element, so the only roundings are the product and the output stage.
    for (std::int64_t q = 0; q < nb; ++q)
      for (std::int64_t i = 0; i < m; ++i) {
        const T ai = element(ma, q, i, 0);
        T* row = c + q * sc + i * ldc;
        for (std::int64_t j = 0; j < n; ++j) {
          const T p = ai * element(mb, q, 0, j);
          row[j] = trivial ? p : (beta == T(0) ? alpha * p : alpha * p + beta * row[j]);
        }
      }
    outcome.bound = trivial ? u : (1 + u) * (1 + output_stage_bound(false, u)) - 1;
    outcome.method = "direct product loop";
    return result;
  }
  // Host without a target: one strided batched call when the host GEMM bound is sure to hold for every
  // entry (the hypotheses trnblas::gemm checks: finite operands, no product alpha·a·b or beta·c below T's
  // normal range — each nonzero operand is ≥ its smallest nonzero magnitude, so every such product is ≥ the
  // product of those floors). Otherwise one gemm per entry, whose reports name what failed.
  const auto floor_of = [](double x) { return std::min(1.0, x); };
  const auto host_batch_certifiable = [&] {
    const double normal_min = static_cast<double>(std::numeric_limits<T>::min());
    const ValueScan sa = scan_values(a.view), sb = scan_values(b.view);
    if (sa.nonfinite || sb.nonfinite) return false;
    if (sa.smallest < std::numeric_limits<double>::infinity() &&
        sb.smallest < std::numeric_limits<double>::infinity() &&
        floor_of(alpha == T(0) ? 1.0 : std::fabs(static_cast<double>(alpha))) * floor_of(sa.smallest) *
                floor_of(sb.smallest) <
            normal_min)
      return false;
    if (beta != T(0)) {
      const ValueScan sc = scan_values(TensorView<const T>(*out));
      if (sc.nonfinite) return false;
      if (sc.smallest < std::numeric_limits<double>::infinity() &&
          floor_of(std::fabs(static_cast<double>(beta))) * floor_of(sc.smallest) < normal_min)
        return false;
    }
    return true;
  };
  const bool one_call =
      options.backend == trncore::Backend::host && !options.target_forward_error && nb > 1 && host_batch_certifiable();
  if (one_call) {
    trnblas::gemm_strided_batched<T>(trnblas::Layout::row_major, ma.op, mb.op, m, n, k, alpha, ma.data, ma.ld,
                                     ma.batch_stride, mb.data, mb.ld, mb.batch_stride, beta, c, ldc, sc, nb, options);
    outcome.bound = gamma(static_cast<double>(k + 2), u);  // host GEMM bound, trnblas/batched.hpp
    outcome.method = "host strided batched gemm";
    // An inf/NaN from finite operands is an overflow: the componentwise bound no longer says anything.
    for (std::int64_t q = 0; q < nb && outcome.certified; ++q)
      for (std::int64_t i = 0; i < m && outcome.certified; ++i)
        for (std::int64_t j = 0; j < n; ++j)
          if (!std::isfinite(static_cast<double>(c[q * sc + i * ldc + j]))) {
            outcome.certified = false;
            outcome.reason = "the result overflows the format's range (inf or NaN from finite operands)";
            break;
          }
    return result;
  }
  for (std::int64_t q = 0; q < nb; ++q) {
    trncore::AccuracyReport r;
    trnblas::gemm<T>(trnblas::Layout::row_major, ma.op, mb.op, m, n, k, alpha, ma.data + q * ma.batch_stride, ma.ld,
                     mb.data + q * mb.batch_stride, mb.ld, beta, c + q * sc, ldc, options, r);
    outcome.bound = std::max(outcome.bound, r.a_priori_bound);
    // The step is certified when every entry's GEMM is; a GEMM that certifies but misses its share of the
    // target stays certified (the composed bound then misses the einsum's target, so met is false there).
    if (outcome.certified && !r.certified) {
      outcome.certified = false;
      outcome.reason = "GEMM" + (nb > 1 ? " of batch entry " + std::to_string(q) : std::string()) + ": " +
                       (r.uncertified_reason.empty() ? std::string("not certified") : r.uncertified_reason);
    }
    if (q == 0 && !r.trajectory.empty()) outcome.method = r.trajectory.back().description;
  }
  if (outcome.certified && !std::isfinite(outcome.bound)) {
    outcome.certified = false;
    outcome.reason = "the GEMM bound is not finite (k·u ≥ 1)";
  }
  if (nb > 1) outcome.method += " (x" + std::to_string(nb) + " batch entries)";
  return result;
}

template <class T>
ValueScan scan_values(TensorView<const T> v) {
  ValueScan s{false, std::numeric_limits<double>::infinity()};
  const int r = v.rank();
  if (v.size() == 0) return s;
  std::vector<std::int64_t> idx(static_cast<std::size_t>(r), 0);
  std::int64_t off = 0;
  for (std::int64_t e = 0; e < v.size(); ++e) {
    const double x = static_cast<double>(v.data()[off]);
    if (!std::isfinite(x))
      s.nonfinite = true;
    else if (x != 0)
      s.smallest = std::min(s.smallest, std::fabs(x));
    for (int d = r; d-- > 0;) {
      off += v.stride(d);
      if (++idx[static_cast<std::size_t>(d)] < v.extent(d)) break;
      off -= v.stride(d) * v.extent(d);
      idx[static_cast<std::size_t>(d)] = 0;
    }
  }
  return s;
}

#define TRNTENSOR_INSTANTIATE(T)                                                                                      \
  template double sum_into<T>(const Operand<T>&, const std::vector<int>&, const std::vector<int>&, TensorView<T>, T,  \
                              T);                                                                                     \
  template Operand<T> run_contract<T>(const PlanStep&, const Operand<T>&, const Operand<T>&, const std::vector<int>&, \
                                      TensorView<T>*, T, T, const trncore::Options&, StepOutcome&);                   \
  template ValueScan scan_values<T>(TensorView<const T>);
TRNTENSOR_INSTANTIATE(float)
TRNTENSOR_INSTANTIATE(double)
#undef TRNTENSOR_INSTANTIATE

}  // namespace trntensor::detail
