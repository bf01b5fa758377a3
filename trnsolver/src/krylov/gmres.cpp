// Restarted, right-preconditioned GMRES(m) with Givens rotations (Saad, Alg. 6.9 and 9.5), and Arnoldi.
#include "common.hpp"

#include <trncore/error.hpp>

namespace trnsolver {

namespace {

using namespace detail;

// w := w − V h with h = the coefficients of w on the `cols` orthonormal columns of V (n × cols,
// column-major); h receives them. MGS subtracts each projection before computing the next; CGS2 projects
// on all columns at once, twice.
template <class T>
void orthogonalize(std::span<const T> v, std::size_t n, std::size_t cols, std::span<T> w, T* h,
                   Orthogonalization orthogonalization, const Sums& sums) {
  auto column = [&](std::size_t i) { return v.subspan(i * n, n); };
  if (orthogonalization == Orthogonalization::mgs) {
    for (std::size_t i = 0; i < cols; ++i) {
      h[i] = dot<T>(column(i), w, sums);
      axpy<T>(-h[i], column(i), w);
    }
    return;
  }
  std::vector<T> c(cols);
  for (std::size_t i = 0; i < cols; ++i) h[i] = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < cols; ++i) c[i] = dot<T>(column(i), w, sums);
    for (std::size_t i = 0; i < cols; ++i) {
      axpy<T>(-c[i], column(i), w);
      h[i] += c[i];
    }
  }
}

template <class T>
KrylovResult run_gmres(const LinearOperator<T>& a, std::span<const T> b, std::span<T> x, const KrylovOptions& options,
                       const LinearOperator<T>& m) {
  constexpr const char* fn = "trnsolver::gmres";
  check_solver_call<T>(fn, a, b, x, options, m);
  const auto n = static_cast<std::size_t>(a.size());
  const auto steps = static_cast<std::size_t>(std::min<std::int64_t>(options.restart, global_size(a, options)));
  const Sums sums(options);
  std::vector<T> v(n * (steps + 1)), h((steps + 1) * steps), cs(steps), sn(steps), g(steps + 1), y(steps), z(n), u(n);
  const std::size_t ldh = steps + 1;
  auto column = [&](std::size_t j) { return std::span<T>(v).subspan(j * n, n); };
  auto hij = [&](std::size_t i, std::size_t j) -> T& { return h[i + j * ldh]; };

  return drive<T>(fn, a, b, x, options, [&](std::span<T> r, double rn, Monitor& mon) {
    auto at = [&] { return " at iteration " + std::to_string(mon.result.iterations); };
    const T scale = T(1) / static_cast<T>(rn);
    for (std::size_t i = 0; i < n; ++i) v[i] = r[i] * scale;
    std::fill(g.begin(), g.end(), T(0));
    g[0] = static_cast<T>(rn);
    std::size_t k = 0;  // columns of the triangular factor to use
    Outcome out = Outcome::end_of_cycle();
    for (std::size_t j = 0; j < steps; ++j) {
      if (mon.exhausted()) {
        out = limit_outcome(mon);
        break;
      }
      std::span<T> w = column(j + 1);
      if (m) {
        m.callback()(column(j), z);
        a.callback()(z, w);
      } else {
        a.callback()(column(j), w);
      }
      orthogonalize<T>(v, n, j + 1, w, &hij(0, j), options.orthogonalization, sums);
      const T hnext = static_cast<T>(norm2<T>(w, sums));
      hij(j + 1, j) = hnext;
      bool finite = std::isfinite(hnext);
      for (std::size_t i = 0; i <= j; ++i) finite = finite && std::isfinite(hij(i, j));
      if (!finite) {
        out = Outcome::stopped(KrylovReason::non_finite, "non_finite: the Arnoldi vector A M^-1 v has NaN/inf" + at());
        break;
      }
      for (std::size_t i = 0; i < j; ++i) {  // previous rotations
        const T t = cs[i] * hij(i, j) + sn[i] * hij(i + 1, j);
        hij(i + 1, j) = -sn[i] * hij(i, j) + cs[i] * hij(i + 1, j);
        hij(i, j) = t;
      }
      const T rr = std::hypot(hij(j, j), hij(j + 1, j));
      ++mon.result.iterations;
      if (rr == 0) {
        mon.record(std::fabs(static_cast<double>(g[j])));
        out = Outcome::stopped(KrylovReason::breakdown, "breakdown: the Hessenberg column is zero" + at() +
                                                            " (A M^-1 is singular on the Krylov space)");
        break;
      }
      cs[j] = hij(j, j) / rr;
      sn[j] = hij(j + 1, j) / rr;
      hij(j, j) = rr;
      hij(j + 1, j) = 0;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      k = j + 1;
      const Status st = mon.record(std::fabs(static_cast<double>(g[j + 1])));
      if (st == Status::met || hnext == 0) {  // hnext = 0: the Krylov space holds the solution
        out = Outcome::estimate_met();
        break;
      }
      // A plateau inside a cycle can end in a sudden drop (the cyclic shift with m = n), so stagnation is
      // only judged at the end of a cycle.
      if (st == Status::non_finite || st == Status::stopped || (st == Status::stagnated && j + 1 == steps)) {
        out = status_outcome(st, mon);
        break;
      }
      const T inv = T(1) / hnext;
      for (T& e : w) e *= inv;
    }
    // x += M^-1 V_k y with R_k y = g_k (back substitution).
    if (k > 0) {
      for (std::size_t i = k; i-- > 0;) {
        T s = g[i];
        for (std::size_t l = i + 1; l < k; ++l) s -= hij(i, l) * y[l];
        y[i] = s / hij(i, i);
      }
      std::fill(u.begin(), u.end(), T(0));
      for (std::size_t l = 0; l < k; ++l) axpy<T>(y[l], column(l), u);
      if (m) {
        m.callback()(u, z);
        axpy<T>(T(1), z, x);
      } else {
        axpy<T>(T(1), u, x);
      }
    }
    return out;
  });
}

