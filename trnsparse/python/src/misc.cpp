// trnsparse Matrix Market I/O, screening and block-sparse attention.
#include "bind.hpp"

#include <trnsparse/attention.hpp>
#include <trnsparse/matrix_market.hpp>
#include <trnsparse/screening.hpp>

#include <pybind11/stl.h>

#include <cmath>
#include <sstream>

namespace trnsparse_python {

namespace {

// ---- Matrix Market ----

bool is_path(py::handle p) {
  return py::isinstance<py::str>(p) || py::isinstance(p, py::module_::import("os").attr("PathLike"));
}

py::dict header_dict(const trnsparse::MmHeader& h) {
  py::dict d;
  d["format"] = h.format == trnsparse::MmFormat::coordinate ? "coordinate" : "array";
  d["field"] = h.field == trnsparse::MmField::real      ? "real"
               : h.field == trnsparse::MmField::integer ? "integer"
                                                        : "pattern";
  d["symmetry"] = h.symmetry == trnsparse::MmSymmetry::general     ? "general"
                  : h.symmetry == trnsparse::MmSymmetry::symmetric ? "symmetric"
                                                                   : "skew-symmetric";
  d["rows"] = h.rows;
  d["cols"] = h.cols;
  d["entries"] = h.entries;
  return d;
}

py::object read_mm_py(py::handle source, py::handle dtype, bool want_header) {
  constexpr const char* fn = "trnsparse.read_matrix_market";
  const py::dtype dt = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
  if (dt.kind() != 'f' || (dt.itemsize() != 4 && dt.itemsize() != 8)) {
    tp::invalid(fn, "dtype " + py::str(py::object(dt)).cast<std::string>() + " is not float32 or float64",
                "pass dtype=numpy.float32 or numpy.float64");
  }
  trnsparse::MmHeader h;
  auto read = [&]<class T>() -> py::object {
    if (is_path(source)) {
      const std::string path = py::str(py::module_::import("os").attr("fspath")(source)).cast<std::string>();
      return coo_out(tp::released([&] { return trnsparse::read_matrix_market_file<T, Index>(path, &h); }));
    }
    if (!py::hasattr(source, "read")) {
      tp::invalid(fn, "source is neither a path nor a file object", "pass a path or an open file (text or binary)");
    }
    py::object text = source.attr("read")();
    std::string s = py::isinstance<py::bytes>(text) ? text.cast<std::string>() : py::str(text).cast<std::string>();
    return coo_out(tp::released([&] {
      std::istringstream in(std::move(s));
      return trnsparse::read_matrix_market<T, Index>(in, &h);
    }));
  };
  py::object coo = dt.itemsize() == 4 ? read.template operator()<float>() : read.template operator()<double>();
  if (!want_header) return coo;
  return py::make_tuple(coo, header_dict(h));
}

trnsparse::MmSymmetry symmetry_of(const std::string& s, std::string_view fn) {
  if (s == "general") return trnsparse::MmSymmetry::general;
  if (s == "symmetric") return trnsparse::MmSymmetry::symmetric;
  if (s == "skew-symmetric" || s == "skew_symmetric") return trnsparse::MmSymmetry::skew_symmetric;
  tp::invalid(fn, "symmetry '" + s + "' is unknown", "use 'general', 'symmetric' or 'skew-symmetric'");
}

void write_text(py::handle target, const std::string& text, std::string_view fn) {
  if (!py::hasattr(target, "write")) {
    tp::invalid(fn, "target is neither a path nor a file object", "pass a path or an open text file");
  }
  target.attr("write")(py::str(text));
}

void write_mm_py(py::handle target, py::handle A, const std::string& symmetry) {
  constexpr const char* fn = "trnsparse.write_matrix_market";
  const auto sym = symmetry_of(symmetry, fn);
  dispatch_real(csr_kind(A, fn), [&]<class T>() {
    auto a = csr_in<T>(A, fn);
    if (is_path(target)) {
      const std::string path = py::str(py::module_::import("os").attr("fspath")(target)).cast<std::string>();
      tp::released([&] { trnsparse::write_matrix_market_file(path, a, sym); });
      return;
    }
    std::ostringstream out;
    tp::released([&] { trnsparse::write_matrix_market(out, a, sym); });
    write_text(target, out.str(), fn);
  });
}

void write_mm_array_py(py::handle target, py::handle dense) {
  constexpr const char* fn = "trnsparse.write_matrix_market_array";
  py::array a = tp::as_ndarray(dense, fn, "A");
  const tp::Kind k = tp::kind_of(a, fn, "A");
  if (k == tp::Kind::c64 || k == tp::Kind::c128)
    tp::invalid(fn, "A is complex", "Matrix Market complex is not supported");
  dispatch_real(k, [&]<class T>() {
    auto m = c_matrix<T>(a, fn, "A");
    const auto rows = static_cast<std::int64_t>(m.shape(0)), cols = static_cast<std::int64_t>(m.shape(1));
    std::ostringstream out;
    tp::released([&] { trnsparse::write_matrix_market_array(out, rows, cols, m.data(), cols > 0 ? cols : 1); });
    if (is_path(target)) {
      py::object f = py::module_::import("builtins").attr("open")(target, "w");
      f.attr("write")(out.str());
      f.attr("close")();
      return;
    }
    write_text(target, out.str(), fn);
  });
}

// ---- Screening ----

/// A square (n, n) float64 array → n and the C-ordered array.
py::array_t<double, py::array::c_style> square_double(py::handle obj, std::string_view fn, const char* name,
                                                      std::int64_t& n) {
  auto m = c_matrix<double>(obj, fn, name);
  if (m.shape(0) != m.shape(1)) {
    tp::mismatch(fn, std::string(name) + " has shape " + tp::detail::shape_text(m) + ", not square",
                 "pass the (n, n) array over pairs (i, j)");
  }
  n = m.shape(0);
  return m;
}

py::array schwarz_bounds_py(py::handle diag) {
  constexpr const char* fn = "trnsparse.schwarz_bounds";
  std::int64_t n = 0;
  auto m = square_double(diag, fn, "diagonal_integrals", n);
  std::span<const double> s(m.data(), static_cast<std::size_t>(m.size()));
  return vector_to_numpy(tp::released([&] { return trnsparse::schwarz_bounds(n, s); }),
                         {static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(n)});
}

trnsparse::ScreeningStats quartet_screening_py(py::handle Q, double tau) {
  constexpr const char* fn = "trnsparse.quartet_screening";
  std::int64_t n = 0;
  auto m = square_double(Q, fn, "Q", n);
  std::span<const double> s(m.data(), static_cast<std::size_t>(m.size()));
  return tp::released([&] { return trnsparse::quartet_screening(n, s, tau); });
}

py::object significant_pairs_py(py::handle Q, double tau) {
  constexpr const char* fn = "trnsparse.significant_pairs";
  std::int64_t n = 0;
  auto m = square_double(Q, fn, "Q", n);
  std::span<const double> s(m.data(), static_cast<std::size_t>(m.size()));
  return csr_out(tp::released([&] { return trnsparse::significant_pairs(n, s, tau); }));
}

trnsparse::ScreeningStats density_weighted_py(py::handle Q, py::handle D, double tau) {
  constexpr const char* fn = "trnsparse.density_weighted_screening";
  std::int64_t n = 0, nd = 0;
  auto m = square_double(Q, fn, "Q", n);
  auto d = square_double(D, fn, "D", nd);
  if (nd != n)
    tp::mismatch(fn,
                 "Q is " + std::to_string(n) + "x" + std::to_string(n) + " but D is " + std::to_string(nd) + "x" +
                     std::to_string(nd),
                 "pass D over the same basis");
  std::span<const double> s(m.data(), static_cast<std::size_t>(m.size()));
  std::span<const double> ds(d.data(), static_cast<std::size_t>(d.size()));
  return tp::released([&] { return trnsparse::density_weighted_screening(n, s, ds, tau); });
}

py::object screened_spmm_py(py::handle A, py::handle B, double tau, py::kwargs kw) {
  constexpr const char* fn = "trnsparse.screened_spmm";
  const bool want = tp::pop_flag(kw, "report", false, fn);
  auto options = tp::options_from<trncore::Options>(kw, fn);
  py::array bb = tp::as_ndarray(B, fn, "B");
  const tp::Kind k = tp::promote(csr_kind(A, fn), tp::kind_of(bb, fn, "B"));
  if (k == tp::Kind::c64 || k == tp::Kind::c128) tp::invalid(fn, "complex operands", "trnsparse is real");
  return dispatch_real(k, [&]<class T>() -> py::object {
    auto a = csr_in<T>(A, fn);
    auto b = c_matrix<T>(bb, fn, "B");
    const auto n = static_cast<std::int64_t>(b.shape(1));
    if (b.shape(0) != a.cols) {
      tp::mismatch(fn,
                   "A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) + " but B has " +
                       std::to_string(b.shape(0)) + " rows",
                   "B needs one row per column of A");
    }
    auto c = tp::new_array<T>({a.rows, n});
    std::span<const T> bs(b.data(), static_cast<std::size_t>(b.size()));
    std::span<T> cs(c.mutable_data(), static_cast<std::size_t>(c.size()));
    auto rep = tp::run(
        options, [&] { return trnsparse::screened_spmm(a, n, bs, n > 0 ? n : 1, cs, n > 0 ? n : 1, tau, options); });
    if (!want) return py::object(c);
    return py::make_tuple(c, py::cast(rep));
  });
}

trnsparse::SparsityStats matrix_stats_py(py::handle A) {
  constexpr const char* fn = "trnsparse.sparsity_stats";
  return dispatch_real(csr_kind(A, fn), [&]<class T>() {
    auto a = csr_in<T>(A, fn);
    return tp::released([&] { return trnsparse::sparsity_stats(a); });
  });
}

// ---- Attention ----

trnsparse::BlockMask mask_of(py::handle mask, std::string_view fn) {
  if (py::isinstance<trnsparse::BlockMask>(mask)) return mask.cast<trnsparse::BlockMask>();
  if (!is_bsr(mask)) {
    tp::invalid(
        fn, "mask_bsr is a " + py::str(py::type::of(mask).attr("__name__")).cast<std::string>(),
        "pass a trnsparse.BlockMask (local_window_mask, ...) or a BSRMatrix whose stored blocks are the pattern");
  }
  auto [rows, cols] = shape_of(mask, fn);
  auto [br, bc] = block_size_of(mask.attr("block_size"), fn);
  if (rows != cols || br != bc) {
    tp::mismatch(fn,
                 "mask_bsr is " + std::to_string(rows) + "x" + std::to_string(cols) + " with " + std::to_string(br) +
                     "x" + std::to_string(bc) + " blocks",
                 "an attention mask is square (seq_len x seq_len) with square blocks");
  }
  trnsparse::BlockMask m;
  m.seq_len = rows;
  m.block = br;
  const std::int64_t nb = m.blocks();
  auto indptr = index_vector(mask.attr("block_row_ptrs"), fn, "mask_bsr.block_row_ptrs");
  auto indices = index_vector(mask.attr("block_col_indices"), fn, "mask_bsr.block_col_indices");
  m.pattern.rows = nb;
  m.pattern.cols = nb;
  auto to32 = [&](const std::vector<Index>& v, const char* name) {
    std::vector<std::int32_t> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] < INT32_MIN || v[i] > INT32_MAX)
        tp::invalid(fn, std::string(name) + " holds " + std::to_string(v[i]), "block indices must fit int32");
      out[i] = static_cast<std::int32_t>(v[i]);
    }
    return out;
  };
  m.pattern.indptr = to32(indptr, "mask_bsr.block_row_ptrs");
  m.pattern.indices = to32(indices, "mask_bsr.block_col_indices");
  m.pattern.values.assign(m.pattern.indices.size(), 1.0f);
  return m;
}

