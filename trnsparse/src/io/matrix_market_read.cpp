#include <trnsparse/matrix_market.hpp>

#include <trncore/detail/checks.hpp>

#include <trncore/error.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <istream>
#include <limits>
#include <string>
#include <string_view>

namespace trnsparse {
namespace {

constexpr const char* kFunction = "trnsparse::read_matrix_market";

// One line of input split into whitespace-separated tokens, each with its 1-based column, so every error
// can point at the token that caused it.
class LineCursor {
 public:
  LineCursor(std::string_view line, std::int64_t line_no) : line_(line), line_no_(line_no) {}

  /// The next token, or throws ParseError naming `what` at the end of the line.
  std::string_view next(const char* what) {
    skip_space();
    if (pos_ >= line_.size()) {
      token_column_ = static_cast<std::int64_t>(line_.size()) + 1;  // point just past the end of the line
      fail(std::string("missing ") + what, "the line ends too early (truncated or incomplete)");
    }
    const std::size_t start = pos_;
    while (pos_ < line_.size() && !std::isspace(static_cast<unsigned char>(line_[pos_]))) ++pos_;
    token_column_ = static_cast<std::int64_t>(start) + 1;
    return line_.substr(start, pos_ - start);
  }

  /// Throws ParseError when anything but whitespace is left.
  void expect_end() {
    skip_space();
    if (pos_ < line_.size()) {
      token_column_ = static_cast<std::int64_t>(pos_) + 1;
      fail("unexpected extra token '" + std::string(line_.substr(pos_, 20)) + "'",
           "each line holds exactly the declared fields");
    }
  }

  std::int64_t integer(const char* what) {
    const std::string_view t = next(what);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc{} || end != t.data() + t.size())
      fail(std::string(what) + " '" + std::string(t) + "' is not an integer", "write a decimal integer");
    return v;
  }

  double real(const char* what) {
    std::string_view t = next(what);
    if (!t.empty() && t.front() == '+') t.remove_prefix(1);  // from_chars refuses a leading '+'
    double v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec == std::errc::result_out_of_range) return parse_out_of_range(t);
    if (ec != std::errc{} || end != t.data() + t.size())
      fail(std::string(what) + " '" + std::string(t) + "' is not a number", "write a decimal or exponent-form number");
    return v;
  }

  [[noreturn]] void fail(const std::string& problem, const char* hint) const {
    throw trncore::ParseError(kFunction, problem, hint, line_no_, token_column_);
  }

  std::int64_t column() const { return token_column_; }

 private:
  void skip_space() {
    while (pos_ < line_.size() && std::isspace(static_cast<unsigned char>(line_[pos_]))) ++pos_;
  }
  // Overflow gives ±inf and underflow a (signed) zero, the IEEE round-to-nearest results; strtod
  // decides which (from_chars only reports the range error).
  static double parse_out_of_range(std::string_view t) { return std::strtod(std::string(t).c_str(), nullptr); }

  std::string_view line_;
  std::int64_t line_no_;
  std::size_t pos_ = 0;
  std::int64_t token_column_ = 1;
};

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

MmHeader parse_banner(const std::string& line) {
  MmHeader h;
  LineCursor c(line, 1);
  if (c.next("banner") != "%%MatrixMarket")
    c.fail("the first line does not start with '%%MatrixMarket'",
           "a Matrix Market file begins with '%%MatrixMarket matrix <format> <field> <symmetry>'");
  if (lower(c.next("object")) != "matrix") c.fail("object is not 'matrix'", "only 'matrix' objects are supported");
  const std::string format = lower(c.next("format"));
  if (format == "coordinate")
    h.format = MmFormat::coordinate;
  else if (format == "array")
    h.format = MmFormat::array;
  else
    c.fail("unknown format '" + format + "'", "use 'coordinate' or 'array'");
  const std::string field = lower(c.next("field"));
  const std::int64_t field_column = c.column();
  if (field == "real" || field == "double")
    h.field = MmField::real;
  else if (field == "integer")
    h.field = MmField::integer;
  else if (field == "pattern") {
    if (h.format == MmFormat::array) c.fail("'pattern' with 'array'", "pattern is only valid for coordinate files");
    h.field = MmField::pattern;
  } else if (field == "complex")
    throw trncore::NotSupported(kFunction, "line 1, column " + std::to_string(field_column) + ": complex matrices",
                                "convert the file to real, or split real and imaginary parts");
  else
    c.fail("unknown field '" + field + "'", "use 'real', 'integer' or 'pattern'");
  const std::string symmetry = lower(c.next("symmetry"));
  if (symmetry == "general")
    h.symmetry = MmSymmetry::general;
  else if (symmetry == "symmetric")
    h.symmetry = MmSymmetry::symmetric;
  else if (symmetry == "skew-symmetric")
    h.symmetry = MmSymmetry::skew_symmetric;
  else if (symmetry == "hermitian")
    throw trncore::NotSupported(kFunction, "line 1: hermitian matrices",
                                "hermitian files are complex; convert to real");
  else
    c.fail("unknown symmetry '" + symmetry + "'", "use 'general', 'symmetric' or 'skew-symmetric'");
  c.expect_end();
  return h;
}

