// The work layout and the reproducible building blocks of the distributed randomized routines (work.hpp).
#include "work.hpp"

#include <trnblas/gemm.hpp>

#include <cblas.h>
#include <trncore/accuracy_report.hpp>
#include <trncore/convert.hpp>
#include <trncore/small_float.hpp>

#include <span>
#include <type_traits>

namespace trnsolver::mpi::randomized_detail {

namespace {

// OpenBLAS directly: trnblas::gemm's certification scans every operand (O(rows·width) per tile, as much as
// forming a kernel tile), which a product whose accuracy the routine reports itself does not need.
template <class T>
void gemm(trnblas::Op ta, trnblas::Op tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc, const trncore::Options&) {
  if (m == 0 || n == 0) return;
  const auto op = [](trnblas::Op o) { return o == trnblas::Op::no_trans ? CblasNoTrans : CblasTrans; };
  const auto i = [](std::int64_t v) { return static_cast<blasint>(v); };
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasColMajor, op(ta), op(tb), i(m), i(n), i(k), alpha, a, i(lda), b, i(ldb), beta, c, i(ldc));
  else
    cblas_dgemm(CblasColMajor, op(ta), op(tb), i(m), i(n), i(k), alpha, a, i(lda), b, i(ldb), beta, c, i(ldc));
}

// Moves the rows of an m×c matrix from one row distribution to another: src_owner(i)/dst_owner(i) give the
// ranks, get(i, j)/put(i, j, v) the local elements. One alltoallv; rows travel in ascending global order.
template <class T, class SrcOwner, class Get, class DstOwner, class Put>
void move_rows(const tm::Communicator& comm, std::int64_t m, std::int64_t c, SrcOwner src_owner, Get get,
               DstOwner dst_owner, Put put) {
  const int p = comm.size(), me = comm.rank();
  std::vector<std::int64_t> send(static_cast<std::size_t>(p), 0), recv_rows(static_cast<std::size_t>(p), 0);
  for (std::int64_t i = 0; i < m; ++i) {
    const int s = src_owner(i), d = dst_owner(i);
    if (s == me) send[static_cast<std::size_t>(d)] += c;
    if (d == me) ++recv_rows[static_cast<std::size_t>(s)];
  }
  std::vector<std::int64_t> pos(static_cast<std::size_t>(p), 0);
  std::int64_t total = 0;
  for (int r = 0; r < p; ++r) {
    pos[static_cast<std::size_t>(r)] = total;
    total += send[static_cast<std::size_t>(r)];
  }
  std::vector<T> buffer(static_cast<std::size_t>(total));
  for (std::int64_t i = 0; i < m; ++i)
    if (src_owner(i) == me) {
      auto& at = pos[static_cast<std::size_t>(dst_owner(i))];
      for (std::int64_t j = 0; j < c; ++j) buffer[static_cast<std::size_t>(at++)] = get(i, j);
    }
  const std::vector<T> got = comm.alltoallv<T>(std::span<const T>(buffer), std::span<const std::int64_t>(send));
  std::int64_t offset = 0;
  for (int r = 0; r < p; ++r) {
    pos[static_cast<std::size_t>(r)] = offset;
    offset += recv_rows[static_cast<std::size_t>(r)] * c;
  }
  for (std::int64_t i = 0; i < m; ++i)
    if (dst_owner(i) == me) {
      auto& at = pos[static_cast<std::size_t>(src_owner(i))];
      for (std::int64_t j = 0; j < c; ++j) put(i, j, got[static_cast<std::size_t>(at++)]);
    }
}

}  // namespace

SingleThreadedBlas::SingleThreadedBlas() : saved_(openblas_get_num_threads()) {
  if (saved_ != 1) openblas_set_num_threads(1);
}

SingleThreadedBlas::~SingleThreadedBlas() {
  if (saved_ != 1) openblas_set_num_threads(saved_);
}

WorkLayout::WorkLayout(std::int64_t rows, std::int64_t block_rows, int nranks, int myrank)
    : m(rows),
      rb(block_rows),
      nblocks(rows == 0 ? 0 : (rows + block_rows - 1) / block_rows),
      ranks(nranks),
      rank(myrank) {
  for (std::int64_t id = rank; id < nblocks; id += ranks) ids.push_back(id);
}

