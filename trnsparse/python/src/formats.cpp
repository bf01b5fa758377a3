// trnsparse formats: conversions, dense round trips, validate, transpose, duplicates, block density.
#include "bind.hpp"

#include <trnsparse/sim.hpp>

#include <pybind11/stl.h>

namespace trnsparse_python {

namespace {

enum class Fmt { csr, coo, csc, bsr, other };

Fmt format_of(py::handle A) {
  auto f = formats_module();
  if (py::isinstance(A, f.attr("CSRMatrix"))) return Fmt::csr;
  if (py::isinstance(A, f.attr("COOMatrix"))) return Fmt::coo;
  if (py::isinstance(A, f.attr("CSCMatrix"))) return Fmt::csc;
  if (py::isinstance(A, f.attr("BSRMatrix"))) return Fmt::bsr;
  return Fmt::other;
}

tp::Kind kind_any(py::handle A, std::string_view fn) {
  const Fmt f = format_of(A);
  if (f == Fmt::bsr) return value_kind(get_attr(A, "blocks", fn, "BSR"), fn);
  if (f == Fmt::coo || f == Fmt::csc) return value_kind(get_attr(A, "values", fn, "sparse"), fn);
  return csr_kind(A, fn);
}

py::object to_csr_py(py::handle A, bool sum_duplicates) {
  constexpr const char* fn = "trnsparse.to_csr";
  const Fmt f = format_of(A);
  return dispatch_real(kind_any(A, fn), [&]<class T>() -> py::object {
    if (f == Fmt::coo) {
      auto c = coo_in<T>(A, fn);
      const auto sum = sum_duplicates ? trnsparse::SumDuplicates::yes : trnsparse::SumDuplicates::no;
      return csr_out(tp::released([&] { return trnsparse::to_csr(c, sum); }));
    }
    if (f == Fmt::csc) {
      auto c = csc_in<T>(A, fn);
      return csr_out(tp::released([&] { return trnsparse::to_csr(c); }));
    }
    if (f == Fmt::bsr) {
      auto b = bsr_in<T>(A, fn);
      return csr_out(tp::released([&] { return trnsparse::to_csr(b); }));
    }
    auto c = csr_in<T>(A, fn);
    tp::released([&] { trnsparse::validate(c, "trnsparse::to_csr"); });
    if (sum_duplicates) return csr_out(tp::released([&] { return trnsparse::sum_duplicates(c); }));
    return csr_out(std::move(c));
  });
}

py::object to_coo_py(py::handle A) {
  constexpr const char* fn = "trnsparse.to_coo";
  const Fmt f = format_of(A);
  return dispatch_real(kind_any(A, fn), [&]<class T>() -> py::object {
    if (f == Fmt::csc) {
      auto c = csc_in<T>(A, fn);
      return coo_out(tp::released([&] { return trnsparse::to_coo(c); }));
    }
    if (f == Fmt::coo) {
      auto c = coo_in<T>(A, fn);
      tp::released([&] { trnsparse::validate(c, "trnsparse::to_coo"); });
      return coo_out(std::move(c));
    }
    auto c = csr_in<T>(A, fn);
    return coo_out(tp::released([&] { return trnsparse::to_coo(c); }));
  });
}

py::object to_csc_py(py::handle A) {
  constexpr const char* fn = "trnsparse.to_csc";
  const Fmt f = format_of(A);
  return dispatch_real(kind_any(A, fn), [&]<class T>() -> py::object {
    if (f == Fmt::coo) {
      auto c = coo_in<T>(A, fn);
      return csc_out(tp::released([&] { return trnsparse::to_csc(c); }));
    }
    auto c = csr_in<T>(A, fn);
    return csc_out(tp::released([&] { return trnsparse::to_csc(c); }));
  });
}

py::object to_bsr_py(py::handle A, py::handle block_size) {
  constexpr const char* fn = "trnsparse.to_bsr";
  auto [r, c] = block_size_of(block_size, fn);
  if (format_of(A) == Fmt::bsr) {
    auto [ar, ac] = block_size_of(A.attr("block_size"), fn);
    if (ar == r && ac == c) return py::reinterpret_borrow<py::object>(A);
  }
  return dispatch_real(kind_any(A, fn), [&]<class T>() -> py::object {
    auto a = csr_in<T>(A, fn);
    return bsr_out(tp::released([&] { return trnsparse::to_bsr(a, r, c); }));
  });
}

py::array to_dense_py(py::handle A) {
  constexpr const char* fn = "trnsparse.to_dense";
  const bool bsr = format_of(A) == Fmt::bsr;
  return dispatch_real(kind_any(A, fn), [&]<class T>() -> py::array {
    if (bsr) {
      auto b = bsr_in<T>(A, fn);
      auto d = tp::released([&] { return trnsparse::to_dense(b); });
      return vector_to_numpy(std::move(d), {static_cast<py::ssize_t>(b.rows), static_cast<py::ssize_t>(b.cols)});
    }
    auto c = csr_in<T>(A, fn);
    auto d = tp::released([&] { return trnsparse::to_dense(c); });
    return vector_to_numpy(std::move(d), {static_cast<py::ssize_t>(c.rows), static_cast<py::ssize_t>(c.cols)});
  });
}

py::object csr_from_dense_py(py::handle obj, double threshold) {
  constexpr const char* fn = "trnsparse.from_dense";
  py::array a = tp::as_ndarray(obj, fn, "A");
  tp::Kind k = tp::kind_of(a, fn, "A");
  if (k == tp::Kind::c64 || k == tp::Kind::c128) tp::invalid(fn, "A is complex", "trnsparse is real: pass A.real");
  return dispatch_real(k, [&]<class T>() -> py::object {
    auto m = c_matrix<T>(a, fn, "A");
    const auto rows = static_cast<std::int64_t>(m.shape(0)), cols = static_cast<std::int64_t>(m.shape(1));
    const T* p = m.data();
    return csr_out(tp::released(
        [&] { return trnsparse::csr_from_dense<T, Index>(rows, cols, p, cols > 0 ? cols : 1, threshold); }));
  });
}

void validate_py(py::handle A, bool canonical) {
  constexpr const char* fn = "trnsparse.validate";
  const Fmt f = format_of(A);
  dispatch_real(kind_any(A, fn), [&]<class T>() {
    if (f == Fmt::coo) {
      auto c = coo_in<T>(A, fn);
      trnsparse::validate(c, fn);
    } else if (f == Fmt::csc) {
      auto c = csc_in<T>(A, fn);
      trnsparse::validate(c, fn, canonical);
    } else if (f == Fmt::bsr) {
      auto b = bsr_in<T>(A, fn);
      trnsparse::validate(b, fn, canonical);
    } else {
      auto c = csr_in<T>(A, fn);
      trnsparse::validate(c, fn, canonical);
    }
  });
}

template <class Op>
py::object csr_unary(py::handle A, const char* fn, Op op) {
  return dispatch_real(csr_kind(A, fn), [&]<class T>() -> py::object {
    auto c = csr_in<T>(A, fn);
    return csr_out(tp::released([&] { return op(c); }));
  });
}

py::array nnz_per_row_py(py::handle A) {
  constexpr const char* fn = "trnsparse.nnz_per_row";
  return dispatch_real(csr_kind(A, fn), [&]<class T>() -> py::array {
    auto c = csr_in<T>(A, fn);
    trnsparse::validate(c, fn);
    std::vector<Index> n(static_cast<std::size_t>(c.rows));
    for (std::int64_t i = 0; i < c.rows; ++i) n[static_cast<std::size_t>(i)] = c.indptr[i + 1] - c.indptr[i];
    return vector_to_numpy(std::move(n));
  });
}

trnsparse::BlockDensity block_density_py(py::handle A, py::handle block_size) {
  constexpr const char* fn = "trnsparse.block_density";
  auto [r, cc] = block_size_of(block_size, fn);
  return dispatch_real(csr_kind(A, fn), [&]<class T>() {
    auto c = csr_in<T>(A, fn);
    return tp::released([&] { return trnsparse::block_density(c, r, cc); });
  });
}

}  // namespace

void bind_formats(py::module_& m) {
  py::class_<trnsparse::BlockDensity>(m, "BlockDensity",
                                      "How well a matrix fills R×C blocks (trnsparse::BlockDensity).")
      .def_readonly("block_rows", &trnsparse::BlockDensity::block_rows)
      .def_readonly("block_cols", &trnsparse::BlockDensity::block_cols)
      .def_readonly("stored_blocks", &trnsparse::BlockDensity::stored_blocks)
      .def_readonly("total_blocks", &trnsparse::BlockDensity::total_blocks)
      .def_readonly("nonzeros", &trnsparse::BlockDensity::nonzeros)
      .def_readonly("block_density", &trnsparse::BlockDensity::block_density)
      .def_readonly("fill", &trnsparse::BlockDensity::fill)
      .def_readonly("max_blocks_per_row", &trnsparse::BlockDensity::max_blocks_per_row)
      .def("__repr__", [](const trnsparse::BlockDensity& b) { return "BlockDensity(" + b.to_string() + ")"; });

  m.def("to_csr", &to_csr_py, py::arg("A"), py::arg("sum_duplicates") = true,
        "CSRMatrix of A (COOMatrix, CSCMatrix, BSRMatrix, CSRMatrix or scipy.sparse): trnsparse::to_csr. COO by a "
        "stable counting sort, duplicates summed in storage order unless sum_duplicates=False (then sorted, "
        "kept); BSR keeps every in-range entry of every stored block, zeros included; a CSR input is validated "
        "and (sum_duplicates) canonicalised. Exact except the one rounding per summed duplicate.\n"
        "Raises trncore.InvalidArgument for a malformed A (naming the position) or a non-real dtype.");
  m.def("to_coo", &to_coo_py, py::arg("A"), "COOMatrix of a CSR/CSC matrix (trnsparse::to_coo). Exact.");
  m.def("to_csc", &to_csc_py, py::arg("A"),
        "CSCMatrix of a COO/CSR matrix (trnsparse::to_csc; sorted, exact; COO duplicates summed).");
  m.def("to_bsr", &to_bsr_py, py::arg("A"), py::arg("block_size") = 128,
        "BSRMatrix with R×C blocks (block_size=R or (R, C); default 128, one TensorEngine tile) of a CSR-like "
        "A (trnsparse::to_bsr): a block is stored when any entry falls in it (explicit zeros count); duplicates "
        "summed; the last block row/column may stick out past the matrix (padded with zeros). Exact.\n"
        "Raises trncore.InvalidArgument for block sizes < 1 or a malformed A.");
  m.def("to_dense", &to_dense_py, py::arg("A"),
        "Dense C-ordered ndarray of a CSR or BSR matrix (trnsparse::to_dense; duplicates summed in storage "
        "order). Raises trncore.InvalidArgument when rows·cols overflows or A is malformed.");
  m.def("_csr_from_dense", &csr_from_dense_py, py::arg("A"), py::arg("threshold") = 0.0);
  m.def("validate", &validate_py, py::arg("A"), py::arg("canonical") = false,
        "Checks the structure of a CSR/COO/CSC/BSR matrix (trnsparse::validate): sizes, array lengths, indptr "
        "from 0 nondecreasing to nnz, indices in range; canonical=True also requires strictly increasing indices "
        "in each row. Values are not inspected. Raises trncore.InvalidArgument naming the position and value.");
  m.def(
      "is_canonical",
      [](py::handle A) {
        constexpr const char* fn = "trnsparse.is_canonical";
        return dispatch_real(csr_kind(A, fn), [&]<class T>() {
          auto c = csr_in<T>(A, fn);
          trnsparse::validate(c, fn);
          return trnsparse::is_canonical(c);
        });
      },
      py::arg("A"),
      "Whether a valid CSR matrix has strictly increasing column indices in every row (sorted, no duplicates).");
  m.def(
      "sum_duplicates",
      [](py::handle A) {
        return csr_unary(A, "trnsparse.sum_duplicates", [](const auto& c) { return trnsparse::sum_duplicates(c); });
      },
      py::arg("A"), "CSR with duplicates of each row summed in storage order and columns sorted; zeros kept.");
  m.def(
      "drop_zeros",
      [](py::handle A) {
        return csr_unary(A, "trnsparse.drop_zeros", [](const auto& c) { return trnsparse::drop_zeros(c); });
      },
      py::arg("A"), "CSR without the entries whose value is exactly ±0 (trnsparse::drop_zeros).");
  m.def(
      "sparse_transpose",
      [](py::handle A) {
        return csr_unary(A, "trnsparse.sparse_transpose", [](const auto& c) { return trnsparse::transpose(c); });
      },
      py::arg("A"),
      "Aᵀ as CSR (trnsparse::transpose; exact, sorted). Upstream name; takes any CSR-like A (scipy too).");
  m.def("nnz_per_row", &nnz_per_row_py, py::arg("A"),
        "Stored entries per row, int64 (rows,) = diff(row_ptrs), after validating A (duplicates and explicit "
        "zeros count).");
  m.def("block_density", &block_density_py, py::arg("A"), py::arg("block_size") = 128,
        "The block statistics to_bsr(A, block_size) would give, without building it (trnsparse::block_density): "
        "stored/total blocks, fill of the stored blocks, most blocks per block row.");
}

}  // namespace trnsparse_python
