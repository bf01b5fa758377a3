// Chemistry: the DF-MP2 energy of a fitted tensor (through trnblas::df_mp2_energy) and the AO→MO transforms.
#include "bind.hpp"

#include <trntensor/chemistry.hpp>
#include <trntensor/einsum.hpp>

#include <pybind11/stl.h>

#include <span>
#include <string>
#include <typeinfo>
#include <vector>

namespace trntensor_python {

namespace {

/// A 1-D float64 array, contiguous (the energies are read as a span).
py::array_t<double, py::array::c_style> energies(py::handle obj, std::string_view function, const char* name) {
  py::array a = tp::as_ndarray(obj, function, name);
  (void)real_kind(a, function, name);
  if (a.ndim() != 1) {
    tp::mismatch(function, std::string(name) + " must be 1-D, got shape " + tp::detail::shape_text(a),
                 "pass one energy per orbital (x.ravel())");
  }
  return py::array_t<double, py::array::c_style>::ensure(tp::as_dtype<double>(a, function, name));
}

struct Mp2Inputs {
  tp::InTensor<double> b;
  py::array_t<double, py::array::c_style> occ, vir;
  trncore::Options options;
  bool report = false;
};

Mp2Inputs mp2_inputs(py::handle b, py::handle eps_occ, py::handle eps_vir, py::kwargs kwargs, std::string_view fn) {
  py::dict kw = kwargs;
  Mp2Inputs in{tp::InTensor<double>{}, {}, {}, {}, false};
  in.report = tp::pop_flag(kw, "report", false, fn);
  in.options.backend = default_backend();
  pop_options(in.options, kw, fn);
  tp::reject_unknown(kw, fn);
  py::array ba = tp::as_ndarray(b, fn, "B");
  (void)real_kind(ba, fn, "B");
  in.b = tp::in_tensor<double>(ba, fn, "B");
  in.occ = energies(eps_occ, fn, "eps_occ");
  in.vir = energies(eps_vir, fn, "eps_vir");
  return in;
}

trnblas::Mp2Energy run_mp2(Mp2Inputs& in, trncore::AccuracyReport& report) {
  const std::span<const double> occ(in.occ.data(), static_cast<std::size_t>(in.occ.size()));
  const std::span<const double> vir(in.vir.data(), static_cast<std::size_t>(in.vir.size()));
  return tp::run(in.options, [&] {
    return in.report ? trntensor::df_mp2_energy(in.b.view, occ, vir, in.options, report)
                     : trntensor::df_mp2_energy(in.b.view, occ, vir, in.options);
  });
}

py::object mp2_energy(py::handle b, py::handle eps_occ, py::handle eps_vir, py::kwargs kwargs) {
  auto in = mp2_inputs(b, eps_occ, eps_vir, kwargs, "trntensor.mp2_energy");
  trncore::AccuracyReport report;
  const auto e = run_mp2(in, report);
  return tp::with_report(py::float_(e.correlation), report, in.report);
}

py::object df_mp2_energy(py::handle b, py::handle eps_occ, py::handle eps_vir, py::kwargs kwargs) {
  constexpr const char* fn = "trntensor.df_mp2_energy";
  // trnblas::Mp2Energy is trnblas's type: its Python class is registered by the trnblas module.
  py::module_::import("trnblas");
  if (py::detail::get_type_info(typeid(trnblas::Mp2Energy)) == nullptr) {
    throw trncore::NotSupported(fn, "the trnblas Python module does not register trnblas.Mp2Energy",
                                "use trntensor.mp2_energy (the correlation energy as a float)");
  }
  auto in = mp2_inputs(b, eps_occ, eps_vir, kwargs, fn);
  trncore::AccuracyReport report;
  const auto e = run_mp2(in, report);
  return tp::with_report(py::cast(e), report, in.report);
}

// ---------------------------------------------------------------------------------------------------------
// AO→MO

constexpr const char* kAoMo = "trntensor.ao_to_mo_transform";

template <class T>
py::object ao_mo_run(const std::vector<py::array>& arrays, trntensor::PlanOptions& o, bool want_report) {
  auto in = in_tensors<T>(arrays, kAoMo);
  trncore::AccuracyReport report;
  const auto& v = in.views;
  trntensor::Tensor<T> r;
  if (arrays[0].ndim() == 3) {
    // Upstream's density-fitted transform B[i,a,P] = Σ_{μν} C_occ[μ,i] C_vir[ν,a] eri[μ,ν,P].
    const trntensor::TensorView<const T> ops[] = {v[1], v[2], v[0]};
    const std::span<const trntensor::TensorView<const T>> s(ops);
    r = tp::run(o, [&] {
      return want_report ? trntensor::einsum<T>("mi,na,mnP->iaP", s, o, report)
                         : trntensor::einsum<T>("mi,na,mnP->iaP", s, o);
    });
  } else if (arrays.size() == 2) {
    r = tp::run(o, [&] {
      return want_report ? trntensor::ao_to_mo_transform<T>(v[0], v[1], o, report)
                         : trntensor::ao_to_mo_transform<T>(v[0], v[1], o);
    });
  } else {
    r = tp::run(o, [&] {
      return want_report ? trntensor::ao_to_mo_transform<T>(v[0], v[1], v[2], v[3], v[4], o, report)
                         : trntensor::ao_to_mo_transform<T>(v[0], v[1], v[2], v[3], v[4], o);
    });
  }
  return tp::with_report(to_numpy<T>(std::move(r)), report, want_report);
}

py::object ao_to_mo_transform(py::handle eri, py::args coefficients, py::kwargs kwargs) {
  py::dict kw = kwargs;
  const bool want_report = tp::pop_flag(kw, "report", false, kAoMo);
  trntensor::PlanOptions o = pop_plan_options(kw, kAoMo);
  tp::reject_unknown(kw, kAoMo);
  std::vector<py::array> arrays{tp::as_ndarray(eri, kAoMo, "eri")};
  Real kind = real_kind(arrays[0], kAoMo, "eri");
  for (std::size_t i = 0; i < coefficients.size(); ++i) {
    const std::string name = "coefficient matrix " + std::to_string(i);
    arrays.push_back(tp::as_ndarray(coefficients[i], kAoMo, name));
    kind = promote(kind, real_kind(arrays.back(), kAoMo, name));
  }
  const auto n = coefficients.size();
  if (arrays[0].ndim() == 3) {
    if (n != 2) {
      tp::invalid(kAoMo, "a 3-index eri takes C_occ and C_vir, got " + std::to_string(n) + " coefficient matrices",
                  "call ao_to_mo_transform(eri[μ,ν,P], C_occ, C_vir)");
    }
    for (std::size_t i = 1; i <= 2; ++i) {
      if (arrays[i].ndim() != 2) {
        tp::mismatch(
            kAoMo,
            std::string(i == 1 ? "C_occ" : "C_vir") + " must be 2-D, got shape " + tp::detail::shape_text(arrays[i]),
            "pass an AO × MO coefficient matrix");
      }
    }
  } else if (arrays[0].ndim() == 4) {
    if (n != 1 && n != 4) {
      tp::invalid(kAoMo, "a 4-index eri takes 1 or 4 coefficient matrices, got " + std::to_string(n),
                  "call ao_to_mo_transform(eri, C) or ao_to_mo_transform(eri, C1, C2, C3, C4)");
    }
  } else {
    tp::mismatch(kAoMo, "eri must be 3-D (μ, ν, P) or 4-D (p, q, r, s), got shape " + tp::detail::shape_text(arrays[0]),
                 "pass the density-fitted 3-index or the full 4-index AO integrals");
  }
  if (kind == Real::f32) return ao_mo_run<float>(arrays, o, want_report);
  return ao_mo_run<double>(arrays, o, want_report);
}

}  // namespace

void bind_chemistry(py::module_& m) {
  m.def("mp2_energy", &mp2_energy, py::arg("B"), py::arg("eps_occ"), py::arg("eps_vir"),
        R"(mp2_energy(B, eps_occ, eps_vir, *, report=False, **options) -> float

Closed-shell DF-MP2 correlation energy E = Σ_{ijab} T_ijab (2T_ijab − T_ijba) / (ε_i + ε_j − ε_a − ε_b),
T_ijab = Σ_P B[i,a,P] B[j,b,P], in hartree (trntensor::df_mp2_energy, which is trnblas::df_mp2_energy: pair
products by GEMM, energy sums in double-double on the host). B: (nocc, nvir, naux), any strides (float64;
float32 converts); eps_occ (nocc,), eps_vir (nvir,), every occupied energy below every virtual one.
Upstream returned a 0-D tensor; here a float (report=True: (float, trncore.AccuracyReport) with the
certified bound in hartree).

Options: backend 'host' (mode 'automatic' or 'fp64') or 'sim' (mode 'bf16', 'fp16', 'fp8_e4m3',
'fp8_e5m2', 'tf32', 'fp32', 'compensated', 'ozaki' or 'automatic' = ozaki without a target);
target_forward_error is an ABSOLUTE error of E_corr in hartree (e.g. 1e-9), on sim the cheapest mode meeting
it. Accuracy: the report's certified bound; measured vs psi4: host and sim ozaki ≤ 3e-14 Ha, sim
compensated ≤ 2.5e-9 Ha.
Raises trncore.DimensionMismatch when B is not 3-D or the energies' lengths differ from its extents;
trncore.InvalidArgument for non-finite inputs or an occupied energy ≥ a virtual one; trncore.NotSupported
for a reduced mode on the host or 'fp64'/'sr' on sim; trncore.TargetNotMet (without report=True) when
the result is not certified or misses the target.)");

  m.def("df_mp2_energy", &df_mp2_energy, py::arg("B"), py::arg("eps_occ"), py::arg("eps_vir"),
        "df_mp2_energy(B, eps_occ, eps_vir, *, report=False, **options) -> trnblas.Mp2Energy: as mp2_energy, "
        "returning the same-spin / opposite-spin / correlation components (trntensor::df_mp2_energy's result, "
        "the trnblas type; needs the trnblas Python module, imported on first use).");

  m.def("ao_to_mo_transform", &ao_to_mo_transform, py::arg("eri"),
        R"(ao_to_mo_transform(eri, *C, report=False, **options) -> ndarray

AO→MO integral transforms through einsum plans (float32/float64; the result in the promoted dtype):
  ao_to_mo_transform(eri[μ,ν,P], C_occ, C_vir) -> B[i,a,P] = Σ_{μν} C_occ[μ,i] C_vir[ν,a] eri[μ,ν,P]
      (upstream's signature and meaning: the density-fitted 3-index transform; einsum "mi,na,mnP->iaP").
  ao_to_mo_transform(eri[p,q,r,s], C) or (eri, C1, C2, C3, C4) -> (ij|kl) = Σ C1_pi C2_qj C3_rk C4_sl (pq|rs)
      (trntensor::ao_to_mo_transform: the 4-index transform, planned as four one-index GEMM stages).
Options as einsum (backend, mode, target_forward_error, planner fields); report=True returns
(result, trncore.AccuracyReport). Accuracy: einsum's componentwise bound relative to the transform of |eri|
by |C|. Raises trncore.DimensionMismatch for an eri that is not 3-D/4-D or AO extents that differ from the
C's rows; trncore.InvalidArgument for a wrong number of coefficient matrices; otherwise as einsum.)");
}

}  // namespace trntensor_python