template <class T>
Blocks<T> make_blocks(const WorkLayout& w, std::int64_t cols) {
  Blocks<T> b;
  b.cols = cols;
  b.data.reserve(w.ids.size());
  for (const std::int64_t id : w.ids) b.data.emplace_back(static_cast<std::size_t>(w.rows(id) * cols), T(0));
  return b;
}

template <class T>
Blocks<T> to_work(const tm::Communicator& comm, const WorkLayout& w, const UserRows& user, const T* local,
                  std::int64_t cols) {
  Blocks<T> b = make_blocks<T>(w, cols);
  move_rows<T>(
      comm, w.m, cols, [&](std::int64_t i) { return user.owner(i); },
      [&](std::int64_t i, std::int64_t j) { return local[user.local(i) + j * user.lld]; },
      [&](std::int64_t i) { return w.owner(i / w.rb); },
      [&](std::int64_t i, std::int64_t j, T v) {
        const std::int64_t id = i / w.rb;
        b.data[static_cast<std::size_t>(id / w.ranks)][static_cast<std::size_t>(i - w.first(id) + j * w.rows(id))] = v;
      });
  return b;
}

template <class T>
std::vector<T> to_user(const tm::Communicator& comm, const WorkLayout& w, const Blocks<T>& b, const UserRows& user) {
  std::vector<T> out(static_cast<std::size_t>(user.lld * b.cols), T(0));
  move_rows<T>(
      comm, w.m, b.cols, [&](std::int64_t i) { return w.owner(i / w.rb); },
      [&](std::int64_t i, std::int64_t j) {
        const std::int64_t id = i / w.rb;
        return b
            .data[static_cast<std::size_t>(id / w.ranks)][static_cast<std::size_t>(i - w.first(id) + j * w.rows(id))];
      },
      [&](std::int64_t i) { return user.owner(i); },
      [&](std::int64_t i, std::int64_t j, T v) { out[static_cast<std::size_t>(user.local(i) + j * user.lld)] = v; });
  return out;
}

template <class T>
std::vector<T> allgather(const tm::Communicator& comm, const WorkLayout& w, const Blocks<T>& b) {
  std::vector<T> mine;
  for (const auto& d : b.data) mine.insert(mine.end(), d.begin(), d.end());
  const std::vector<T> all = comm.allgatherv<T>(std::span<const T>(mine));
  std::vector<T> out(static_cast<std::size_t>(w.m * b.cols));
  std::size_t at = 0;
  for (int r = 0; r < w.ranks; ++r)
    for (std::int64_t id = r; id < w.nblocks; id += w.ranks) {
      const std::int64_t rows = w.rows(id), f = w.first(id);
      for (std::int64_t j = 0; j < b.cols; ++j)
        for (std::int64_t i = 0; i < rows; ++i) out[static_cast<std::size_t>(f + i + j * w.m)] = all[at++];
    }
  return out;
}

template <class T>
std::vector<T> block_sum(const tm::Communicator& comm, const WorkLayout& w, const std::vector<T>& partials,
                         std::int64_t len) {
  return tm::ordered_sum<T>(comm, std::span<const std::int64_t>(w.ids), std::span<const T>(partials), len);
}

template <class T>
void orth_local(std::vector<T>& a, std::int64_t rows, std::int64_t c, const trncore::Options& host) {
  if (rows == 0 || c == 0) return;
  std::vector<T> tau(static_cast<std::size_t>(c));
  trnsolver::geqrf<T>(Layout::col_major, rows, c, a.data(), rows, tau.data(), host);
  trnsolver::orgqr<T>(Layout::col_major, rows, c, c, a.data(), rows, tau.data(), host);
}

