// Names of the Krylov enums, LinearOperator, the argument checks, and matrix_operator.
#include "common.hpp"

#include <trncore/detail/enum_names.hpp>
#include <trncore/error.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>

namespace trnsolver {

namespace {

using trncore::detail::EnumNames;

constexpr EnumNames<KrylovReason, 6> kReasons{{{{"converged", KrylovReason::converged},
                                                {"max_iterations", KrylovReason::max_iterations},
                                                {"breakdown", KrylovReason::breakdown},
                                                {"stagnation", KrylovReason::stagnation},
                                                {"non_finite", KrylovReason::non_finite},
                                                {"stopped_by_monitor", KrylovReason::stopped_by_monitor}}}};
constexpr EnumNames<Orthogonalization, 2> kOrthogonalizations{
    {{{"mgs", Orthogonalization::mgs}, {"cgs2", Orthogonalization::cgs2}}}};

std::string str(std::int64_t v) { return std::to_string(v); }

}  // namespace

std::string_view to_string(KrylovReason v) noexcept { return kReasons.name(v); }
std::string_view to_string(Orthogonalization v) noexcept { return kOrthogonalizations.name(v); }
KrylovReason parse_krylov_reason(std::string_view t) {
  return kReasons.parse(t, "trnsolver::parse_krylov_reason", "Krylov reason");
}
Orthogonalization parse_orthogonalization(std::string_view t) {
  return kOrthogonalizations.parse(t, "trnsolver::parse_orthogonalization", "orthogonalization");
}

template <class T>
LinearOperator<T>::LinearOperator(std::int64_t size, Apply apply) : size_(size), apply_(std::move(apply)) {
  if (size < 0)
    throw trncore::InvalidArgument("trnsolver::LinearOperator", "size = " + str(size) + " is negative",
                                   "pass the number of rows (= columns) of the operator, >= 0");
  if (!apply_)
    throw trncore::InvalidArgument("trnsolver::LinearOperator", "the callback is empty",
                                   "pass a callable void(std::span<const T> x, std::span<T> y) that writes y = op(x)");
}

template <class T>
void LinearOperator<T>::operator()(std::span<const T> x, std::span<T> y) const {
  if (!apply_)
    throw trncore::InvalidArgument("trnsolver::LinearOperator::operator()", "the operator is empty",
                                   "construct it with a size and a callback");
  if (static_cast<std::int64_t>(x.size()) != size_ || static_cast<std::int64_t>(y.size()) != size_)
    throw trncore::DimensionMismatch(
        "trnsolver::LinearOperator::operator()",
        "the operator has size " + str(size_) + " but x has " + str(x.size()) + " and y " + str(y.size()) + " elements",
        "pass x and y of size() elements");
  apply_(x, y);
}

template class LinearOperator<float>;
template class LinearOperator<double>;

namespace detail {

void check_square(const char* fn, std::int64_t rows, std::int64_t cols) {
  if (rows != cols)
    throw trncore::DimensionMismatch(fn, "A is " + str(rows) + "x" + str(cols) + ", not square",
                                     "pass the n x n matrix of the system A x = b");
}

void check_host_options(const char* fn, const trncore::Options& o) {
  trncore::validate(o, fn);
  if (o.backend != trncore::Backend::host)
    throw trncore::NotSupported(
        fn,
        "options.backend = " + std::string(trncore::to_string(o.backend)) + ": the iterative solvers run on the host",
        "use Backend::host (cg_bf16 and richardson_bf16 model a NeuronCore's bf16 run)");
}

void check_options(const char* fn, const KrylovOptions& o, bool model) {
  if (model)
    trncore::validate(o, fn);
  else
    check_host_options(fn, o);
  if (o.target_forward_error)
    throw trncore::NotSupported(fn,
                                "options.target_forward_error = " + trncore::detail::sci(*o.target_forward_error) +
                                    ": a residual test certifies no forward error without cond(A)",
                                "unset it and ask for a residual with options.rtol / options.atol");
  auto bad = [&](const std::string& what, const char* hint) { throw trncore::InvalidArgument(fn, what, hint); };
  if (!(o.rtol >= 0) || !std::isfinite(o.rtol))
    bad("options.rtol = " + trncore::detail::sci(o.rtol) + " is negative or not finite",
        "use a relative tolerance >= 0, e.g. 1e-8 (0 with atol = 0 iterates to the limit)");
  if (!(o.atol >= 0) || !std::isfinite(o.atol))
    bad("options.atol = " + trncore::detail::sci(o.atol) + " is negative or not finite",
        "use an absolute tolerance >= 0");
  if (o.max_iterations < 0)
    bad("options.max_iterations = " + str(o.max_iterations) + " is negative", "use >= 1, or 0 for 10*n");
  if (o.restart < 1)
    bad("options.restart = " + str(o.restart) + " is below 1",
        "use a GMRES restart length m >= 1 (e.g. 30; values above n act as n)");
  if (o.stagnation_window < 0)
    bad("options.stagnation_window = " + str(o.stagnation_window) + " is negative", "use >= 1, or 0 to never stop");
  if (to_string(o.orthogonalization) == "invalid")
    bad("options.orthogonalization = " + str(static_cast<int>(o.orthogonalization)) + " is not a valid value",
        "use Orthogonalization::mgs or Orthogonalization::cgs2");
  if (o.distributed) {
    if (model)
      throw trncore::NotSupported(fn, "options.distributed is set: the bf16 variants model one NeuronCore",
                                  "unset options.distributed, or use cg/gmres on the distributed vectors");
    const DistributedReduction& d = *o.distributed;
    if (!d.sum_double || !d.sum_float || !d.max || !d.agree)
      bad("options.distributed has an empty sum_double, sum_float, max or agree callback",
          "build it with trnsolver::mpi::distributed_reduction(comm, global_size, offset)");
    if (d.offset < 0 || d.global_size < 0)
      bad("options.distributed has offset = " + str(d.offset) + " and global_size = " + str(d.global_size),
          "pass the part's first global index and the whole vector's length, both >= 0");
  }
}

template <class T>
void check_finite(const char* fn, const char* name, std::span<const T> v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]))
      throw trncore::InvalidArgument(fn,
                                     std::string(name) + "[" + str(static_cast<std::int64_t>(i)) +
                                         "] = " + trncore::detail::sci(static_cast<double>(v[i])) + " is not finite",
                                     "pass finite values (NaN/inf in the input make every residual meaningless)");
}

