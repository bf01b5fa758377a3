// trnsparse's iterative solvers: the sparse operator (spmv) and Jacobi preconditioner, handed to
// trnsolver's Krylov stack.
#include <trnsparse/iterative.hpp>
#include <trnsparse/ops.hpp>

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <cmath>
#include <string>

namespace trnsparse {
namespace {

std::string shape(std::int64_t rows, std::int64_t cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

// What every entry point checks of the matrix and the options before trnsolver checks the rest.
template <class M>
void check_operator(const M& a, const trncore::Options& options, const char* fn) {
  trncore::validate(options, fn);
  if (options.backend != trncore::Backend::host)
    throw trncore::NotSupported(fn,
                                "options.backend = " + std::string(trncore::to_string(options.backend)) +
                                    ": the iterative solvers multiply with host spmv",
                                "use Backend::host (bsr_spmm runs BSR products on the modelled TensorEngine)");
  validate(a, fn);
  if (a.rows != a.cols)
    throw trncore::DimensionMismatch(fn, "A is " + shape(a.rows, a.cols) + ", not square",
                                     "pass the n x n matrix of the system A x = b");
}

// The operator of `a` without checks (callers checked); products on options.threads threads.
template <class M, class T = typename decltype(M::values)::value_type>
trnsolver::LinearOperator<T> make_operator(const M& a, const trncore::Options& options) {
  const trncore::Options product = trncore::Options{}.with_threads(options.threads);
  return trnsolver::LinearOperator<T>(a.rows, [&a, product](std::span<const T> x, std::span<T> y) {
    spmv<T>(trnblas::Op::no_trans, T(1), a, x, T(0), y, product);
  });
}

template <class M, class T = typename decltype(M::values)::value_type>
trnsolver::LinearOperator<T> make_jacobi(const M& a, const char* fn) {
  validate(a, fn);
  if (a.rows != a.cols)
    throw trncore::DimensionMismatch(fn, "A is " + shape(a.rows, a.cols) + ", not square",
                                     "pass the n x n matrix whose diagonal preconditions A x = b");
  const std::vector<T> d = diagonal(a);
  std::vector<T> inv(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] == T(0) || !std::isfinite(static_cast<double>(d[i])))
      throw trncore::InvalidArgument(
          fn, "diagonal entry " + std::to_string(i) + " is " + trncore::detail::sci(static_cast<double>(d[i])),
          "Jacobi needs a finite nonzero diagonal; use no preconditioner");
    inv[i] = T(1) / d[i];
  }
  const auto n = static_cast<std::int64_t>(inv.size());  // before inv is moved into the callback
  return trnsolver::LinearOperator<T>(n, [inv = std::move(inv)](std::span<const T> r, std::span<T> z) {
    for (std::size_t i = 0; i < r.size(); ++i) z[i] = inv[i] * r[i];
  });
}

}  // namespace

template <class T, class I>
trnsolver::LinearOperator<T> matrix_operator(const Csr<T, I>& a, const trncore::Options& options) {
  check_operator(a, options, "trnsparse::matrix_operator");
  return make_operator(a, options);
}
template <class T, class I>
trnsolver::LinearOperator<T> matrix_operator(const Bsr<T, I>& a, const trncore::Options& options) {
  check_operator(a, options, "trnsparse::matrix_operator");
  return make_operator(a, options);
}
template <class T, class I>
trnsolver::LinearOperator<T> jacobi_preconditioner(const Csr<T, I>& a) {
  return make_jacobi(a, "trnsparse::jacobi_preconditioner");
}
template <class T, class I>
trnsolver::LinearOperator<T> jacobi_preconditioner(const Bsr<T, I>& a) {
  return make_jacobi(a, "trnsparse::jacobi_preconditioner");
}

namespace {

// Every sparse overload: check the matrix and the options naming the trnsparse function, then run
// trnsolver's solver on the operator (solve(op)).
template <class M, class Solve>
trnsolver::KrylovResult on_operator(const char* fn, const M& a, const trnsolver::KrylovOptions& options,
                                    Solve&& solve) {
  check_operator(a, options, fn);
  return solve(make_operator(a, options));
}

template <class M, class T>
trnsolver::KrylovResult cg_of(const M& a, std::span<const T> b, std::span<T> x, const trnsolver::KrylovOptions& o,
                              const trnsolver::LinearOperator<T>& m) {
  return on_operator("trnsparse::cg", a, o, [&](const auto& op) { return trnsolver::cg(op, b, x, o, m); });
}
template <class M, class T>
trnsolver::KrylovResult chebyshev_of(const M& a, std::span<const T> b, std::span<T> x, SpectrumBounds s,
                                     const trnsolver::KrylovOptions& o, const trnsolver::LinearOperator<T>& m) {
  return on_operator("trnsparse::chebyshev", a, o,
                     [&](const auto& op) { return trnsolver::chebyshev(op, b, x, s, o, m); });
}
template <class M, class T>
trnsolver::KrylovResult richardson_of(const M& a, std::span<const T> b, std::span<T> x, double omega,
                                      const trnsolver::KrylovOptions& o, const trnsolver::LinearOperator<T>& m) {
  return on_operator("trnsparse::richardson", a, o,
                     [&](const auto& op) { return trnsolver::richardson(op, b, x, omega, o, m); });
}
template <class M, class T>
trnsolver::KrylovResult power_of(const M& a, std::span<T> v, double& lambda, const trnsolver::KrylovOptions& o) {
  return on_operator("trnsparse::power_iteration", a, o,
                     [&](const auto& op) { return trnsolver::power_iteration(op, v, lambda, o); });
}

}  // namespace

