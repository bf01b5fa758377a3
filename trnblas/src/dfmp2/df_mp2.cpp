// df_mp2_energy: checks, the pair products (host DGEMM or the sim TensorEngine in a math mode), the energy
// stage (host double-double, or the VectorEngine model in fp32 / float-float), the certified bound, and the
// choice among sim modes for a target.
#include <trnblas/detail/df_mp2_pair_stage.hpp>
#include <trnblas/df_mp2.hpp>
#include <trnblas/gemm.hpp>

#include "checks.hpp"
#include "dfmp2/energy_stage.hpp"
#include "dfmp2/float_float_tiles.hpp"
#include "sim/mode_choice.hpp"
#include "sim/sim_product.hpp"
#include "sim/slices.hpp"

#include <trncore/sim/spec.hpp>

#include <trncore/dd.hpp>
#include <trncore/detail/checks.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/detail/parallel.hpp>
#include <trncore/error.hpp>

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace trnblas {

namespace {

constexpr const char* kFunction = "trnblas::df_mp2_energy";
constexpr double kU32 = 0x1p-24, kU64 = 0x1p-53;

using trncore::detail::sci;

void check_finite(const char* name, const double* x, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i)
    if (!std::isfinite(x[i]))
      throw trncore::InvalidArgument(
          kFunction, std::string(name) + "[" + std::to_string(i) + "] = " + sci(x[i]) + " is not finite",
          "pass finite integrals and orbital energies");
}

void check_inputs(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b, const double* eps_occ,
                  const double* eps_vir, const trncore::Options& options) {
  trncore::validate(options, kFunction);
  trncore::detail::check_nonnegative(kFunction, {{"nocc", nocc}, {"nvir", nvir}, {"naux", naux}});
  trncore::detail::check_pointer(
      kFunction, "b", b, trncore::detail::checked_product(kFunction, {{"nocc", nocc}, {"nvir", nvir}, {"naux", naux}}));
  trncore::detail::check_pointer(kFunction, "eps_occ", eps_occ, nocc);
  trncore::detail::check_pointer(kFunction, "eps_vir", eps_vir, nvir);
  if (nocc == 0 || nvir == 0) return;
  check_finite("eps_occ", eps_occ, nocc);
  check_finite("eps_vir", eps_vir, nvir);
  check_finite("b", b, nocc * nvir * naux);
  double homo = eps_occ[0], lumo = eps_vir[0];
  for (std::int64_t i = 1; i < nocc; ++i) homo = std::max(homo, eps_occ[i]);
  for (std::int64_t a = 1; a < nvir; ++a) lumo = std::min(lumo, eps_vir[a]);
  if (!(homo < lumo))
    throw trncore::InvalidArgument(kFunction,
                                   "the highest occupied energy " + sci(homo) + " is not below the lowest virtual " +
                                       sci(lumo) + ", so a denominator e_i + e_j - e_a - e_b would be >= 0",
                                   "pass the occupied and virtual energies of a closed-shell reference");
  if (options.backend == trncore::Backend::host) {
    detail::check_host_math_mode(kFunction, options, true, "use Backend::sim for reduced-precision modes");
  } else if (options.math_mode == trncore::MathMode::sr || options.math_mode == trncore::MathMode::fp64) {
    throw trncore::NotSupported(
        kFunction,
        "math mode " + std::string(trncore::to_string(options.math_mode)) + " has no DF-MP2 kernel on the sim backend",
        "use MathMode::ozaki for fp64-accurate energies on sim, or Backend::host");
  }
}

// The pair products and what certifies them: |K̂ − K| ≤ eps·(|B||B|ᵀ) componentwise.
struct Products {
  detail::PairProducts k;
  double eps = 0.0;
  /// An absolute part of the products' bound, in the pair-block layout: |K̂ − K| ≤ eps·(|B||B|ᵀ) + absolute
  /// (compensated slicing below fp32's normal range; see compensated_absolute_unit).
  std::optional<detail::PairProducts> absolute;
  bool certified = true;
  std::string caveat;
  std::string method;
  trncore::sim::EngineStats stats;
};

// out's block i = X_i·Y_{≥i}ᵀ + beta·(block i), X_i the rows i·nvir … (i + 1)·nvir of x (nvir × naux) and Y_{≥i}
// the rows i·nvir … nocc·nvir of y: for x = y = B, block i holds (ia|jb) for j ≥ i. The blocks are sized here.
void pair_products(detail::PairProducts& out, std::int64_t naux, const double* x, const double* y, double beta,
                   int threads) {
  out.blocks.resize(static_cast<std::size_t>(out.nocc));
  for (std::int64_t i = 0; i < out.nocc; ++i) {
    const std::int64_t n = (out.nocc - i) * out.nvir;
    auto& block = out.blocks[static_cast<std::size_t>(i)];
    block.resize(static_cast<std::size_t>(out.nvir * n));
    const std::int64_t first = i * out.nvir * naux;
    gemm(Layout::row_major, Op::no_trans, Op::trans, out.nvir, n, naux, 1.0, x + first, naux, y + first, naux, beta,
         block.data(), n, trncore::Options{}.with_threads(threads));
  }
}

// The host pair products in panels (issue #24): occupied orbitals in blocks [i0, i1) of ≈ 512 / nvir, and per
// block ONE OpenBLAS DGEMM straight on B (no copies, no scans: B is checked finite) of the rows i0·nvir …
// i1·nvir against the rows i0·nvir … nocc·nvir, so panel p holds (ia|jb) for i in the block and j ≥ i0
// (the j < i part of the block's diagonal is computed and not read: ≤ (bi − 1)/2 extra pair tiles per block,
// 9% more flops on benzene, for GEMMs of ≥ 512 rows instead of nvir). The energy reads tile (i, j ≥ i).
struct HostPanels {
  std::int64_t nocc = 0, nvir = 0;
  std::vector<std::vector<double>> panels;
  std::vector<std::int64_t> first;  // first occupied index of each panel
  std::vector<std::int64_t> panel;  // panel of each occupied index
  // (ia|jb) for a = 0 … nvir − 1 (rows, stride *ld) and b = 0 … nvir − 1 (contiguous).
  const double* tile(std::int64_t i, std::int64_t j, std::int64_t& ld) const {
    const std::size_t p = static_cast<std::size_t>(panel[static_cast<std::size_t>(i)]);
    const std::int64_t i0 = first[p];
    ld = (nocc - i0) * nvir;
    return panels[p].data() + (i - i0) * nvir * ld + (j - i0) * nvir;
  }
};

HostPanels host_products(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b) {
  HostPanels k;
  k.nocc = nocc;
  k.nvir = nvir;
  const std::int64_t bi = std::clamp<std::int64_t>((512 + nvir - 1) / nvir, 1, nocc);
  for (std::int64_t i0 = 0; i0 < nocc; i0 += bi) {
    const std::int64_t i1 = std::min(nocc, i0 + bi), m = (i1 - i0) * nvir, n = (nocc - i0) * nvir;
    k.first.push_back(i0);
    for (std::int64_t i = i0; i < i1; ++i) k.panel.push_back(static_cast<std::int64_t>(k.panels.size()));
    std::vector<double> panel(static_cast<std::size_t>(m * n));
    const double* x = b + i0 * nvir * naux;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(naux), 1.0, x, static_cast<int>(naux), x, static_cast<int>(naux), 0.0, panel.data(),
                static_cast<int>(n));
    k.panels.push_back(std::move(panel));
  }
  return k;
}

