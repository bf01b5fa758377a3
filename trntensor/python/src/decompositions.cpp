// CP-ALS, Tucker (HOSVD, HOOI), tensor train (TT-SVD) and their reconstructions (host, float64).
#include "bind.hpp"

#include <trntensor/decompositions.hpp>

#include <pybind11/stl.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace trntensor_python {

namespace {

using trntensor::CpDecomposition;
using trntensor::TensorTrain;
using trntensor::TuckerDecomposition;

py::array copy_out(const trntensor::Tensor<double>& t) { return to_numpy<double>(trntensor::Tensor<double>(t)); }

py::list copies(const std::vector<trntensor::Tensor<double>>& ts) {
  py::list l;
  for (const auto& t : ts) l.append(copy_out(t));
  return l;
}

/// An array-like as a dense Tensor<double> (a copy: the decomposition objects own their data).
trntensor::Tensor<double> dense(py::handle obj, std::string_view function, const std::string& name, py::ssize_t ndim) {
  py::array a = tp::as_ndarray(obj, function, name);
  (void)real_kind(a, function, name);
  auto in = tp::in_tensor<double>(a, function, name, ndim);
  return trntensor::Tensor<double>::copy_of(in.view);
}

std::vector<trntensor::Tensor<double>> dense_list(py::handle obj, std::string_view function, const char* name,
                                                  py::ssize_t ndim) {
  if (!py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj)) {
    tp::invalid(function, std::string(name) + " is not a sequence of arrays", "pass a list of NumPy arrays");
  }
  std::vector<trntensor::Tensor<double>> r;
  std::size_t i = 0;
  for (auto f : py::reinterpret_borrow<py::sequence>(obj)) {
    r.push_back(dense(f, function, std::string(name) + "[" + std::to_string(i) + "]", ndim));
    ++i;
  }
  return r;
}

/// The tensor to decompose: float64 (float32 and integers convert), any strides.
tp::InTensor<double> input(py::handle x, std::string_view function) {
  py::array a = tp::as_ndarray(x, function, "tensor");
  (void)real_kind(a, function, "tensor");
  return tp::in_tensor<double>(a, function, "tensor");
}

std::vector<std::int64_t> ranks_of(py::handle ranks, std::string_view function) {
  try {
    return ranks.cast<std::vector<std::int64_t>>();
  } catch (const py::cast_error&) {
    tp::invalid(function, "ranks=" + py::repr(ranks).cast<std::string>() + " is not a sequence of integers",
                "pass one rank per mode, e.g. (2, 3, 2)");
  }
}

CpDecomposition cp_als(py::handle x, py::kwargs kwargs) {
  constexpr const char* fn = "trntensor.cp_als";
  py::dict kw = kwargs;
  trntensor::CpOptions o;
  pop_options(o, kw, fn);
  if (auto v = tp::pop<std::int64_t>(kw, "rank", fn)) o.rank = *v;
  if (auto v = tp::pop<int>(kw, "max_iterations", fn)) o.max_iterations = *v;
  if (auto v = tp::pop<double>(kw, "tolerance", fn)) o.tolerance = *v;
  if (auto v = tp::pop<bool>(kw, "line_search", fn)) o.line_search = *v;
  if (auto v = tp::pop<bool>(kw, "nonnegative", fn)) o.nonnegative = *v;
  tp::reject_unknown(kw, fn);
  auto in = input(x, fn);
  return tp::run(o, [&] { return trntensor::cp_als(in.view, o); });
}

TuckerDecomposition tucker_hosvd(py::handle x, py::handle ranks, py::kwargs kwargs) {
  constexpr const char* fn = "trntensor.tucker_hosvd";
  auto o = options_from(kwargs, fn);
  const auto r = ranks_of(ranks, fn);
  auto in = input(x, fn);
  return tp::run(o, [&] { return trntensor::tucker_hosvd(in.view, r, o); });
}