template <class T, class I>
trnsolver::KrylovResult cg(const Csr<T, I>& a, std::span<const T> b, std::span<T> x,
                           const trnsolver::KrylovOptions& options, const trnsolver::LinearOperator<T>& m) {
  return cg_of(a, b, x, options, m);
}
template <class T, class I>
trnsolver::KrylovResult cg(const Bsr<T, I>& a, std::span<const T> b, std::span<T> x,
                           const trnsolver::KrylovOptions& options, const trnsolver::LinearOperator<T>& m) {
  return cg_of(a, b, x, options, m);
}
template <class T, class I>
trnsolver::KrylovResult chebyshev(const Csr<T, I>& a, std::span<const T> b, std::span<T> x, SpectrumBounds bounds,
                                  const trnsolver::KrylovOptions& options, const trnsolver::LinearOperator<T>& m) {
  return chebyshev_of(a, b, x, bounds, options, m);
}
template <class T, class I>
trnsolver::KrylovResult chebyshev(const Bsr<T, I>& a, std::span<const T> b, std::span<T> x, SpectrumBounds bounds,
                                  const trnsolver::KrylovOptions& options, const trnsolver::LinearOperator<T>& m) {
  return chebyshev_of(a, b, x, bounds, options, m);
}
template <class T, class I>
trnsolver::KrylovResult richardson(const Csr<T, I>& a, std::span<const T> b, std::span<T> x, double omega,
                                   const trnsolver::KrylovOptions& options, const trnsolver::LinearOperator<T>& m) {
  return richardson_of(a, b, x, omega, options, m);
}
template <class T, class I>
trnsolver::KrylovResult richardson(const Bsr<T, I>& a, std::span<const T> b, std::span<T> x, double omega,
                                   const trnsolver::KrylovOptions& options, const trnsolver::LinearOperator<T>& m) {
  return richardson_of(a, b, x, omega, options, m);
}
template <class T, class I>
trnsolver::KrylovResult power_iteration(const Csr<T, I>& a, std::span<T> v, double& lambda,
                                        const trnsolver::KrylovOptions& options) {
  return power_of(a, v, lambda, options);
}
template <class T, class I>
trnsolver::KrylovResult power_iteration(const Bsr<T, I>& a, std::span<T> v, double& lambda,
                                        const trnsolver::KrylovOptions& options) {
  return power_of(a, v, lambda, options);
}

template <class T, class I>
SpectrumBounds lanczos_bounds(const Csr<T, I>& a, std::int64_t steps, Preconditioner preconditioner,
                              const trncore::Options& options, bool spd) {
  constexpr const char* fn = "trnsparse::lanczos_bounds";
  check_operator(a, options, fn);
  if (steps < 1) throw trncore::InvalidArgument(fn, "steps = " + std::to_string(steps), "pass steps >= 1");
  if (preconditioner != Preconditioner::none && preconditioner != Preconditioner::jacobi)
    throw trncore::InvalidArgument(
        fn, "preconditioner = " + std::to_string(static_cast<int>(preconditioner)) + " is not a Preconditioner",
        "pass Preconditioner::none or Preconditioner::jacobi");
  const auto n = static_cast<std::size_t>(a.rows);
  // S = D^{-1/2} A D^{-1/2} (similar to D⁻¹A) with Jacobi, else A; all in double.
  std::vector<double> scale(n, 1.0);
  if (preconditioner == Preconditioner::jacobi) {
    const std::vector<T> d = diagonal(a);
    for (std::size_t i = 0; i < n; ++i) {
      if (!(d[i] > T(0)))
        throw trncore::InvalidArgument(
            fn, "diagonal entry " + std::to_string(i) + " is " + trncore::detail::sci(static_cast<double>(d[i])),
            "Jacobi scaling needs a positive diagonal");
      scale[i] = 1 / std::sqrt(static_cast<double>(d[i]));
    }
  }
  const Csr<double, I> ad = convert<double, I>(a);
  const trncore::Options product = trncore::Options{}.with_threads(options.threads);
  std::vector<double> s(n);
  const trnsolver::LinearOperator<double> op(a.rows, [&](std::span<const double> v, std::span<double> w) {
    for (std::size_t i = 0; i < n; ++i) s[i] = scale[i] * v[i];
    spmv<double, I>(trnblas::Op::no_trans, 1.0, ad, s, 0.0, w, product);
    for (std::size_t i = 0; i < n; ++i) w[i] *= scale[i];
  });
  return trnsolver::lanczos_bounds(op, steps, options, spd);
}