// Upper bounds ν_ia ≥ ‖B_ia‖₂ for the host bound, which uses S_{ia,jb} = ν_ia·ν_jb ≥ Σ_Q |B_iaQ||B_jbQ| (Cauchy–
// Schwarz) in place of the |B||B|ᵀ GEMM the bound used to need (issue #24: that GEMM cost as much as the
// products; the bound's DGEMM term grows by the Cauchy–Schwarz ratio, still far below 1e-9 Ha, see
// docs/trnblas.md). The rigour of each ν: detail::df_mp2_row_norm_bound.
std::vector<double> host_row_norms(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b,
                                   int threads) {
  std::vector<double> nu(static_cast<std::size_t>(nocc * nvir));
  trncore::detail::parallel_for(nocc, threads, [&](std::int64_t i) {
    for (std::int64_t r = i * nvir; r < (i + 1) * nvir; ++r) {
      const double* row = b + r * naux;
      double s2 = 0;
      for (std::int64_t q = 0; q < naux; ++q) s2 += row[q] * row[q];
      nu[static_cast<std::size_t>(r)] = detail::df_mp2_row_norm_bound(s2, naux);
    }
  });
  return nu;
}

// Single-pass formats lose their relative rounding bound for values far below their row's largest (the
// per-row power-of-two scaling puts them under the format's normal range, or their fp32 products under
// 2^-63): entries below `screen_threshold` × their row's largest are dropped before the product, and
// their whole contribution is added to the bound (an integral screening as DF codes do, but certified).
double screen_threshold(const detail::ProductPlan& plan) {
  if (plan.method != detail::ProductMethod::single_pass) return 0.0;
  const bool narrow = plan.format.emax() < trncore::formats::fp32.emax();
  const int top = narrow ? plan.format.emax() : 0;
  const double min_normal = std::max(std::ldexp(1.0, plan.format.emin()), 0x1p-63);
  return std::ldexp(min_normal, 2 - top);  // a factor 2 below the row's scale exponent for margin
}

