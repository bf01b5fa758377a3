// The trnblas Python extension (trnblas._trnblas): BLAS levels 1-3, batched GEMM, math modes, DF-MP2.
#include "bind.hpp"

#include <trnsci_python/bindings.hpp>

#include <trnblas/build_info.hpp>
#include <trnblas/version.hpp>

#include <string>

namespace py = pybind11;
namespace tp = trnsci_python;

PYBIND11_MODULE(_trnblas, m) {
  m.doc() = "trnblas: BLAS levels 1-3, batched GEMM, the sim backend's math modes and DF-MP2 (docs/python.md)";
  tp::init_module(m);
  m.def(
      "version", [] { return std::string(trnblas::version()); }, "The trnblas library's version.");
  m.def("build_info", &trnblas::build_info,
        "One line describing this trnblas build: library version and the OpenBLAS it calls (trnblas::build_info).");
  trnblas_python::bind_level1(m);
  trnblas_python::bind_level2(m);
  trnblas_python::bind_gemm(m);
  trnblas_python::bind_level3(m);
  trnblas_python::bind_dfmp2(m);
}
