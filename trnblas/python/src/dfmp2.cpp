// DF-MP2 bindings: df_mp2_energy (host and sim, modes, target, report), df_fit_cholesky, Mp2Energy.
#include "bind.hpp"
#include "common.hpp"

#include <trnblas/df_mp2.hpp>

#include <cstdio>

namespace trnblas_python {

namespace {

using CArray = py::array_t<double, py::array::c_style>;

/// A float64 C-ordered array of the given rank (a copy only when the input is not one already).
CArray c_double(py::handle obj, py::ssize_t ndim, std::string_view fn, std::string_view name) {
  py::array a = tp::as_ndarray(obj, fn, name);
  tp::detail::require_ndim(a, ndim, fn, name);
  if (a.dtype().kind() == 'c') {
    tp::invalid(fn, std::string(name) + " has dtype " + tp::detail::dtype_text(a) + " but DF-MP2 is real (float64)",
                "pass real orbital data");
  }
  return CArray::ensure(tp::as_dtype<double>(a, fn, name));
}

py::object df_mp2_energy(py::object B, py::object eps_occ, py::object eps_vir, py::kwargs kw) {
  constexpr const char* fn = "trnblas.df_mp2_energy";
  const bool want = tp::pop_flag(kw, "report", false, fn);
  auto opts = options_of(kw, fn);
  CArray b = c_double(B, 3, fn, "B");
  CArray eo = c_double(eps_occ, 1, fn, "eps_occ"), ev = c_double(eps_vir, 1, fn, "eps_vir");
  const std::int64_t nocc = b.shape(0), nvir = b.shape(1), naux = b.shape(2);
  check_length(eo, nocc, fn, "eps_occ", "B.shape[0] (nocc)");
  check_length(ev, nvir, fn, "eps_vir", "B.shape[1] (nvir)");
  trncore::AccuracyReport report;
  trnblas::Mp2Energy e;
  tp::run(opts, [&] {
    e = want ? trnblas::df_mp2_energy(nocc, nvir, naux, b.data(), eo.data(), ev.data(), opts, report)
             : trnblas::df_mp2_energy(nocc, nvir, naux, b.data(), eo.data(), ev.data(), opts);
  });
  return tp::with_report(py::cast(e), report, want);
}

py::object df_fit_cholesky(py::object Pia, py::object J, py::kwargs kw) {
  constexpr const char* fn = "trnblas.df_fit_cholesky";
  tp::reject_unknown(kw, fn);
  CArray p = c_double(Pia, 3, fn, "Pia");
  CArray j = c_double(J, 2, fn, "J");
  const std::int64_t naux = p.shape(0), nocc = p.shape(1), nvir = p.shape(2);
  check_shape(j, naux, naux, fn, "J", "naux x naux (Pia.shape[0])");
  auto b = tp::new_array<double>({nocc, nvir, naux});
  double* out = b.mutable_data();
  const std::int64_t info =
      tp::released([&] { return trnblas::df_fit_cholesky(naux, nocc, nvir, p.data(), j.data(), out); });
  return py::make_tuple(b, info);
}

std::string repr(const trnblas::Mp2Energy& e) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "Mp2Energy(correlation=%.17g, same_spin=%.17g, opposite_spin=%.17g)", e.correlation,
                e.same_spin, e.opposite_spin);
  return buf;
}

}  // namespace

void bind_dfmp2(py::module_& m) {
  using namespace pybind11::literals;
  py::class_<trnblas::Mp2Energy>(m, "Mp2Energy",
                                 "The closed-shell DF-MP2 correlation energy and its spin components in hartree "
                                 "(trnblas::Mp2Energy; psi4's conventions). float(e) is e.correlation.")
      .def(py::init([](double c, double ss, double os) {
             return trnblas::Mp2Energy{c, ss, os};
           }),
           "correlation"_a = 0.0, "same_spin"_a = 0.0, "opposite_spin"_a = 0.0)
      .def_readonly("correlation", &trnblas::Mp2Energy::correlation, "E_corr = opposite_spin + same_spin")
      .def_readonly("same_spin", &trnblas::Mp2Energy::same_spin, "The same-spin component")
      .def_readonly("opposite_spin", &trnblas::Mp2Energy::opposite_spin, "The opposite-spin component")
      .def("__float__", [](const trnblas::Mp2Energy& e) { return e.correlation; })
      .def("__repr__", &repr);

  m.def("df_mp2_energy", &df_mp2_energy, "B"_a, "eps_occ"_a, "eps_vir"_a,
        R"(df_mp2_energy(B, eps_occ, eps_vir, *, report=False, **options) -> Mp2Energy [or (Mp2Energy, AccuracyReport)]

The closed-shell DF-MP2 correlation energy (trnblas::df_mp2_energy, the suite's one implementation) from
the fitted tensor B[i, a, Q] (nocc, nvir, naux; float64, used without a copy when C-ordered), the occupied
orbital energies eps_occ (nocc,) and the virtual ones eps_vir (nvir,); every occupied energy must lie below
every virtual one. (ia|jb) = sum_Q B[i,a,Q] B[j,b,Q], D = e_i + e_j - e_a - e_b,
E_OS = sum (ia|jb)^2/D, E_SS = sum (ia|jb)[(ia|jb) - (ib|ja)]/D, E_corr = E_OS + E_SS.

Options (keywords): backend='host' (fp64, mode 'automatic' or 'fp64') or 'sim' (pair GEMMs on the modelled
TensorEngine in mode bf16/fp16/fp8_e4m3/fp8_e5m2/tf32/fp32 with an fp32 VectorEngine stage, or compensated/
ozaki with a float-float stage; automatic without a target = ozaki); target_forward_error = an ABSOLUTE error
of E_corr in hartree (e.g. 1e-9): automatic picks the cheapest of bf16, fp32, compensated, ozaki meeting it;
generation, product, threads (results do not depend on threads), options=trncore.Options(...).

Accuracy: |E^ - E| <= report.a_priori_bound (absolute, hartree). Measured against psi4 on the repository's
fixtures: host and sim ozaki <= 3e-14 Ha, compensated <= 2.5e-9 Ha, fp32 under bf16 products ~5e-5 Ha.

Errors: DimensionMismatch for ranks and lengths; InvalidArgument for complex data, non-finite inputs, an
occupied energy >= a virtual one, bad options; NotSupported for sr/fp64 on sim or a reduced-precision mode on
host; TargetNotMet (report=False only) when the result is not certified or its bound exceeds the target.)");
  m.def("df_fit_cholesky", &df_fit_cholesky, "Pia"_a, "J"_a,
        R"(df_fit_cholesky(Pia, J) -> (B, info)

The fitted tensor by the Cholesky route (trnblas::df_fit_cholesky; C++ name): with J = L L^T (naux x naux,
SPD, one triangle read) and the raw integrals Pia = (P|ia) of shape (naux, nocc, nvir), returns
B[i, a, Q] = (L^-1 (P|ia))[Q, ia] of shape (nocc, nvir, naux) and LAPACK's info (0 on success; k > 0 when
J's leading minor of order k is not positive definite, B then unspecified: a numerical outcome, not an
exception, as in C++). Runs on the host in fp64. Forward error of (ia|jb) ~ cond(J)*u relative to |B||B|^T.
Errors: DimensionMismatch for shapes; InvalidArgument for non-finite input.)");
}

}  // namespace trnblas_python
