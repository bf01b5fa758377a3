// trnblas's adversarial layer (issue 18, docs/trncore.md "Certificates"): trnblas::gemm on the host and on
// the sim backend in every math mode, with and without targets, over inputs built to break the bounds —
// random, rows and columns scaled by 2^±40, graded, mixed magnitudes, subnormal and near-overflow entries,
// NaN and Inf — each against a binary128 reference (trnsci_testing::gemm_quad, which shares no code with
// trnblas). For every result:
//   certified ⇒ true error ≤ bound, in the measure gemm documents: componentwise,
//               max_ij |Ĉ_ij − C_ij| / (|α||op(A)||op(B)| + |β||C|)_ij (0/0 = 0, x/0 = inf);
//   error > target ⇒ met == false; met == certified && (!target || bound ≤ target);
//   the no-report overload throws TargetNotMet exactly when met is false, and otherwise writes the same bits.
// The case count is printed ("adversarial trnblas gemm …: N cases"); TRNSCI_ADVERSARIAL=full (ctest label
// adversarial) runs more inputs and larger sizes (127/128/129).
#include <trnblas/gemm.hpp>
#include <trncore/error.hpp>
#include <trncore/options.hpp>
#include <trncore/sim/product_model.hpp>
#include <trnsci_testing/adversarial.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using trncore::Backend;
using trncore::Layout;
using trncore::MathMode;
using trncore::sim::ProductModel;
using trnsci_testing::quad;
using i64 = std::int64_t;

enum class Input { random, rows, inner, rows_and_inner, graded, mixed, subnormal, near_overflow, nan, inf };
constexpr Input kInputs[] = {Input::random,   Input::rows,      Input::inner,         Input::rows_and_inner,
                             Input::graded,   Input::mixed,     Input::subnormal,     Input::near_overflow,
                             Input::nan,      Input::inf};

const char* name(Input in) {
  switch (in) {
    case Input::random: return "random";
    case Input::rows: return "rows/cols 2^+-40";
    case Input::inner: return "inner dimension 2^+-40";
    case Input::rows_and_inner: return "rows, cols and inner 2^+-40";
    case Input::graded: return "graded";
    case Input::mixed: return "mixed magnitude";
    case Input::subnormal: return "subnormal entries";
    case Input::near_overflow: return "near-overflow entries";
    case Input::nan: return "NaN";
    case Input::inf: return "Inf";
  }
  return "?";
}

// A column-major problem C = alpha·A·B + beta·C (A m×k, B k×n) with values exact in T.
struct Problem {
  i64 m = 0, n = 0, k = 0;
  std::vector<double> a, b, c;
  double alpha = 1, beta = 0;
  std::string what;
};