// The compensated product's absolute term. Its relative bound (sim_product.cpp, compensated_bound) assumes
// that no slice and no slice product leaves fp32's normal range; split_floating flags a remainder below 2^-63
// (where a product of two slices could be subnormal) and the product is then reported uncertified. With
// x, y the line-scaled entries (|x|, |y| < 1, scaled by 2^-e_row and 2^-e_col), bits b, S slices, P = S(S+1)/2
// passes, K terms, u = 2^-24, let δ bound the absolute rounding error of a slice whose remainder is below
// fp32's normal range (≤ half the subnormal spacing 2^-(126+b), or < 2^-126 if flushed: δ = 2^-126) and η that
// of a slice product below the normal range (fp32 rounding ≤ 2^-150, bf16-rounded products ≤ 2^-134 + 2^-150:
// η = 2^-126). Then by induction the remainders obey |r_s| ≤ 2^(-bs)|x| + δ, so
//   |ρ| ≤ T|x| + δ and |x_s| ≤ c_s|x| + 2δ   (T = 2^-bS, c_s = 2^-bs(1 + 2^-b) ≤ 2 as in compensated_bound).
// Per term k, against the relative analysis this adds at most
//   truncation  |xρ_y| + |ρ_x Y_S| − (2T + T²)|x||y| ≤ δ(2 + 2T + δ) ≤ 3δ,
//   dropped     Σ_{s+t≥S} (|x_s||y_t| − c_s c_t|x||y|) ≤ S(S−1)/2 · (2δ(c_s + c_t) + 4δ²) ≤ S(S−1)/2 · 9δ,
//   products    P·η (each kept slice product rounded once),
//   summation   (γ_K + γ_P(1 + γ_K))·P·(9δ + η) (the fp32 PSUM and pass sums' bound on the extra |p̂| mass;
//               additions that underflow are exact, so the relative model holds for them).
// Summed over K terms and scaled back: |K̂_ij − K_ij| ≤ eps·(|B||B|ᵀ)_ij + 2^(e_row + e_col)·K·A. Zero lines
// give exact zeros and no term.
double compensated_absolute_unit(const detail::ProductPlan& plan, std::int64_t k) {
  const double S = plan.slices, passes = S * (S + 1) / 2;
  const double delta = 0x1p-126, eta = 0x1p-126;
  const double gk = detail::gamma(static_cast<double>(k), kU32), gp = detail::gamma(passes, kU32);
  const double per_term =
      3 * delta + S * (S - 1) / 2 * 9 * delta + passes * eta + (gk + gp * (1 + gk)) * passes * (9 * delta + eta);
  return static_cast<double>(k) * per_term * (1 + 0x1p-40);  // margin for this expression's own rounding
}

// One pair block by compensated slicing, K in chunks of kCompensatedChunk (one PSUM K tile): each chunk's
// PSUM result is evacuated and the chunks are summed in float-float on the VectorEngine, so the fp32 PSUM
// accumulation runs over ≤ 128 terms (γ_128 instead of γ_naux: for benzene, naux = 570, the single-chunk
// product alone erred by ~1.4e-8 Ha). Bound: chunk c errs by ≤ ε_c·(|B_c||B_c|ᵀ) + its absolute term, the
// chunks' |B_c||B_c|ᵀ sum to |B||B|ᵀ, and the float-float sum of the nch chunk values adds ≤ nch·3.01u²
// relative to Σ|chunk value| ≤ (1 + ε)|B||B|ᵀ + absolute.
constexpr std::int64_t kCompensatedChunk = 128;

