// .npy reading and writing. Oracles: byte strings built by hand from the format's definition (NEP 1 /
// data/dfmp2/README.md), and the DF-MP2 fixtures in data/, whose shapes are documented in their README.
#include <trncore/error.hpp>
#include <trncore/io/npy.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using trncore::io::parse_npy;

// A version-1.0 file: magic, version, header length, header text, then `data` verbatim.
std::vector<unsigned char> npy_bytes(const std::string& header, const std::vector<unsigned char>& data) {
  std::vector<unsigned char> b = {0x93,
                                  'N',
                                  'U',
                                  'M',
                                  'P',
                                  'Y',
                                  1,
                                  0,
                                  static_cast<unsigned char>(header.size() & 0xff),
                                  static_cast<unsigned char>(header.size() >> 8)};
  // Element-wise appends: GCC 12's -Warray-bounds misfires on range inserts of an empty vector.
  for (const char c : header) b.push_back(static_cast<unsigned char>(c));
  for (const unsigned char c : data) b.push_back(c);
  return b;
}

template <class T>
std::vector<unsigned char> le_bytes(const std::vector<T>& values) {
  std::vector<unsigned char> out;
  for (const T v : values) {
    auto bits = std::bit_cast<std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>>(v);
    for (std::size_t i = 0; i < sizeof(T); ++i, bits >>= 8) out.push_back(static_cast<unsigned char>(bits & 0xff));
  }
  return out;
}

TEST(Npy, ReadsHandBuiltFloat64RowMajor) {
  const auto a = parse_npy(npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }\n",
                                     le_bytes<double>({1, 2, 3, 4, 5, -0.5})));
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(a.values, (std::vector<double>{1, 2, 3, 4, 5, -0.5}));
}

TEST(Npy, ReordersFortranOrderAndWidensFloat32AndIntegers) {
  // Fortran order stores column by column: the 2×3 matrix [[1,2,3],[4,5,6]] is 1,4,2,5,3,6 in the file.
  const auto f = parse_npy(npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }\n",
                                     le_bytes<float>({1, 4, 2, 5, 3, 6.25f})));
  EXPECT_EQ(f.values, (std::vector<double>{1, 2, 3, 4, 5, 6.25}));
  const auto i = parse_npy(npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }\n",
                                     le_bytes<std::int32_t>({-7, 0, 2147483647})));
  EXPECT_EQ(i.values, (std::vector<double>{-7, 0, 2147483647.0}));
  const auto l = parse_npy(npy_bytes("{\"descr\":\"<i8\",\"fortran_order\":False,\"shape\":(1,)}",
                                     le_bytes<std::int64_t>({-(std::int64_t{1} << 53)})));
  EXPECT_EQ(l.values, (std::vector<double>{-0x1p53}));
}

TEST(Npy, ZeroDimensionalAndEmptyArrays) {
  const auto scalar =
      parse_npy(npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (), }\n", le_bytes<double>({42})));
  EXPECT_TRUE(scalar.shape.empty());
  EXPECT_EQ(scalar.values, std::vector<double>{42});
  const auto empty = parse_npy(npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 5), }\n", {}));
  EXPECT_EQ(empty.size(), 0);
  EXPECT_EQ(empty.shape, (std::vector<std::int64_t>{0, 5}));
}

TEST(Npy, WriteThenReadIsExactWithNumpysLayout) {
  const auto path = std::filesystem::temp_directory_path() / "trncore_npy_test.npy";
  const std::vector<double> v = {0.1, -0.0, 1e-310, 3.0, 1e300, -2.5};
  const std::vector<std::int64_t> shape = {3, 2};
  trncore::io::write_npy(path, shape, v);
  // numpy's layout: 10 + HLEN a multiple of 64, header ending in '\n'.
  std::vector<unsigned char> bytes(std::filesystem::file_size(path));
  FILE* f = std::fopen(path.string().c_str(), "rb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(std::fread(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
  const std::size_t hlen = bytes[8] | (bytes[9] << 8);
  EXPECT_EQ((10 + hlen) % 64, 0U);
  EXPECT_EQ(bytes[10 + hlen - 1], '\n');
  EXPECT_EQ(std::string(bytes.begin() + 10, bytes.begin() + 10 + 59),
            "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }");
  const auto back = trncore::io::read_npy(path);
  EXPECT_EQ(back.shape, shape);
  for (std::size_t i = 0; i < v.size(); ++i)
    EXPECT_EQ(std::bit_cast<std::uint64_t>(back.values[i]), std::bit_cast<std::uint64_t>(v[i])) << i;
  std::filesystem::remove(path);
  EXPECT_THROW(trncore::io::write_npy(path, shape, std::vector<double>(5)), trncore::InvalidArgument);
}

TEST(Npy, ReadsTheSharedDfmp2Fixture) {
  // Shapes from data/dfmp2/README.md: H2O has nocc 5, nvir 19, naux 84.
  const auto b = trncore::io::read_npy(TRNSCI_DATA_DIR "/dfmp2/H2O/B_iaQ.npy");
  EXPECT_EQ(b.shape, (std::vector<std::int64_t>{5, 19, 84}));
  const auto e = trncore::io::read_npy(TRNSCI_DATA_DIR "/dfmp2/H2O/eps_occ.npy");
  ASSERT_EQ(e.shape, (std::vector<std::int64_t>{5}));
  // The README: ascending, index 0 the oxygen 1s core orbital (about -20.5 Ha).
  EXPECT_LT(e.values[0], -20.0);
  for (std::size_t i = 1; i < e.values.size(); ++i) EXPECT_LT(e.values[i - 1], e.values[i]);
}

void expect_parse_error(const std::vector<unsigned char>& bytes, std::int64_t column, const std::string& needle) {
  try {
    parse_npy(bytes, "x.npy");
    ADD_FAILURE() << "no ParseError for " << needle;
  } catch (const trncore::ParseError& e) {
    EXPECT_EQ(e.function(), "trncore::io::read_npy");
    EXPECT_EQ(e.line(), 1);
    EXPECT_EQ(e.column(), column) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("x.npy"), std::string::npos) << e.what();
  }
}

TEST(Npy, MalformedInputIsAParseErrorWithTheOffset) {
  expect_parse_error({'N', 'U', 'M'}, 1, "magic");
  auto bad_version = npy_bytes("{}", {});
  bad_version[6] = 9;
  expect_parse_error(bad_version, 7, "version 9.0");
  expect_parse_error(npy_bytes("{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", le_bytes<double>({1})), 21,
                     "unsupported dtype '>f8'");
  expect_parse_error(npy_bytes("{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", {}), 21,
                     "unsupported dtype '<c16'");
  expect_parse_error(npy_bytes("{'descr': '<f8', 'fortran_order': Maybe, 'shape': (1,), }", {}), 45, "True or False");
  expect_parse_error(npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }", {}), 62,
                     "non-negative integer");
  expect_parse_error(npy_bytes("{'descr': '<f8', 'fortran_order': False, }", {}), 52, "lacks one of");
  expect_parse_error(npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", le_bytes<double>({1})), 68,
                     "has 8 bytes, the shape needs 16");
  expect_parse_error(npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", {}), 62,
                     "overflows");
  auto truncated = npy_bytes("{'descr': '<f8'}", {});
  truncated.resize(12);
  expect_parse_error(truncated, 9, "runs past the end");
}

TEST(Npy, MissingFileIsAnIoError) {
  EXPECT_THROW(trncore::io::read_npy("/nonexistent/trnsci/x.npy"), trncore::IoError);
}

}  // namespace
