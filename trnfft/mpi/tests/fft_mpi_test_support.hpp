#pragma once
// What the trnfft_mpi tests share: the oracle tolerances, the normwise relative error, deterministic inputs,
// the grids of a rank count, 3-D blocks and their reassembly on every rank, and the check that a composed
// AccuracyReport is the same on every rank.

#include <trnfft/plan.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/mpi.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace fft_mpi_test {

using Dims = std::vector<std::int64_t>;

/// The normwise bound of an FFT of N points in T's precision, ‖ŷ − y‖₂ ≤ 8·u·log2(N)·‖y‖₂ (plan.hpp's
/// c·u·log2 N with c = 8 ≥ Higham's 6.7): what two FFTs in different orders may differ by, per side.
template <class T>
double normwise_bound(std::int64_t n) {
  return 8.0 * (std::numeric_limits<T>::epsilon() / 2) * std::max(1.0, std::log2(static_cast<double>(n)));
}

/// ‖got − ref‖₂ / ‖ref‖₂ (‖got − ref‖₂ when ref is zero), complex or real elements.
template <class V, class W>
double rel_err(const V& got, const W& ref) {
  EXPECT_EQ(got.size(), ref.size());
  double e = 0, y = 0;
  for (std::size_t i = 0; i < std::min(got.size(), ref.size()); ++i) {
    e += std::norm(std::complex<double>(got[i]) - std::complex<double>(ref[i]));
    y += std::norm(std::complex<double>(ref[i]));
  }
  return y == 0 ? std::sqrt(e) : std::sqrt(e / y);
}

/// n deterministic complex values of magnitude ≤ √2, no two periods alike.
template <class T>
std::vector<std::complex<T>> cdata(std::int64_t n) {
  std::vector<std::complex<T>> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = {static_cast<T>(std::sin(0.37 * static_cast<double>(i) + 0.4)),
                                      static_cast<T>(std::cos(0.71 * static_cast<double>(i)))};
  return v;
}

/// n deterministic real values in [−0.8, 1.2].
template <class T>
std::vector<T> rdata(std::int64_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = static_cast<T>(std::sin(0.3 * static_cast<double>(i)) + 0.2);
  return v;
}

/// Every P0 × P1 grid of p ranks.
inline std::vector<std::pair<std::int64_t, std::int64_t>> grids(int p) {
  std::vector<std::pair<std::int64_t, std::int64_t>> g;
  for (std::int64_t r = 1; r <= p; ++r)
    if (p % r == 0) g.emplace_back(r, p / r);
  return g;
}

/// "d0xd1x…".
inline std::string show(const Dims& d) {
  std::string s;
  for (const auto n : d) {
    if (!s.empty()) s += 'x';
    s += std::to_string(n);
  }
  return s;
}

/// Block [s0, s0+c0) × [s1, s1+c1) × [s2, s2+c2) of a row-major d0 × d1 × d2 array.
template <class V>
V block(const V& g, const Dims& d, std::int64_t s0, std::int64_t c0, std::int64_t s1, std::int64_t c1, std::int64_t s2,
        std::int64_t c2) {
  V b;
  for (std::int64_t i = s0; i < s0 + c0; ++i)
    for (std::int64_t j = s1; j < s1 + c1; ++j)
      for (std::int64_t k = s2; k < s2 + c2; ++k) b.push_back(g[static_cast<std::size_t>((i * d[1] + j) * d[2] + k)]);
  return b;
}

/// Every rank's block (as `block` cut it), reassembled into the whole array on every rank.
template <class E>
std::vector<E> assemble(const trncore::mpi::Communicator& comm, const std::vector<E>& mine, const Dims& d,
                        std::int64_t s0, std::int64_t c0, std::int64_t s1, std::int64_t c1, std::int64_t s2,
                        std::int64_t c2) {
  const auto data = comm.allgatherv(std::span<const E>(mine));
  const std::vector<std::int64_t> box{s0, c0, s1, c1, s2, c2};
  const auto boxes = comm.allgatherv(std::span<const std::int64_t>(box));
  std::vector<E> g(static_cast<std::size_t>(d[0] * d[1] * d[2]));
  std::size_t at = 0;
  for (std::size_t r = 0; r < boxes.size(); r += 6)
    for (std::int64_t i = boxes[r]; i < boxes[r] + boxes[r + 1]; ++i)
      for (std::int64_t j = boxes[r + 2]; j < boxes[r + 2] + boxes[r + 3]; ++j)
        for (std::int64_t k = boxes[r + 4]; k < boxes[r + 4] + boxes[r + 5]; ++k)
          g[static_cast<std::size_t>((i * d[1] + j) * d[2] + k)] = data[at++];
  EXPECT_EQ(at, data.size());
  return g;
}

