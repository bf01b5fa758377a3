// Adversarial einsum (issue #18): contractions (matrix products, batched products, Hadamard products,
// reductions) on host and sim over scaled, graded, subnormal, near-overflow and NaN inputs, against a
// binary128 evaluation of the same einsum written here from the definition (a loop over every label
// combination — no code shared with trntensor or trnblas). The einsum bound is componentwise relative to the
// einsum of |operands|, so the true error is max |Ŷ − Y| / einsum(|ops|) per element (0/0 = 0, x/0 = inf).
// Every certified result must have true error ≤ bound; every met result with a target must have true error
// ≤ target; a non-finite input must never be certified. Case counts are printed by the tallies.
#include <trntensor/einsum.hpp>
#include <trntensor/sharded.hpp>

#include <trnsci_testing/adversarial.hpp>
#include <trnsci_testing/errors.hpp>

#include <trncore/error.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace {

using trnsci_testing::quad;

struct Problem {
  std::string subscripts;
  std::vector<std::vector<std::int64_t>> shapes;
  std::vector<std::vector<double>> values;  // row-major
};

// The einsum and the einsum of |operands| in binary128, by a loop over all label values.
void quad_einsum(const Problem& p, std::vector<quad>& y, std::vector<quad>& mag, std::vector<std::int64_t>& out_shape) {
  const std::size_t arrow = p.subscripts.find("->");
  const std::string lhs = p.subscripts.substr(0, arrow), rhs = p.subscripts.substr(arrow + 2);
  std::vector<std::string> terms;
  std::string cur;
  for (char c : lhs) {
    if (c == ',') {
      terms.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  terms.push_back(cur);
  std::map<char, std::int64_t> extent;
  for (std::size_t o = 0; o < terms.size(); ++o)
    for (std::size_t d = 0; d < terms[o].size(); ++d) extent[terms[o][d]] = p.shapes[o][d];
  std::vector<char> labels;
  for (const auto& [c, e] : extent) labels.push_back(c);
  out_shape.clear();
  std::int64_t out_size = 1;
  for (char c : rhs) {
    out_shape.push_back(extent[c]);
    out_size *= extent[c];
  }
  y.assign(static_cast<std::size_t>(out_size), 0);
  mag.assign(y.size(), 0);
  std::map<char, std::int64_t> idx;
  for (char c : labels) idx[c] = 0;
  std::int64_t total = 1;
  for (char c : labels) total *= extent[c];
  for (std::int64_t t = 0; t < total; ++t) {
    quad prod = 1, aprod = 1;
    for (std::size_t o = 0; o < terms.size(); ++o) {
      std::int64_t off = 0;
      for (std::size_t d = 0; d < terms[o].size(); ++d) off = off * p.shapes[o][d] + idx[terms[o][d]];
      const quad v = p.values[o][static_cast<std::size_t>(off)];
      prod *= v;
      aprod *= v < 0 ? -v : v;
    }
    std::int64_t oo = 0;
    for (char c : rhs) oo = oo * extent[c] + idx[c];
    y[static_cast<std::size_t>(oo)] += prod;
    mag[static_cast<std::size_t>(oo)] += aprod;
    for (std::size_t l = labels.size(); l-- > 0;) {
      if (++idx[labels[l]] < extent[labels[l]]) break;
      idx[labels[l]] = 0;
    }
  }
}

// max over elements of |ŷ − y| / mag (componentwise, what the einsum bound measures); NaN in ŷ gives NaN.
double componentwise_error(const std::vector<double>& got, const std::vector<quad>& y, const std::vector<quad>& mag) {
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(got[i])) return NAN;
    const quad d = static_cast<quad>(got[i]) - y[i];
    const quad ad = d < 0 ? -d : d;
    if (ad == 0) continue;
    const double e = mag[i] == 0 ? INFINITY : static_cast<double>(ad / mag[i]);
    worst = std::max(worst, e);
  }
  return worst;
}

