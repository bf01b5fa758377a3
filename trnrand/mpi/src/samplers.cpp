// The trnrand distributions as Sampler values (streams.hpp): each factory binds the parameters to the
// trnrand function, records its word budget (distributions.hpp, "word budget") and hashes the parameters.
#include <trncore/error.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/mpi/streams.hpp>

#include <bit>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace trnrand::mpi::samplers {

namespace {

constexpr std::uint64_t kWindow = std::uint64_t{1} << 32;

// FNV-1a over the name and the parameters' bit patterns: equal samplers, equal fingerprints.
class Fingerprint {
 public:
  explicit Fingerprint(std::string_view name) {
    for (const char c : name) byte(static_cast<unsigned char>(c));
  }
  Fingerprint& add(std::uint64_t bits) {
    for (int i = 0; i < 8; ++i) byte(static_cast<unsigned char>(bits >> (8 * i)));
    return *this;
  }
  Fingerprint& add(double x) { return add(std::bit_cast<std::uint64_t>(x)); }
  Fingerprint& add(float x) { return add(std::uint64_t{std::bit_cast<std::uint32_t>(x)}); }
  Fingerprint& add(std::int64_t x) { return add(static_cast<std::uint64_t>(x)); }
  std::uint64_t value() const noexcept { return h_; }

 private:
  void byte(unsigned char b) {
    h_ ^= b;
    h_ *= 0x100000001b3ULL;
  }
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

std::string num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

template <class... P>
std::string call(std::string_view function, P... params) {
  std::string text(function);
  text += '(';
  bool first = true;
  ((text += (first ? "" : ", ") + num(static_cast<double>(params)), first = false), ...);
  return text + ')';
}

// A sampler of width 1 whose fill is f(s, out, options); the fingerprint covers name and parameters.
template <class T, class F, class... P>
Sampler<T> make(std::string_view function, std::uint64_t budget, F f, P... params) {
  Fingerprint h(function);
  (h.add(params), ...);
  h.add(budget);
  return Sampler<T>(call(function, params...), budget, 1, h.value(), std::move(f));
}

}  // namespace

Sampler<std::uint32_t> uint32() {
  return make<std::uint32_t>("trnrand::fill_uint32", 1,
                             [](Stream s, std::span<std::uint32_t> o, const trncore::Options& opt) {
                               return trnrand::fill_uint32(s, o, opt);
                             });
}

Sampler<std::uint64_t> uint64() {
  return make<std::uint64_t>("trnrand::fill_uint64", 2,
                             [](Stream s, std::span<std::uint64_t> o, const trncore::Options& opt) {
                               return trnrand::fill_uint64(s, o, opt);
                             });
}

template <class T>
Sampler<T> uniform(Interval interval) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "uniform<float> or uniform<double>");
  constexpr std::uint64_t budget = sizeof(T) == 4 ? 1 : 2;
  return make<T>(
      sizeof(T) == 4 ? "trnrand::fill_uniform<float>" : "trnrand::fill_uniform<double>", budget,
      [interval](Stream s, std::span<T> o, const trncore::Options& opt) {
        return trnrand::fill_uniform(s, o, interval, opt);
      },
      static_cast<std::int64_t>(interval));
}
template Sampler<float> uniform<float>(Interval);
template Sampler<double> uniform<double>(Interval);

Sampler<float> normal(float mean, float stddev) {
  return make<float>(
      "trnrand::normal<float>", 2,
      [=](Stream s, std::span<float> o, const trncore::Options& opt) {
        return trnrand::normal(s, o, mean, stddev, opt);
      },
      mean, stddev);
}

Sampler<double> normal(double mean, double stddev) {
  return make<double>(
      "trnrand::normal<double>", 4,
      [=](Stream s, std::span<double> o, const trncore::Options& opt) {
        return trnrand::normal(s, o, mean, stddev, opt);
      },
      mean, stddev);
}

Sampler<float> normal_engine_order(float mean, float stddev) {
  return make<float>(
      "trnrand::normal_engine_order", 2,
      [=](Stream s, std::span<float> o, const trncore::Options& opt) {
        return trnrand::normal_engine_order(s, o, mean, stddev, opt);
      },
      mean, stddev);
}