namespace {

template <class T>
void check_solver_call_locally(const char* fn, const LinearOperator<T>& a, std::span<const T> b, std::span<const T> x,
                               const KrylovOptions& options, const LinearOperator<T>& preconditioner) {
  if (!a)
    throw trncore::InvalidArgument(fn, "the operator A is empty",
                                   "pass a matrix, matrix_operator(A) or LinearOperator(n, callback)");
  const std::int64_t n = a.size();
  if (static_cast<std::int64_t>(b.size()) != n || static_cast<std::int64_t>(x.size()) != n)
    throw trncore::DimensionMismatch(
        fn, "A is " + str(n) + "x" + str(n) + " but b has " + str(b.size()) + " and x " + str(x.size()) + " elements",
        "pass b and x with n elements each");
  if (preconditioner && preconditioner.size() != n)
    throw trncore::DimensionMismatch(
        fn, "the preconditioner has size " + str(preconditioner.size()) + " but A is " + str(n) + "x" + str(n),
        "build the preconditioner from the same n x n matrix, or pass {} for none");
  check_options(fn, options);
  if (options.distributed && options.distributed->offset + n > options.distributed->global_size)
    throw trncore::DimensionMismatch(fn,
                                     "this part has " + str(n) + " elements from global index " +
                                         str(options.distributed->offset) + " but the whole vector has " +
                                         str(options.distributed->global_size),
                                     "pass the part's offset and the whole vector's length");
  check_finite<T>(fn, "b", b);
  check_finite<T>(fn, "x (the initial guess)", x);
}

// The bit pattern of a double, for comparing options across processes.
std::int64_t bits(double v) {
  std::int64_t out = 0;
  std::memcpy(&out, &v, sizeof out);
  return out;
}

}  // namespace

