// A sim plan's transform over all its axes, row-column (bounds derived in row_column.hpp).
#include "sim/row_column.hpp"

#include <trncore/detail/format_number.hpp>

#include <cmath>
#include <algorithm>
#include <numbers>
#include <utility>

namespace trnfft::detail::sim {

namespace {

using trncore::detail::sci;

std::int64_t product(const std::vector<std::int64_t>& v, std::size_t from, std::size_t to) {
  std::int64_t p = 1;
  for (std::size_t k = from; k < to; ++k) p *= v[k];
  return p;
}

}  // namespace

template <Real T>
RowColumnTransform<T>::RowColumnTransform(Kind kind, std::vector<std::int64_t> n, Direction direction,
                                          Precision precision, const trncore::Options& options)
    : kind_(kind), n_(std::move(n)), precision_(precision), options_(options) {
  const std::size_t d = n_.size();
  const Direction others = kind == Kind::r2c ? Direction::forward : kind == Kind::c2r ? Direction::backward : direction;
  for (std::size_t k = 0; k < d; ++k) {
    const Kind axis_kind = k + 1 == d ? kind : Kind::c2c;
    axis_.push_back(std::make_unique<AxisTransform<T>>(axis_kind, n_[k], others, precision, options));
  }
  std::vector<double> eps;
  for (const auto& e : axis_) eps.push_back(e->a_priori());
  a_priori_ = compose(eps);
}

template <Real T>
RowColumnTransform<T>::~RowColumnTransform() = default;

template <Real T>
double RowColumnTransform<T>::compose(const std::vector<double>& axis_bounds) const {
  const std::size_t d = axis_bounds.size();
  if (kind_ != Kind::c2r) {
    double p = 1;
    for (double e : axis_bounds) p *= 1 + e;
    return p - 1;
  }
  double p = 1;
  for (std::size_t k = 0; k + 1 < d; ++k) p *= 1 + axis_bounds[k];
  const double d1 = std::numbers::sqrt2 * (p - 1);
  return d1 + axis_bounds[d - 1] * (1 + d1);
}

template <Real T>
double RowColumnTransform<T>::pass(std::size_t axis, std::vector<std::complex<T>>& data,
                                   const std::vector<std::int64_t>& extent, std::int64_t batch, RunLog& log) const {
  using C = std::complex<T>;
  const std::int64_t outer = batch * product(extent, 0, axis);
  const std::int64_t len = extent[axis];
  const std::int64_t inner = product(extent, axis + 1, extent.size());
  std::vector<C> rows(data.size()), out(data.size());
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < len; ++j)
      for (std::int64_t i = 0; i < inner; ++i)
        rows[static_cast<std::size_t>((o * inner + i) * len + j)] =
            data[static_cast<std::size_t>((o * len + j) * inner + i)];
  double bound = 0;
  axis_[axis]->run_c2c(rows.data(), out.data(), outer * inner, log, bound);
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < len; ++j)
      for (std::int64_t i = 0; i < inner; ++i)
        data[static_cast<std::size_t>((o * len + j) * inner + i)] =
            out[static_cast<std::size_t>((o * inner + i) * len + j)];
  return bound;
}

template <Real T>
double RowColumnTransform<T>::run_c2c(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch,
                                      RunLog& log) const {
  const std::size_t d = n_.size();
  double bound = 0;
  if (d == 1) {
    axis_[0]->run_c2c(in, out, batch, log, bound);
    return bound;
  }
  const std::size_t total = static_cast<std::size_t>(batch * product(n_, 0, d));
  std::vector<std::complex<T>> data(in, in + total);
  std::vector<double> eps(d);
  for (std::size_t k = d; k-- > 0;) eps[k] = pass(k, data, n_, batch, log);
  std::copy(data.begin(), data.end(), out);
  return compose(eps);
}

template <Real T>
std::vector<std::int64_t> RowColumnTransform<T>::half_spectrum_extent() const {
  std::vector<std::int64_t> extent = n_;
  extent.back() = n_.back() / 2 + 1;
  return extent;
}

template <Real T>
double RowColumnTransform<T>::run_r2c(const T* in, std::complex<T>* out, std::int64_t batch, RunLog& log) const {
  const std::size_t d = n_.size();
  std::vector<double> eps(d);
  if (d == 1) {
    axis_[0]->run_r2c(in, out, batch, log, eps[0]);
    return eps[0];
  }
  const auto extent = half_spectrum_extent();
  const std::int64_t rows = batch * product(n_, 0, d - 1);  // rows of the last axis
  std::vector<std::complex<T>> data(static_cast<std::size_t>(rows * extent[d - 1]));
  axis_[d - 1]->run_r2c(in, data.data(), rows, log, eps[d - 1]);
  for (std::size_t k = d - 1; k-- > 0;) eps[k] = pass(k, data, extent, batch, log);
  std::copy(data.begin(), data.end(), out);
  return compose(eps);
}

template <Real T>
double RowColumnTransform<T>::run_c2r(const std::complex<T>* in, T* out, std::int64_t batch, RunLog& log) const {
  const std::size_t d = n_.size();
  std::vector<double> eps(d);
  if (d == 1) {
    axis_[0]->run_c2r(in, out, batch, log, eps[0]);
    return eps[0];
  }
  const auto extent = half_spectrum_extent();
  const std::int64_t rows = batch * product(n_, 0, d - 1);  // rows of the last axis
  std::vector<std::complex<T>> data(in, in + rows * extent[d - 1]);
  for (std::size_t k = d - 1; k-- > 0;) eps[k] = pass(k, data, extent, batch, log);
  axis_[d - 1]->run_c2r(data.data(), out, rows, log, eps[d - 1]);
  return compose(eps);
}

template <Real T>
std::string RowColumnTransform<T>::description() const {
  if (n_.size() == 1) return axis_[0]->description();
  std::string s = std::string(to_string(kind_)) + " " + shape_text(n_) + " sim mode " + std::string(name(precision_)) +
                  ": one pass per axis (row-column), composed bound " + sci(a_priori_);
  for (std::size_t k = 0; k < axis_.size(); ++k) s += "; axis " + std::to_string(k) + ": " + axis_[k]->description();
  return s;
}

template <Real T>
trncore::AccuracyReport RowColumnTransform<T>::a_priori_report() const {
  trncore::AccuracyReport r = axis_.back()->a_priori_report();
  if (n_.size() == 1) return r;
  r.certify(a_priori_);
  r.trajectory.front() = {description()};
  return r;
}

template <Real T>
trncore::AccuracyReport RowColumnTransform<T>::report(double bound, const RunLog& log) const {
  trncore::AccuracyReport r = axis_.back()->report(bound, log);
  if (n_.size() > 1) r.trajectory.front() = {description()};
  return r;
}

template class RowColumnTransform<float>;
template class RowColumnTransform<double>;

}  // namespace trnfft::detail::sim
