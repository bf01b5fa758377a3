// The host energy stage, one occupied pair at a time (issue #24's fused stage; trnblas::df_mp2_energy's host
// path and trntensor_mpi's distributed energy both call it).
//
// Per pair (i, j ≥ i), i.e. per nvir × nvir tile of (ia|jb): the tile's transpose (the (ib|ja) values) is
// copied into scratch so every read is contiguous, then one sweep forms each term in double
// (w·(K²/D), w·(K(K − K')/D)), sums it in double-double (DWPlusFP, ≤ 2u² relative per addition) on four
// interleaved chains per energy (b mod 4, merged at the end of the pair), and accumulates the bound's
// per-term pieces. Callers combine the pairs in pair order (df_mp2_combine_pairs), so the energy and the
// bound are bitwise the same however the pairs were spread over threads or ranks.
//
// Summation error: each chain's double-double sum of ≤ nvir² terms errs by ≤ 2u²·nvir²·Σ_pair|terms| (each
// DWPlusFP addition errs by ≤ 2u²|partial sum| ≤ 2u²·Σ|terms|, up to 1 + O(u²)); merging the chains (3 per
// energy), adding the npairs pair sums and finally E_os + E_ss are AccurateDWPlusDW additions, ≤ 3u² + 13u³
// < 4u² relative to their result, ≤ 4u²·Σ|terms| each, on any path at most npairs + 4 of them. So the
// reduction errs by ≤ (2·nvir² + 4·(npairs + 4))·u²·Σ|terms|, charged against
// abs = Σ w|N|/D_low·(1 + rel) ≥ Σ|terms|.
//
// The bound per term (dk = ε_K·S_{ia,jb}, dkt = ε_K·S_{ib,ja}, S = ν ν from df_mp2_row_norm_bound), with one
// division: with r = 1/D_low (computed),
//   w·[(dN_os + dN_ss)·r + |N_os|·(d_err·r² + rel_os·r) + |N_ss|·(d_err·r² + rel_ss·r) + 2·underflow]
// with underflow = abs_unit·(1 + |K| + |K'|)·(1 + r). Every operand is non-negative and each rounds at most
// ~25 times on its way into a term, then ≤ nvir² + npairs more times in the accumulation: the computed total
// is ≥ (1 − γ_{n+60}) × the exact one (n = the number of terms), so × (1 + 2γ_{n+60}) covers it.
#include <trnblas/detail/df_mp2_pair_stage.hpp>

#include <cmath>
#include <limits>