bool blank(const std::string& line) {
  return std::all_of(line.begin(), line.end(), [](unsigned char ch) { return std::isspace(ch) != 0; });
}

}  // namespace

// The parser of read_matrix_market and read_matrix_market_rows: every line is read and checked; the
// entries (after symmetric expansion) whose row lies in [keep_begin, keep_end) are kept, with rows
// relative to keep_begin. keep_end < 0 keeps every row.
template <class T, class I>
Coo<T, I> read_rows(std::istream& in, MmHeader* header_out, std::int64_t keep_begin, std::int64_t keep_end) {
  std::string line;
  std::int64_t line_no = 0;
  if (!std::getline(in, line))
    throw trncore::ParseError(kFunction, "the input is empty", "pass a Matrix Market file", 0, 0);
  ++line_no;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  MmHeader h = parse_banner(line);

  // Comments (%) and blank lines may precede the size line.
  bool have_size = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (blank(line) || line[line.find_first_not_of(" \t")] == '%') continue;
    have_size = true;
    break;
  }
  if (!have_size)
    throw trncore::ParseError(
        kFunction, "the size line is missing (truncated file)",
        "after the banner and comments comes 'rows cols entries' (coordinate) or 'rows cols' (array)", line_no + 1, 1);
  {
    LineCursor c(line, line_no);
    h.rows = c.integer("row count");
    if (h.rows < 0) c.fail("row count " + std::to_string(h.rows) + " is negative", "sizes are >= 0");
    h.cols = c.integer("column count");
    if (h.cols < 0) c.fail("column count " + std::to_string(h.cols) + " is negative", "sizes are >= 0");
    if (h.symmetry != MmSymmetry::general && h.rows != h.cols)
      c.fail("a symmetric or skew-symmetric matrix is " + std::to_string(h.rows) + "x" + std::to_string(h.cols),
             "symmetric storage needs a square matrix");
    if (h.format == MmFormat::coordinate) {
      h.entries = c.integer("entry count");
      if (h.entries < 0) c.fail("entry count " + std::to_string(h.entries) + " is negative", "counts are >= 0");
    } else {
      const std::int64_t n = h.rows;
      // general: every entry; symmetric: the lower triangle with the diagonal; skew: without it.
      h.entries =
          h.symmetry == MmSymmetry::general
              ? trncore::detail::checked_product(kFunction, {{"h.rows", h.rows}, {"h.cols", h.cols}})
          : h.symmetry == MmSymmetry::symmetric
              ? trncore::detail::checked_product(kFunction, {{"n", n}, {"n + 1", n + 1}}) / 2
              : trncore::detail::checked_product(kFunction, {{"n", n}, {"n - 1", std::max<std::int64_t>(n - 1, 0)}}) /
                    2;
    }
    c.expect_end();
  }
  if (header_out) *header_out = h;
  trncore::detail::check_fits_index<I>(kFunction, "rows", h.rows);
  trncore::detail::check_fits_index<I>(kFunction, "cols", h.cols);

  if (keep_end < 0) {
    keep_begin = 0;
    keep_end = h.rows;
  } else if (keep_begin < 0 || keep_end < keep_begin || keep_end > h.rows) {
    throw trncore::InvalidArgument("trnsparse::read_matrix_market_rows",
                                   "rows [" + std::to_string(keep_begin) + ", " + std::to_string(keep_end) +
                                       ") are outside the file's " + std::to_string(h.rows) + " rows",
                                   "pass 0 <= row_begin and row_begin + row_count <= the matrix's rows");
  }

  Coo<T, I> out;
  out.rows = keep_end - keep_begin;
  out.cols = h.cols;
  const bool mirrored = h.symmetry != MmSymmetry::general;
  const T sign = h.symmetry == MmSymmetry::skew_symmetric ? T(-1) : T(1);
  auto keep = [&](std::int64_t r, std::int64_t col, T v) {
    if (r < keep_begin || r >= keep_end) return;
    out.row.push_back(static_cast<I>(r - keep_begin));
    out.col.push_back(static_cast<I>(col));
    out.values.push_back(v);
  };
  auto push = [&](std::int64_t r, std::int64_t col, double v) {
    keep(r, col, static_cast<T>(v));
    if (mirrored && r != col) keep(col, r, sign * static_cast<T>(v));
  };
  // Array data is column-major; for symmetric (skew) storage each column j starts at row j (j + 1).
  std::int64_t array_row = 0, array_col = 0;
  auto array_first_row = [&](std::int64_t col) {
    return h.symmetry == MmSymmetry::general ? 0 : h.symmetry == MmSymmetry::symmetric ? col : col + 1;
  };
  if (h.format == MmFormat::array) {
    array_row = array_first_row(0);
    while (h.entries > 0 && array_row >= h.rows) array_row = array_first_row(++array_col);
  }

  std::int64_t read = 0;
  while (read < h.entries) {
    if (!std::getline(in, line)) {
      throw trncore::ParseError(
          kFunction,
          "the file ends after " + std::to_string(read) + " of " + std::to_string(h.entries) + " declared entries",
          "the file is truncated, or the size line overstates the entry count", line_no + 1, 1);
    }
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (blank(line)) continue;
    LineCursor c(line, line_no);
    if (h.format == MmFormat::coordinate) {
      const std::int64_t r = c.integer("row index");
      if (r < 1 || r > h.rows)
        c.fail("row index " + std::to_string(r) + " is outside [1, " + std::to_string(h.rows) + "]",
               "indices are 1-based and inside the matrix");
      const std::int64_t col = c.integer("column index");
      if (col < 1 || col > h.cols)
        c.fail("column index " + std::to_string(col) + " is outside [1, " + std::to_string(h.cols) + "]",
               "indices are 1-based and inside the matrix");
      if (h.symmetry == MmSymmetry::skew_symmetric && r == col)
        c.fail("a skew-symmetric file stores diagonal entry (" + std::to_string(r) + ", " + std::to_string(col) + ")",
               "the diagonal of a skew-symmetric matrix is zero and is not stored");
      double v = 1.0;
      if (h.field == MmField::real)
        v = c.real("value");
      else if (h.field == MmField::integer)
        v = static_cast<double>(c.integer("value"));
      c.expect_end();
      push(r - 1, col - 1, v);
    } else {
      const double v = h.field == MmField::integer ? static_cast<double>(c.integer("value")) : c.real("value");
      c.expect_end();
      push(array_row, array_col, v);
      if (++array_row >= h.rows) {
        array_row = array_first_row(++array_col);
        while (array_col < h.cols && array_row >= h.rows) array_row = array_first_row(++array_col);
      }
    }
    ++read;
  }
  // Anything but blank lines after the declared entries means the count was wrong.
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (blank(line)) continue;
    LineCursor c(line, line_no);
    c.next("data");
    c.fail("more data lines than the " + std::to_string(h.entries) + " declared",
           "fix the entry count on the size line");
  }
  trncore::detail::check_fits_index<I>(kFunction, "nnz", static_cast<std::int64_t>(out.values.size()));
  if (in.bad())
    throw trncore::IoError(kFunction, "the stream failed after line " + std::to_string(line_no),
                           "check the file or device");
  return out;
}