template <class T>
Problem make(Input in, i64 m, i64 n, i64 k, std::uint64_t seed) {
  namespace ts = trnsci_testing;
  Problem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = ts::random_matrix(m, k, seed);
  p.b = ts::random_matrix(k, n, seed + 1);
  p.c = ts::random_matrix(m, n, seed + 2);
  ts::Rng rng(seed + 3);
  if (rng.uniform() < 0.5) {
    p.alpha = 0.75;
    p.beta = -0.5;
  }
  constexpr bool is_float = std::is_same_v<T, float>;
  const double tiny = std::numeric_limits<T>::denorm_min(), huge = std::numeric_limits<T>::max();
  // Power-of-two exponents that keep float data inside float's normal range (2^±126) after the scalings.
  const int cap = is_float ? 100 : 1000;
  const auto pick = [&](i64 count) { return static_cast<std::size_t>(rng.next() % static_cast<std::uint64_t>(count)); };
  switch (in) {
    case Input::random: break;
    case Input::rows:  // rows of op(A), columns of op(B): what the sim methods scale by
      ts::scale_rows(p.a, m, k, 40, seed + 4);
      ts::scale_cols(p.b, k, n, 40, seed + 5);
      break;
    case Input::inner:  // the inner dimension: every row of A spans 2^80, so slices lose the small entries
      ts::scale_cols(p.a, m, k, 40, seed + 4);
      ts::scale_rows(p.b, k, n, 40, seed + 5);
      break;
    case Input::rows_and_inner:
      ts::scale_rows(p.a, m, k, 40, seed + 4);
      ts::scale_cols(p.a, m, k, 40, seed + 5);
      ts::scale_rows(p.b, k, n, 40, seed + 6);
      ts::scale_cols(p.b, k, n, 40, seed + 7);
      break;
    case Input::graded:  // a_iq = x·2^(−3(i+q)), b_qj = x·2^(−3(q+j)): rows and columns span 2^(−3k) and more
      for (i64 q = 0; q < k; ++q) {
        for (i64 i = 0; i < m; ++i) p.a[static_cast<std::size_t>(i + q * m)] *= std::ldexp(1.0, -std::min(cap, static_cast<int>(3 * (i + q))));
        for (i64 j = 0; j < n; ++j) p.b[static_cast<std::size_t>(q + j * k)] *= std::ldexp(1.0, -std::min(cap, static_cast<int>(3 * (q + j))));
      }
      break;
    case Input::mixed:  // every third column of A ≈ 1e20, every fifth entry of A ≈ 1e-30, B ≈ 1
      for (i64 q = 0; q < k; ++q)
        for (i64 i = 0; i < m; ++i) {
          double& x = p.a[static_cast<std::size_t>(i + q * m)];
          if (q % 3 == 1) x = std::ldexp(x, 66);
          if ((i + q) % 5 == 2) x = std::ldexp(x, is_float ? -60 : -100);
        }
      break;
    case Input::subnormal:  // a quarter of A's entries (and a few of B's) subnormal in T
      for (std::size_t i = 0; i < p.a.size(); ++i)
        if (rng.uniform() < 0.25) p.a[i] = tiny * static_cast<double>(1 + rng.next() % 1000);
      p.b[pick(static_cast<i64>(p.b.size()))] = -tiny * 3;
      break;
    case Input::near_overflow:  // one row of A near T's largest value; the rest N(0, 1)
      for (i64 q = 0; q < k; ++q) {
        double& x = p.a[static_cast<std::size_t>(pick(m) + static_cast<std::size_t>(q * m))];
        x = std::copysign(huge / static_cast<double>(1 + rng.next() % 8), x);
      }
      break;
    case Input::nan: p.a[pick(static_cast<i64>(p.a.size()))] = std::numeric_limits<double>::quiet_NaN(); break;
    case Input::inf: p.b[pick(static_cast<i64>(p.b.size()))] = -std::numeric_limits<double>::infinity(); break;
  }
  for (auto* v : {&p.a, &p.b, &p.c})
    for (double& x : *v) x = static_cast<double>(static_cast<T>(x));  // exact in T from here on
  p.what = std::string(is_float ? "float " : "double ") + name(in) + " " + std::to_string(m) + "x" +
           std::to_string(n) + "x" + std::to_string(k) + (p.beta != 0 ? " alpha 0.75 beta -0.5" : "");
  return p;
}

// The binary128 reference C = alpha·A·B + beta·C and the componentwise scale |alpha||A||B| + |beta||C|.
struct Reference {
  std::vector<quad> value, scale;
};

Reference reference(const Problem& p) {
  std::vector<double> abs_a(p.a.size()), abs_b(p.b.size());
  std::transform(p.a.begin(), p.a.end(), abs_a.begin(), [](double x) { return std::fabs(x); });
  std::transform(p.b.begin(), p.b.end(), abs_b.begin(), [](double x) { return std::fabs(x); });
  Reference r;
  r.value = trnsci_testing::gemm_quad(p.m, p.n, p.k, p.a.data(), p.b.data());
  r.scale = trnsci_testing::gemm_quad(p.m, p.n, p.k, abs_a.data(), abs_b.data());
  for (std::size_t i = 0; i < r.value.size(); ++i) {
    r.value[i] = static_cast<quad>(p.alpha) * r.value[i] + static_cast<quad>(p.beta) * static_cast<quad>(p.c[i]);
    r.scale[i] = static_cast<quad>(std::fabs(p.alpha)) * r.scale[i] +
                 static_cast<quad>(std::fabs(p.beta)) * trnsci_testing::quad_abs(static_cast<quad>(p.c[i]));
  }
  return r;
}

// max_ij |x − ref| / scale (0/0 = 0, x/0 = inf; NaN in x or ref gives NaN).
template <class T>
double componentwise_error(const std::vector<T>& x, const Reference& r) {
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const quad d = trnsci_testing::quad_abs(static_cast<quad>(x[i]) - r.value[i]);
    if (d != d) return std::numeric_limits<double>::quiet_NaN();
    const double e = r.scale[i] > 0 ? static_cast<double>(d / r.scale[i])
                                    : (d == 0 ? 0.0 : std::numeric_limits<double>::infinity());
    worst = std::max(worst, e);
  }
  return worst;
}

struct Config {
  std::string name;
  Backend backend = Backend::sim;
  MathMode mode = MathMode::automatic;
  std::optional<double> target;
};

