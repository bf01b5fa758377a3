// The sim backend's Executor (executor.hpp): the precision a plan asks for (or the cheapest meeting its
// target), and each run as gather (the plan's strided arrays into dense row-major order), the
// RowColumnTransform, scatter, and the report with the hypotheses beyond the GEMMs' own (finite input, no
// overflow).
#include "executor.hpp"
#include "sim/row_column.hpp"
#include "sim/sim_executor.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <cmath>
#include <optional>
#include <type_traits>
#include <utility>

namespace trnfft::detail {

namespace sim {

std::optional<Precision> requested_precision(const char* function, const PlanOptions& options) {
  using trncore::MathMode;
  std::optional<Precision> precision;
  switch (options.math_mode) {
    case MathMode::fp32: precision = Precision::fp32; break;
    case MathMode::bf16: precision = options.refine ? Precision::bf16_refined : Precision::bf16; break;
    case MathMode::compensated: precision = Precision::compensated; break;
    case MathMode::ozaki: precision = Precision::ozaki; break;
    case MathMode::automatic: break;
    default:
      throw trncore::NotSupported(function, "math mode " + mode_name(options.math_mode) + " has no sim FFT",
                                  "use automatic, fp32, bf16, compensated or ozaki (or bf16 with "
                                  "PlanOptions::refine)");
  }
  if (options.refine && options.math_mode != MathMode::bf16)
    throw trncore::InvalidArgument(function, "refine is set with math mode " + mode_name(options.math_mode),
                                   "refine applies to math_mode bf16 only (bf16_refined); unset it or use bf16");
  return precision;
}

}  // namespace sim

namespace {

using trncore::detail::sci;

// Element offsets of every point of a geometry in row-major order: the batch dimensions, then the
// transform dimensions with lengths `len` (the half-spectrum length on the complex side of r2c/c2r).
std::vector<std::int64_t> element_offsets(const std::vector<IoDim>& batch, const std::vector<IoDim>& dims,
                                          const std::vector<std::int64_t>& len, bool input) {
  std::vector<std::int64_t> extent, stride;
  for (const auto& b : batch) {
    extent.push_back(b.n);
    stride.push_back(input ? b.is : b.os);
  }
  for (std::size_t k = 0; k < dims.size(); ++k) {
    extent.push_back(len[k]);
    stride.push_back(input ? dims[k].is : dims[k].os);
  }
  std::int64_t total = 1;
  for (auto e : extent) total *= e;
  std::vector<std::int64_t> out(static_cast<std::size_t>(total));
  std::vector<std::int64_t> idx(extent.size(), 0);
  std::int64_t at = 0;
  for (std::int64_t i = 0; i < total; ++i) {
    out[static_cast<std::size_t>(i)] = at;
    for (std::size_t d = extent.size(); d-- > 0;) {
      at += stride[d];
      if (++idx[d] < extent[d]) break;
      at -= stride[d] * extent[d];
      idx[d] = 0;
    }
  }
  return out;
}

// The transform of a sim plan of lengths `n`: the requested precision, or automatic without a target the
// default (compensated for float, ozaki for double), with a target the cheapest precision whose composed
// a-priori bound meets it.
template <Real T>
std::unique_ptr<sim::RowColumnTransform<T>> make_transform(const char* function, Kind kind,
                                                           const std::vector<std::int64_t>& n, Direction direction,
                                                           const PlanOptions& options) {
  using sim::Precision;
  std::optional<Precision> precision = sim::requested_precision(function, options);
  const auto& target = options.target_forward_error;
  const trncore::Options& core = options;
  if (!precision && !target) precision = std::is_same_v<T, float> ? Precision::compensated : Precision::ozaki;
  if (precision) {
    auto t = std::make_unique<sim::RowColumnTransform<T>>(kind, n, direction, *precision, core);
    if (target && t->a_priori() > *target)
      throw trncore::TargetNotMet(function,
                                  "sim mode " + std::string(sim::name(*precision)) + " certifies " +
                                      sci(t->a_priori()) + " for n = " + sim::shape_text(n) +
                                      ", above target_forward_error " + sci(*target),
                                  "loosen the target, choose a more accurate mode, or leave the mode automatic");
    return t;
  }
  // automatic with a target: the cheapest precision (modelled TensorEngine work, in bf16-pass units: bf16 1,
  // fp32 4, bf16_refined 1 + 4 + 1, compensated 6 or 21, ozaki more) whose a-priori bound meets it.
  std::string tried;
  for (Precision p :
       {Precision::bf16, Precision::fp32, Precision::bf16_refined, Precision::compensated, Precision::ozaki}) {
    auto t = std::make_unique<sim::RowColumnTransform<T>>(kind, n, direction, p, core);
    if (t->a_priori() <= *target) return t;
    tried += (tried.empty() ? "" : ", ") + std::string(sim::name(p)) + " " + sci(t->a_priori());
  }
  throw trncore::TargetNotMet(function,
                              "no sim mode certifies target_forward_error " + sci(*target) +
                                  " for n = " + sim::shape_text(n) + " (bounds: " + tried + ")",
                              "loosen the target or use backend host");
}

template <Real T>
class SimExecutor final : public Executor<T> {
  using C = std::complex<T>;

