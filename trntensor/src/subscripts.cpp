// The einsum subscript parser: text → labels per axis, with numpy's ellipsis, broadcasting and implicit-output rules.
#include <trntensor/subscripts.hpp>

#include <algorithm>
#include <array>
#include <cctype>

namespace trntensor {
namespace {

constexpr std::string_view kFunction = "trntensor::parse_subscripts";
constexpr int kLetters = 128;  // letters are keyed by their ASCII code

// One term as written: its letters (ASCII codes) and where "..." sits among them (−1: none).
struct Term {
  std::vector<int> letters;
  std::vector<std::int64_t> columns;  // 1-based column of each letter, for messages
  int ellipsis_at = -1;
  std::int64_t column = 1;  // where the term starts
};

[[noreturn]] void parse_error(std::string_view text, std::int64_t column, const std::string& problem,
                              std::string_view hint) {
  throw trncore::ParseError(kFunction,
                            "in \"" + std::string(text) + "\" at column " + std::to_string(column) + ": " + problem,
                            hint, 1, column);
}

// Parses text[begin, end) as one term.
Term parse_term(std::string_view text, std::size_t begin, std::size_t end) {
  Term t;
  t.column = static_cast<std::int64_t>(begin) + 1;
  for (std::size_t p = begin; p < end; ++p) {
    const char c = text[p];
    const auto column = static_cast<std::int64_t>(p) + 1;
    if (c == ' ') continue;
    if (c == '.') {
      if (p + 2 >= end || text[p + 1] != '.' || text[p + 2] != '.')
        parse_error(text, column, "'.' that is not part of \"...\"", "write the ellipsis as three dots");
      if (t.ellipsis_at >= 0)
        parse_error(text, column, "a second \"...\" in one term", "use at most one ellipsis per term");
      t.ellipsis_at = static_cast<int>(t.letters.size());
      p += 2;
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= kLetters)
      parse_error(text, column, std::string("character '") + c + "' is not a subscript",
                  "use the letters a-z and A-Z, ',', '->' and '...'");
    t.letters.push_back(c);
    t.columns.push_back(column);
  }
  return t;
}

}  // namespace

std::string Subscripts::to_string() const {
  std::string s;
  const auto term = [&](const std::vector<int>& labels) {
    for (int l : labels) s += names[static_cast<std::size_t>(l)];
  };
  for (std::size_t o = 0; o < inputs.size(); ++o) {
    if (o) s += ',';
    term(inputs[o]);
  }
  s += "->";
  term(output);
  return s;
}

Subscripts parse_subscripts(std::string_view text, std::span<const Shape> shapes) {
  // Split into the input part and the optional output part.
  const std::size_t arrow = text.find("->");
  if (arrow != std::string_view::npos && text.find("->", arrow + 2) != std::string_view::npos)
    parse_error(text, static_cast<std::int64_t>(text.find("->", arrow + 2)) + 1, "a second \"->\"",
                "write one output term after a single \"->\"");
  const std::size_t lhs_end = arrow == std::string_view::npos ? text.size() : arrow;
  for (std::size_t p = 0; p < text.size(); ++p)
    if ((text[p] == '-' && p != arrow) || (text[p] == '>' && (arrow == std::string_view::npos || p != arrow + 1)))
      parse_error(text, static_cast<std::int64_t>(p) + 1, std::string("stray '") + text[p] + "'",
                  "write the output marker as \"->\"");
  for (std::size_t p = lhs_end; p < text.size(); ++p)
    if (text[p] == ',')
      parse_error(text, static_cast<std::int64_t>(p) + 1, "',' in the output term", "the output is a single term");

  std::vector<Term> terms;
  for (std::size_t begin = 0;;) {
    const std::size_t comma = text.substr(0, lhs_end).find(',', begin);
    const std::size_t end = comma == std::string_view::npos ? lhs_end : comma;
    terms.push_back(parse_term(text, begin, end));
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  if (terms.size() != shapes.size())
    parse_error(text, static_cast<std::int64_t>(lhs_end) + 1,
                std::to_string(terms.size()) + " input terms for " + std::to_string(shapes.size()) + " operands",
                "write one comma-separated term per operand");

  // Ellipsis ranks, right-aligned: operand o's broadcast axes are the last ell[o] of the max rank.
  std::vector<int> ell(terms.size(), 0);
  int max_ell = 0;
  for (std::size_t o = 0; o < terms.size(); ++o) {
    const auto rank = static_cast<std::int64_t>(shapes[o].size());
    const auto named = static_cast<std::int64_t>(terms[o].letters.size());
    if (rank < named || (terms[o].ellipsis_at < 0 && rank != named))
      throw trncore::DimensionMismatch(kFunction,
                                       "term " + std::to_string(o) + " of \"" + std::string(text) + "\" names " +
                                           std::to_string(named) + " axes but operand " + std::to_string(o) +
                                           " has shape " + detail::shape_string(shapes[o]),
                                       "give one letter per axis, or use \"...\" for the axes not named");
    ell[o] = static_cast<int>(rank - named);
    max_ell = std::max(max_ell, ell[o]);
  }

  Subscripts s;
  std::array<int, kLetters> letter_label{};
  letter_label.fill(-1);
  std::array<int, kLetters> letter_count{};
  for (int k = 0; k < max_ell; ++k) {
    s.names.push_back("..." + std::to_string(k));
    s.extents.push_back(1);
  }
  const auto label_of = [&](int letter) {
    if (letter_label[static_cast<std::size_t>(letter)] < 0) {
      letter_label[static_cast<std::size_t>(letter)] = static_cast<int>(s.names.size());
      s.names.emplace_back(1, static_cast<char>(letter));
      s.extents.push_back(1);
    }
    return letter_label[static_cast<std::size_t>(letter)];
  };
  // Pass 1 sets extents from non-1 axes; repeated letters within one term must agree exactly.
  std::vector<bool> sized(s.extents.size(), false);
  for (std::size_t o = 0; o < terms.size(); ++o) {
    const Term& t = terms[o];
    std::vector<int> labels;
    for (int p = 0, axis = 0; p <= static_cast<int>(t.letters.size()); ++p) {
      if (p == t.ellipsis_at)
        for (int k = 0; k < ell[o]; ++k, ++axis) labels.push_back(max_ell - ell[o] + k);
      if (p < static_cast<int>(t.letters.size())) {
        ++letter_count[static_cast<std::size_t>(t.letters[static_cast<std::size_t>(p)])];
        labels.push_back(label_of(t.letters[static_cast<std::size_t>(p)]));
        ++axis;
      }
    }
    for (std::size_t a = 0; a < labels.size(); ++a) {
      const int l = labels[a];
      const std::int64_t e = shapes[o][a];
      for (std::size_t b = 0; b < a; ++b)
        if (labels[b] == l && shapes[o][b] != e)
          throw trncore::DimensionMismatch(
              kFunction,
              "label '" + s.names[static_cast<std::size_t>(l)] + "' is repeated in operand " + std::to_string(o) +
                  " on axes of extents " + std::to_string(shapes[o][b]) + " and " + std::to_string(e),
              "a repeated label takes a diagonal, so its axes must have equal extents");
      if (sized.size() < s.extents.size()) sized.resize(s.extents.size(), false);
      auto& ext = s.extents[static_cast<std::size_t>(l)];
      if (e == 1) continue;
      if (sized[static_cast<std::size_t>(l)] && ext != e)
        throw trncore::DimensionMismatch(kFunction,
                                         "label '" + s.names[static_cast<std::size_t>(l)] + "' has extent " +
                                             std::to_string(ext) + " in an earlier operand but " + std::to_string(e) +
                                             " in operand " + std::to_string(o) + " (shape " +
                                             detail::shape_string(shapes[o]) + ")",
                                         "make the extents equal, or 1 to broadcast");
      ext = e;
      sized[static_cast<std::size_t>(l)] = true;
    }
    s.inputs.push_back(std::move(labels));
  }

  if (arrow == std::string_view::npos) {
    for (int k = 0; k < max_ell; ++k) s.output.push_back(k);
    for (int c = 0; c < kLetters; ++c)
      if (letter_count[static_cast<std::size_t>(c)] == 1) s.output.push_back(letter_label[static_cast<std::size_t>(c)]);
    return s;
  }
  s.explicit_output = true;
  const Term out = parse_term(text, arrow + 2, text.size());
  std::array<bool, kLetters> used{};
  for (int p = 0; p <= static_cast<int>(out.letters.size()); ++p) {
    if (p == out.ellipsis_at)
      for (int k = 0; k < max_ell; ++k) s.output.push_back(k);
    if (p == static_cast<int>(out.letters.size())) break;
    const int c = out.letters[static_cast<std::size_t>(p)];
    const std::int64_t column = out.columns[static_cast<std::size_t>(p)];
    if (letter_label[static_cast<std::size_t>(c)] < 0)
      parse_error(text, column, std::string("output label '") + static_cast<char>(c) + "' appears in no input",
                  "name only labels of the inputs in the output");
    if (used[static_cast<std::size_t>(c)])
      parse_error(text, column, std::string("output label '") + static_cast<char>(c) + "' is repeated",
                  "name each output label once (numpy cannot write a diagonal either)");
    used[static_cast<std::size_t>(c)] = true;
    s.output.push_back(letter_label[static_cast<std::size_t>(c)]);
  }
  return s;
}

}  // namespace trntensor