void compensated_block(Products& p, std::int64_t nvir, std::int64_t n, std::int64_t naux,
                       const std::vector<double>& opa, const std::vector<double>& opb,
                       const detail::ProductPlan& plan) {
  const std::int64_t nch = std::max<std::int64_t>(1, (naux + kCompensatedChunk - 1) / kCompensatedChunk);
  std::vector<double> sum(static_cast<std::size_t>(nvir * n), 0.0), absolute(sum.size(), 0.0);
  double eps = 0;
  for (std::int64_t c = 0; c < nch; ++c) {
    const std::int64_t q0 = c * kCompensatedChunk, kq = std::min(kCompensatedChunk, naux - q0);
    std::vector<double> a(static_cast<std::size_t>(nvir * kq)), b(static_cast<std::size_t>(kq * n));
    for (std::int64_t r = 0; r < nvir; ++r)
      for (std::int64_t q = 0; q < kq; ++q)
        a[static_cast<std::size_t>(r * kq + q)] = opa[static_cast<std::size_t>(r * naux + q0 + q)];
    std::copy(opb.begin() + q0 * n, opb.begin() + (q0 + kq) * n, b.begin());
    detail::SimProduct prod = detail::sim_product(nvir, n, kq, a, b, plan);
    eps = std::max(eps, prod.bound);
    // B is finite (checked) and scaled below 1, so the only hypothesis the product can report failed is an
    // underflow, which the absolute term covers (added for every run: it is also valid without one).
    if (!prod.certified && prod.caveat.find("normal range") == std::string::npos) {
      p.certified = false;
      p.caveat = prod.caveat;
    }
    const double unit = compensated_absolute_unit(plan, kq);
    for (std::int64_t r = 0; r < nvir; ++r)
      for (std::int64_t j = 0; j < n; ++j) {
        const int ea = prod.row_exponents[static_cast<std::size_t>(r)],
                  eb = prod.col_exponents[static_cast<std::size_t>(j)];
        if (ea != detail::kZeroLineExponent && eb != detail::kZeroLineExponent)
          absolute[static_cast<std::size_t>(r * n + j)] += std::ldexp(unit, ea + eb);
      }
    const std::vector<double> v = prod.values(nvir, n);
    for (std::size_t e = 0; e < sum.size(); ++e) sum[e] += v[e];
    p.method = "pair products: " + prod.method + ", K in " + std::to_string(nch) +
               " chunks of <= " + std::to_string(kCompensatedChunk) + " summed in float-float";
    p.stats += prod.stats;
  }
  // The chunk sum: computed in double here, whose error (γ_nch with u = 2^-53) is below the float-float bound
  // the modelled VectorEngine sum would have, which is the one charged.
  const double comb = static_cast<double>(nch) * detail::kFfAddU2 * 0x1p-48;
  p.eps = std::max(p.eps, eps + comb * (1 + eps));
  for (double& x : absolute) x *= (1 + comb) * (1 + 0x1p-50);
  if (!p.absolute) p.absolute = detail::PairProducts{p.k.nocc, p.k.nvir, {}};
  p.absolute->blocks.push_back(std::move(absolute));
  p.k.blocks.push_back(std::move(sum));
  if (nch > 1) {  // the float-float additions (AccurateDWPlusDW, ~20 fp32 instructions each) on the VectorEngine
    auto& vec = p.stats[trncore::sim::Engine::vector];
    const auto& spec = trncore::sim::spec(plan.generation);
    const std::int64_t elements = 20 * (nch - 1) * nvir * n;
    vec.instructions += 20 * (nch - 1);
    vec.elements += elements;
    vec.cycles += static_cast<double>(elements) / trncore::sim::vector_elements_per_cycle(spec) +
                  static_cast<double>(20 * (nch - 1)) * spec.instruction_overhead_cycles;
  }
}