py::object attention_py(py::handle Q, py::handle K, py::handle V, py::handle mask, py::object scale, py::kwargs kw) {
  constexpr const char* fn = "trnsparse.block_sparse_attention";
  const bool want = tp::pop_flag(kw, "report", false, fn);
  auto options = tp::options_from<trncore::Options>(kw, fn);
  const auto m = mask_of(mask, fn);
  py::array q = tp::as_ndarray(Q, fn, "Q"), k = tp::as_ndarray(K, fn, "K"), v = tp::as_ndarray(V, fn, "V");
  tp::Kind kind = tp::promote(tp::promote(tp::kind_of(q, fn, "Q"), tp::kind_of(k, fn, "K")), tp::kind_of(v, fn, "V"));
  if (kind == tp::Kind::c64 || kind == tp::Kind::c128) tp::invalid(fn, "complex operands", "attention is real");
  return dispatch_real(kind, [&]<class T>() -> py::object {
    auto qm = c_matrix<T>(q, fn, "Q");
    auto km = c_matrix<T>(k, fn, "K");
    auto vm = c_matrix<T>(v, fn, "V");
    const std::int64_t d = qm.shape(1), dv = vm.shape(1);
    if (km.shape(1) != d) {
      tp::mismatch(fn, "Q has " + std::to_string(d) + " columns but K has " + std::to_string(km.shape(1)),
                   "Q and K share the head dimension d");
    }
    if (qm.shape(0) != m.seq_len || km.shape(0) != m.seq_len || vm.shape(0) != m.seq_len) {
      tp::mismatch(fn,
                   "Q, K, V have " + std::to_string(qm.shape(0)) + ", " + std::to_string(km.shape(0)) + ", " +
                       std::to_string(vm.shape(0)) + " rows but the mask's seq_len is " + std::to_string(m.seq_len),
                   "one row per token");
    }
    const double s = scale.is_none() ? (d > 0 ? 1.0 / std::sqrt(static_cast<double>(d)) : 1.0) : scale.cast<double>();
    auto out = tp::new_array<T>({m.seq_len, dv});
    std::span<const T> qs(qm.data(), static_cast<std::size_t>(qm.size())),
        ks(km.data(), static_cast<std::size_t>(km.size())), vs(vm.data(), static_cast<std::size_t>(vm.size()));
    std::span<T> os(out.mutable_data(), static_cast<std::size_t>(out.size()));
    trncore::AccuracyReport report;
    tp::run(options, [&] {
      if (want)
        trnsparse::block_sparse_attention(m, d, dv, qs, ks, vs, os, s, options, report);
      else
        trnsparse::block_sparse_attention(m, d, dv, qs, ks, vs, os, s, options);
    });
    return tp::with_report(out, report, want);
  });
}

}  // namespace