template <class T>
ArnoldiResult<T> run_arnoldi(const LinearOperator<T>& a, std::span<const T> start, std::int64_t steps,
                             Orthogonalization orthogonalization) {
  constexpr const char* fn = "trnsolver::arnoldi";
  if (!a)
    throw trncore::InvalidArgument(fn, "the operator A is empty", "pass matrix_operator(A) or LinearOperator(n, f)");
  if (static_cast<std::int64_t>(start.size()) != a.size())
    throw trncore::DimensionMismatch(fn,
                                     "A is " + std::to_string(a.size()) + "x" + std::to_string(a.size()) +
                                         " but start has " + std::to_string(start.size()) + " elements",
                                     "pass a start vector of n elements");
  if (steps < 0)
    throw trncore::InvalidArgument(fn, "steps = " + std::to_string(steps) + " is negative", "use steps >= 0");
  if (to_string(orthogonalization) == "invalid")
    throw trncore::InvalidArgument(
        fn, "orthogonalization = " + std::to_string(static_cast<int>(orthogonalization)) + " is not a valid value",
        "use Orthogonalization::mgs or Orthogonalization::cgs2");
  check_finite<T>(fn, "start", start);
  const double s0 = norm2<T>(start, Sums(1));
  if (s0 == 0) throw trncore::InvalidArgument(fn, "the start vector is zero", "pass a nonzero start vector");
  ArnoldiResult<T> res;
  const auto n = static_cast<std::size_t>(a.size());
  const auto k = static_cast<std::size_t>(steps);
  res.n = a.size();
  res.steps = steps;
  res.basis.assign(n * (k + 1), T(0));
  res.hessenberg.assign((k + 1) * k, T(0));
  for (std::size_t i = 0; i < n; ++i) res.basis[i] = static_cast<T>(start[i] / s0);
  for (std::size_t j = 0; j < k; ++j) {
    std::span<T> w = std::span<T>(res.basis).subspan((j + 1) * n, n);
    a.callback()(std::span<const T>(res.basis).subspan(j * n, n), w);
    T* hcol = &res.hessenberg[j * (k + 1)];
    orthogonalize<T>(res.basis, n, j + 1, w, hcol, orthogonalization, Sums(1));
    const T hnext = static_cast<T>(norm2<T>(w, Sums(1)));
    hcol[j + 1] = hnext;
    if (hnext == 0) break;  // invariant subspace: the remaining columns stay zero
    for (T& e : w) e /= hnext;
  }
  return res;
}

}  // namespace

KrylovResult gmres(const LinearOperator<double>& a, std::span<const double> b, std::span<double> x,
                   const KrylovOptions& options, const LinearOperator<double>& preconditioner) {
  return run_gmres<double>(a, b, x, options, preconditioner);
}
KrylovResult gmres(const LinearOperator<float>& a, std::span<const float> b, std::span<float> x,
                   const KrylovOptions& options, const LinearOperator<float>& preconditioner) {
  return run_gmres<float>(a, b, x, options, preconditioner);
}
KrylovResult gmres(trncore::MatrixView<const double> a, std::span<const double> b, std::span<double> x,
                   const KrylovOptions& options, const LinearOperator<double>& preconditioner) {
  return with_matrix<double>(
      "trnsolver::gmres", a, [&](const auto& op) { return run_gmres<double>(op, b, x, options, preconditioner); },
      options);
}
KrylovResult gmres(trncore::MatrixView<const float> a, std::span<const float> b, std::span<float> x,
                   const KrylovOptions& options, const LinearOperator<float>& preconditioner) {
  return with_matrix<float>(
      "trnsolver::gmres", a, [&](const auto& op) { return run_gmres<float>(op, b, x, options, preconditioner); },
      options);
}

ArnoldiResult<double> arnoldi(const LinearOperator<double>& a, std::span<const double> start, std::int64_t steps,
                              Orthogonalization orthogonalization) {
  return run_arnoldi<double>(a, start, steps, orthogonalization);
}
ArnoldiResult<float> arnoldi(const LinearOperator<float>& a, std::span<const float> start, std::int64_t steps,
                             Orthogonalization orthogonalization) {
  return run_arnoldi<float>(a, start, steps, orthogonalization);
}

}  // namespace trnsolver
