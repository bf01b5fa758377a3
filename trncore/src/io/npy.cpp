// The .npy reader/writer. The header is a Python dict literal; we parse exactly the subset numpy writes
// (three keys, string / bool / tuple-of-int values) and reject anything else with the byte offset, since a
// silently misread fixture would poison every test built on it.
#include <trncore/error.hpp>
#include <trncore/io/npy.hpp>

#include <bit>
#include <cctype>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <string>

namespace trncore::io {

namespace {

constexpr std::string_view kFunction = "trncore::io::read_npy";
constexpr unsigned char kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

std::uint64_t little_endian(const unsigned char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

enum class Dtype { f8, f4, i8, i4 };

struct Header {
  Dtype dtype = Dtype::f8;
  bool fortran_order = false;
  std::vector<std::int64_t> shape;
};

// A cursor over the header text; errors carry the 1-based byte offset within the file.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, std::size_t file_offset, std::string_view name)
      : text_(text), base_(file_offset), name_(name) {}

  Header parse() {
    Header h;
    bool have_descr = false, have_order = false, have_shape = false;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = quoted();
      expect(':');
      if (key == "descr") {
        skip_space();
        const std::size_t value_at = pos_;
        h.dtype = dtype(quoted(), value_at);
        have_descr = true;
      } else if (key == "fortran_order") {
        h.fortran_order = boolean();
        have_order = true;
      } else if (key == "shape") {
        h.shape = tuple();
        have_shape = true;
      } else {
        fail("unknown header key '" + key + "'");
      }
      skip_space();
      if (peek() == ',') ++pos_;
    }
    if (!have_descr || !have_order || !have_shape) fail("the header lacks one of 'descr', 'fortran_order', 'shape'");
    return h;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ParseError(kFunction, std::string(name_) + ": " + what,
                     "the file is not a .npy array numpy.save writes; re-save it with numpy.save", 1,
                     static_cast<std::int64_t>(base_ + pos_ + 1));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char peek() {
    skip_space();
    if (pos_ >= text_.size()) fail("the header dictionary ends early");
    return text_[pos_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "', found '" + text_[pos_] + "'");
    ++pos_;
  }
  std::string quoted() {
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted string");
    const std::size_t end = text_.find(q, pos_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string s(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return s;
  }
  bool boolean() {
    skip_space();
    for (const auto& [word, value] : {std::pair{std::string_view("True"), true}, {std::string_view("False"), false}})
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    fail("fortran_order must be True or False");
  }
  std::vector<std::int64_t> tuple() {
    expect('(');
    std::vector<std::int64_t> dims;
    while (peek() != ')') {
      if (!std::isdigit(static_cast<unsigned char>(text_[pos_]))) fail("a shape extent must be a non-negative integer");
      const std::size_t start = pos_;
      std::int64_t d = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        const int digit = text_[pos_] - '0';
        if (d > (std::numeric_limits<std::int64_t>::max() - digit) / 10) {
          pos_ = start;
          fail("a shape extent overflows int64");
        }
        d = d * 10 + digit;
        ++pos_;
      }
      dims.push_back(d);
      if (peek() == ',')
        ++pos_;
      else if (peek() != ')')
        fail("expected ',' or ')' in the shape");
    }
    ++pos_;
    return dims;
  }
  Dtype dtype(const std::string& d, std::size_t at) const {
    // '|' marks byte-order-free types; numpy writes '<' on little-endian machines for these.
    if (d == "<f8") return Dtype::f8;
    if (d == "<f4") return Dtype::f4;
    if (d == "<i8") return Dtype::i8;
    if (d == "<i4") return Dtype::i4;
    throw ParseError(kFunction, std::string(name_) + ": unsupported dtype '" + d + "'",
                     "supported are '<f8', '<f4', '<i8', '<i4'; convert with arr.astype('<f8')", 1,
                     static_cast<std::int64_t>(base_ + at + 1));
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t base_;
  std::string_view name_;
};

int dtype_bytes(Dtype d) { return d == Dtype::f8 || d == Dtype::i8 ? 8 : 4; }

double decode(const unsigned char* p, Dtype d) {
  switch (d) {
    case Dtype::f8: return std::bit_cast<double>(little_endian(p, 8));
    case Dtype::f4: return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(little_endian(p, 4))));
    case Dtype::i8: return static_cast<double>(static_cast<std::int64_t>(little_endian(p, 8)));
    case Dtype::i4:
      return static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(little_endian(p, 4))));
  }
  return 0.0;
}

}  // namespace