namespace trnblas::detail {

namespace {

constexpr double kU64 = 0x1p-53;

double gamma64(double n) {
  const double nu = n * kU64;
  return nu >= 1.0 ? std::numeric_limits<double>::infinity() : nu / (1.0 - nu);
}

// The stage's arithmetic: terms in double (D to γ_3 of Σ|e|; a term given K̂ and D̂ to γ_2 (opposite spin)
// or γ_3 (same spin)), sums in double-double; results below the normal range err by at most 64 half-spacings
// of the smallest subnormal per term, carried through a multiplication by |K| or |K'| and the division.
struct Arithmetic {
  double d_rel = gamma64(3), os_rel = gamma64(2), ss_rel = gamma64(3), abs_unit = 64 * 0x1p-1074;
};

struct RowScalars {
  double w, eij, eva, eka, ekja, mag_a, d_rel, os_rel, ss_rel, abs_unit;
};

// One row a of a pair tile, element by element (a separate function with restrict pointers so the compiler
// vectorises it): each energy term and its share of the bound.
void row_terms(std::int64_t nvir, const double* __restrict krow, const double* __restrict ktrow,
               const double* __restrict ev, const double* __restrict nui, const double* __restrict nuj,
               const RowScalars rs, double* __restrict tos, double* __restrict tss, double* __restrict tb,
               double* __restrict ta, double* __restrict tl) {
  const double w = rs.w, eij = rs.eij, eva = rs.eva, eka = rs.eka, ekja = rs.ekja, mag_a = rs.mag_a;
  const double d_rel = rs.d_rel, os_rel = rs.os_rel, ss_rel = rs.ss_rel, abs_unit = rs.abs_unit;
  for (std::int64_t c = 0; c < nvir; ++c) {
    const double kab = krow[c], kba = ktrow[c];
    const double d = eij - (eva + ev[c]);
    tos[c] = w * (kab * kab / d);
    tss[c] = w * (kab * (kab - kba) / d);
    const double dk = eka * nuj[c], dkt = ekja * nui[c];  // ε_K·S_{ia,jc}, ε_K·S_{ic,ja}
    const double mag_e = mag_a + std::fabs(ev[c]);
    const double d_err = d_rel * mag_e;
    const double dlow = std::fabs(d) - d_err - 4 * kU64 * mag_e;
    tl[c] = dlow;
    const double r = 1 / dlow;
    const double ak = std::fabs(kab), n_os = kab * kab, n_ss = std::fabs(kab * (kab - kba));
    const double dn = dk * (2 * ak + dk) + dk * std::fabs(kab - kba) + (ak + dk) * (dk + dkt);
    const double der = d_err * r * r;
    const double underflow = abs_unit * (1 + ak + std::fabs(kba)) * (1 + r);
    tb[c] = w * (dn * r + n_os * (der + os_rel * r) + n_ss * (der + ss_rel * r) + 2 * underflow);
    ta[c] = w * r * (n_os * (1 + os_rel) + n_ss * (1 + ss_rel));
  }
}

}  // namespace

// The computed Σ̂ b² (squares ≥ b²(1 − u) − 2^-1075 each, a sum of non-negative terms in any order ≥
// (1 − γ_{naux−1})·Σ) gives ‖B_r‖² ≤ (Σ̂ + naux·2^-1073)·(1 + 2γ_naux); that expression and its square root
// round three times (each ≥ (1 − u) relative), so × (1 + 8u) on the computed root covers them and its own
// rounding.
double df_mp2_row_norm_bound(double sum_of_squares, std::int64_t naux) {
  const double up = 1 + 2 * gamma64(static_cast<double>(naux));
  const double floor = static_cast<double>(naux) * 0x1p-1073;
  return std::sqrt((sum_of_squares + floor) * up) * (1 + 8 * kU64);
}

Mp2PairSums df_mp2_pair_sums(std::int64_t i, std::int64_t j, std::int64_t nvir, const double* tile, std::int64_t ld,
                             const double* nu_i, const double* nu_j, const double* eo, const double* ev, double eps_k,
                             std::vector<double>& scratch) {
  const Arithmetic st;
  scratch.resize(static_cast<std::size_t>(nvir * nvir + 5 * nvir));
  double* kt = scratch.data();
  for (std::int64_t c = 0; c < nvir; ++c)
    for (std::int64_t a = 0; a < nvir; ++a) kt[a * nvir + c] = tile[c * ld + a];
  const double w = i == j ? 1.0 : 2.0, eij = eo[i] + eo[j], mag_ij = std::fabs(eo[i]) + std::fabs(eo[j]);
  constexpr int kChains = 4;
  trncore::dd os[kChains], ss[kChains];
  double bound[kChains] = {}, abs[kChains] = {};
  bool positive = true;
  // Per row a: an element-wise pass (vectorisable: no reduction) writes each term and its bound pieces,
  // then a serial pass accumulates them on the chains.
  double* tos = kt + nvir * nvir;
  double* tss = tos + nvir;
  double* tb = tss + nvir;
  double* ta = tb + nvir;
  double* tl = ta + nvir;
  for (std::int64_t a = 0; a < nvir; ++a) {
    const double eka = eps_k * nu_i[a], ekja = eps_k * nu_j[a], eva = ev[a], mag_a = mag_ij + std::fabs(ev[a]);
    const RowScalars rs{w, eij, eva, eka, ekja, mag_a, st.d_rel, st.os_rel, st.ss_rel, st.abs_unit};
    row_terms(nvir, tile + a * ld, kt + a * nvir, ev, nu_i, nu_j, rs, tos, tss, tb, ta, tl);
    std::int64_t c = 0;
    for (; c + kChains <= nvir; c += kChains)
      for (int q = 0; q < kChains; ++q) {
        os[q] = os[q] + tos[c + q];
        ss[q] = ss[q] + tss[c + q];
        bound[q] += tb[c + q];
        abs[q] += ta[c + q];
        positive = positive && tl[c + q] > 0;
      }
    for (int q = 0; c < nvir; ++c, ++q) {
      os[q] = os[q] + tos[c];
      ss[q] = ss[q] + tss[c];
      bound[q] += tb[c];
      abs[q] += ta[c];
      positive = positive && tl[c] > 0;
    }
  }
  Mp2PairSums p;
  p.opposite_spin = (os[0] + os[1]) + (os[2] + os[3]);
  p.same_spin = (ss[0] + ss[1]) + (ss[2] + ss[3]);
  p.bound = (bound[0] + bound[1]) + (bound[2] + bound[3]);
  p.abs = (abs[0] + abs[1]) + (abs[2] + abs[3]);
  p.positive = positive;
  return p;
}

Mp2StageTotal df_mp2_combine_pairs(std::span<const Mp2PairSums> pairs, std::int64_t nvir) {
  Mp2PairSums total;
  for (const Mp2PairSums& p : pairs) {  // pair order, whatever computed them
    total.opposite_spin = total.opposite_spin + p.opposite_spin;
    total.same_spin = total.same_spin + p.same_spin;
    total.bound += p.bound;
    total.abs += p.abs;
    total.positive = total.positive && p.positive;
  }
  Mp2StageTotal r;
  r.energy = {(total.opposite_spin + total.same_spin).hi(), total.same_spin.hi(), total.opposite_spin.hi()};
  if (!total.positive) {  // a denominator the rounding could bring to 0 leaves the energy unbounded
    r.bound = std::numeric_limits<double>::infinity();
    return r;
  }
  const auto npairs = static_cast<double>(pairs.size());
  const double u2 = kU64 * kU64;
  const double sum_rel = (2 * static_cast<double>(nvir * nvir) + 4 * (npairs + 4)) * u2;
  const double sum = total.bound + sum_rel * total.abs + kU64 * std::fabs(r.energy.correlation);
  const double n = 2.0 * npairs * static_cast<double>(nvir * nvir);
  r.bound = sum * (1 + 2 * gamma64(n + 60));
  return r;
}

}  // namespace trnblas::detail