Products sim_products(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b,
                      const detail::ProductPlan& plan, std::vector<double>& dropped) {
  const double thr = screen_threshold(plan);
  std::vector<double> kept(b, b + nocc * nvir * naux);
  dropped.assign(kept.size(), 0.0);
  std::int64_t ndropped = 0;
  for (std::int64_t r = 0; r < nocc * nvir && thr > 0; ++r) {
    double top = 0;
    for (std::int64_t q = 0; q < naux; ++q) top = std::max(top, std::fabs(b[r * naux + q]));
    for (std::int64_t q = 0; q < naux; ++q) {
      double& x = kept[static_cast<std::size_t>(r * naux + q)];
      if (x != 0 && std::fabs(x) < thr * top) {
        dropped[static_cast<std::size_t>(r * naux + q)] = std::fabs(x);
        x = 0;
        ++ndropped;
      }
    }
  }
  Products p;
  p.k = {nocc, nvir, {}};
  for (std::int64_t i = 0; i < nocc; ++i) {
    const std::int64_t n = (nocc - i) * nvir;
    std::vector<double> opa(kept.begin() + i * nvir * naux, kept.begin() + (i + 1) * nvir * naux);
    std::vector<double> opb(static_cast<std::size_t>(naux * n));
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t q = 0; q < naux; ++q)
        opb[static_cast<std::size_t>(q * n + r)] = kept[static_cast<std::size_t>((i * nvir + r) * naux + q)];
    if (plan.method == detail::ProductMethod::compensated) {
      compensated_block(p, nvir, n, naux, opa, opb, plan);
      continue;
    }
    detail::SimProduct prod = detail::sim_product(nvir, n, naux, opa, opb, plan);
    p.eps = std::max(p.eps, prod.bound);
    if (!prod.certified) {
      p.certified = false;
      p.caveat = prod.caveat;
    }
    p.method = "pair products: " + prod.method;  // the same method for every block (same plan and k)
    p.stats += prod.stats;
    p.k.blocks.push_back(prod.values(nvir, n));
  }
  if (ndropped > 0)
    p.method += "; " + std::to_string(ndropped) + " entries of B below " + sci(thr) +
                " x their row's largest screened out (bounded)";
  return p;
}

std::vector<double> magnitudes_of(const double* x, std::int64_t n) {
  std::vector<double> out(x, x + n);
  for (double& v : out) v = std::fabs(v);
  return out;
}

// Multiplies every entry by `up`: a computed sum of non-negative products times 1 + γ bounds the exact one.
void round_upward(detail::PairProducts& s, double up) {
  for (auto& block : s.blocks)
    for (double& x : block) x *= up;
}

// |B||B|ᵀ in the same block layout, rounded upward in effect (factor 1 + γ_naux+1).
detail::PairProducts magnitudes(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b, int threads) {
  const std::vector<double> abs_b = magnitudes_of(b, nocc * nvir * naux);
  detail::PairProducts s{nocc, nvir, {}};
  pair_products(s, naux, abs_b.data(), abs_b.data(), 0.0, threads);
  round_upward(s, 1 + detail::gamma(static_cast<double>(naux + 1), kU64));
  return s;
}

// |D||B|ᵀ + |B||D|ᵀ in the pair-block layout (D = the screened magnitudes), rounded upward as magnitudes().
detail::PairProducts screened_contribution(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b,
                                           const std::vector<double>& dropped, int threads) {
  const std::vector<double> abs_b = magnitudes_of(b, nocc * nvir * naux);
  detail::PairProducts out{nocc, nvir, {}};
  pair_products(out, naux, dropped.data(), abs_b.data(), 0.0, threads);
  pair_products(out, naux, abs_b.data(), dropped.data(), 1.0, threads);
  round_upward(out, 1 + detail::gamma(static_cast<double>(2 * naux + 1), kU64));
  return out;
}

// How the energy stage computes, for the bound.
struct StageArithmetic {
  double d_rel;    // |D̂ − D| ≤ d_rel·(|e_i| + |e_j| + |e_a| + |e_b|)
  double os_rel;   // relative error of one computed opposite-spin term given K̂ and D̂
  double ss_rel;   // same for a same-spin term
  double sum_rel;  // |error of the reduction| ≤ sum_rel·Σ|terms|
  double k_store;  // relative rounding of K̂ into the stage's words (0 when it holds K̂ exactly)
  // The relative bounds above assume no result below the stage format's normal range. Where one is (a tiny
  // (ia|jb), its square, a float-float lo word), each operation errs by at most half the format's smallest
  // subnormal spacing instead: per term, at most 64 such errors (the ≤ 20 operations of a term and its
  // words), each carried through at most a multiplication by |K| or |K'| and the division by D, so
  // abs_unit·(1 + |K| + |K'|)·(1 + 1/|D|) per term, abs_unit = 64 × 2^-150 (fp32 words) or 2^-1075 (fp64).
  double abs_unit;
};

StageArithmetic fp32_stage(std::int64_t chain) {
  return {detail::gamma(4, kU32),
          detail::gamma(2, kU32),
          detail::gamma(3, kU32),
          detail::gamma(static_cast<double>(chain), kU32),
          kU32,
          64 * 0x1p-150};
}
StageArithmetic float_float_stage(std::int64_t chain) {
  const double u2 = kU32 * kU32;
  // Each energy's hi/lo split (u² each), e_i + e_j in double then split (2^-53 + u²), two double-word
  // additions: 16u² covers the sum with room.
  return {16 * u2,
          1.01 * (detail::kFfMulU2 + detail::kFfDivU2) * u2,
          1.01 * (detail::kFfAddU2 + detail::kFfMulU2 + detail::kFfDivU2) * u2,
          static_cast<double>(chain) * detail::kFfAddU2 * u2,
          0x1p-48,
          64 * 0x1p-150};
}