template <class T, class I>
std::vector<T> diagonal(const Csr<T, I>& a) {
  validate(a, "trnsparse::diagonal");
  std::vector<T> d(static_cast<std::size_t>(std::min(a.rows, a.cols)), T(0));
  for (std::int64_t r = 0; r < static_cast<std::int64_t>(d.size()); ++r)
    for (auto k = static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r)]);
         k < static_cast<std::size_t>(a.indptr[static_cast<std::size_t>(r) + 1]); ++k)
      if (a.indices[k] == r) d[static_cast<std::size_t>(r)] += a.values[k];
  return d;
}

template <class T, class I>
std::vector<T> diagonal(const Bsr<T, I>& a) {
  validate(a, "trnsparse::diagonal");
  std::vector<T> d(static_cast<std::size_t>(std::min(a.rows, a.cols)), T(0));
  const std::int64_t R = a.block_rows, C = a.block_cols;
  for (std::int64_t bi = 0; bi < a.block_row_count(); ++bi)
    for (auto b = static_cast<std::int64_t>(a.indptr[static_cast<std::size_t>(bi)]);
         b < a.indptr[static_cast<std::size_t>(bi) + 1]; ++b) {
      const std::int64_t c0 = static_cast<std::int64_t>(a.indices[static_cast<std::size_t>(b)]) * C;
      for (std::int64_t lr = 0; lr < R; ++lr) {
        const std::int64_t r = bi * R + lr, lc = r - c0;
        if (r < static_cast<std::int64_t>(d.size()) && lc >= 0 && lc < C)
          d[static_cast<std::size_t>(r)] += a.values[static_cast<std::size_t>(b * R * C + lr * C + lc)];
      }
    }
  return d;
}

#define TRNSPARSE_INSTANTIATE_ITERATIVE(T, I)                                                                        \
  template trnsolver::LinearOperator<T> matrix_operator(const Csr<T, I>&, const trncore::Options&);                  \
  template trnsolver::LinearOperator<T> matrix_operator(const Bsr<T, I>&, const trncore::Options&);                  \
  template trnsolver::LinearOperator<T> jacobi_preconditioner(const Csr<T, I>&);                                     \
  template trnsolver::LinearOperator<T> jacobi_preconditioner(const Bsr<T, I>&);                                     \
  template trnsolver::KrylovResult cg(const Csr<T, I>&, std::span<const T>, std::span<T>,                            \
                                      const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&);         \
  template trnsolver::KrylovResult cg(const Bsr<T, I>&, std::span<const T>, std::span<T>,                            \
                                      const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&);         \
  template trnsolver::KrylovResult chebyshev(const Csr<T, I>&, std::span<const T>, std::span<T>, SpectrumBounds,     \
                                             const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&);  \
  template trnsolver::KrylovResult chebyshev(const Bsr<T, I>&, std::span<const T>, std::span<T>, SpectrumBounds,     \
                                             const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&);  \
  template trnsolver::KrylovResult richardson(const Csr<T, I>&, std::span<const T>, std::span<T>, double,            \
                                              const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&); \
  template trnsolver::KrylovResult richardson(const Bsr<T, I>&, std::span<const T>, std::span<T>, double,            \
                                              const trnsolver::KrylovOptions&, const trnsolver::LinearOperator<T>&); \
  template trnsolver::KrylovResult power_iteration(const Csr<T, I>&, std::span<T>, double&,                          \
                                                   const trnsolver::KrylovOptions&);                                 \
  template trnsolver::KrylovResult power_iteration(const Bsr<T, I>&, std::span<T>, double&,                          \
                                                   const trnsolver::KrylovOptions&);                                 \
  template SpectrumBounds lanczos_bounds(const Csr<T, I>&, std::int64_t, Preconditioner, const trncore::Options&,    \
                                         bool);                                                                      \
  template std::vector<T> diagonal(const Csr<T, I>&);                                                                \
  template std::vector<T> diagonal(const Bsr<T, I>&);

TRNSPARSE_INSTANTIATE_ITERATIVE(float, std::int32_t)
TRNSPARSE_INSTANTIATE_ITERATIVE(float, std::int64_t)
TRNSPARSE_INSTANTIATE_ITERATIVE(double, std::int32_t)
TRNSPARSE_INSTANTIATE_ITERATIVE(double, std::int64_t)

}  // namespace trnsparse