 public:
  SimExecutor(const char* function, const Geometry& g, const Arrays& arrays, const PlanOptions& options)
      : g_(g), arrays_(arrays) {
    std::vector<std::int64_t> lengths;
    for (const auto& d : g.dims) lengths.push_back(d.n);
    transform_ = make_transform<T>(function, g.kind, lengths, g.direction, options);
  }

  void execute(const char* function, const Arrays* arrays, trncore::AccuracyReport* report) const override {
    const Arrays& a = arrays != nullptr ? *arrays : arrays_;
    const int nread = g_.nread;
    std::vector<std::int64_t> real_len, complex_len;
    for (const auto& d : g_.dims) real_len.push_back(d.n);
    complex_len = real_len;
    if (g_.kind != Kind::c2c) complex_len.back() = real_len.back() / 2 + 1;
    const bool split = g_.layout == ComplexLayout::split;
    const auto in_at = element_offsets(g_.batch, g_.dims, g_.kind == Kind::c2r ? complex_len : real_len, true);
    const auto out_at = element_offsets(g_.batch, g_.dims, g_.kind == Kind::r2c ? complex_len : real_len, false);
    auto read_complex = [&]() {
      std::vector<C> buf(in_at.size());
      for (std::size_t i = 0; i < in_at.size(); ++i)
        buf[i] = split ? C(static_cast<const T*>(a[0])[in_at[i]], static_cast<const T*>(a[1])[in_at[i]])
                       : static_cast<const C*>(a[0])[in_at[i]];
      return buf;
    };
    auto write_complex = [&](const std::vector<C>& buf) {
      for (std::size_t i = 0; i < out_at.size(); ++i) {
        if (split) {
          static_cast<T*>(a[nread])[out_at[i]] = buf[i].real();
          static_cast<T*>(a[nread + 1])[out_at[i]] = buf[i].imag();
        } else {
          static_cast<C*>(a[nread])[out_at[i]] = buf[i];
        }
      }
    };
    sim::RunLog log;
    double bound = 0;
    // The bound's hypotheses beyond the GEMMs' own: finite input, and no overflow on the way (a finite
    // input whose transform reaches Inf/NaN). A NaN/Inf input is named as such even though the GEMMs that
    // meet it also refuse to certify: it is the cause.
    bool finite_in = true, finite_out = true;
    const auto finite = [](const auto& v) {
      for (const auto& z : v)
        if constexpr (std::is_same_v<std::decay_t<decltype(z)>, C>) {
          if (!std::isfinite(z.real()) || !std::isfinite(z.imag())) return false;
        } else if (!std::isfinite(z)) {
          return false;
        }
      return true;
    };
    if (g_.kind == Kind::c2c) {
      const auto x = read_complex();
      std::vector<C> y(out_at.size());
      bound = transform_->run_c2c(x.data(), y.data(), g_.batch_count, log);
      finite_in = finite(x);
      finite_out = finite(y);
      write_complex(y);
    } else if (g_.kind == Kind::r2c) {
      std::vector<T> x(in_at.size());
      for (std::size_t i = 0; i < in_at.size(); ++i) x[i] = static_cast<const T*>(a[0])[in_at[i]];
      std::vector<C> y(out_at.size());
      bound = transform_->run_r2c(x.data(), y.data(), g_.batch_count, log);
      finite_in = finite(x);
      finite_out = finite(y);
      write_complex(y);
    } else {
      const auto x = read_complex();
      std::vector<T> y(out_at.size());
      bound = transform_->run_c2r(x.data(), y.data(), g_.batch_count, log);
      finite_in = finite(x);
      finite_out = finite(y);
      T* out = static_cast<T*>(a[nread]);
      for (std::size_t i = 0; i < out_at.size(); ++i) out[out_at[i]] = y[i];
    }
    if (!finite_in) {
      log.reason.clear();
      log.certified = true;  // so that the input is the reason, ahead of the GEMMs that met it
      log.uncertify("NaN or Inf in the input");
    } else if (!finite_out) {
      log.uncertify("the transform overflowed: Inf or NaN in the output of a finite input");
    }
    trncore::AccuracyReport r = transform_->report(bound, log);
    if (report != nullptr)
      *report = std::move(r);
    else if (!r.met)
      trncore::require_target_met(r, function);  // with or without a target (the contract)
  }

  void check_arrays(const char*, const Arrays&) const override {}  // no alignment rule on the sim backend
  bool certifies() const override { return true; }
  trncore::AccuracyReport a_priori_report() const override { return transform_->a_priori_report(); }
  std::string algorithm() const override { return transform_->description(); }
  std::string description_suffix() const override {
    return " backend sim mode " + std::string(sim::name(transform_->precision()));
  }

 private:
  Geometry g_;
  Arrays arrays_;  // the creation arrays
  std::unique_ptr<sim::RowColumnTransform<T>> transform_;
};

}  // namespace

template <Real T>
std::unique_ptr<Executor<T>> make_sim_executor(const char* function, const Geometry& geometry, const Arrays& arrays,
                                               const PlanOptions& options) {
  return std::make_unique<SimExecutor<T>>(function, geometry, arrays, options);
}

template std::unique_ptr<Executor<float>> make_sim_executor<float>(const char*, const Geometry&, const Arrays&,
                                                                   const PlanOptions&);
template std::unique_ptr<Executor<double>> make_sim_executor<double>(const char*, const Geometry&, const Arrays&,
                                                                     const PlanOptions&);

}  // namespace trnfft::detail