template <class T>
void tsqr(const tm::Communicator& comm, const WorkLayout& w, Blocks<T>& y, std::vector<T>* r,
          const trncore::Options& host) {
  const std::int64_t c = y.cols;
  const auto kept = [&](std::int64_t id) { return std::min(w.rows(id), c); };
  std::vector<T> mine;
  for (std::size_t t = 0; t < w.ids.size(); ++t) {
    const std::int64_t id = w.ids[t], rows = w.rows(id), kk = kept(id);
    auto& a = y.data[t];
    std::vector<T> tau(static_cast<std::size_t>(kk));
    trnsolver::geqrf<T>(Layout::col_major, rows, c, a.data(), rows, tau.data(), host);
    for (std::int64_t j = 0; j < c; ++j)
      for (std::int64_t i = 0; i < kk; ++i) mine.push_back(i <= j ? a[static_cast<std::size_t>(i + j * rows)] : T(0));
    trnsolver::orgqr<T>(Layout::col_major, rows, kk, kk, a.data(), rows, tau.data(), host);  // rows×kk in place
  }
  const std::vector<T> all = comm.allgatherv<T>(std::span<const T>(mine));
  // The stack of every block's R in ascending block order (sr×c, column-major).
  std::vector<std::int64_t> offset(static_cast<std::size_t>(w.nblocks) + 1, 0);
  for (std::int64_t id = 0; id < w.nblocks; ++id)
    offset[static_cast<std::size_t>(id) + 1] = offset[static_cast<std::size_t>(id)] + kept(id);
  const std::int64_t sr = offset.back();
  std::vector<T> stack(static_cast<std::size_t>(sr * c));
  std::size_t at = 0;
  for (int q = 0; q < w.ranks; ++q)
    for (std::int64_t id = q; id < w.nblocks; id += w.ranks) {
      const std::int64_t kk = kept(id), o = offset[static_cast<std::size_t>(id)];
      for (std::int64_t j = 0; j < c; ++j)
        for (std::int64_t i = 0; i < kk; ++i) stack[static_cast<std::size_t>(o + i + j * sr)] = all[at++];
    }
  std::vector<T> tau(static_cast<std::size_t>(c));
  trnsolver::geqrf<T>(Layout::col_major, sr, c, stack.data(), sr, tau.data(), host);
  if (r != nullptr) {
    r->assign(static_cast<std::size_t>(c * c), T(0));
    for (std::int64_t j = 0; j < c; ++j)
      for (std::int64_t i = 0; i <= j; ++i)
        (*r)[static_cast<std::size_t>(i + j * c)] = stack[static_cast<std::size_t>(i + j * sr)];
  }
  trnsolver::orgqr<T>(Layout::col_major, sr, c, c, stack.data(), sr, tau.data(), host);
  for (std::size_t t = 0; t < w.ids.size(); ++t) {
    const std::int64_t id = w.ids[t], rows = w.rows(id), kk = kept(id);
    std::vector<T> q(static_cast<std::size_t>(rows * c));
    gemm<T>(trnblas::Op::no_trans, trnblas::Op::no_trans, rows, c, kk, T(1), y.data[t].data(), rows,
            stack.data() + offset[static_cast<std::size_t>(id)], sr, T(0), q.data(), rows, host);
    y.data[t] = std::move(q);
  }
}

template <class T>
void round_bf16(T* x, std::int64_t count) {
  if (count == 0) return;
  std::vector<trncore::bf16> narrow(static_cast<std::size_t>(count));
  trncore::ConvertOptions o;
  o.threads = 1;
  const std::span<T> s(x, static_cast<std::size_t>(count));
  trncore::convert<trncore::bf16>(std::span<const T>(s), std::span<trncore::bf16>(narrow), o);
  trncore::convert<trncore::bf16>(std::span<const trncore::bf16>(narrow), s, o);
}

