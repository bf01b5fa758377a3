// The trntensor Python extension (trntensor._trntensor).
#include <trnsci_python/bindings.hpp>

#include <trntensor/version.hpp>

#include <string>

namespace py = pybind11;
namespace tp = trnsci_python;

PYBIND11_MODULE(_trntensor, m) {
  m.doc() = "trntensor: see docs/python.md";
  tp::init_module(m);
  m.def("version", [] { return std::string(trntensor::version()); }, "The trntensor library's version.");
}
