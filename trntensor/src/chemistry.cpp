// AO→MO transform and DF-MP2 through einsum.
#include <trntensor/chemistry.hpp>
#include <trntensor/einsum.hpp>

#include <trncore/options.hpp>
#include "step_kernels.hpp"

#include <trncore/detail/format_number.hpp>

#include <algorithm>
#include <cmath>

namespace trntensor {
namespace {

void require_rank(std::string_view function, const char* name, int rank, int want, const Shape& shape) {
  if (rank != want)
    throw trncore::DimensionMismatch(function,
                                     std::string(name) + " has shape " + detail::shape_string(shape) + " (rank " +
                                         std::to_string(rank) + ") but rank " + std::to_string(want) + " is needed",
                                     "pass a tensor of the documented rank");
}

}  // namespace

template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c1, TensorView<const T> c2,
                             TensorView<const T> c3, TensorView<const T> c4, const trncore::Options& options,
                             trncore::AccuracyReport* report) {
  constexpr std::string_view kFunction = "trntensor::ao_to_mo_transform";
  require_rank(kFunction, "eri", eri.rank(), 4, eri.shape());
  const TensorView<const T>* cs[] = {&c1, &c2, &c3, &c4};
  for (int x = 0; x < 4; ++x) {
    require_rank(kFunction, "a coefficient matrix", cs[x]->rank(), 2, cs[x]->shape());
    if (cs[x]->extent(0) != eri.extent(x))
      throw trncore::DimensionMismatch(kFunction,
                                       "axis " + std::to_string(x) + " of eri has extent " +
                                           std::to_string(eri.extent(x)) + " but its coefficient matrix has " +
                                           std::to_string(cs[x]->extent(0)) + " rows",
                                       "pass C with one row per AO function of that index");
  }
  const TensorView<const T> ops[] = {eri, c1, c2, c3, c4};
  if (report != nullptr) return einsum<T>("pqrs,pi,qj,rk,sl->ijkl", ops, options, *report);
  return einsum<T>("pqrs,pi,qj,rk,sl->ijkl", ops, options);
}

template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c, const trncore::Options& options,
                             trncore::AccuracyReport* report) {
  return ao_to_mo_transform<T>(eri, c, c, c, c, options, report);
}