template <class T>
Blocks<T> apply(const WorkLayout& w, const RowOperator<T>& a, const T* x, std::int64_t c, RangePrecision precision,
                const trncore::Options& host) {
  const std::int64_t n = a.cols();
  Blocks<T> y = make_blocks<T>(w, c);
  std::vector<T> xr;
  const bool narrow = precision == RangePrecision::bf16;
  if (narrow) {
    xr.assign(x, x + n * c);
    round_bf16(xr.data(), n * c);
    x = xr.data();
  }
  std::vector<T> scratch;
  for (std::size_t t = 0; t < w.ids.size(); ++t) {
    const std::int64_t rows = w.rows(w.ids[t]);
    for (std::int64_t c0 = 0; c0 < n; c0 += kColumnTile) {
      const std::int64_t width = std::min(kColumnTile, n - c0);
      const T* tile = narrow ? nullptr : a.stored_tile(w, static_cast<std::int64_t>(t), c0);
      if (tile == nullptr) {
        scratch.resize(static_cast<std::size_t>(rows * width));
        a.tile(w, static_cast<std::int64_t>(t), c0, width, scratch.data());
        if (narrow) round_bf16(scratch.data(), rows * width);
        tile = scratch.data();
      }
      gemm<T>(trnblas::Op::no_trans, trnblas::Op::no_trans, rows, c, width, T(1), tile, rows, x + c0, n,
              c0 == 0 ? T(0) : T(1), y.data[t].data(), rows, host);
    }
  }
  return y;
}

template <class T>
std::vector<T> transpose_partials(const WorkLayout& w, const RowOperator<T>& a, const Blocks<T>& y,
                                  RangePrecision precision, const trncore::Options& host) {
  const std::int64_t n = a.cols(), c = y.cols;
  const bool narrow = precision == RangePrecision::bf16;
  std::vector<T> out(static_cast<std::size_t>(n * c) * w.ids.size());
  std::vector<T> scratch, yr;
  for (std::size_t t = 0; t < w.ids.size(); ++t) {
    const std::int64_t rows = w.rows(w.ids[t]);
    const T* yb = y.data[t].data();
    if (narrow) {
      yr = y.data[t];
      round_bf16(yr.data(), rows * c);
      yb = yr.data();
    }
    T* part = out.data() + static_cast<std::size_t>(n * c) * t;
    for (std::int64_t c0 = 0; c0 < n; c0 += kColumnTile) {
      const std::int64_t width = std::min(kColumnTile, n - c0);
      const T* tile = narrow ? nullptr : a.stored_tile(w, static_cast<std::int64_t>(t), c0);
      if (tile == nullptr) {
        scratch.resize(static_cast<std::size_t>(rows * width));
        a.tile(w, static_cast<std::int64_t>(t), c0, width, scratch.data());
        if (narrow) round_bf16(scratch.data(), rows * width);
        tile = scratch.data();
      }
      gemm<T>(trnblas::Op::trans, trnblas::Op::no_trans, width, c, rows, T(1), tile, rows, yb, rows, T(0), part + c0, n,
              host);
    }
  }
  return out;
}

#define TRNSOLVER_MPI_WORK(T)                                                                                         \
  template Blocks<T> make_blocks<T>(const WorkLayout&, std::int64_t);                                                 \
  template Blocks<T> to_work<T>(const tm::Communicator&, const WorkLayout&, const UserRows&, const T*, std::int64_t); \
  template std::vector<T> to_user<T>(const tm::Communicator&, const WorkLayout&, const Blocks<T>&, const UserRows&);  \
  template std::vector<T> allgather<T>(const tm::Communicator&, const WorkLayout&, const Blocks<T>&);                 \
  template std::vector<T> block_sum<T>(const tm::Communicator&, const WorkLayout&, const std::vector<T>&,             \
                                       std::int64_t);                                                                 \
  template void tsqr<T>(const tm::Communicator&, const WorkLayout&, Blocks<T>&, std::vector<T>*,                      \
                        const trncore::Options&);                                                                     \
  template void orth_local<T>(std::vector<T>&, std::int64_t, std::int64_t, const trncore::Options&);                  \
  template void round_bf16<T>(T*, std::int64_t);                                                                      \
  template Blocks<T> apply<T>(const WorkLayout&, const RowOperator<T>&, const T*, std::int64_t, RangePrecision,       \
                              const trncore::Options&);                                                               \
  template std::vector<T> transpose_partials<T>(const WorkLayout&, const RowOperator<T>&, const Blocks<T>&,           \
                                                RangePrecision, const trncore::Options&);
TRNSOLVER_MPI_WORK(float)
TRNSOLVER_MPI_WORK(double)
#undef TRNSOLVER_MPI_WORK

}  // namespace trnsolver::mpi::randomized_detail