/// Every field of a report, the bound's and the target's bits included.
inline std::string fingerprint(const trncore::AccuracyReport& r) {
  std::string s = r.to_string() + "|" + std::to_string(std::bit_cast<std::uint64_t>(r.a_priori_bound)) + "|" +
                  (r.certified ? "c" : "u") + (r.met ? "m" : "n") + r.uncertified_reason + "|" +
                  (r.target ? std::to_string(std::bit_cast<std::uint64_t>(*r.target)) : "none");
  for (const auto& t : r.trajectory) s += "|" + t.description;
  for (const auto& t : r.references) s += "|" + t;
  return s;
}

/// Expects `r` to be the same report (fingerprint) on every rank of comm.
inline void expect_same_report_everywhere(const trncore::mpi::Communicator& comm, const trncore::AccuracyReport& r) {
  const auto mine = fingerprint(r);
  const std::vector<std::int64_t> len{static_cast<std::int64_t>(mine.size())};
  const auto lens = comm.allgatherv(std::span<const std::int64_t>(len));
  const auto all = comm.allgatherv(std::span<const char>(mine.data(), mine.size()));
  std::size_t at = 0;
  for (std::size_t q = 0; q < lens.size(); ++q) {
    EXPECT_EQ(std::string(all.data() + at, static_cast<std::size_t>(lens[q])), mine) << "rank " << q;
    at += static_cast<std::size_t>(lens[q]);
  }
}

/// A sim run's report checks: certified, met, positive, the plan's target kept and met, and the same report on
/// every rank.
inline void expect_good_report(const trncore::mpi::Communicator& comm, const trncore::AccuracyReport& r,
                               const trnfft::PlanOptions& o) {
  EXPECT_TRUE(r.certified) << r.uncertified_reason;
  EXPECT_TRUE(r.met);
  EXPECT_GT(r.a_priori_bound, 0.0);
  EXPECT_EQ(r.target, o.target_forward_error);
  if (o.target_forward_error) {
    EXPECT_LE(r.a_priori_bound, *o.target_forward_error);
  }
  expect_same_report_everywhere(comm, r);
}

/// A NaN in the last rank's input (when it holds any) must uncertify the composed report on every rank — the
/// same report everywhere, its reason "on rank r: …NaN…" naming a rank at or below the poisoned one (the NaN
/// spreads to later stages on other ranks) — and make the form without a report throw TargetNotMet on every
/// rank; with no poisoned rank the run is certified and met. `xl` is this rank's input, `out` its output.
template <class Plan, class In, class Out>
void expect_nan_on_last_rank_uncertifies(const trncore::mpi::Communicator& comm, const Plan& plan, In xl, Out& out) {
  using E = typename In::value_type;
  const bool mine = comm.rank() == comm.size() - 1 && !xl.empty();
  if (mine) xl[0] = E(std::numeric_limits<float>::quiet_NaN());
  const bool poisoned = comm.any_of(mine);
  const int culprit = comm.allreduce_max(mine ? comm.rank() : -1);
  trncore::AccuracyReport r;
  plan.execute(xl, out, r);
  expect_same_report_everywhere(comm, r);
  EXPECT_EQ(r.certified, !poisoned);
  EXPECT_EQ(r.met, !poisoned);
  if (poisoned) {
    EXPECT_EQ(r.uncertified_reason.rfind("on rank ", 0), 0u) << r.uncertified_reason;
    EXPECT_NE(r.uncertified_reason.find("NaN"), std::string::npos) << r.uncertified_reason;
    EXPECT_LE(std::stoi(r.uncertified_reason.substr(8)), culprit) << r.uncertified_reason;
    EXPECT_THROW(plan.execute(xl, out), trncore::TargetNotMet);
  } else {
    plan.execute(xl, out);
  }
}

}  // namespace fft_mpi_test
