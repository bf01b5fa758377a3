// AO→MO transform through einsum; DF-MP2 of a tensor view through trnblas::df_mp2_energy (the suite's one
// DF-MP2 implementation: pair products, energy stage and certified bound live in trnblas/src/dfmp2).
#include <trntensor/chemistry.hpp>
#include <trntensor/einsum.hpp>

#include <trncore/options.hpp>
#include "step_kernels.hpp"

#include <trncore/error.hpp>

namespace trntensor {
namespace {

void require_rank(std::string_view function, const char* name, int rank, int want, const Shape& shape) {
  if (rank != want)
    throw trncore::DimensionMismatch(function,
                                     std::string(name) + " has shape " + detail::shape_string(shape) + " (rank " +
                                         std::to_string(rank) + ") but rank " + std::to_string(want) + " is needed",
                                     "pass a tensor of the documented rank");
}

// The checks of the four-index transform.
template <class T>
void check_transform(TensorView<const T> eri, std::span<const TensorView<const T>* const> cs) {
  constexpr std::string_view kFunction = "trntensor::ao_to_mo_transform";
  require_rank(kFunction, "eri", eri.rank(), 4, eri.shape());
  for (int x = 0; x < 4; ++x) {
    const TensorView<const T>& c = *cs[static_cast<std::size_t>(x)];
    require_rank(kFunction, "a coefficient matrix", c.rank(), 2, c.shape());
    if (c.extent(0) != eri.extent(x))
      throw trncore::DimensionMismatch(kFunction,
                                       "axis " + std::to_string(x) + " of eri has extent " +
                                           std::to_string(eri.extent(x)) + " but its coefficient matrix has " +
                                           std::to_string(c.extent(0)) + " rows",
                                       "pass C with one row per AO function of that index");
  }
}

constexpr const char* kTransform = "pqrs,pi,qj,rk,sl->ijkl";

}  // namespace

template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c1, TensorView<const T> c2,
                             TensorView<const T> c3, TensorView<const T> c4, const PlanOptions& options,
                             trncore::AccuracyReport& report) {
  const TensorView<const T>* cs[] = {&c1, &c2, &c3, &c4};
  check_transform<T>(eri, cs);
  const TensorView<const T> ops[] = {eri, c1, c2, c3, c4};
  return einsum<T>(kTransform, ops, options, report);
}

template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c1, TensorView<const T> c2,
                             TensorView<const T> c3, TensorView<const T> c4, const PlanOptions& options) {
  const TensorView<const T>* cs[] = {&c1, &c2, &c3, &c4};
  check_transform<T>(eri, cs);
  const TensorView<const T> ops[] = {eri, c1, c2, c3, c4};
  return einsum<T>(kTransform, ops, options);
}

template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c, const PlanOptions& options,
                             trncore::AccuracyReport& report) {
  return ao_to_mo_transform<T>(eri, c, c, c, c, options, report);
}

template <class T>
Tensor<T> ao_to_mo_transform(TensorView<const T> eri, TensorView<const T> c, const PlanOptions& options) {
  return ao_to_mo_transform<T>(eri, c, c, c, c, options);
}

namespace {

constexpr std::string_view kDfMp2 = "trntensor::df_mp2_energy";

// The view's checks (named for trntensor) and its values in row-major order for trnblas.
struct DfMp2Input {
  Tensor<double> dense;  // empty when b is already row-major contiguous
  const double* data = nullptr;
  std::int64_t nocc = 0, nvir = 0, naux = 0;
};

DfMp2Input df_mp2_input(TensorView<const double> b, std::span<const double> eps_occ, std::span<const double> eps_vir,
                        const trncore::Options& options) {
  trncore::validate(options, kDfMp2);
  require_rank(kDfMp2, "b", b.rank(), 3, b.shape());
  DfMp2Input in;
  in.nocc = b.extent(0);
  in.nvir = b.extent(1);
  in.naux = b.extent(2);
  if (static_cast<std::int64_t>(eps_occ.size()) != in.nocc || static_cast<std::int64_t>(eps_vir.size()) != in.nvir)
    throw trncore::DimensionMismatch(kDfMp2,
                                     "b has shape " + detail::shape_string(b.shape()) + " but " +
                                         std::to_string(eps_occ.size()) + " occupied and " +
                                         std::to_string(eps_vir.size()) + " virtual energies were given",
                                     "pass nocc occupied and nvir virtual orbital energies");
  if (b.is_row_major_contiguous()) {
    in.data = b.data();
  } else {
    in.dense = Tensor<double>::copy_of(b);
    in.data = in.dense.data();
  }
  return in;
}

}  // namespace

trnblas::Mp2Energy df_mp2_energy(TensorView<const double> b, std::span<const double> eps_occ,
                                 std::span<const double> eps_vir, const trncore::Options& options,
                                 trncore::AccuracyReport& report) {
  const DfMp2Input in = df_mp2_input(b, eps_occ, eps_vir, options);
  return trnblas::df_mp2_energy(in.nocc, in.nvir, in.naux, in.data, eps_occ.data(), eps_vir.data(), options, report);
}

trnblas::Mp2Energy df_mp2_energy(TensorView<const double> b, std::span<const double> eps_occ,
                                 std::span<const double> eps_vir, const trncore::Options& options) {
  const DfMp2Input in = df_mp2_input(b, eps_occ, eps_vir, options);
  return trnblas::df_mp2_energy(in.nocc, in.nvir, in.naux, in.data, eps_occ.data(), eps_vir.data(), options);
}

#define TRNTENSOR_INSTANTIATE(T)                                                                          \
  template Tensor<T> ao_to_mo_transform<T>(TensorView<const T>, TensorView<const T>, TensorView<const T>, \
                                           TensorView<const T>, TensorView<const T>, const PlanOptions&); \
  template Tensor<T> ao_to_mo_transform<T>(TensorView<const T>, TensorView<const T>, TensorView<const T>, \
                                           TensorView<const T>, TensorView<const T>, const PlanOptions&,  \
                                           trncore::AccuracyReport&);                                     \
  template Tensor<T> ao_to_mo_transform<T>(TensorView<const T>, TensorView<const T>, const PlanOptions&); \
  template Tensor<T> ao_to_mo_transform<T>(TensorView<const T>, TensorView<const T>, const PlanOptions&,  \
                                           trncore::AccuracyReport&);
TRNTENSOR_INSTANTIATE(float)
TRNTENSOR_INSTANTIATE(double)
#undef TRNTENSOR_INSTANTIATE

}  // namespace trntensor
