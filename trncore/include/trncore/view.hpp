#pragma once
/// @file
/// Light non-owning views of dense data (DESIGN.md §5.1): the convenient layer over BLAS-style
/// (pointer, sizes, leading dimension) arguments. Construction checks the arguments; element access is
/// unchecked except through at().

#include <trncore/error.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace trncore {

/// Storage order of a matrix.
enum class Layout : std::uint8_t { row_major, col_major };

/// "row_major" or "col_major". Never throws.
std::string_view to_string(Layout layout) noexcept;
/// Parses to_string's names. @throws trncore::ParseError naming the text.
Layout parse_layout(std::string_view text);

namespace detail {
/// Throws InvalidArgument/DimensionMismatch for a matrix argument that cannot describe valid storage.
void check_matrix(std::string_view function, std::int64_t rows, std::int64_t cols, std::int64_t ld, Layout layout,
                  bool null_data);
/// Throws InvalidArgument for a vector argument that cannot describe valid storage.
void check_vector(std::string_view function, std::int64_t size, std::int64_t inc, bool null_data);
}  // namespace detail

/// A rows×cols matrix at `data` in `layout` with leading dimension ld: element (i, j) is
/// data[i·ld + j] (row-major) or data[i + j·ld] (column-major).
template <class T>
class MatrixView {
 public:
  MatrixView() = default;
  /// @throws InvalidArgument for negative sizes, a null pointer with nonzero size, or a size whose
  ///         storage extent overflows int64; DimensionMismatch when ld is below the row (column) length.
  MatrixView(T* data, std::int64_t rows, std::int64_t cols, std::int64_t ld, Layout layout = Layout::row_major)
      : data_(data), rows_(rows), cols_(cols), ld_(ld), layout_(layout) {
    detail::check_matrix("trncore::MatrixView", rows, cols, ld, layout, data == nullptr);
  }
  /// A dense (ld = row or column length) view of a span. @throws DimensionMismatch if the span is too short.
  MatrixView(std::span<T> data, std::int64_t rows, std::int64_t cols, Layout layout = Layout::row_major)
      : MatrixView(data.data(), rows, cols, layout == Layout::row_major ? (cols > 0 ? cols : 1) : (rows > 0 ? rows : 1),
                   layout) {
    if (static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(cols) > data.size())
      throw DimensionMismatch("trncore::MatrixView",
                              "a " + std::to_string(rows) + "x" + std::to_string(cols) + " matrix needs " +
                                  std::to_string(rows * cols) + " elements but the span has " +
                                  std::to_string(data.size()),
                              "pass a span of at least rows*cols elements");
  }
  /// A view of const elements of the same data.
  operator MatrixView<const T>() const requires(!std::is_const_v<T>) {
    return MatrixView<const T>(data_, rows_, cols_, ld_, layout_);
  }

  /// The address of element (0, 0) (null for a default-constructed view).
  T* data() const noexcept { return data_; }
  /// Number of rows.
  std::int64_t rows() const noexcept { return rows_; }
  /// Number of columns.
  std::int64_t cols() const noexcept { return cols_; }
  /// Leading dimension: the distance in elements between consecutive rows (row-major) or columns
  /// (column-major).
  std::int64_t ld() const noexcept { return ld_; }
  /// Row-major or column-major.
  Layout layout() const noexcept { return layout_; }

  /// Element (i, j), unchecked (precondition: 0 ≤ i < rows, 0 ≤ j < cols; see at()).
  T& operator()(std::int64_t i, std::int64_t j) const noexcept {
    return data_[layout_ == Layout::row_major ? i * ld_ + j : i + j * ld_];
  }
  /// Checked access. @throws InvalidArgument naming the index and the shape.
  T& at(std::int64_t i, std::int64_t j) const {
    if (i < 0 || i >= rows_ || j < 0 || j >= cols_)
      throw InvalidArgument("trncore::MatrixView::at",
                            "index (" + std::to_string(i) + ", " + std::to_string(j) + ") is outside the " +
                                std::to_string(rows_) + "x" + std::to_string(cols_) + " matrix",
                            "use 0 <= i < rows and 0 <= j < cols");
    return (*this)(i, j);
  }
  /// The transpose, as a view of the same storage in the other layout.
  MatrixView transposed() const noexcept {
    MatrixView t = *this;
    t.rows_ = cols_;
    t.cols_ = rows_;
    t.layout_ = layout_ == Layout::row_major ? Layout::col_major : Layout::row_major;
    return t;
  }
  /// Rows [r, r + nr) × columns [c, c + nc). @throws InvalidArgument when the block leaves the matrix.
  MatrixView submatrix(std::int64_t r, std::int64_t c, std::int64_t nr, std::int64_t nc) const {
    if (r < 0 || c < 0 || nr < 0 || nc < 0 || r > rows_ - nr || c > cols_ - nc)
      throw InvalidArgument("trncore::MatrixView::submatrix",
                            "block at (" + std::to_string(r) + ", " + std::to_string(c) + ") of size " +
                                std::to_string(nr) + "x" + std::to_string(nc) + " leaves the " + std::to_string(rows_) +
                                "x" + std::to_string(cols_) + " matrix",
                            "keep the block inside the matrix");
    MatrixView s = *this;
    s.data_ = (nr > 0 && nc > 0) ? &(*this)(r, c) : data_;
    s.rows_ = nr;
    s.cols_ = nc;
    return s;
  }

 private:
  T* data_ = nullptr;
  std::int64_t rows_ = 0, cols_ = 0, ld_ = 1;
  Layout layout_ = Layout::row_major;
};

/// A vector of `size` elements at data, data + inc, …; a negative inc walks backwards from the end of the
/// storage, as in BLAS (element i is data[(size − 1 − i)·|inc|]).
template <class T>
class VectorView {
 public:
  VectorView() = default;
  /// @throws InvalidArgument for a negative size, inc = 0, a null pointer with nonzero size, or an
  ///         extent that overflows int64.
  VectorView(T* data, std::int64_t size, std::int64_t inc = 1) : data_(data), size_(size), inc_(inc) {
    detail::check_vector("trncore::VectorView", size, inc, data == nullptr);
  }
  /// A contiguous view (inc = 1) of a span; implicit, so spans pass where views are expected.
  VectorView(std::span<T> data) : VectorView(data.data(), static_cast<std::int64_t>(data.size()), 1) {}  // NOLINT
  /// A view of const elements of the same data.
  operator VectorView<const T>() const requires(!std::is_const_v<T>) { return VectorView<const T>(data_, size_, inc_); }

  /// The start of the storage (element 0 when inc > 0, element size − 1 when inc < 0).
  T* data() const noexcept { return data_; }
  /// Number of elements.
  std::int64_t size() const noexcept { return size_; }
  /// Stride between consecutive elements in the storage; negative walks backwards (BLAS convention).
  std::int64_t inc() const noexcept { return inc_; }
  /// Element i, unchecked (precondition: 0 ≤ i < size; see at()).
  T& operator[](std::int64_t i) const noexcept { return data_[inc_ > 0 ? i * inc_ : (size_ - 1 - i) * -inc_]; }
  /// Checked access. @throws InvalidArgument naming the index and the size.
  T& at(std::int64_t i) const {
    if (i < 0 || i >= size_)
      throw InvalidArgument("trncore::VectorView::at",
                            "index " + std::to_string(i) + " is outside a vector of size " + std::to_string(size_),
                            "use 0 <= i < size");
    return (*this)[i];
  }

 private:
  T* data_ = nullptr;
  std::int64_t size_ = 0, inc_ = 1;
};

}  // namespace trncore