std::vector<Config> configs() {
  std::vector<Config> c{{"host", Backend::host, MathMode::automatic, {}},
                        {"host target 1e-10", Backend::host, MathMode::automatic, 1e-10}};
  for (const MathMode m : {MathMode::bf16, MathMode::fp16, MathMode::tf32, MathMode::fp32, MathMode::fp8_e4m3,
                           MathMode::fp8_e5m2, MathMode::sr, MathMode::compensated, MathMode::ozaki,
                           MathMode::automatic})
    c.push_back({std::string("sim ") + std::string(trncore::to_string(m)), Backend::sim, m, {}});
  c.push_back({"sim automatic target 1e-2", Backend::sim, MathMode::automatic, 1e-2});
  c.push_back({"sim automatic target 1e-6", Backend::sim, MathMode::automatic, 1e-6});
  c.push_back({"sim automatic target 1e-13", Backend::sim, MathMode::automatic, 1e-13});
  c.push_back({"sim ozaki target 1e-10", Backend::sim, MathMode::ozaki, 1e-10});
  c.push_back({"sim compensated target 1e-5", Backend::sim, MathMode::compensated, 1e-5});
  c.push_back({"sim bf16 target 1e-2", Backend::sim, MathMode::bf16, 1e-2});
  return c;
}

template <class T>
void run_problem(const Problem& p, const Config& cfg, ProductModel product, trnsci_testing::Tally& tally,
                 bool also_without_report) {
  std::vector<T> a(p.a.begin(), p.a.end()), b(p.b.begin(), p.b.end()), c(p.c.begin(), p.c.end());
  trncore::Options o;
  o.backend = cfg.backend;
  o.math_mode = cfg.mode;
  o.target_forward_error = cfg.target;
  if (cfg.backend == Backend::sim) o.product = product;
  const std::string what = p.what + " | " + cfg.name +
                           (cfg.backend == Backend::sim ? std::string(" ") + std::string(trncore::sim::to_string(product))
                                                        : std::string());
  std::vector<T> with_report = c;
  trncore::AccuracyReport r;
  trnblas::gemm(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::no_trans, p.m, p.n, p.k,
                static_cast<T>(p.alpha), a.data(), p.m, b.data(), p.k, static_cast<T>(p.beta), with_report.data(), p.m,
                o, r);
  const double error = componentwise_error(with_report, reference(p));
  EXPECT_EQ(r.met, r.certified && (!cfg.target || r.a_priori_bound <= *cfg.target)) << what;
  EXPECT_EQ(r.certified, r.uncertified_reason.empty()) << what << ": " << r.uncertified_reason;
  if (cfg.target) tally.record_met(r.certified, r.met, r.a_priori_bound, *cfg.target, error, what);
  else tally.record(r.certified, r.a_priori_bound, error, what);
  if (!also_without_report) return;
  std::vector<T> without = c;
  bool threw = false;
  try {
    trnblas::gemm(Layout::col_major, trnblas::Op::no_trans, trnblas::Op::no_trans, p.m, p.n, p.k,
                  static_cast<T>(p.alpha), a.data(), p.m, b.data(), p.k, static_cast<T>(p.beta), without.data(), p.m, o);
  } catch (const trncore::TargetNotMet&) {
    threw = true;
  }
  EXPECT_EQ(threw, !r.met) << what << ": the no-report overload must throw exactly when met is false ("
                           << r.uncertified_reason << ")";
  if (!threw) {
    EXPECT_EQ(0, std::memcmp(without.data(), with_report.data(), without.size() * sizeof(T))) << what;
  }
}

template <class T>
void run_all(const char* tally_name) {
  trnsci_testing::Tally tally(tally_name);
  const bool full = trnsci_testing::adversarial_full();
  const std::vector<i64> sizes = full ? std::vector<i64>{1, 2, 3, 7, 16, 33, 64, 127, 128, 129}
                                      : std::vector<i64>{1, 2, 3, 7, 16, 33};
  const int per_input = trnsci_testing::adversarial_count(2, 6);
  const auto cfgs = configs();
  trnsci_testing::Rng rng(std::is_same_v<T, float> ? 1801 : 1802);
  int index = 0;
  for (const Input in : kInputs)
    for (int rep = 0; rep < per_input; ++rep) {
      const auto size = [&] { return sizes[static_cast<std::size_t>(rng.next() % sizes.size())]; };
      const i64 m = size(), n = size(), k = size();
      const Problem p = make<T>(in, m, n, k, rng.next());
      for (const Config& cfg : cfgs) {
        const ProductModel product = index % 2 == 0 ? ProductModel::bf16 : ProductModel::exact;
        run_problem<T>(p, cfg, product, tally, index % 3 == 0);
        ++index;
      }
    }
  tally.print();
  EXPECT_GT(tally.cases(), 0);
}

TEST(TrnblasAdversarial, GemmDoubleEveryModeCertifiedBoundsHold) { run_all<double>("trnblas gemm double"); }
TEST(TrnblasAdversarial, GemmFloatEveryModeCertifiedBoundsHold) { run_all<float>("trnblas gemm float"); }

}  // namespace