template <class T, class I>
Coo<T, I> read_matrix_market(std::istream& in, MmHeader* header) {
  return read_rows<T, I>(in, header, 0, -1);
}

template <class T, class I>
Coo<T, I> read_matrix_market_rows(std::istream& in, std::int64_t row_begin, std::int64_t row_count, MmHeader* header) {
  if (row_begin < 0 || row_count < 0)
    throw trncore::InvalidArgument(
        "trnsparse::read_matrix_market_rows",
        "row_begin = " + std::to_string(row_begin) + ", row_count = " + std::to_string(row_count) + ": negative",
        "pass a range of rows inside the matrix");
  return read_rows<T, I>(in, header, row_begin, row_begin + row_count);
}

template <class T, class I>
Coo<T, I> read_matrix_market_file(const std::string& path, MmHeader* header) {
  std::ifstream in(path);
  if (!in)
    throw trncore::IoError("trnsparse::read_matrix_market_file", "cannot open '" + path + "' for reading",
                           "check the path and its permissions");
  return read_matrix_market<T, I>(in, header);
}

#define TRNSPARSE_INSTANTIATE_MM_READ(T, I)                                                               \
  template Coo<T, I> read_matrix_market<T, I>(std::istream&, MmHeader*);                                  \
  template Coo<T, I> read_matrix_market_rows<T, I>(std::istream&, std::int64_t, std::int64_t, MmHeader*); \
  template Coo<T, I> read_matrix_market_file<T, I>(const std::string&, MmHeader*);

TRNSPARSE_INSTANTIATE_MM_READ(float, std::int32_t)
TRNSPARSE_INSTANTIATE_MM_READ(float, std::int64_t)
TRNSPARSE_INSTANTIATE_MM_READ(double, std::int32_t)
TRNSPARSE_INSTANTIATE_MM_READ(double, std::int64_t)

}  // namespace trnsparse