// The certified bound on |Ê_corr − E_corr| (see df_mp2.hpp), from the computed products, their
// magnitudes and the stage's arithmetic; second-order terms are kept, so it is rigorous, not first-order.
double energy_bound(const detail::PairProducts& k, const detail::PairProducts& s, const detail::PairProducts* extra,
                    double eps, const StageArithmetic& st, const double* eo, const double* ev, double e_corr) {
  const double ek = eps + st.k_store * (1 + eps);
  double os = 0, ss = 0, abs_os = 0, abs_ss = 0;
  bool positive = true;
  detail::for_each_term(k, [&](std::int64_t i, std::int64_t j, std::int64_t a, std::int64_t c, double w) {
    const double kab = k.at(i, j, a, c), kba = k.at(i, j, c, a);
    double dk = ek * s.at(i, j, a, c), dkt = ek * s.at(i, j, c, a);
    if (extra != nullptr) {  // screened entries: their contribution, with the rounding's margin
      dk += (1 + ek) * extra->at(i, j, a, c);
      dkt += (1 + ek) * extra->at(i, j, c, a);
    }
    const double mag_e = std::fabs(eo[i]) + std::fabs(eo[j]) + std::fabs(ev[a]) + std::fabs(ev[c]);
    const double d_err = st.d_rel * mag_e;
    // A lower bound on both |D| and |D̂|: the double evaluation's own error is γ_3(2^-53)·mag_e.
    const double dlow = std::fabs((eo[i] + eo[j]) - (ev[a] + ev[c])) - d_err - 4 * kU64 * mag_e;
    positive = positive && dlow > 0;
    const double n_os = kab * kab, n_ss = kab * (kab - kba);
    const double dn_os = dk * (2 * std::fabs(kab) + dk);
    const double dn_ss = dk * std::fabs(kab - kba) + (std::fabs(kab) + dk) * (dk + dkt);
    const double underflow = st.abs_unit * (1 + std::fabs(kab) + std::fabs(kba)) * (1 + 1 / dlow);
    const auto term = [&](double n, double dn, double rel) {
      return w * (dn / dlow + std::fabs(n) * d_err / (dlow * dlow) + rel * std::fabs(n) / dlow + underflow);
    };
    os += term(n_os, dn_os, st.os_rel);
    ss += term(n_ss, dn_ss, st.ss_rel);
    abs_os += w * std::fabs(n_os) / dlow * (1 + st.os_rel);
    abs_ss += w * std::fabs(n_ss) / dlow * (1 + st.ss_rel);
  });
  // A denominator the stage's rounding could bring to 0 leaves the energy unbounded.
  if (!positive) return std::numeric_limits<double>::infinity();
  const double total = os + ss + st.sum_rel * (abs_os + abs_ss) + kU64 * std::fabs(e_corr);
  // The bound's own fp64 evaluation: n non-negative terms of ≤ 30 roundings each, summed recursively, so the
  // computed total is ≥ (1 − γ_{n+30}) × the exact one and × (1 + 2γ_{n+30}) covers it (γ_{n+30} ≈ 1e-9 for
  // benzene's n ≈ 7e6 — the earlier fixed 2^-40 margin did not).
  const double n = 2.0 * static_cast<double>(k.nocc * (k.nocc + 1) / 2) * static_cast<double>(k.nvir * k.nvir);
  return total * (1 + 2 * detail::gamma(n + 30, kU64));
}

