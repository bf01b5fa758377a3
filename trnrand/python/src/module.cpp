// The trnrand Python extension (trnrand._trnrand).
#include <trnsci_python/bindings.hpp>

#include <trnrand/version.hpp>

#include <string>

namespace py = pybind11;
namespace tp = trnsci_python;

PYBIND11_MODULE(_trnrand, m) {
  m.doc() = "trnrand: see docs/python.md";
  tp::init_module(m);
  m.def("version", [] { return std::string(trnrand::version()); }, "The trnrand library's version.");
}
