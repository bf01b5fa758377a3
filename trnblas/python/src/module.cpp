// The trnblas Python extension (trnblas._trnblas).
#include <trnsci_python/bindings.hpp>

#include <trnblas/version.hpp>

#include <string>

namespace py = pybind11;
namespace tp = trnsci_python;

PYBIND11_MODULE(_trnblas, m) {
  m.doc() = "trnblas: see docs/python.md";
  tp::init_module(m);
  m.def("version", [] { return std::string(trnblas::version()); }, "The trnblas library's version.");
}
