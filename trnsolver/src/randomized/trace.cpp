// Hutchinson, Hutch++ and diagonal estimation with a matvec budget.
#include "common.hpp"

#include <trnblas/gemm.hpp>

#include <cmath>
#include <string>

namespace trnsolver {

namespace {

using namespace randomized_detail;

template <class T>
void check_square(const MatrixOperator<T>& a, std::int64_t matvecs, std::int64_t minimum, const Sketch& sketch,
                  const trncore::Options& options, const char* function) {
  check_common(sketch, options, function);
  if (a.rows() != a.cols())
    throw trncore::DimensionMismatch(function,
                                     "the operator is " + std::to_string(a.rows()) + "x" + std::to_string(a.cols()),
                                     "trace and diagonal estimation need a square operator");
  if (matvecs < minimum)
    throw trncore::InvalidArgument(function, "matvecs = " + std::to_string(matvecs) + " < " + std::to_string(minimum),
                                   "give a budget of at least " + std::to_string(minimum) + " products");
}

// Σ_i x(i, j)·y(i, j) for each column j, in double, ascending i.
template <class T>
std::vector<double> column_dots(const DenseMatrix<T>& x, const DenseMatrix<T>& y) {
  std::vector<double> d(static_cast<std::size_t>(x.cols), 0.0);
  for (std::int64_t j = 0; j < x.cols; ++j)
    for (std::int64_t i = 0; i < x.rows; ++i) d[static_cast<std::size_t>(j)] += static_cast<double>(x(i, j)) * y(i, j);
  return d;
}

// The mean of the samples and its standard error (sample s.d./√count; 0 below two samples).
TraceEstimate mean_and_error(const std::vector<double>& samples) {
  TraceEstimate e;
  const auto count = static_cast<double>(samples.size());
  if (samples.empty()) return e;
  double sum = 0.0;
  for (double v : samples) sum += v;
  e.estimate = sum / count;
  if (samples.size() >= 2) {
    double ss = 0.0;
    for (double v : samples) ss += (v - e.estimate) * (v - e.estimate);
    e.standard_error = std::sqrt(ss / (count - 1.0) / count);
  }
  return e;
}

}  // namespace

template <class T>
TraceEstimate hutchinson(const MatrixOperator<T>& a, std::int64_t matvecs, const Sketch& sketch,
                         const trncore::Options& options) {
  constexpr const char* kFunction = "trnsolver::hutchinson";
  check_square(a, matvecs, 1, sketch, options, kFunction);
  const DenseMatrix<T> omega =
      sketch_matrix<T>(sketch, a.cols(), matvecs, trncore::Options{}.with_threads(options.threads));
  std::int64_t used = 0;
  const DenseMatrix<T> y = apply(a, omega, used, kFunction);
  TraceEstimate e = mean_and_error(column_dots(omega, y));
  e.matvecs = used;
  return e;
}

template <class T>
TraceEstimate hutch_plus_plus(const MatrixOperator<T>& a, std::int64_t matvecs, const Sketch& sketch,
                              const trncore::Options& options) {
  constexpr const char* kFunction = "trnsolver::hutch_plus_plus";
  check_square(a, matvecs, 3, sketch, options, kFunction);
  const std::int64_t n = a.cols();
  const std::int64_t s = std::min(matvecs / 3, n), g = matvecs - 2 * s;
  std::int64_t used = 0;
  DenseMatrix<T> q =
      apply(a, sketch_matrix<T>(sketch, n, s, trncore::Options{}.with_threads(options.threads)), used, kFunction);
  orthonormalize(q, options);
  const DenseMatrix<T> aq = apply(a, q, used, kFunction);
  double exact = 0.0;
  for (double v : column_dots(q, aq)) exact += v;
  Sketch residual_sketch = sketch;
  residual_sketch.stream = sketch.stream + 3;
  DenseMatrix<T> probes = sketch_matrix<T>(residual_sketch, n, g, trncore::Options{}.with_threads(options.threads));
  project_off(q, probes, options);  // (I − QQᵀ)G
  const DenseMatrix<T> ap = apply(a, probes, used, kFunction);
  // Gᵀ(I − QQᵀ)A(I − QQᵀ)G: the probes are already projected, so dotting with them applies the left one.
  TraceEstimate e = mean_and_error(column_dots(probes, ap));
  e.estimate += exact;
  e.matvecs = used;
  return e;
}

template <class T>
std::vector<double> diagonal_estimate(const MatrixOperator<T>& a, std::int64_t matvecs, const Sketch& sketch,
                                      const trncore::Options& options) {
  constexpr const char* kFunction = "trnsolver::diagonal_estimate";
  check_square(a, matvecs, 1, sketch, options, kFunction);
  const std::int64_t n = a.cols();
  const DenseMatrix<T> omega = sketch_matrix<T>(sketch, n, matvecs, trncore::Options{}.with_threads(options.threads));
  std::int64_t used = 0;
  const DenseMatrix<T> y = apply(a, omega, used, kFunction);
  std::vector<double> num(static_cast<std::size_t>(n), 0.0), den(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t j = 0; j < matvecs; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      const double w = omega(i, j);
      num[static_cast<std::size_t>(i)] += w * static_cast<double>(y(i, j));
      den[static_cast<std::size_t>(i)] += w * w;
    }
  // A row of Ω that drew only zeros (possible for sparse sign) carries no information: estimate 0 there.
  for (std::size_t i = 0; i < num.size(); ++i) num[i] = den[i] > 0.0 ? num[i] / den[i] : 0.0;
  return num;
}

#define TRNSOLVER_TRACE(T)                                                                                 \
  template TraceEstimate hutchinson<T>(const MatrixOperator<T>&, std::int64_t, const Sketch&,              \
                                       const trncore::Options&);                                           \
  template TraceEstimate hutch_plus_plus<T>(const MatrixOperator<T>&, std::int64_t, const Sketch&,         \
                                            const trncore::Options&);                                      \
  template std::vector<double> diagonal_estimate<T>(const MatrixOperator<T>&, std::int64_t, const Sketch&, \
                                                    const trncore::Options&);
TRNSOLVER_TRACE(float)
TRNSOLVER_TRACE(double)
#undef TRNSOLVER_TRACE

}  // namespace trnsolver
