#pragma once
/// @file
/// trncore::Error → the trncore Python exception hierarchy (docs/python.md, "Errors").
///
/// Every extension module calls register_error_translator() once in its PYBIND11_MODULE body. The Python
/// classes live in trncore/_errors.py: each subclasses trncore.Error and the builtin that fits
/// (InvalidArgument and DimensionMismatch are ValueErrors, NotSupported a NotImplementedError, IoError an
/// OSError, ResourceExhausted and TargetNotMet RuntimeErrors), so `except ValueError` keeps working.
/// The message is what() unchanged; function, problem and hint are attributes too.

#include <trncore/error.hpp>

#include <pybind11/pybind11.h>

#include <exception>
#include <string_view>

namespace trnsci_python {

namespace py = pybind11;

namespace detail {

inline void raise_as(const char* class_name, const trncore::Error& e) {
  py::object cls = py::module_::import("trncore._errors").attr(class_name);
  py::object instance = cls(e.what());
  instance.attr("function") = e.function();
  instance.attr("problem") = e.problem();
  instance.attr("hint") = e.hint();
  if (const auto* parse = dynamic_cast<const trncore::ParseError*>(&e)) {
    instance.attr("line") = parse->line();
    instance.attr("column") = parse->column();
  }
  PyErr_SetObject(cls.ptr(), instance.ptr());
}

}  // namespace detail

/// Registers, for the calling extension module only, the translation of trncore::Error and its subclasses
/// into trncore.Error and its subclasses. Needs the trncore Python package importable (every trnsci
/// package imports it first).
inline void register_error_translator() {
  py::register_local_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const trncore::InvalidArgument& e) {
      detail::raise_as("InvalidArgument", e);
    } catch (const trncore::DimensionMismatch& e) {
      detail::raise_as("DimensionMismatch", e);
    } catch (const trncore::ResourceExhausted& e) {
      detail::raise_as("ResourceExhausted", e);
    } catch (const trncore::NotSupported& e) {
      detail::raise_as("NotSupported", e);
    } catch (const trncore::TargetNotMet& e) {
      detail::raise_as("TargetNotMet", e);
    } catch (const trncore::ParseError& e) {
      detail::raise_as("ParseError", e);
    } catch (const trncore::IoError& e) {
      detail::raise_as("IoError", e);
    } catch (const trncore::Error& e) {
      detail::raise_as("Error", e);
    }
  });
}

/// Throws trncore::InvalidArgument from binding glue, in the library's "function: problem: hint" form.
[[noreturn]] inline void invalid(std::string_view function, std::string_view problem, std::string_view hint) {
  throw trncore::InvalidArgument(function, problem, hint);
}

/// Throws trncore::DimensionMismatch from binding glue.
[[noreturn]] inline void mismatch(std::string_view function, std::string_view problem, std::string_view hint) {
  throw trncore::DimensionMismatch(function, problem, hint);
}

}  // namespace trnsci_python
