// trnsparse operations: spmv, spmm (CSR host; BSR host or sim), bsr_spmm, sparse_add, sparse_scale, spgemm.
#include "bind.hpp"

#include <trnsparse/ops.hpp>
#include <trnsparse/sim.hpp>

#include <trncore/error.hpp>

#include <span>

namespace trnsparse_python {

namespace {

/// A real kind from two operands (NumPy promotion; complex refused).
tp::Kind real_kind(tp::Kind a, tp::Kind b, std::string_view fn) {
  const tp::Kind k = tp::promote(a, b);
  if (k == tp::Kind::c64 || k == tp::Kind::c128) {
    tp::invalid(fn, "complex operands", "trnsparse is real: use float32 or float64 arrays");
  }
  return k;
}

tp::Kind array_kind(py::handle x, std::string_view fn, const char* name) {
  py::array a = tp::as_ndarray(x, fn, name);
  return tp::kind_of(a, fn, name);
}

tp::Kind sparse_kind(py::handle A, std::string_view fn) {
  if (is_bsr(A)) return value_kind(A.attr("blocks"), fn);
  return csr_kind(A, fn);
}

/// A dense output written in place: T, writable, row-major with unit column stride.
template <class T>
struct RowMajorOut {
  py::array array;
  T* data = nullptr;
  std::int64_t rows = 0, cols = 0, ld = 1;
  std::span<T> span() const { return {data, static_cast<std::size_t>(rows == 0 ? 0 : (rows - 1) * ld + cols)}; }
};

template <class T>
RowMajorOut<T> out_rowmajor(py::handle obj, std::string_view fn, const char* name) {
  auto o = tp::out_matrix<T>(obj, fn, name);
  const auto& v = o.view;
  const bool row_major = v.layout() == trncore::Layout::row_major || v.rows() <= 1;
  if (!row_major) {
    tp::invalid(fn, std::string(name) + " is Fortran-ordered (column-major)",
                "pass a C-ordered array (numpy.ascontiguousarray) for the in-place output");
  }
  RowMajorOut<T> r{o.array, v.data(), v.rows(), v.cols(), v.rows() <= 1 ? (v.cols() > 0 ? v.cols() : 1) : v.ld()};
  return r;
}

template <class T>
RowMajorOut<T> new_rowmajor(std::int64_t rows, std::int64_t cols) {
  auto a = tp::new_array<T>({rows, cols});
  return {a, a.mutable_data(), rows, cols, cols > 0 ? cols : 1};
}

template <class T>
std::span<T> out_span(py::handle y, std::int64_t& n, py::array& keep, std::string_view fn) {
  auto o = tp::out_vector<T>(y, fn, "y");
  if (o.view.size() > 1 && o.view.inc() != 1) {
    tp::invalid(fn, "y is written in place but is not contiguous (stride " + std::to_string(o.view.inc()) + ")",
                "pass a contiguous array");
  }
  keep = o.array;
  n = o.view.size();
  return {o.view.data(), static_cast<std::size_t>(n)};
}

/// In-place outputs must not overlap the inputs they are computed from (the kernels read x/B while writing).
void require_disjoint(py::handle out, py::handle in, std::string_view fn, const char* out_name, const char* in_name) {
  if (py::module_::import("numpy").attr("may_share_memory")(out, in).cast<bool>()) {
    tp::invalid(fn,
                std::string(out_name) + " overlaps " + in_name + " (the product reads " + in_name + " while writing " +
                    out_name + ")",
                std::string("pass ") + out_name + " as a separate array (e.g. " + in_name + ".copy())");
  }
}

trnblas::Op op_of(bool trans) { return trans ? trnblas::Op::trans : trnblas::Op::no_trans; }

py::object spmv_py(py::handle A, py::handle x, double alpha, py::object y, double beta, py::kwargs kw) {
  constexpr const char* fn = "trnsparse.spmv";
  const bool trans = tp::pop_flag(kw, "trans", false, fn);
  auto options = tp::options_from<trncore::Options>(kw, fn);
  const tp::Kind k = real_kind(sparse_kind(A, fn), array_kind(x, fn, "x"), fn);
  const bool bsr = is_bsr(A);
  return dispatch_real(k, [&]<class T>() -> py::object {
    auto xv = c_vector<T>(x, fn, "x");
    std::span<const T> xs(xv.data(), static_cast<std::size_t>(xv.size()));
    auto call = [&](const auto& a, std::int64_t out_rows) -> py::object {
      py::array keep;
      std::span<T> ys;
      T b = static_cast<T>(beta);
      if (y.is_none()) {
        auto nv = tp::new_vector<T>(out_rows);
        keep = nv.array;
        ys = {nv.view.data(), static_cast<std::size_t>(out_rows)};
        b = T(0);
      } else {
        std::int64_t n = 0;
        ys = out_span<T>(y, n, keep, fn);
        require_disjoint(keep, xv, fn, "y", "x");
      }
      tp::run(options, [&] { trnsparse::spmv(op_of(trans), static_cast<T>(alpha), a, xs, b, ys, options); });
      return y.is_none() ? py::object(keep) : y;
    };
    if (bsr) {
      auto a = bsr_in<T>(A, fn);
      return call(a, trans ? a.cols : a.rows);
    }
    auto a = csr_in<T>(A, fn);
    return call(a, trans ? a.cols : a.rows);
  });
}

template <class T, class Call>
py::object dense_product(py::handle B, py::object C, double beta, std::int64_t out_rows, std::int64_t inner,
                         std::string_view fn, Call&& call) {
  auto bm = c_matrix<T>(B, fn, "B");
  const auto k = static_cast<std::int64_t>(bm.shape(0)), n = static_cast<std::int64_t>(bm.shape(1));
  if (k != inner) {
    tp::mismatch(fn, "B has " + std::to_string(k) + " rows but op(A) has " + std::to_string(inner) + " columns",
                 "B needs one row per column of op(A)");
  }
  std::span<const T> bs(bm.data(), static_cast<std::size_t>(bm.size()));
  RowMajorOut<T> c = C.is_none() ? new_rowmajor<T>(out_rows, n) : out_rowmajor<T>(C, fn, "C");
  if (!C.is_none()) require_disjoint(c.array, bm, fn, "C", "B");
  if (!C.is_none() && (c.rows != out_rows || c.cols != n)) {
    tp::mismatch(fn,
                 "C has shape (" + std::to_string(c.rows) + ", " + std::to_string(c.cols) + ") but op(A)·B is (" +
                     std::to_string(out_rows) + ", " + std::to_string(n) + ")",
                 "pass C of the product's shape");
  }
  const T b = C.is_none() ? T(0) : static_cast<T>(beta);
  call(k, n, bs, n > 0 ? n : 1, b, c.span(), c.ld);
  return C.is_none() ? py::object(c.array) : C;
}

py::object spmm_py(py::handle A, py::handle B, double alpha, py::object C, double beta, py::kwargs kw, const char* fn,
                   bool force_bsr) {
  const bool trans = force_bsr ? false : tp::pop_flag(kw, "trans", false, fn);
  const bool want = tp::pop_flag(kw, "report", false, fn);
  auto options = tp::options_from<trncore::Options>(kw, fn);
  py::object Aobj = py::reinterpret_borrow<py::object>(A);
  if (force_bsr && !is_bsr(A)) {
    Aobj = formats_module().attr("as_csr")(A);
    (void)get_attr(Aobj, "row_ptrs", fn, "BSR or CSR");
    Aobj = Aobj.attr("to_bsr")(128);
  }
  const bool bsr = is_bsr(Aobj);
  if (want && !bsr) {
    throw trncore::NotSupported(fn, "report=True needs a BSR matrix (the CSR spmm has no accuracy report)",
                                "convert with A.to_bsr() or call bsr_spmm");
  }
  const tp::Kind k = real_kind(sparse_kind(Aobj, fn), array_kind(B, fn, "B"), fn);
  return dispatch_real(k, [&]<class T>() -> py::object {
    trncore::AccuracyReport report;
    py::object out;
    if (bsr) {
      auto a = bsr_in<T>(Aobj, fn);
      out = dense_product<T>(
          B, C, beta, a.rows, a.cols, fn, [&](auto kk, auto n, auto bs, auto ldb, T b, auto cs, auto ldc) {
            (void)kk;
            tp::run(options, [&] {
              if (force_bsr) {
                if (want)
                  trnsparse::bsr_spmm(static_cast<T>(alpha), a, n, bs, ldb, b, cs, ldc, options, report);
                else
                  trnsparse::bsr_spmm(static_cast<T>(alpha), a, n, bs, ldb, b, cs, ldc, options);
              } else if (want) {
                trnsparse::spmm(op_of(trans), static_cast<T>(alpha), a, n, bs, ldb, b, cs, ldc, options, report);
              } else {
                trnsparse::spmm(op_of(trans), static_cast<T>(alpha), a, n, bs, ldb, b, cs, ldc, options);
              }
            });
          });
    } else {
      auto a = csr_in<T>(Aobj, fn);
      out = dense_product<T>(
          B, C, beta, trans ? a.cols : a.rows, trans ? a.rows : a.cols, fn,
          [&](auto kk, auto n, auto bs, auto ldb, T b, auto cs, auto ldc) {
            (void)kk;
            tp::run(options,
                    [&] { trnsparse::spmm(op_of(trans), static_cast<T>(alpha), a, n, bs, ldb, b, cs, ldc, options); });
          });
    }
    return tp::with_report(out, report, want);
  });
}

py::object sparse_add_py(py::handle A, py::handle B, double alpha, double beta) {
  constexpr const char* fn = "trnsparse.sparse_add";
  const tp::Kind k = real_kind(csr_kind(A, fn), csr_kind(B, fn), fn);
  return dispatch_real(k, [&]<class T>() -> py::object {
    auto a = csr_in<T>(A, fn);
    auto b = csr_in<T>(B, fn);
    return csr_out(tp::released([&] { return trnsparse::add(static_cast<T>(alpha), a, static_cast<T>(beta), b); }));
  });
}

py::object sparse_scale_py(py::handle A, double alpha) {
  constexpr const char* fn = "trnsparse.sparse_scale";
  return dispatch_real(csr_kind(A, fn), [&]<class T>() -> py::object {
    auto a = csr_in<T>(A, fn);
    tp::released([&] { trnsparse::scale(static_cast<T>(alpha), a); });
    return csr_out(std::move(a));
  });
}

py::object spgemm_py(py::handle A, py::handle B, py::kwargs kw) {
  constexpr const char* fn = "trnsparse.spgemm";
  auto options = tp::options_from<trncore::Options>(kw, fn);
  const tp::Kind k = real_kind(csr_kind(A, fn), csr_kind(B, fn), fn);
  return dispatch_real(k, [&]<class T>() -> py::object {
    auto a = csr_in<T>(A, fn);
    auto b = csr_in<T>(B, fn);
    return csr_out(tp::run(options, [&] { return trnsparse::spgemm(a, b, options); }));
  });
}

}  // namespace

void bind_ops(py::module_& m) {
  m.def("spmv", &spmv_py, py::arg("A"), py::arg("x"), py::arg("alpha") = 1.0, py::arg("y") = py::none(),
        py::arg("beta") = 0.0,
        "y = alpha·op(A)·x + beta·y (trnsparse::spmv) for a CSR-like (CSRMatrix, scipy.sparse, COO, CSC) or "
        "BSRMatrix A. Upstream signature; y, when given, is written IN PLACE and returned (upstream returned a "
        "new array): it must be a contiguous array of the computed dtype. Without y a new array is returned and "
        "beta is ignored (beta = 0 never reads y).\n"
        "Keywords: trans=True for Aᵀ·x; threads (bitwise identical results for every thread count); "
        "mode/math_mode ('automatic' or the value type's precision); backend='sim' is trncore.NotSupported "
        "(the CSR product runs on the host; bsr_spmm is the sim product); options=trncore.Options(...).\n"
        "dtype: float32 or float64 (A and x promoted like NumPy; integers → float64; complex refused).\n"
        "Accuracy (host): |ŷ_i − y_i| ≤ γ_{m_i+3}·(|α|Σ_j|a_ij||x_j| + |β||y_i|), m_i the stored entries of row i, "
        "γ_n = nu/(1 − nu) (Higham §3.1).\n"
        "Raises trncore.InvalidArgument (malformed A naming the position, wrong dtype, read-only y), "
        "DimensionMismatch (x or y of the wrong length), NotSupported (sim, other modes).");
  m.def(
      "spmm",
      [](py::handle A, py::handle B, double alpha, py::object C, double beta, py::kwargs kw) {
        return spmm_py(A, B, alpha, std::move(C), beta, std::move(kw), "trnsparse.spmm", false);
      },
      py::arg("A"), py::arg("B"), py::arg("alpha") = 1.0, py::arg("C") = py::none(), py::arg("beta") = 0.0,
      "C = alpha·op(A)·B + beta·C (trnsparse::spmm) with B dense (k×n) and C dense (m×n). A CSR-like: the host "
      "product (trans=True for Aᵀ; threads; bound per element as spmv with m_i+3 terms). A BSRMatrix: one "
      "trnblas::gemm per stored block on options.backend — host OpenBLAS or backend='sim' in any trnblas sim "
      "mode (fp32, bf16, tf32, fp16, fp8_*, compensated, ozaki, automatic) — with report=True returning "
      "(C, trncore.AccuracyReport): componentwise bound ((1+ε)^{k+1} − 1)(|α||A||B| + |β||C|), ε the per-block "
      "gemm bound, k the most blocks in a block row, and the modelled engine cost on sim. Without report a BSR "
      "product that is not certified or misses target_forward_error raises trncore.TargetNotMet. C, when "
      "given, is written IN PLACE (C-ordered, the computed dtype) and returned; upstream returned a new array.\n"
      "Raises trncore.NotSupported for trans with BSR, report=True with CSR, backend='sim' with CSR; "
      "DimensionMismatch for shapes; InvalidArgument for dtypes and malformed A.");
  m.def(
      "bsr_spmm",
      [](py::handle A, py::handle B, double alpha, py::object C, double beta, py::kwargs kw) {
        return spmm_py(A, B, alpha, std::move(C), beta, std::move(kw), "trnsparse.bsr_spmm", true);
      },
      py::arg("A"), py::arg("B"), py::arg("alpha") = 1.0, py::arg("C") = py::none(), py::arg("beta") = 0.0,
      "C = alpha·A·B + beta·C for a BSRMatrix A (a CSR-like A is converted with to_bsr(A, 128)) and dense B "
      "(trnsparse::bsr_spmm): one trnblas::gemm per stored block on options.backend (host, or backend='sim' "
      "with mode='bf16'/'fp32'/'tf32'/'fp16'/'fp8_e4m3'/'compensated'/'ozaki'/...). Upstream: bsr_spmm(A, B); "
      "alpha, C, beta, report=True and the options keywords are trnsci's. report=True returns "
      "(C, trncore.AccuracyReport) with the componentwise bound ((1+ε)^{k+1} − 1)(|α||A||B| + |β||C|) and "
      "the modelled cost; without it an uncertified or target-missing result raises trncore.TargetNotMet.");
  m.def("sparse_add", &sparse_add_py, py::arg("A"), py::arg("B"), py::arg("alpha") = 1.0, py::arg("beta") = 1.0,
        "alpha·A + beta·B as canonical CSR (trnsparse::add; pattern = union of the patterns, cancellations kept "
        "as explicit zeros; one rounding per entry). Raises trncore.DimensionMismatch for different shapes.");
  m.def("sparse_scale", &sparse_scale_py, py::arg("A"), py::arg("alpha"),
        "alpha·A as a new CSR (trnsparse::scale on a copy; the pattern is kept even for alpha = 0; exact up to "
        "one rounding per value).");
  m.def("spgemm", &spgemm_py, py::arg("A"), py::arg("B"),
        "A·B (sparse × sparse, Gustavson; trnsparse::spgemm) as canonical CSR; keywords: threads (bitwise "
        "identical for every count). Accuracy as spmv with m_i the products of row i. trnsci only (not upstream).");
}

}  // namespace trnsparse_python