enum class Kind { normal, rows_scaled, graded, subnormal, near_overflow, nan };
const char* name(Kind k) {
  switch (k) {
    case Kind::normal: return "normal";
    case Kind::rows_scaled: return "scaled 2^+-40";
    case Kind::graded: return "graded";
    case Kind::subnormal: return "subnormal";
    case Kind::near_overflow: return "near-overflow";
    case Kind::nan: return "nan";
  }
  return "?";
}

std::vector<double> make(std::int64_t n, std::int64_t line, Kind kind, trnsci_testing::Rng& rng) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (double& x : v) x = rng.normal();
  for (std::int64_t i = 0; i < n; ++i) {
    double& x = v[static_cast<std::size_t>(i)];
    switch (kind) {
      case Kind::normal: break;
      case Kind::rows_scaled:
        x = std::ldexp(x, static_cast<int>((i / std::max<std::int64_t>(1, line)) * 17 % 81) - 40);
        break;
      case Kind::graded: x = std::ldexp(x, -static_cast<int>(i % std::max<std::int64_t>(1, line)) * 9); break;
      case Kind::subnormal:
        if (rng.uniform() < 0.2) x *= 1e-310;
        break;
      case Kind::near_overflow: x *= 1e307; break;
      case Kind::nan:
        if (i == n / 2) x = rng.uniform() < 0.5 ? NAN : INFINITY;
        break;
    }
  }
  return v;
}

struct Case {
  std::string subscripts;
  std::vector<std::vector<std::int64_t>> shapes;
};

std::vector<Case> cases() {
  return {
      {"ij,jk->ik", {{5, 7}, {7, 3}}},
      {"ij,jk->ik", {{1, 1}, {1, 1}}},
      {"ij,jk->ik", {{3, 129}, {129, 2}}},
      {"ij,jk->ik", {{2, 128}, {128, 127}}},
      {"bij,bjk->bik", {{3, 4, 13}, {3, 13, 5}}},  // batched: host's one strided-batched call
      {"ij,ij->ij", {{6, 7}, {6, 7}}},             // Hadamard: the direct product loop
      {"ij->i", {{5, 31}}},                        // reduction
      {"ij->", {{7, 11}}},                         // full reduction
      {"ijk,jk->i", {{4, 5, 6}, {5, 6}}},          // contraction over two labels
  };
}

trncore::Options sim(trncore::MathMode m) {
  return trncore::Options{}.with_backend(trncore::Backend::sim).with_math_mode(m);
}

void run_all(trnsci_testing::Tally& tally, const std::vector<std::pair<std::string, trncore::Options>>& configs,
             int repeats) {
  const Kind kinds[] = {Kind::normal, Kind::rows_scaled, Kind::graded, Kind::subnormal, Kind::near_overflow, Kind::nan};
  std::uint64_t seed = 1;
  for (int rep = 0; rep < repeats; ++rep)
    for (const Case& c : cases())
      for (const Kind kind : kinds) {
        trnsci_testing::Rng rng(seed++);
        Problem p{c.subscripts, c.shapes, {}};
        for (const auto& s : c.shapes) {
          std::int64_t n = 1;
          for (auto e : s) n *= e;
          p.values.push_back(make(n, s.back(), kind, rng));
        }
        std::vector<quad> y, mag;
        std::vector<std::int64_t> out_shape;
        quad_einsum(p, y, mag, out_shape);
        std::vector<trntensor::TensorView<const double>> views;
        for (std::size_t o = 0; o < p.values.size(); ++o) views.emplace_back(p.values[o].data(), p.shapes[o]);
        for (const auto& [cname, options] : configs) {
          const std::string what = c.subscripts + " " + name(kind) + " " + cname + " seed " + std::to_string(seed - 1);
          trncore::AccuracyReport r;
          trntensor::Tensor<double> out;
          try {
            out = trntensor::einsum<double>(c.subscripts, views, options, r);
          } catch (const trncore::NotSupported&) {
            continue;  // e.g. a mode the backend does not offer for this step
          }
          const double err = componentwise_error(out.values(), y, mag);
          if (kind == Kind::nan) {
            EXPECT_FALSE(r.certified) << what;
          }
          if (r.met) {
            EXPECT_TRUE(r.certified) << what;
          }
          if (!r.certified) {
            EXPECT_FALSE(r.uncertified_reason.empty()) << what;
          }
          if (options.target_forward_error)
            tally.record_met(r.certified, r.met, r.a_priori_bound, *options.target_forward_error, err, what);
          else
            tally.record(r.certified, r.a_priori_bound, err, what);
          // The no-report overload agrees: it throws exactly when met is false.
          if (!r.met) {
            EXPECT_THROW(trntensor::einsum<double>(c.subscripts, views, options), trncore::TargetNotMet) << what;
          }
        }
      }
}