template <class T>
void check_solver_call(const char* fn, const LinearOperator<T>& a, std::span<const T> b, std::span<const T> x,
                       const KrylovOptions& options, const LinearOperator<T>& preconditioner) {
  // Distributed, the checks must end the same way on every process: run them, then agree. (A distributed
  // reduction with empty callbacks cannot agree; that local error is thrown as is.)
  const DistributedReduction* d = options.distributed.get();
  if (d == nullptr || !d->agree) {
    check_solver_call_locally<T>(fn, a, b, x, options, preconditioner);
    return;
  }
  std::exception_ptr problem;
  try {
    check_solver_call_locally<T>(fn, a, b, x, options, preconditioner);
  } catch (const trncore::Error&) {
    problem = std::current_exception();
  }
  const std::pair<std::string_view, std::int64_t> agreed[] = {
      {"global_size", d->global_size},
      {"options.rtol", bits(options.rtol)},
      {"options.atol", bits(options.atol)},
      {"options.max_iterations", options.max_iterations},
      {"options.restart", options.restart},
      {"options.orthogonalization", static_cast<std::int64_t>(options.orthogonalization)},
      {"options.stagnation_window", options.stagnation_window},
      {"preconditioner", preconditioner ? 1 : 0}};
  d->agree(fn, problem, agreed);
}

template void check_solver_call<float>(const char*, const LinearOperator<float>&, std::span<const float>,
                                       std::span<const float>, const KrylovOptions&, const LinearOperator<float>&);
template void check_solver_call<double>(const char*, const LinearOperator<double>&, std::span<const double>,
                                        std::span<const double>, const KrylovOptions&, const LinearOperator<double>&);
template void check_finite<float>(const char*, const char*, std::span<const float>);
template void check_finite<double>(const char*, const char*, std::span<const double>);

Outcome status_outcome(Status status, const Monitor& m) {
  const std::string at = " at iteration " + str(m.result.iterations);
  if (status == Status::stopped)
    return Outcome::stopped(KrylovReason::stopped_by_monitor,
                            "stopped_by_monitor: options.monitor asked to stop" + at + " (residual estimate " +
                                trncore::detail::sci(m.result.residual_history.back()) + ")");
  if (status == Status::non_finite)
    return Outcome::stopped(KrylovReason::non_finite, "non_finite: the residual estimate is " +
                                                          trncore::detail::sci(m.result.residual_history.back()) + at);
  return Outcome::stopped(KrylovReason::stagnation, "stagnation: the residual estimate has not decreased below " +
                                                        trncore::detail::sci(m.best / m.bnorm) + " for " +
                                                        str(m.window) + " iterations" + at);
}

Outcome limit_outcome(const Monitor& m) {
  return Outcome::stopped(KrylovReason::max_iterations,
                          "max_iterations: " + str(m.max_iterations) + " iterations done without convergence");
}

}  // namespace detail

namespace {

template <class T>
LinearOperator<T> make_matrix_operator(trncore::MatrixView<const T> a, const trncore::Options& options) {
  detail::check_host_options("trnsolver::matrix_operator", options);
  detail::check_square("trnsolver::matrix_operator", a.rows(), a.cols());
  const std::int64_t n = a.rows();
  const int workers = n >= 256 ? options.threads : 1;
  return LinearOperator<T>(n, [a, n, workers](std::span<const T> x, std::span<T> y) {
    constexpr std::int64_t kRows = 64;
    const std::int64_t tasks = (n + kRows - 1) / kRows;
    const T* data = a.data();
    const std::int64_t ld = a.ld();
    const bool row_major = a.layout() == trncore::Layout::row_major;
    trncore::detail::parallel_for(tasks, workers, [&](std::int64_t t) {
      const std::int64_t i0 = t * kRows, i1 = std::min(n, i0 + kRows);
      if (row_major) {
        for (std::int64_t i = i0; i < i1; ++i) {
          const T* row = data + i * ld;
          T s = 0;
          for (std::int64_t j = 0; j < n; ++j) s += row[j] * x[static_cast<std::size_t>(j)];
          y[static_cast<std::size_t>(i)] = s;
        }
      } else {  // same per-element order (ascending j), column-wise access
        for (std::int64_t i = i0; i < i1; ++i) y[static_cast<std::size_t>(i)] = 0;
        for (std::int64_t j = 0; j < n; ++j) {
          const T* col = data + j * ld;
          const T xj = x[static_cast<std::size_t>(j)];
          for (std::int64_t i = i0; i < i1; ++i) y[static_cast<std::size_t>(i)] += col[i] * xj;
        }
      }
    });
  });
}

}  // namespace

LinearOperator<double> matrix_operator(trncore::MatrixView<const double> a, const trncore::Options& options) {
  return make_matrix_operator(a, options);
}
LinearOperator<float> matrix_operator(trncore::MatrixView<const float> a, const trncore::Options& options) {
  return make_matrix_operator(a, options);
}

}  // namespace trnsolver