void bind_misc(py::module_& m) {
  m.def("read_matrix_market", &read_mm_py, py::arg("source"), py::arg("dtype") = py::dtype::of<double>(),
        py::arg("header") = false,
        "Reads a Matrix Market file (path, os.PathLike, or an open file in text or binary mode) into a COOMatrix "
        "(trnsparse::read_matrix_market): coordinate or array; real, integer or pattern (value 1); general, "
        "symmetric or skew-symmetric storage expanded to the full matrix; duplicates kept (to_csr sums them). "
        "dtype float32 or float64. header=True returns (COOMatrix, dict(format, field, symmetry, rows, cols, "
        "entries)). Raises trncore.ParseError (with .line and .column, 1-based) for malformed input, "
        "NotSupported for complex/hermitian, IoError for an unreadable path. Like scipy.io.mmread but "
        "returns trnsparse's COOMatrix.");
  m.def("write_matrix_market", &write_mm_py, py::arg("target"), py::arg("A"), py::arg("symmetry") = "general",
        "Writes a CSR-like matrix as coordinate real (trnsparse::write_matrix_market) with max_digits10 digits, so "
        "reading back is exact; symmetry='symmetric'/'skew-symmetric' writes the lower triangle and requires A to "
        "be exactly (skew-)symmetric (else trncore.InvalidArgument). target: a path or a text file object.");
  m.def("write_matrix_market_array", &write_mm_array_py, py::arg("target"), py::arg("A"),
        "Writes a dense 2-D array in Matrix Market array real general format (column-major data lines).");

  py::class_<trnsparse::ScreeningStats>(m, "ScreeningStats", "What a quartet screen keeps (trnsparse::ScreeningStats).")
      .def_readonly("pairs", &trnsparse::ScreeningStats::pairs)
      .def_readonly("significant_pairs", &trnsparse::ScreeningStats::significant_pairs)
      .def_readonly("quartets", &trnsparse::ScreeningStats::quartets)
      .def_readonly("kept_quartets", &trnsparse::ScreeningStats::kept_quartets)
      .def_readonly("kept_fraction", &trnsparse::ScreeningStats::kept_fraction)
      .def("__repr__", [](const trnsparse::ScreeningStats& s) { return "ScreeningStats(" + s.to_string() + ")"; });
  py::class_<trnsparse::ScreenedProductReport>(m, "ScreenedProductReport",
                                               "What screened_spmm skipped and the rigorous bound on |C − C_full|.")
      .def_readonly("kept_entries", &trnsparse::ScreenedProductReport::kept_entries)
      .def_readonly("dropped_entries", &trnsparse::ScreenedProductReport::dropped_entries)
      .def_readonly("max_row_dropped_bound", &trnsparse::ScreenedProductReport::max_row_dropped_bound)
      .def("__repr__", [](const trnsparse::ScreenedProductReport& r) {
        return "ScreenedProductReport(kept_entries=" + std::to_string(r.kept_entries) +
               ", dropped_entries=" + std::to_string(r.dropped_entries) +
               ", max_row_dropped_bound=" + std::to_string(r.max_row_dropped_bound) + ")";
      });
  py::class_<trnsparse::SparsityStats>(m, "SparsityStats",
                                       "Sparsity statistics of a matrix (trnsparse::SparsityStats).")
      .def_readonly("rows", &trnsparse::SparsityStats::rows)
      .def_readonly("cols", &trnsparse::SparsityStats::cols)
      .def_readonly("nonzeros", &trnsparse::SparsityStats::nonzeros)
      .def_readonly("density", &trnsparse::SparsityStats::density)
      .def_readonly("empty_rows", &trnsparse::SparsityStats::empty_rows)
      .def_readonly("min_row_nonzeros", &trnsparse::SparsityStats::min_row_nonzeros)
      .def_readonly("max_row_nonzeros", &trnsparse::SparsityStats::max_row_nonzeros)
      .def_readonly("mean_row_nonzeros", &trnsparse::SparsityStats::mean_row_nonzeros)
      .def_readonly("bandwidth", &trnsparse::SparsityStats::bandwidth)
      .def("__repr__", [](const trnsparse::SparsityStats& s) { return "SparsityStats(" + s.to_string() + ")"; });

  m.def("_schwarz_bounds", &schwarz_bounds_py, py::arg("diagonal_integrals"));
  m.def("quartet_screening", &quartet_screening_py, py::arg("Q"), py::arg("tau"),
        "Rigorous quartet screen (trnsparse::quartet_screening): counts quartets (ij|kl) with Q_ij·Q_kl > tau over "
        "all ordered pair pairs of the (n, n) Schwarz factors Q. Returns ScreeningStats. Raises "
        "trncore.InvalidArgument for negative/NaN Q or tau.");
  m.def("significant_pairs", &significant_pairs_py, py::arg("Q"), py::arg("tau"),
        "Pairs with Q_ij·max(Q) > tau as an (n, n) CSRMatrix whose values are Q_ij (trnsparse::significant_pairs).");
  m.def(
      "density_weighted_screening", &density_weighted_py, py::arg("Q"), py::arg("D"), py::arg("tau"),
      "Density-weighted screen: counts quartets with Q_ij·Q_kl·|D_kl| > tau (trnsparse::density_weighted_screening).");
  m.def("_screened_spmm", &screened_spmm_py, py::arg("A"), py::arg("B"), py::arg("tau"));
  m.def("_matrix_sparsity_stats", &matrix_stats_py, py::arg("A"));

  py::class_<trnsparse::BlockMask>(m, "BlockMask",
                                   "Which (query block, key block) pairs attend each other (trnsparse::BlockMask).")
      .def_readonly("seq_len", &trnsparse::BlockMask::seq_len)
      .def_readonly("block", &trnsparse::BlockMask::block)
      .def_property_readonly("blocks", &trnsparse::BlockMask::blocks)
      .def_property_readonly(
          "pattern", [](const trnsparse::BlockMask& b) { return csr_out(trnsparse::convert<float, Index>(b.pattern)); },
          "The blocks×blocks pattern as a CSRMatrix (values 1).")
      .def(
          "to_bsr",
          [](const trnsparse::BlockMask& b) {
            py::object p = csr_out(trnsparse::convert<float, Index>(b.pattern));
            const auto nb = static_cast<py::ssize_t>(b.pattern.indices.size());
            py::array_t<float> blocks({nb, static_cast<py::ssize_t>(b.block), static_cast<py::ssize_t>(b.block)});
            std::fill(blocks.mutable_data(), blocks.mutable_data() + blocks.size(), 1.0f);
            return formats_module().attr("BSRMatrix")(blocks, p.attr("col_indices"), p.attr("row_ptrs"),
                                                      py::make_tuple(b.seq_len, b.seq_len), b.block);
          },
          "The mask as a BSRMatrix of ones (upstream's mask_bsr form).")
      .def("__repr__", [](const trnsparse::BlockMask& b) {
        return "BlockMask(seq_len=" + std::to_string(b.seq_len) + ", block=" + std::to_string(b.block) +
               ", stored_blocks=" + std::to_string(b.pattern.nnz()) + " of " + std::to_string(b.blocks() * b.blocks()) +
               ")";
      });
  m.def(
      "local_window_mask",
      [](std::int64_t seq_len, std::int64_t block, std::int64_t window_blocks, bool causal) {
        return trnsparse::local_window_mask(seq_len, block, window_blocks, causal);
      },
      py::arg("seq_len"), py::arg("block") = 128, py::arg("window_blocks") = 1, py::arg("causal") = false,
      "Sliding window: query block i attends key blocks j with |i − j| ≤ window_blocks (j ≤ i when causal).");
  m.def("dilated_mask", &trnsparse::dilated_mask, py::arg("seq_len"), py::arg("block"), py::arg("window_blocks"),
        py::arg("dilation"),
        "Dilated: |i − j| ≤ window_blocks·dilation and a multiple of dilation (trnsparse::dilated_mask).");
  m.def(
      "global_tokens_mask",
      [](std::int64_t seq_len, std::int64_t block, std::vector<std::int64_t> global_blocks) {
        return trnsparse::global_tokens_mask(seq_len, block, global_blocks);
      },
      py::arg("seq_len"), py::arg("block"), py::arg("global_blocks"),
      "The listed blocks attend and are attended by everything (trnsparse::global_tokens_mask).");
  m.def("mask_union", &trnsparse::mask_union, py::arg("a"), py::arg("b"),
        "The union of two masks of the same seq_len and block (trnsparse::mask_union).");
  m.def("block_sparse_attention", &attention_py, py::arg("Q"), py::arg("K"), py::arg("V"), py::arg("mask"),
        py::arg("scale") = py::none(),
        "O = softmax(scale·QKᵀ + mask)·V over the stored blocks only (trnsparse::block_sparse_attention): Q, K "
        "(L, d), V (L, dv); mask a BlockMask or a square-block BSRMatrix (upstream's mask_bsr); scale None = "
        "1/√d (upstream default). Scores and P·V via trnblas::gemm on options.backend (host or backend='sim' "
        "with mode=...), two-pass softmax (no overflow); a query block with no stored key block gives O = 0. "
        "report=True returns (O, trncore.AccuracyReport) with the bound (e^{2δ_i + 2ε_o + 4u} − 1)·Σ_j p_ij|v_jk| "
        "as a relative factor; without it an uncertified result raises trncore.TargetNotMet. Upstream name: "
        "block_sparse_attention_tiled (same call); upstream required seq_len to be a multiple of the block.");
}

}  // namespace trnsparse_python