TuckerDecomposition tucker_hooi(py::handle x, py::handle ranks, py::kwargs kwargs) {
  constexpr const char* fn = "trntensor.tucker_hooi";
  py::dict kw = kwargs;
  trntensor::HooiOptions o;
  pop_options(o, kw, fn);
  if (auto v = tp::pop<int>(kw, "max_iterations", fn)) o.max_iterations = *v;
  if (auto v = tp::pop<double>(kw, "tolerance", fn)) o.tolerance = *v;
  tp::reject_unknown(kw, fn);
  const auto r = ranks_of(ranks, fn);
  auto in = input(x, fn);
  return tp::run(o, [&] { return trntensor::tucker_hooi(in.view, r, o); });
}

TensorTrain tt_svd(py::handle x, double epsilon, py::object max_rank, py::kwargs kwargs) {
  constexpr const char* fn = "trntensor.tt_svd";
  auto o = options_from(kwargs, fn);
  std::int64_t cap = std::numeric_limits<std::int64_t>::max();
  if (!max_rank.is_none()) {
    try {
      cap = max_rank.cast<std::int64_t>();
    } catch (const py::cast_error&) {
      tp::invalid(fn, "max_rank=" + py::repr(max_rank).cast<std::string>() + " is not an integer",
                  "pass an integer >= 1, or None for no cap");
    }
  }
  auto in = input(x, fn);
  // trntensor::tt_svd crashes (SIGSEGV) on a zero extent (library bug, reported); refuse it here as cp_als does.
  for (auto e : in.view.shape()) {
    if (e == 0) {
      tp::invalid(fn, "the shape " + trntensor::detail::shape_string(in.view.shape()) + " has a zero extent",
                  "decompose a tensor with elements");
    }
  }
  return tp::run(o, [&] { return trntensor::tt_svd(in.view, epsilon, cap, o); });
}

py::array cp_reconstruct(py::handle factors, py::handle weights) {
  constexpr const char* fn = "trntensor.cp_reconstruct";
  if (py::isinstance<CpDecomposition>(factors)) {
    const auto& cp = factors.cast<const CpDecomposition&>();
    return to_numpy<double>(tp::released([&] { return trntensor::cp_reconstruct(cp); }));
  }
  CpDecomposition cp;
  cp.factors = dense_list(factors, fn, "factors", 2);
  if (weights.is_none()) {
    const std::int64_t r = cp.factors.empty() ? 0 : cp.factors[0].extent(1);
    cp.weights.assign(static_cast<std::size_t>(r), 1.0);
  } else {
    cp.weights = dense(weights, fn, "weights", 1).values();
  }
  return to_numpy<double>(tp::released([&] { return trntensor::cp_reconstruct(cp); }));
}

py::array tucker_reconstruct(py::handle core, py::handle factors) {
  constexpr const char* fn = "trntensor.tucker_reconstruct";
  if (py::isinstance<TuckerDecomposition>(core)) {
    const auto& t = core.cast<const TuckerDecomposition&>();
    return to_numpy<double>(tp::released([&] { return trntensor::tucker_reconstruct(t); }));
  }
  if (factors.is_none()) {
    tp::invalid(fn, "factors is missing", "pass tucker_reconstruct(core, factors) or a TuckerDecomposition");
  }
  TuckerDecomposition t;
  t.core = dense(core, fn, "core", -1);
  t.factors = dense_list(factors, fn, "factors", 2);
  if (t.factors.size() != static_cast<std::size_t>(t.core.rank())) {
    tp::mismatch(fn, std::to_string(t.factors.size()) + " factors for a core of rank " + std::to_string(t.core.rank()),
                 "pass one factor (I_n × R_n) per mode of the core");
  }
  return to_numpy<double>(tp::released([&] { return trntensor::tucker_reconstruct(t); }));
}

py::array tt_reconstruct(py::handle cores) {
  constexpr const char* fn = "trntensor.tt_reconstruct";
  if (py::isinstance<TensorTrain>(cores)) {
    const auto& tt = cores.cast<const TensorTrain&>();
    return to_numpy<double>(tp::released([&] { return trntensor::tt_reconstruct(tt); }));
  }
  TensorTrain tt;
  tt.cores = dense_list(cores, fn, "cores", 3);
  return to_numpy<double>(tp::released([&] { return trntensor::tt_reconstruct(tt); }));
}

}  // namespace