Sampler<float> lognormal(float mean, float stddev) {
  return make<float>(
      "trnrand::lognormal<float>", 2,
      [=](Stream s, std::span<float> o, const trncore::Options& opt) {
        return trnrand::lognormal(s, o, mean, stddev, opt);
      },
      mean, stddev);
}

Sampler<double> lognormal(double mean, double stddev) {
  return make<double>(
      "trnrand::lognormal<double>", 4,
      [=](Stream s, std::span<double> o, const trncore::Options& opt) {
        return trnrand::lognormal(s, o, mean, stddev, opt);
      },
      mean, stddev);
}

Sampler<float> exponential(float rate) {
  return make<float>(
      "trnrand::exponential<float>", 1,
      [=](Stream s, std::span<float> o, const trncore::Options& opt) { return trnrand::exponential(s, o, rate, opt); },
      rate);
}

Sampler<double> exponential(double rate) {
  return make<double>(
      "trnrand::exponential<double>", 2,
      [=](Stream s, std::span<double> o, const trncore::Options& opt) { return trnrand::exponential(s, o, rate, opt); },
      rate);
}

Sampler<std::uint8_t> bernoulli(double p) {
  return make<std::uint8_t>(
      "trnrand::bernoulli", 2,
      [=](Stream s, std::span<std::uint8_t> o, const trncore::Options& opt) {
        return trnrand::bernoulli(s, o, p, opt);
      },
      p);
}

Sampler<std::int64_t> geometric(double p) {
  return make<std::int64_t>(
      "trnrand::geometric", 2,
      [=](Stream s, std::span<std::int64_t> o, const trncore::Options& opt) {
        return trnrand::geometric(s, o, p, opt);
      },
      p);
}

Sampler<std::int64_t> categorical(std::span<const double> weights) {
  // The table is built once; bad weights are kept as the constructor's error and rethrown by every fill
  // (a factory that threw on one rank only would leave the others waiting in the collective check).
  std::shared_ptr<const AliasTable> table;
  std::exception_ptr error;
  try {
    table = std::make_shared<const AliasTable>(weights);
  } catch (const trncore::Error&) {
    error = std::current_exception();
  }
  Fingerprint h("trnrand::categorical");
  h.add(static_cast<std::uint64_t>(weights.size()));
  for (const double w : weights) h.add(w);
  return Sampler<std::int64_t>("trnrand::categorical(" + std::to_string(weights.size()) + " weights)", 2, 1, h.value(),
                               [table, error](Stream s, std::span<std::int64_t> o, const trncore::Options& opt) {
                                 if (error) std::rethrow_exception(error);
                                 return table->sample(s, o, opt);
                               });
}

Sampler<std::int64_t> randint(std::int64_t low, std::int64_t high) {
  return make<std::int64_t>(
      "trnrand::randint", kWindow,
      [=](Stream s, std::span<std::int64_t> o, const trncore::Options& opt) {
        return trnrand::randint(s, o, low, high, opt);
      },
      low, high);
}

Sampler<double> gamma(double shape, double scale) {
  return make<double>(
      "trnrand::gamma<double>", kWindow,
      [=](Stream s, std::span<double> o, const trncore::Options& opt) {
        return trnrand::gamma(s, o, shape, scale, opt);
      },
      shape, scale);
}

Sampler<float> gamma(float shape, float scale) {
  return make<float>(
      "trnrand::gamma<float>", kWindow,
      [=](Stream s, std::span<float> o, const trncore::Options& opt) {
        return trnrand::gamma(s, o, shape, scale, opt);
      },
      shape, scale);
}

Sampler<std::int64_t> poisson(double lambda) {
  return make<std::int64_t>(
      "trnrand::poisson", kWindow,
      [=](Stream s, std::span<std::int64_t> o, const trncore::Options& opt) {
        return trnrand::poisson(s, o, lambda, opt);
      },
      lambda);
}

Sampler<double> beta(double a, double b) {
  return make<double>(
      "trnrand::beta<double>", kWindow,
      [=](Stream s, std::span<double> o, const trncore::Options& opt) { return trnrand::beta(s, o, a, b, opt); }, a, b);
}