// Host energy stage and bound, fused (issue #24): one task per occupied pair (i, j ≥ i) on
// trncore::detail::parallel_for, each the shared pair stage (detail::df_mp2_pair_sums, whose comment has the
// summation error and the per-term bound) writing only its own slot; the slots are combined afterwards in pair
// order (detail::df_mp2_combine_pairs), so the energy and the bound are bitwise identical for every thread
// count, and equal to trntensor_mpi's distributed energy on the same products.
detail::Mp2StageTotal host_stage_fused(const HostPanels& k, const std::vector<double>& nu, double eps, const double* eo,
                                       const double* ev, int threads) {
  const std::int64_t nocc = k.nocc, nvir = k.nvir, npairs = nocc * (nocc + 1) / 2;
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
  pairs.reserve(static_cast<std::size_t>(npairs));
  for (std::int64_t i = 0; i < nocc; ++i)
    for (std::int64_t j = i; j < nocc; ++j) pairs.emplace_back(i, j);
  std::vector<detail::Mp2PairSums> parts(static_cast<std::size_t>(npairs));
  trncore::detail::parallel_for(npairs, threads, [&](std::int64_t t) {
    const auto [i, j] = pairs[static_cast<std::size_t>(t)];
    std::int64_t ld = 0;
    const double* kb = k.tile(i, j, ld);
    thread_local std::vector<double> scratch;
    parts[static_cast<std::size_t>(t)] =
        detail::df_mp2_pair_sums(i, j, nvir, kb, ld, nu.data() + i * nvir, nu.data() + j * nvir, eo, ev, eps, scratch);
  });
  return detail::df_mp2_combine_pairs(parts, nvir);
}

struct Attempt {
  Mp2Energy energy;
  double bound = 0.0;
  bool certified = true;
  std::string caveat;  // why not certified
  std::vector<std::string> steps;
  std::optional<trncore::sim::EngineStats> stats;
};

Attempt run_host(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b, const double* eo,
                 const double* ev, int threads) {
  const HostPanels k = host_products(nocc, nvir, naux, b);
  const std::vector<double> nu = host_row_norms(nocc, nvir, naux, b, threads);
  Attempt a;
  // DGEMM's componentwise bound |K̂ − K| ≤ γ_naux·|B||B|ᵀ, any summation order.
  const detail::Mp2StageTotal h =
      host_stage_fused(k, nu, detail::gamma(static_cast<double>(naux), kU64), eo, ev, threads);
  a.energy = h.energy;
  a.bound = h.bound;
  a.steps = {"pair products: fp64 DGEMM (OpenBLAS), one per block of occupied orbitals",
             "energy stage: fp64 terms, double-double sums per occupied pair, pairs threaded and "
             "combined in pair order",
             "bound: DGEMM error through Cauchy-Schwarz, |B||B|^T <= ||B_ia|| ||B_jb||"};
  return a;
}

Attempt run_sim(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b, const double* eo,
                const double* ev, const detail::PairProducts& s, const detail::ProductPlan& plan,
                trncore::sim::Generation generation) {
  std::vector<double> dropped;
  Products p = sim_products(nocc, nvir, naux, b, plan, dropped);
  // |B_dropped||B|ᵀ + |B||B_dropped|ᵀ bounds what the screened entries contributed to (ia|jb).
  std::optional<detail::PairProducts> extra;
  if (std::any_of(dropped.begin(), dropped.end(), [](double x) { return x != 0; }))
    extra = screened_contribution(nocc, nvir, naux, b, dropped, plan.threads);
  if (p.absolute) {  // the compensated product's absolute term (compensated_absolute_unit), rounded upward
    if (!extra) {
      extra = std::move(p.absolute);
    } else {
      for (std::size_t blk = 0; blk < extra->blocks.size(); ++blk)
        for (std::size_t e = 0; e < extra->blocks[blk].size(); ++e)
          extra->blocks[blk][e] = (extra->blocks[blk][e] + p.absolute->blocks[blk][e]) * (1 + kU64);
    }
  }
  const bool ff = plan.method != detail::ProductMethod::single_pass;
  if (!ff)  // the fp32 stage loads fp32 words: round the products (exact for single-pass PSUM results)
    for (auto& block : p.k.blocks)
      for (double& x : block) x = static_cast<float>(x);
  const detail::StageResult r = detail::vector_engine_energy(p.k, eo, ev, ff, generation);
  Attempt a;
  a.energy = {r.opposite_spin + r.same_spin, r.same_spin, r.opposite_spin};
  a.bound = energy_bound(p.k, s, extra ? &*extra : nullptr, p.eps,
                         ff ? float_float_stage(r.chain) : fp32_stage(r.chain), eo, ev, a.energy.correlation);
  a.certified = p.certified;
  a.caveat = p.caveat.empty() ? std::string() : "pair products: " + p.caveat;
  a.steps = {p.method, ff ? "energy stage: VectorEngine float-float (double-word) terms and sums"
                          : "energy stage: VectorEngine fp32 terms and sums"};
  if (!p.certified) a.steps.push_back("product bound not certified: " + p.caveat);
  p.stats += r.stats;
  a.stats = p.stats;
  return a;
}