void bind_decompositions(py::module_& m) {
  py::class_<CpDecomposition>(
      m, "CpDecomposition",
      "X ≈ Σ_r weights[r] · factors[0][:, r] ∘ factors[1][:, r] ∘ … (trntensor::CpDecomposition); "
      "the factors have unit-norm columns.")
      .def_property_readonly("weights",
                             [](const CpDecomposition& d) {
                               py::array_t<double> w(static_cast<py::ssize_t>(d.weights.size()));
                               std::copy(d.weights.begin(), d.weights.end(), w.mutable_data());
                               return w;
                             })
      .def_property_readonly(
          "factors", [](const CpDecomposition& d) { return copies(d.factors); }, "One I_n × R array per mode (copies).")
      .def_readonly("fit", &CpDecomposition::fit, "1 − ‖X − X̂‖_F / ‖X‖_F at return.")
      .def_readonly("iterations", &CpDecomposition::iterations, "Sweeps performed.")
      .def_readonly("converged", &CpDecomposition::converged,
                    "Whether the fit changed by less than tolerance in the last sweep.")
      .def_readonly("stopped_by_monitor", &CpDecomposition::stopped_by_monitor)
      .def("__repr__", [](const CpDecomposition& d) {
        return "CpDecomposition(rank=" + std::to_string(d.weights.size()) +
               ", modes=" + std::to_string(d.factors.size()) + ", fit=" + num(d.fit) +
               ", iterations=" + std::to_string(d.iterations) + ", converged=" + (d.converged ? "True" : "False") +
               ", stopped_by_monitor=" + (d.stopped_by_monitor ? "True" : "False") + ")";
      });

  py::class_<TuckerDecomposition>(m, "TuckerDecomposition",
                                  "X ≈ core ×₀ factors[0] ×₁ factors[1] … with orthonormal factor columns "
                                  "(trntensor::TuckerDecomposition).")
      .def_property_readonly("core", [](const TuckerDecomposition& t) { return copy_out(t.core); })
      .def_property_readonly("factors", [](const TuckerDecomposition& t) { return copies(t.factors); })
      .def_readonly("relative_error", &TuckerDecomposition::relative_error, "‖X − X̂‖_F / ‖X‖_F at return.")
      .def_readonly("iterations", &TuckerDecomposition::iterations, "HOOI sweeps (0 for HOSVD).")
      .def_readonly("stopped_by_monitor", &TuckerDecomposition::stopped_by_monitor)
      .def("__repr__", [](const TuckerDecomposition& t) {
        return "TuckerDecomposition(core=" + trntensor::detail::shape_string(t.core.shape()) +
               ", relative_error=" + num(t.relative_error) + ", iterations=" + std::to_string(t.iterations) + ")";
      });

  py::class_<TensorTrain>(m, "TensorTrain",
                          "A tensor train (trntensor::TensorTrain): core k of shape r_{k−1} × I_k × r_k, r at both "
                          "ends 1; error_bound = √(Σ discarded σ²)/‖X‖_F, the certified relative error.")
      .def_property_readonly("cores", [](const TensorTrain& t) { return copies(t.cores); })
      .def_property_readonly(
          "ranks",
          [](const TensorTrain& t) {
            std::vector<std::int64_t> r;
            for (const auto& c : t.cores) r.push_back(c.extent(0));
            if (!t.cores.empty()) r.push_back(t.cores.back().extent(2));
            return r;
          },
          "r_{-1}, r_0, …, r_{d−1} (first and last are 1).")
      .def_readonly("error_bound", &TensorTrain::error_bound)
      .def("__repr__", [](const TensorTrain& t) {
        std::string ranks;
        for (const auto& c : t.cores) ranks += std::to_string(c.extent(0)) + ", ";
        if (!t.cores.empty()) ranks += std::to_string(t.cores.back().extent(2));
        return "TensorTrain(ranks=[" + ranks + "], error_bound=" + num(t.error_bound) + ")";
      });

  m.def("cp_als", &cp_als, py::arg("tensor"),
        R"(cp_als(tensor, *, rank=1, max_iterations=500, tolerance=1e-12, line_search=False, nonnegative=False,
       **options) -> CpDecomposition

CP decomposition by alternating least squares (trntensor::cp_als), host, float64 (float32 converts).
Stops after max_iterations sweeps or when the fit changes by less than tolerance in one sweep; line_search
extrapolates the factors (Bro 1998), nonnegative uses HALS. Options: seed (the random initial factors),
threads (never changes the result), monitor=callable(progress) -> bool called once per sweep with the sweep
number and the fit change as progress.residual (True stops: stopped_by_monitor). backend must be 'host'.
Accuracy: a local optimum; exactly low-rank tensors with rank ≥ the true rank reach fit → 1 (1e-8 tested).
Raises trncore.InvalidArgument for rank < 1, a tensor of ndim < 2 or with a zero extent, non-finite entries,
a negative tolerance, (nonnegative) a negative entry; trncore.NotSupported for backend='sim'.)");
  m.def("tucker_hosvd", &tucker_hosvd, py::arg("tensor"), py::arg("ranks"),
        R"(tucker_hosvd(tensor, ranks, **options) -> TuckerDecomposition

Truncated higher-order SVD (trntensor::tucker_hosvd), host, float64. Accuracy: ‖X − X̂‖_F ≤
√(Σ_n Σ_{i>R_n} σ_i(X_(n))²). Raises trncore.InvalidArgument for len(ranks) ≠ ndim, a rank outside [1, I_n],
non-finite data; trncore.NotSupported for backend='sim'.)");
  m.def("tucker_hooi", &tucker_hooi, py::arg("tensor"), py::arg("ranks"),
        R"(tucker_hooi(tensor, ranks, *, max_iterations=50, tolerance=1e-12, **options) -> TuckerDecomposition

Higher-order orthogonal iteration from the HOSVD (trntensor::tucker_hooi); its error is never above HOSVD's.
monitor=callable(progress) -> bool once per sweep (residual = |‖G_k‖ − ‖G_{k−1}‖| / ‖X‖; True stops). Raises
as tucker_hosvd, and trncore.InvalidArgument for max_iterations < 0 or a negative tolerance.)");
  m.def("tt_svd", &tt_svd, py::arg("tensor"), py::arg("epsilon"), py::arg("max_rank") = py::none(),
        R"(tt_svd(tensor, epsilon, max_rank=None, **options) -> TensorTrain

TT-SVD (Oseledets 2011, trntensor::tt_svd): ‖X − TT‖_F ≤ epsilon·‖X‖_F whenever max_rank (None: no cap) does
not bind; TensorTrain.error_bound is the certified relative error in every case. Raises
trncore.InvalidArgument for epsilon < 0 or NaN, max_rank < 1, a 0-d tensor, non-finite data;
trncore.NotSupported for backend='sim'.)");

  m.def("cp_reconstruct", &cp_reconstruct, py::arg("factors"), py::arg("weights") = py::none(),
        "cp_reconstruct(factors, weights=None) -> ndarray: Σ_r weights[r]·factors[0][:, r] ∘ … "
        "(trntensor::cp_reconstruct; float64). factors: a list of I_n × R arrays (upstream's signature; weights "
        "None = ones) or a CpDecomposition. Raises trncore.DimensionMismatch for inconsistent factors.");
  m.def("tucker_reconstruct", &tucker_reconstruct, py::arg("core"), py::arg("factors") = py::none(),
        "tucker_reconstruct(core, factors) -> ndarray: core ×₀ factors[0] ×₁ … (trntensor::tucker_reconstruct; "
        "float64); core may be a TuckerDecomposition (factors omitted). Raises trncore.DimensionMismatch for "
        "inconsistent shapes.");
  m.def("tt_reconstruct", &tt_reconstruct, py::arg("cores"),
        "tt_reconstruct(cores) -> ndarray: the dense tensor of a train (trntensor::tt_reconstruct; float64); "
        "cores: a list of r_{k−1} × I_k × r_k arrays or a TensorTrain. Raises trncore.DimensionMismatch when "
        "consecutive ranks disagree.");
}

}  // namespace trntensor_python