TEST(AdversarialEinsum, HostCertificatesHold) {
  trnsci_testing::Tally tally("trntensor einsum host");
  run_all(tally,
          {{"host", trncore::Options{}},
           {"host target 1e-13", trncore::Options{}.with_target(1e-13)},
           {"host target 1e-15", trncore::Options{}.with_target(1e-15)}},
          trnsci_testing::adversarial_count(1, 4));
  EXPECT_EQ(tally.violations(), 0);
}

TEST(AdversarialEinsum, SimCertificatesHold) {
  trnsci_testing::Tally tally("trntensor einsum sim");
  run_all(tally,
          {{"sim ozaki", sim(trncore::MathMode::ozaki)},
           {"sim compensated", sim(trncore::MathMode::compensated)},
           {"sim bf16", sim(trncore::MathMode::bf16)},
           {"sim automatic target 1e-10", sim(trncore::MathMode::automatic).with_target(1e-10)}},
          trnsci_testing::adversarial_count(1, 3));
  EXPECT_EQ(tally.violations(), 0);
}

// Regression (issue #18): a GEMM step that trnblas::gemm reports uncertified (NaN operand, no target) made
// einsum say met = true. Now the einsum is uncertified with the GEMM's reason, and the plain overload throws.
TEST(AdversarialEinsum, UncertifiedGemmStepIsNotDropped) {
  std::vector<double> a{1, 2, NAN, 4}, b{1, 0, 0, 1};
  const trntensor::TensorView<const double> ops[] = {{a.data(), {2, 2}}, {b.data(), {2, 2}}};
  for (const auto& o : {trncore::Options{}, sim(trncore::MathMode::ozaki)}) {
    trncore::AccuracyReport r;
    trntensor::einsum<double>("ij,jk->ik", ops, o, r);
    EXPECT_FALSE(r.certified) << trncore::to_string(o);
    EXPECT_FALSE(r.met);
    EXPECT_NE(r.uncertified_reason.find("inf or NaN"), std::string::npos) << r.uncertified_reason;
    EXPECT_THROW(trntensor::einsum<double>("ij,jk->ik", ops, o), trncore::TargetNotMet);
  }
}

TEST(AdversarialEinsum, InvalidEnumsAndThreadsAreRejected) {
  std::vector<double> a{1, 2, 3, 4};
  const trntensor::TensorView<const double> ops[] = {{a.data(), {2, 2}}, {a.data(), {2, 2}}};
  trncore::Options bad_mode;
  bad_mode.math_mode = static_cast<trncore::MathMode>(42);
  trncore::Options bad_backend;
  bad_backend.backend = static_cast<trncore::Backend>(7);
  for (const auto& o : {bad_mode, bad_backend, trncore::Options{}.with_threads(-1)})
    EXPECT_THROW(trntensor::einsum<double>("ij,jk->ik", ops, o), trncore::InvalidArgument);
  EXPECT_THROW(trntensor::einsum<double>(
                   "ij,jk->ik", ops, trntensor::PlanOptions{}.with_algorithm(static_cast<trntensor::PathAlgorithm>(9))),
               trncore::InvalidArgument);
  EXPECT_THROW(trntensor::multi_einsum<double>({}, bad_mode), trncore::InvalidArgument);
  trnsci_testing::expect_error<trncore::InvalidArgument>([] { trntensor::ThreadTransport(-2); },
                                                         "trntensor::ThreadTransport", {"threads"});
}

}  // namespace