trnblas::Mp2Energy df_mp2_energy(TensorView<const double> b, std::span<const double> eps_occ,
                                 std::span<const double> eps_vir, const trncore::Options& options,
                                 trncore::AccuracyReport* report) {
  constexpr std::string_view kFunction = "trntensor::df_mp2_energy";
  using trncore::detail::sci;
  trncore::validate(options, kFunction);
  require_rank(kFunction, "b", b.rank(), 3, b.shape());
  const std::int64_t o = b.extent(0), v = b.extent(1);
  if (static_cast<std::int64_t>(eps_occ.size()) != o || static_cast<std::int64_t>(eps_vir.size()) != v)
    throw trncore::DimensionMismatch(kFunction,
                                     "b has shape " + detail::shape_string(b.shape()) + " but " +
                                         std::to_string(eps_occ.size()) + " occupied and " +
                                         std::to_string(eps_vir.size()) + " virtual energies were given",
                                     "pass nocc occupied and nvir virtual orbital energies");
  double homo = -INFINITY, lumo = INFINITY;
  for (double e : eps_occ) homo = std::isfinite(e) ? std::max(homo, e) : NAN;
  for (double e : eps_vir) lumo = std::isfinite(e) ? std::min(lumo, e) : NAN;
  if (std::isnan(homo) || std::isnan(lumo))
    throw trncore::InvalidArgument(kFunction, "an orbital energy is not finite", "pass finite orbital energies");
  if (o > 0 && v > 0 && homo >= lumo)
    throw trncore::InvalidArgument(
        kFunction, "the highest occupied energy " + sci(homo) + " is not below the lowest virtual energy " + sci(lumo),
        "pass the occupied and virtual energies of a closed-shell reference");
  trncore::AccuracyReport rep;
  rep.target = options.target_forward_error;
  rep.references = {"closed-shell DF-MP2: Weigend, Haeser, Chem. Phys. Lett. 294 (1998) 143",
                    "bound: absolute error of E_corr in hartree (target in hartree); the V step's componentwise "
                    "bound propagated through the denominator-weighted sums (trntensor/src/chemistry.cpp)"};
  const auto finish = [&](const trnblas::Mp2Energy& e) {
    if (report != nullptr)
      *report = rep;
    else
      trncore::require_target_met(rep, kFunction);
    return e;
  };
  if (o == 0 || v == 0 || b.extent(2) == 0) {
    rep.trajectory.push_back({"empty: no pairs, virtuals or auxiliary functions, E = 0"});
    rep.certify(0.0);
    return finish({});
  }
  std::string uncertified;
  const auto fail = [&](std::string why) {
    if (uncertified.empty()) uncertified = std::move(why);
  };
  const double u = 0x1p-53;
  const auto gamma = [&](double n) { return detail::gamma(n, u); };
  const auto at = [&](std::int64_t i, std::int64_t a, std::int64_t j, std::int64_t c) {
    return static_cast<std::size_t>(((i * v + a) * o + j) * v + c);
  };

  // S ≥ |B||B|ᵀ componentwise: the host fp64 einsum of |B| (its report ε_S, relative to the same S since
  // |B| ≥ 0) rounded up by 1/(1 − ε_S) ≤ 1 + 2ε_S.
  Tensor<double> abs_b = Tensor<double>::copy_of(b);
  for (double& x : abs_b.values()) x = std::fabs(x);
  const TensorView<const double> ab[] = {abs_b.view(), abs_b.view()};
  trncore::AccuracyReport s_rep;
  Tensor<double> s = einsum<double>("iaQ,jbQ->iajb", ab, trncore::Options{}.with_threads(options.threads), s_rep);
  if (!s_rep.certified) fail("|B||B|^T: " + s_rep.uncertified_reason);
  const double s_up = 1 + 2 * s_rep.a_priori_bound;
  for (double& x : s.values()) x *= s_up;

  // Denominators: D̂ = ((e_i + e_j) − e_a) − e_b in fp64, |D̂ − D| ≤ γ_3·(|e_i| + |e_j| + |e_a| + |e_b|) =: d_err,
  // so |D| ≥ dlow := |D̂| − d_err (> 0 required), and |fl(1/D̂) − 1/D| ≤ u/|D̂| + d_err/(|D̂|·dlow).
  struct Denominator {
    double d, lowinv, inv_err;
  };
  const auto denominator = [&](std::int64_t i, std::int64_t a, std::int64_t j, std::int64_t c) {
    const double ei = eps_occ[static_cast<std::size_t>(i)], ej = eps_occ[static_cast<std::size_t>(j)];
    const double ea = eps_vir[static_cast<std::size_t>(a)], ec = eps_vir[static_cast<std::size_t>(c)];
    const double d = ((ei + ej) - ea) - ec;
    const double d_err = gamma(3) * (std::fabs(ei) + std::fabs(ej) + std::fabs(ea) + std::fabs(ec));
    const double dlow = std::fabs(d) - d_err;
    return Denominator{d, dlow > 0 ? 1.0 / dlow : INFINITY, (u + d_err / dlow) / std::fabs(d)};
  };
  Tensor<double> inv_d({o, v, o, v});
  bool denominators_ok = true;
  for (std::int64_t i = 0; i < o; ++i)
    for (std::int64_t a = 0; a < v; ++a)
      for (std::int64_t j = 0; j < o; ++j)
        for (std::int64_t c = 0; c < v; ++c) {
          const Denominator dn = denominator(i, a, j, c);
          denominators_ok = denominators_ok && std::isfinite(dn.lowinv);
          inv_d.values()[at(i, a, j, c)] = 1.0 / dn.d;
        }
  if (!denominators_ok) fail("a denominator e_i + e_j - e_a - e_b is within its rounding error of 0");

  // The V step's share of a target in hartree: with |V − V̂| ≤ ε·S and |V̂| ≤ (1 + ε)·S the V part of the
  // bound below is ≤ ε(1 + 1.5ε)·W, W = Σ (4S² + 2S·S')/|D| (ε ≤ 1/2); half the target goes to it.
  trncore::Options v_options = options;
  v_options.target_forward_error.reset();
  if (options.target_forward_error) {
    double w = 0;
    for (std::int64_t i = 0; i < o; ++i)
      for (std::int64_t a = 0; a < v; ++a)
        for (std::int64_t j = 0; j < o; ++j)
          for (std::int64_t c = 0; c < v; ++c) {
            const std::size_t k = at(i, a, j, c), kt = at(i, c, j, a);
            w += denominator(i, a, j, c).lowinv * s.values()[k] * (4 * s.values()[k] + 2 * s.values()[kt]);
          }
    if (w > 0) v_options.target_forward_error = std::min(0.5, 0.5 * *options.target_forward_error / (1.75 * w));
  } else if (options.backend == trncore::Backend::sim &&
             (options.math_mode == trncore::MathMode::ozaki || options.math_mode == trncore::MathMode::automatic)) {
    // Without a target, ozaki's default (2^-52 componentwise) needs more slices than its 128-bit exact
    // combination holds for B, whose rows hold entries 1e-19 × their largest, and gemm then reports it
    // uncertified. 2^-36 is what trnblas::df_mp2_energy asks of its ozaki products: ≈ 1e-10 Ha at most on the
    // fixtures (the V part of the bound is ≈ ε·6 Ha for benzene), well inside a nanohartree.
    v_options.target_forward_error = 0x1p-36;
  }
  const TensorView<const double> bb[] = {b, b};
  trncore::AccuracyReport v_rep;
  const Tensor<double> pair = einsum<double>("iaQ,jbQ->iajb", bb, v_options, v_rep);
  if (!v_rep.certified) fail("V = B B^T step: " + v_rep.uncertified_reason);
  const double eps = v_rep.a_priori_bound;
  for (const auto& t : v_rep.trajectory) rep.trajectory.push_back({"V = einsum(iaQ,jbQ->iajb): " + t.description});
  if (v_rep.cost) rep.cost = v_rep.cost;

  // Energy sums of the computed V̂ and 1/D̂ on the host in fp64: per pair (i, j) over (a, b) first, then over
  // the pairs, so each summation is short (γ_{v²} and γ_{o²} instead of γ_{o²v²}).
  const TensorView<const double> os_ops[] = {pair.view(), pair.view(), inv_d.view()};
  trncore::AccuracyReport r1, r2, r3, r4;
  const trncore::Options host = trncore::Options{}.with_threads(options.threads);
  const Tensor<double> p_os = einsum<double>("iajb,iajb,iajb->ij", os_ops, host, r1);
  const Tensor<double> p_x = einsum<double>("iajb,ibja,iajb->ij", os_ops, host, r2);
  const TensorView<const double> pos[] = {p_os.view()}, px[] = {p_x.view()};
  const double e_os = einsum<double>("ij->", pos, host, r3).values()[0];
  const double x = einsum<double>("ij->", px, host, r4).values()[0];
  for (const auto* r : {&r1, &r2, &r3, &r4})
    if (!r->certified) fail("energy sums: " + r->uncertified_reason);
  trnblas::Mp2Energy e;
  e.opposite_spin = e_os;
  e.same_spin = e_os - x;
  e.correlation = e.opposite_spin + e.same_spin;

  // The bound on |Ê_corr − E_corr|, E_corr = Σ (2V² − V·V')/D (V' = V_ibja), in three parts:
  //  (1) the fp64 sums of V̂ and 1/D̂: |Ê_OS − E_OS(V̂, 1/D̂)| ≤ (ε₁ + ε₃(1 + ε₁))·Σ V̂²|1/D̂| (the ij partial sums'
  //      componentwise bound, then the pair sum's relative to Σ|P̂_ij| ≤ (1 + ε₁)Σ V̂²|1/D̂|), likewise X with
  //      Σ|V̂||V̂'||1/D̂|; E_corr = 2E_OS − X, and E_SS = fl(E_OS − X), E_corr = fl(E_OS + E_SS) add
  //      γ_1(|Ê_SS| + |Ê_corr|);
  //  (2) 1/D̂ for 1/D: Σ (2V̂² + |V̂V̂'|)·|fl(1/D̂) − 1/D|;
  //  (3) V̂ for V, with Δ = V̂ − V, |Δ| ≤ ε·S (the V step's componentwise bound relative to |B||B|ᵀ ≤ S):
  //      2V² − 2V̂² = −2Δ(2V̂ − Δ) and VV' − V̂V̂' = −ΔV̂' − V̂Δ' + ΔΔ', so the term changes by at most
  //      (2εS(2|V̂| + εS) + ε(S|V̂'| + |V̂|S') + ε²SS')/|D| with 1/|D| ≤ 1/dlow.
  // Every summand is non-negative and computed in fp64 with ≤ 16 roundings, and the n = o²v² of them are
  // summed recursively, so the computed total is ≥ (1 − γ_{n+16})× the exact one: × (1 + 2γ_{n+16}) covers it.
  double m_os = 0, m_x = 0, part2 = 0, part3 = 0;
  for (std::int64_t i = 0; i < o; ++i)
    for (std::int64_t a = 0; a < v; ++a)
      for (std::int64_t j = 0; j < o; ++j)
        for (std::int64_t c = 0; c < v; ++c) {
          const std::size_t k = at(i, a, j, c), kt = at(i, c, j, a);
          const double vk = std::fabs(pair.values()[k]), vt = std::fabs(pair.values()[kt]);
          const double sk = s.values()[k], st = s.values()[kt];
          const double w = std::fabs(inv_d.values()[k]);
          m_os += vk * vk * w;
          m_x += vk * vt * w;
          const Denominator dn = denominator(i, a, j, c);
          part2 += (2 * vk * vk + vk * vt) * dn.inv_err;
          part3 += (2 * eps * sk * (2 * vk + eps * sk) + eps * (sk * vt + vk * st) + eps * eps * sk * st) * dn.lowinv;
        }
  const double e1 = r1.a_priori_bound + r3.a_priori_bound * (1 + r1.a_priori_bound);
  const double e2 = r2.a_priori_bound + r4.a_priori_bound * (1 + r2.a_priori_bound);
  const double n_terms = static_cast<double>(o * o) * static_cast<double>(v * v);
  const double part1 = 2 * e1 * m_os + e2 * m_x;
  const double bound = (part1 + part2 + part3 + gamma(1) * (std::fabs(e.same_spin) + std::fabs(e.correlation))) *
                       (1 + 2 * gamma(n_terms + 16));
  rep.trajectory.push_back({"energy sums: host fp64 einsums over (a, b) per pair, then over pairs; bound " +
                            sci(bound) + " Ha (V step " + sci(part3) + ", denominators " + sci(part2) + ", sums " +
                            sci(part1) + ")"});
  rep.certify(bound);
  if (!uncertified.empty()) rep.uncertify(uncertified);
  return finish(e);
}

template Tensor<float> ao_to_mo_transform<float>(TensorView<const float>, TensorView<const float>,
                                                 TensorView<const float>, TensorView<const float>,
                                                 TensorView<const float>, const trncore::Options&,
                                                 trncore::AccuracyReport*);
template Tensor<double> ao_to_mo_transform<double>(TensorView<const double>, TensorView<const double>,
                                                   TensorView<const double>, TensorView<const double>,
                                                   TensorView<const double>, const trncore::Options&,
                                                   trncore::AccuracyReport*);
template Tensor<float> ao_to_mo_transform<float>(TensorView<const float>, TensorView<const float>,
                                                 const trncore::Options&, trncore::AccuracyReport*);
template Tensor<double> ao_to_mo_transform<double>(TensorView<const double>, TensorView<const double>,
                                                   const trncore::Options&, trncore::AccuracyReport*);

}  // namespace trntensor
