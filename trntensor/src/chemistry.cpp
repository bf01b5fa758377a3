// AO→MO transform and DF-MP2 through einsum.
#include <trntensor/chemistry.hpp>
#include <trntensor/einsum.hpp>

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
    throw trncore::InvalidArgument(kFunction,
                                   "the highest occupied energy " + std::to_string(homo) +
                                       " is not below the lowest virtual energy " + std::to_string(lumo),
                                   "pass the occupied and virtual energies of a closed-shell reference");
  const TensorView<const double> bb[] = {b, b};
  const Tensor<double> pair = report != nullptr ? einsum<double>("iaQ,jbQ->iajb", bb, options, *report)
                                                : einsum<double>("iaQ,jbQ->iajb", bb, options);
  Tensor<double> inv_d({o, v, o, v});
  for (std::int64_t i = 0; i < o; ++i)
    for (std::int64_t a = 0; a < v; ++a)
      for (std::int64_t j = 0; j < o; ++j)
        for (std::int64_t c = 0; c < v; ++c)
          inv_d(i, a, j, c) = 1.0 / (eps_occ[static_cast<std::size_t>(i)] + eps_occ[static_cast<std::size_t>(j)] -
                                     eps_vir[static_cast<std::size_t>(a)] - eps_vir[static_cast<std::size_t>(c)]);
  const TensorView<const double> os[] = {pair.view(), pair.view(), inv_d.view()};
  // The exchange partner (ib|ja) is the same tensor read with its virtual labels swapped.
  const double e_os = einsum<double>("iajb,iajb,iajb->", os).values()[0];
  const double x = einsum<double>("iajb,ibja,iajb->", os).values()[0];
  trnblas::Mp2Energy e;
  e.opposite_spin = e_os;
  e.same_spin = e_os - x;
  e.correlation = e.opposite_spin + e.same_spin;
  return e;
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