detail::ProductPlan plan_for(trncore::MathMode mode, const trncore::Options& options, std::int64_t naux) {
  detail::ChoiceInputs in;
  in.mode = mode;
  in.product = trncore::product_model(options);
  in.generation = options.generation;
  in.k = naux;
  in.inputs_are_float = false;
  // Ozaki's componentwise target: 2^-36, not the fp64 default 2^-52. The energy needs (ia|jb) only to ~1e-11
  // relative to |B||B|ᵀ for a tenth of a nanohartree (the bound propagates ε through Σ S(2|K| + |K'|)/|D|, ≈ 6 Ha
  // for benzene), while rows of B hold entries 1e-19 × their largest: 2^-52 (or 2^-40 under exact products,
  // 8-bit slices) would need more slices than the 128-bit exact combination holds, and the product would be
  // reported uncertified.
  if (mode == trncore::MathMode::ozaki) in.target = 0x1p-36;
  in.threads = options.threads;
  return detail::candidate_plans(in).front();
}

}  // namespace

Mp2Energy df_mp2_energy(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b, const double* eps_occ,
                        const double* eps_vir, const trncore::Options& options, trncore::AccuracyReport& report) {
  check_inputs(nocc, nvir, naux, b, eps_occ, eps_vir, options);
  trncore::AccuracyReport r;
  r.target = options.target_forward_error;
  r.references = {"closed-shell DF-MP2: Weigend, Haeser, Chem. Phys. Lett. 294 (1998) 143",
                  "double-word arithmetic bounds: Joldes, Muller, Popescu, ACM TOMS 44(2) (2017) 15",
                  "bound and target: absolute error of E_corr in hartree"};
  if (nocc == 0 || nvir == 0 || naux == 0) {
    r.trajectory.push_back({"empty: no pairs, virtuals or auxiliary functions, E = 0"});
    r.certify(0.0);
    report = std::move(r);
    return {};
  }
  // Both the bound and the target are absolute errors of E_corr in hartree.
  const auto meets = [&](const Attempt& a) {
    return a.certified && std::isfinite(a.bound) &&
           (!options.target_forward_error || a.bound <= *options.target_forward_error);
  };
  Attempt chosen;
  std::vector<std::string> tried;
  if (options.backend == trncore::Backend::host) {
    chosen = run_host(nocc, nvir, naux, b, eps_occ, eps_vir, options.threads);
  } else {
    const detail::PairProducts s = magnitudes(nocc, nvir, naux, b, options.threads);
    using M = trncore::MathMode;
    std::vector<M> modes{options.math_mode};
    if (options.math_mode == M::automatic)
      modes = options.target_forward_error ? std::vector<M>{M::bf16, M::fp32, M::compensated, M::ozaki}
                                           : std::vector<M>{M::ozaki};
    for (const M mode : modes) {
      chosen = run_sim(nocc, nvir, naux, b, eps_occ, eps_vir, s, plan_for(mode, options, naux), options.generation);
      if (meets(chosen) || mode == modes.back()) break;
      tried.push_back("tried " + chosen.steps.front() + ": bound " + sci(chosen.bound) + " Ha" +
                      (chosen.certified ? "" : " (not certified)"));
    }
  }
  for (std::string& t : tried) r.trajectory.push_back({std::move(t)});
  for (std::string& t : chosen.steps) r.trajectory.push_back({std::move(t)});
  if (chosen.stats) r.cost = trncore::sim::estimate_cost(*chosen.stats, options.generation);
  r.certify(chosen.bound);
  if (!chosen.certified)
    r.uncertify(chosen.caveat.empty() ? "the pair products are not certified" : chosen.caveat);
  else if (!std::isfinite(chosen.bound))
    r.uncertify("a denominator e_i + e_j - e_a - e_b is within the stage's rounding error of 0");
  else if (!std::isfinite(chosen.energy.correlation))
    r.uncertify("the energy overflowed (inf or NaN from finite inputs)");
  report = std::move(r);
  return chosen.energy;
}

Mp2Energy df_mp2_energy(std::int64_t nocc, std::int64_t nvir, std::int64_t naux, const double* b, const double* eps_occ,
                        const double* eps_vir, const trncore::Options& options) {
  trncore::AccuracyReport report;
  const Mp2Energy e = df_mp2_energy(nocc, nvir, naux, b, eps_occ, eps_vir, options, report);
  trncore::require_target_met(report, kFunction);
  return e;
}

}  // namespace trnblas