NpyArray parse_npy(std::span<const unsigned char> bytes, std::string_view name) {
  const auto fail = [&](const std::string& what, std::size_t offset) {
    throw ParseError(kFunction, std::string(name) + ": " + what,
                     "the file is not a complete .npy array; re-save it with numpy.save", 1,
                     static_cast<std::int64_t>(offset + 1));
  };
  if (bytes.size() < 10 || !std::equal(std::begin(kMagic), std::end(kMagic), bytes.begin()))
    fail("missing the \\x93NUMPY magic string", 0);
  const int major = bytes[6];
  if (major < 1 || major > 3)
    fail("unknown format version " + std::to_string(major) + "." + std::to_string(bytes[7]), 6);
  const int len_bytes = major == 1 ? 2 : 4;
  const std::size_t header_start = 8 + static_cast<std::size_t>(len_bytes);
  if (bytes.size() < header_start) fail("the header length field is truncated", 8);
  const std::uint64_t header_len = little_endian(bytes.data() + 8, len_bytes);
  if (header_len > bytes.size() - header_start)
    fail("the header length " + std::to_string(header_len) + " runs past the end of the file (" +
             std::to_string(bytes.size()) + " bytes)",
         8);
  const std::string_view text(reinterpret_cast<const char*>(bytes.data() + header_start), header_len);
  const Header h = HeaderParser(text, header_start, name).parse();

  std::uint64_t count = 1;
  for (const std::int64_t d : h.shape) {
    if (d != 0 && count > std::numeric_limits<std::uint64_t>::max() / 8 / static_cast<std::uint64_t>(d))
      fail("the shape's element count overflows", header_start);
    count *= static_cast<std::uint64_t>(d);
  }
  const std::size_t data_start = header_start + header_len;
  const std::uint64_t need = count * static_cast<std::uint64_t>(dtype_bytes(h.dtype));
  if (bytes.size() - data_start != need)
    fail("the data section has " + std::to_string(bytes.size() - data_start) + " bytes, the shape needs " +
             std::to_string(need),
         data_start);

  NpyArray out;
  out.shape = h.shape;
  out.values.resize(count);
  const unsigned char* data = bytes.data() + data_start;
  const int width = dtype_bytes(h.dtype);
  if (!h.fortran_order || h.shape.size() < 2) {
    for (std::uint64_t i = 0; i < count; ++i) out.values[i] = decode(data + i * width, h.dtype);
    return out;
  }
  // Fortran order: the first index varies fastest in the file; walk the file and place each value.
  const std::size_t rank = h.shape.size();
  std::vector<std::int64_t> index(rank, 0);
  std::vector<std::uint64_t> c_stride(rank, 1);
  for (std::size_t d = rank - 1; d-- > 0;) c_stride[d] = c_stride[d + 1] * static_cast<std::uint64_t>(h.shape[d + 1]);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t at = 0;
    for (std::size_t d = 0; d < rank; ++d) at += static_cast<std::uint64_t>(index[d]) * c_stride[d];
    out.values[at] = decode(data + i * width, h.dtype);
    for (std::size_t d = 0; d < rank && ++index[d] == h.shape[d]; ++d) index[d] = 0;
  }
  return out;
}

NpyArray read_npy(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(kFunction, "cannot open '" + path.string() + "'", "check the path and the file's permissions");
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw IoError(kFunction, "reading '" + path.string() + "' failed", "check the file system");
  return parse_npy(bytes, path.string());
}

void write_npy(const std::filesystem::path& path, std::span<const std::int64_t> shape, std::span<const double> values) {
  constexpr std::string_view fn = "trncore::io::write_npy";
  std::uint64_t count = 1;
  std::string dims;
  for (const std::int64_t d : shape) {
    if (d < 0) throw InvalidArgument(fn, "extent " + std::to_string(d) + " is negative", "extents are >= 0");
    count *= static_cast<std::uint64_t>(d);
    dims += std::to_string(d) + ", ";
  }
  if (shape.size() > 1)
    dims.resize(dims.size() - 2);  // "(5, 19, 84)"; a 1-d shape keeps "(5,)"
  else if (shape.size() == 1)
    dims.pop_back();
  if (count != values.size())
    throw InvalidArgument(
        fn, "the shape holds " + std::to_string(count) + " values, " + std::to_string(values.size()) + " were given",
        "pass exactly one value per element, row-major");
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Pad with spaces so the data starts on a 64-byte boundary, ending the header with '\n' (NEP 1).
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header.push_back('\n');
  std::ofstream out(path, std::ios::binary);
  if (!out) throw IoError(fn, "cannot create '" + path.string() + "'", "check the directory and its permissions");
  out.write(reinterpret_cast<const char*>(kMagic), 6);
  const unsigned char version_and_len[4] = {1, 0, static_cast<unsigned char>(header.size() & 0xff),
                                            static_cast<unsigned char>(header.size() >> 8)};
  out.write(reinterpret_cast<const char*>(version_and_len), 4);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  for (const double v : values) {
    std::uint64_t bits = std::bit_cast<std::uint64_t>(v);
    unsigned char le[8];
    for (unsigned char& byte : le) {
      byte = static_cast<unsigned char>(bits & 0xff);
      bits >>= 8;
    }
    out.write(reinterpret_cast<const char*>(le), 8);
  }
  if (!out) throw IoError(fn, "writing '" + path.string() + "' failed", "check free space on the file system");
}

}  // namespace trncore::io
