// The trnfft Python extension (trnfft._trnfft).
#include <trnsci_python/bindings.hpp>

#include <trnfft/version.hpp>

#include <string>

namespace py = pybind11;
namespace tp = trnsci_python;

PYBIND11_MODULE(_trnfft, m) {
  m.doc() = "trnfft: see docs/python.md";
  tp::init_module(m);
  m.def("version", [] { return std::string(trnfft::version()); }, "The trnfft library's version.");
}
