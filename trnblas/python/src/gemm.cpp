// gemm (host and sim, math modes, reports) and the batched forms.
#include "bind.hpp"
#include "common.hpp"

#include <trnblas/batched.hpp>
#include <trnblas/gemm.hpp>

#include <vector>

namespace trnblas_python {

namespace {

std::pair<std::int64_t, std::int64_t> op_shape(const py::array& a, Op op) {
  const std::int64_t r = a.shape(a.ndim() - 2), c = a.shape(a.ndim() - 1);
  return op == Op::no_trans ? std::pair{r, c} : std::pair{c, r};
}

void check_inner(std::int64_t m, std::int64_t ka, std::int64_t kb, std::int64_t n, std::string_view fn) {
  if (ka != kb) {
    tp::mismatch(fn,
                 "op(A) is " + std::to_string(m) + "x" + std::to_string(ka) + " but op(B) is " + std::to_string(kb) +
                     "x" + std::to_string(n),
                 "pass op(A) m x k and op(B) k x n (check transA/transB)");
  }
}

py::object gemm(py::object alpha, py::object A, py::object B, py::object beta, py::object C, py::object transA,
                py::object transB, py::kwargs kw) {
  constexpr const char* fn = "trnblas.gemm";
  py::object out = pop_object(kw, "out");
  const bool want = tp::pop_flag(kw, "report", false, fn);
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha"), b = scalar_arg(beta, fn, "beta");
  const Op ta = parse_trans(transA, fn, "transA"), tb = parse_trans(transB, fn, "transB");
  const Kind k = with_scalar(with_scalar(operands_kind({{A, "A"}, {B, "B"}, {C, "C"}, {out, "out"}}, fn), a), b);
  return dispatch(k, [&](auto tag) -> py::object {
    using T = decltype(tag);
    py::array_t<T> aa = typed_matrix<T>(A, fn, "A"), ba = typed_matrix<T>(B, fn, "B");
    const auto [m, ka] = op_shape(aa, ta);
    const auto [kb, n] = op_shape(ba, tb);
    check_inner(m, ka, kb, n, fn);
    auto r = result_matrix<T>(out, C, m, n, fn, "C");
    const Layout target = r.view.layout();
    auto ao = operand<T>(aa, target, ta != Op::conj_trans, fn, "A");
    auto bo = operand<T>(ba, target, tb != Op::conj_trans, fn, "B");
    const Op opa = ao.flipped ? flip(ta) : ta, opb = bo.flipped ? flip(tb) : tb;
    const T al = scalar_as<T>(a), be = C.is_none() ? T(0) : scalar_as<T>(b);
    trncore::AccuracyReport report;
    tp::run(opts, [&] {
      if (want) {
        trnblas::gemm<T>(target, opa, opb, m, n, ka, al, ao.view.data(), ao.view.ld(), bo.view.data(), bo.view.ld(), be,
                         r.view.data(), r.view.ld(), opts, report);
      } else {
        trnblas::gemm<T>(target, opa, opb, m, n, ka, al, ao.view.data(), ao.view.ld(), bo.view.data(), bo.view.ld(), be,
                         r.view.data(), r.view.ld(), opts);
      }
    });
    return tp::with_report(r.array, report, want);
  });
}

// ---- strided batched: 3-D arrays (batch, rows, cols); a 2-D operand is reused for every entry ----

template <class T>
struct Strided {
  py::array_t<T> array;
  const T* data = nullptr;
  std::int64_t ld = 1, stride = 0;
  bool flipped = false;
};

std::optional<std::int64_t> batch_stride(const py::array& a) {
  if (a.ndim() == 2 || a.shape(0) <= 1) return 0;
  const auto bytes = static_cast<std::int64_t>(a.strides(0));
  const auto item = static_cast<std::int64_t>(a.itemsize());
  if (bytes < 0 || bytes % item != 0) return std::nullopt;
  return bytes / item;
}

/// ld of the entries of a 3-D array in `layout` (as ld_in_layout on one entry).
std::optional<std::int64_t> entry_ld(const py::array& a, Layout layout) {
  if (a.ndim() == 2) return ld_in_layout(a, layout);
  // The entry a[0] has the strides of axes 1 and 2.
  if (a.shape(0) == 0 || a.shape(1) == 0 || a.shape(2) == 0) {
    return std::max<std::int64_t>(1, layout == Layout::row_major ? a.shape(2) : a.shape(1));
  }
  return ld_in_layout(a.attr("__getitem__")(0), layout);
}

template <class T>
Strided<T> strided_operand(py::handle obj, Layout target, bool allow_flip, std::string_view fn, std::string_view name) {
  py::array a = tp::as_ndarray(obj, fn, name);
  if (a.ndim() != 2 && a.ndim() != 3) {
    tp::mismatch(fn,
                 std::string(name) +
                     " must be 3-D (batch, rows, cols) or 2-D (one matrix for every entry), got shape " + shape_text(a),
                 "pass a stack of matrices");
  }
  py::array_t<T> t = tp::as_dtype<T>(a, fn, name);
  if (auto s = batch_stride(t)) {
    if (auto ld = entry_ld(t, target)) return {t, t.data(), *ld, *s, false};
    if (allow_flip) {
      if (auto ld = entry_ld(t, other(target))) return {t, t.data(), *ld, *s, true};
    }
  }
  auto np = py::module_::import("numpy");
  py::array_t<T> c;
  if (target == Layout::row_major) {
    c = np.attr("ascontiguousarray")(t).template cast<py::array_t<T>>();
  } else {
    // Column-major entries: the C-ordered stack of the entries' transposes.
    c = np.attr("ascontiguousarray")(t.attr("swapaxes")(-1, -2)).template cast<py::array_t<T>>();
  }
  const std::int64_t rows = t.shape(t.ndim() - 2), cols = t.shape(t.ndim() - 1);
  const std::int64_t inner = target == Layout::row_major ? cols : rows;
  return {c, c.data(), std::max<std::int64_t>(1, inner), t.ndim() == 3 ? rows * cols : 0, false};
}

py::object batched_gemm(py::object alpha, py::object A, py::object B, py::object beta, py::object C, py::object transA,
                        py::object transB, py::kwargs kw) {
  constexpr const char* fn = "trnblas.batched_gemm";
  py::object out = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha"), b = scalar_arg(beta, fn, "beta");
  const Op ta = parse_trans(transA, fn, "transA"), tb = parse_trans(transB, fn, "transB");
  const Kind k = with_scalar(with_scalar(operands_kind({{A, "A"}, {B, "B"}, {C, "C"}, {out, "out"}}, fn), a), b);
  return dispatch(k, [&](auto tag) -> py::object {
    using T = decltype(tag);
    py::array aa = tp::as_ndarray(A, fn, "A"), ba = tp::as_ndarray(B, fn, "B");
    for (auto [arr, name] : {std::pair{aa, "A"}, std::pair{ba, "B"}}) {
      if (arr.ndim() != 2 && arr.ndim() != 3) {
        tp::mismatch(fn, std::string(name) + " must be 3-D (batch, rows, cols) or 2-D, got shape " + shape_text(arr),
                     "pass a stack of matrices");
      }
    }
    if (aa.ndim() == 2 && ba.ndim() == 2) {
      tp::mismatch(fn, "A and B are both 2-D", "pass A or B as a 3-D stack (batch, rows, cols), or call trnblas.gemm");
    }
    const std::int64_t batch = aa.ndim() == 3 ? aa.shape(0) : ba.shape(0);
    if (aa.ndim() == 3 && ba.ndim() == 3 && aa.shape(0) != ba.shape(0)) {
      tp::mismatch(fn, "A has " + std::to_string(aa.shape(0)) + " entries but B has " + std::to_string(ba.shape(0)),
                   "pass stacks of the same batch size");
    }
    const auto [m, ka] = op_shape(aa, ta);
    const auto [kb, n] = op_shape(ba, tb);
    check_inner(m, ka, kb, n, fn);
    auto check3 = [&](py::handle obj, const char* name) {
      py::array x = tp::as_ndarray(obj, fn, name);
      const bool ok = (x.ndim() == 3 && x.shape(0) == batch && x.shape(1) == m && x.shape(2) == n) ||
                      (x.ndim() == 2 && x.shape(0) == m && x.shape(1) == n && obj.ptr() != out.ptr());
      if (!ok) {
        tp::mismatch(fn,
                     std::string(name) + " has shape " + shape_text(x) + " but the result is (" +
                         std::to_string(batch) + ", " + std::to_string(m) + ", " + std::to_string(n) + ")",
                     std::string("pass ") + name + " of the result's shape");
      }
    };
    if (!C.is_none()) check3(C, "C");
    py::array_t<T> res;
    Layout target = Layout::row_major;
    std::int64_t ldc = std::max<std::int64_t>(1, n), stride_c = m * n;
    if (!out.is_none()) {
      if (!py::isinstance<py::array>(out)) {
        tp::invalid(fn, "out is written in place but is not a NumPy array (type " + type_name(out) + ")",
                    "pass a numpy.ndarray");
      }
      check3(out, "out");
      if (!py::isinstance<py::array_t<T, 0>>(out)) {
        tp::invalid(
            fn, "out is written in place but has dtype " + tp::detail::dtype_text(out.cast<py::array>()),
            std::string("pass a ") + tp::detail::dtype_name<T>() + " array (in-place outputs are never converted)");
      }
      res = out.cast<py::array_t<T>>();
      if (!res.writeable()) tp::invalid(fn, "out is read-only", "pass a writable array");
      auto s = batch_stride(res);
      std::optional<std::int64_t> ld;
      for (Layout l : {Layout::row_major, Layout::col_major}) {
        if (!ld && (ld = entry_ld(res, l))) target = l;
      }
      if (!s || !ld) {
        tp::invalid(fn, "out has strides no strided batch can express",
                    "pass a C-ordered (batch, m, n) array or a stack of Fortran-ordered matrices");
      }
      ldc = *ld;
      stride_c = *s;
      if (!C.is_none() && !C.is(out)) copy_into(res, C);
    } else {
      res = py::array_t<T>(std::vector<py::ssize_t>{batch, m, n});
      if (!C.is_none()) copy_into(res, C);
    }
    auto ao = strided_operand<T>(aa, target, ta != Op::conj_trans, fn, "A");
    auto bo = strided_operand<T>(ba, target, tb != Op::conj_trans, fn, "B");
    const Op opa = ao.flipped ? flip(ta) : ta, opb = bo.flipped ? flip(tb) : tb;
    const T al = scalar_as<T>(a), be = C.is_none() ? T(0) : scalar_as<T>(b);
    T* cdata = res.mutable_data();
    tp::run(opts, [&] {
      trnblas::gemm_strided_batched<T>(target, opa, opb, m, n, ka, al, ao.data, ao.ld, ao.stride, bo.data, bo.ld,
                                       bo.stride, be, cdata, ldc, stride_c, batch, opts);
    });
    return res;
  });
}

// ---- pointer-array form: lists of matrices ----

py::list as_list(py::handle obj, std::string_view fn, const char* name) {
  if (!py::isinstance<py::sequence>(obj) || PyUnicode_Check(obj.ptr())) {
    tp::invalid(fn, std::string(name) + " is not a sequence of matrices (type " + type_name(obj) + ")",
                "pass a list of 2-D arrays (or a 3-D array)");
  }
  py::list l;
  for (auto item : py::reinterpret_borrow<py::sequence>(obj)) l.append(item);
  return l;
}

py::object gemm_batched(py::object alpha, py::object As, py::object Bs, py::object beta, py::object Cs,
                        py::object transA, py::object transB, py::kwargs kw) {
  constexpr const char* fn = "trnblas.gemm_batched";
  py::object outs = pop_object(kw, "out");
  auto opts = options_of(kw, fn);
  const Scalar a = scalar_arg(alpha, fn, "alpha"), b = scalar_arg(beta, fn, "beta");
  const Op ta = parse_trans(transA, fn, "transA"), tb = parse_trans(transB, fn, "transB");
  py::list al = as_list(As, fn, "A"), bl = as_list(Bs, fn, "B");
  py::list cl = Cs.is_none() ? py::list() : as_list(Cs, fn, "C");
  py::list ol = outs.is_none() ? py::list() : as_list(outs, fn, "out");
  const auto batch = static_cast<std::int64_t>(al.size());
  auto same_count = [&](const py::list& l, const char* name) {
    if (static_cast<std::int64_t>(l.size()) != batch) {
      tp::mismatch(
          fn, std::string(name) + " has " + std::to_string(l.size()) + " entries but A has " + std::to_string(batch),
          "pass lists of the same length");
    }
  };
  same_count(bl, "B");
  if (!Cs.is_none()) same_count(cl, "C");
  if (!outs.is_none()) same_count(ol, "out");
  Kind k = Kind::f32;
  bool first = true;
  for (const py::list* l : {&al, &bl, &cl, &ol}) {
    for (auto item : *l) {
      const Kind ki = kind_arg(item, fn, "an entry");
      k = first ? ki : tp::promote(k, ki);
      first = false;
    }
  }
  if (first) k = Kind::f64;
  k = with_scalar(with_scalar(k, a), b);
  return dispatch(k, [&](auto tag) -> py::object {
    using T = decltype(tag);
    std::int64_t m = 0, n = 0, kk = 0;
    std::vector<py::array_t<T>> at, bt;
    for (std::int64_t i = 0; i < batch; ++i) {
      at.push_back(typed_matrix<T>(al[i], fn, "A[i]"));
      bt.push_back(typed_matrix<T>(bl[i], fn, "B[i]"));
      const auto [mi, ki] = op_shape(at.back(), ta);
      const auto [kbi, ni] = op_shape(bt.back(), tb);
      check_inner(mi, ki, kbi, ni, fn);
      if (i == 0) {
        m = mi, n = ni, kk = ki;
      } else if (mi != m || ni != n || ki != kk) {
        tp::mismatch(fn, "entry " + std::to_string(i) + " has other sizes than entry 0",
                     "every entry must have the same m, n, k (use several calls otherwise)");
      }
    }
    // Results: out[i] in place, else new C-ordered matrices (filled with C[i] when given).
    std::vector<tp::OutMatrix<T>> res;
    py::list ret;
    for (std::int64_t i = 0; i < batch; ++i) {
      py::object ci = Cs.is_none() ? py::object(py::none()) : py::object(cl[i]);
      py::object oi = outs.is_none() ? py::object(py::none()) : py::object(ol[i]);
      res.push_back(result_matrix<T>(oi, ci, m, n, fn, "C[i]"));
      ret.append(res.back().array);
    }
    const Layout target = batch ? res[0].view.layout() : Layout::row_major;
    const std::int64_t ldc = batch ? res[0].view.ld() : 1;
    for (const auto& r : res) {
      if (r.view.layout() != target || r.view.ld() != ldc) {
        tp::invalid(fn, "the out matrices differ in layout or leading dimension",
                    "pass out matrices of one order and one row (column) stride");
      }
    }
    // Operands: one layout and one ld for all entries; copies when they differ.
    auto gather = [&](std::vector<py::array_t<T>>& arrs, Op op, const char* name, std::vector<py::array>& keep,
                      std::vector<const T*>& ptrs, std::int64_t& ld, bool& flipped) {
      std::vector<Operand<T>> ops;
      for (auto& x : arrs) ops.push_back(operand<T>(x, target, op != Op::conj_trans, fn, name));
      bool uniform = true;
      for (const auto& o : ops) uniform = uniform && o.flipped == ops[0].flipped && o.view.ld() == ops[0].view.ld();
      if (!uniform) {
        ops.clear();
        for (auto& x : arrs) {
          py::array_t<T> c = copy_in_layout(x, target);
          ops.push_back(
              {c, trncore::MatrixView<const T>(c.data(), c.shape(0), c.shape(1), *ld_in_layout(c, target), target),
               false});
        }
      }
      ld = ops.empty() ? 1 : ops[0].view.ld();
      flipped = !ops.empty() && ops[0].flipped;
      for (auto& o : ops) {
        keep.push_back(o.array);
        ptrs.push_back(o.view.data());
      }
    };
    std::vector<py::array> keep;
    std::vector<const T*> ap, bp;
    std::vector<T*> cp;
    std::int64_t lda = 1, ldb = 1;
    bool fa = false, fb = false;
    gather(at, ta, "A[i]", keep, ap, lda, fa);
    gather(bt, tb, "B[i]", keep, bp, ldb, fb);
    for (auto& r : res) cp.push_back(r.view.data());
    const Op opa = fa ? flip(ta) : ta, opb = fb ? flip(tb) : tb;
    const T alv = scalar_as<T>(a), bev = Cs.is_none() ? T(0) : scalar_as<T>(b);
    tp::run(opts, [&] {
      trnblas::gemm_batched<T>(target, opa, opb, m, n, kk, alv, ap.data(), lda, bp.data(), ldb, bev, cp.data(), ldc,
                               batch, opts);
    });
    return ret;
  });
}

const char* const kGemmDoc =
    R"(gemm(alpha, A, B, beta=0.0, C=None, transA=False, transB=False, *, out=None, report=False, **options)
    -> alpha*op(A)@op(B) + beta*C   [or (result, trncore.AccuracyReport) with report=True]

General matrix multiply (trnblas::gemm), upstream signature. op(X) = X, X.T (True or 'T') or X^H ('C').
Returns a new C-ordered array (as upstream); out= writes the result in place into a writable matrix of
the result dtype (out=C is BLAS's in-place C := alpha*op(A)op(B) + beta*C). beta is ignored when C is
None. dtypes float32/float64/complex64/complex128 (promoted like NumPy). A and B in C or Fortran order (or
slices) are used without a copy (a transposed view where their order differs from the result's).

Options (keywords): backend='host' (OpenBLAS) or 'sim' (the modelled TensorEngine, float32/float64
only) with mode='automatic'|'fp32'|'bf16'|'fp16'|'tf32'|'fp8_e4m3'|'fp8_e5m2'|'compensated'|'ozaki'|...,
target_forward_error (componentwise, relative to |alpha||op(A)||op(B)| + |beta||C|; automatic mode picks
the cheapest mode meeting it), generation, product, threads, seed, options=trncore.Options(...).

Accuracy: host |C^ - C| <= gamma_{k+2}(|alpha||op(A)||op(B)| + |beta||C|) componentwise (4u for u with
complex data); sim: the mode's bound (docs/trnblas-sim.md). report=True returns the AccuracyReport
(a_priori_bound, certified, met, uncertified_reason, cost on sim).

Errors: DimensionMismatch for non-conforming shapes or ndim; InvalidArgument for dtypes, bad transA/transB
strings, out= of another dtype or read-only, out overlapping A or B, bad options; ParseError for an
unknown mode/backend string; NotSupported for complex data on sim or a mode the backend lacks;
TargetNotMet (report=False only) when the result is not certified or its bound exceeds the target;
TypeError for unknown keywords.)";

const char* const kBatchedDoc =
    R"(batched_gemm(alpha, A, B, beta=0.0, C=None, transA=False, transB=False, *, out=None, **options)
    -> C[i] = alpha*op(A[i])@op(B[i]) + beta*C[i]

Strided batched GEMM (trnblas::gemm_strided_batched), upstream's batched_gemm signature. A: (batch, m, k)
(or (batch, k, m) with transA), B: (batch, k, n); a 2-D A or B is reused for every entry (stride 0). Returns
a new C-ordered (batch, m, n) array; out= writes in place (a (batch, m, n) array of the result dtype whose
entries share one layout and stride). C may be (batch, m, n) or (m, n) (broadcast). Stacks whose strides fit
are used without a copy. Host backend only (NotSupported for backend='sim', another mode or a target).
Accuracy: per entry gemm's host bound gamma_{k+2}(|alpha||op(A_i)||op(B_i)| + |beta||C_i|).
Errors as gemm; InvalidArgument when an out entry overlaps another operand or entry.)";

const char* const kPtrBatchedDoc =
    R"(gemm_batched(alpha, A, B, beta=0.0, C=None, transA=False, transB=False, *, out=None, **options) -> list

Pointer-array batched GEMM (trnblas::gemm_batched; C++ name, as cublas<t>gemmBatched): A, B (and C, out)
are sequences of matrices of one size (a 3-D array is a sequence of its entries). Returns a list of new
C-ordered results, or writes into the matrices of out= (one layout and leading dimension) and returns them.
Entries may share A or B storage. Host backend only. Accuracy and errors as batched_gemm.)";

}  // namespace

void bind_gemm(py::module_& m) {
  using namespace pybind11::literals;
  m.def("gemm", &gemm, "alpha"_a, "A"_a, "B"_a, "beta"_a = 0.0, "C"_a = py::none(), "transA"_a = false,
        "transB"_a = false, kGemmDoc);
  m.def("batched_gemm", &batched_gemm, "alpha"_a, "A"_a, "B"_a, "beta"_a = 0.0, "C"_a = py::none(), "transA"_a = false,
        "transB"_a = false, kBatchedDoc);
  m.attr("gemm_strided_batched") = m.attr("batched_gemm");
  m.def("gemm_batched", &gemm_batched, "alpha"_a, "A"_a, "B"_a, "beta"_a = 0.0, "C"_a = py::none(), "transA"_a = false,
        "transB"_a = false, kPtrBatchedDoc);
}

}  // namespace trnblas_python