Sampler<float> beta(float a, float b) {
  return make<float>(
      "trnrand::beta<float>", kWindow,
      [=](Stream s, std::span<float> o, const trncore::Options& opt) { return trnrand::beta(s, o, a, b, opt); }, a, b);
}

Sampler<double> chi_squared(double k) {
  return make<double>(
      "trnrand::chi_squared<double>", kWindow,
      [=](Stream s, std::span<double> o, const trncore::Options& opt) { return trnrand::chi_squared(s, o, k, opt); },
      k);
}

Sampler<float> chi_squared(float k) {
  return make<float>(
      "trnrand::chi_squared<float>", kWindow,
      [=](Stream s, std::span<float> o, const trncore::Options& opt) { return trnrand::chi_squared(s, o, k, opt); }, k);
}

Sampler<double> student_t(double nu) {
  return make<double>(
      "trnrand::student_t<double>", kWindow,
      [=](Stream s, std::span<double> o, const trncore::Options& opt) { return trnrand::student_t(s, o, nu, opt); },
      nu);
}

Sampler<float> student_t(float nu) {
  return make<float>(
      "trnrand::student_t<float>", kWindow,
      [=](Stream s, std::span<float> o, const trncore::Options& opt) { return trnrand::student_t(s, o, nu, opt); }, nu);
}

Sampler<std::int64_t> binomial(std::int64_t n, double p) {
  return make<std::int64_t>(
      "trnrand::binomial", kWindow,
      [=](Stream s, std::span<std::int64_t> o, const trncore::Options& opt) {
        return trnrand::binomial(s, o, n, p, opt);
      },
      n, p);
}

Sampler<double> truncated_normal(double mean, double stddev, double low, double high) {
  return make<double>(
      "trnrand::truncated_normal<double>", kWindow,
      [=](Stream s, std::span<double> o, const trncore::Options& opt) {
        return trnrand::truncated_normal(s, o, mean, stddev, low, high, opt);
      },
      mean, stddev, low, high);
}

Sampler<float> truncated_normal(float mean, float stddev, float low, float high) {
  return make<float>(
      "trnrand::truncated_normal<float>", kWindow,
      [=](Stream s, std::span<float> o, const trncore::Options& opt) {
        return trnrand::truncated_normal(s, o, mean, stddev, low, high, opt);
      },
      mean, stddev, low, high);
}

namespace {

template <class T>
Sampler<T> multivariate(std::span<const T> mean, std::span<const T> L) {
  const std::string_view function =
      sizeof(T) == 4 ? "trnrand::multivariate_normal<float>" : "trnrand::multivariate_normal<double>";
  std::vector<T> m(mean.begin(), mean.end()), l(L.begin(), L.end());
  Fingerprint h(function);
  h.add(static_cast<std::uint64_t>(m.size()));
  for (const T x : m) h.add(x);
  h.add(static_cast<std::uint64_t>(l.size()));
  for (const T x : l) h.add(x);
  // Width d = mean.size(); an empty mean (d = 0) keeps width 1 so sizes stay defined, and every fill throws
  // multivariate_normal's DimensionMismatch.
  const std::size_t width = m.empty() ? 1 : m.size();
  const std::uint64_t budget = (sizeof(T) == 4 ? 2 : 4) * static_cast<std::uint64_t>(width);
  return Sampler<T>(std::string(function) + "(d = " + std::to_string(m.size()) + ")", budget, width, h.value(),
                    [m = std::move(m), l = std::move(l)](Stream s, std::span<T> o, const trncore::Options& opt) {
                      return trnrand::multivariate_normal(s, o, std::span<const T>(m), std::span<const T>(l), opt);
                    });
}

}  // namespace

Sampler<double> multivariate_normal(std::span<const double> mean, std::span<const double> L) {
  return multivariate(mean, L);
}

Sampler<float> multivariate_normal(std::span<const float> mean, std::span<const float> L) {
  return multivariate(mean, L);
}

}  // namespace trnrand::mpi::samplers
