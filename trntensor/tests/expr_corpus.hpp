#pragma once
// The einsum test corpus: numpy's documented cases (written twice: the text under test, and an explicit
// letters-only form the oracle reads with a trivial splitter) and ≥ 200 random expressions generated as
// structures (operands 1–5, diagonals, broadcasting, ellipses, implicit and explicit outputs, 0/1 extents).

#include "naive_einsum.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace trntensor::test {

struct DocumentedCase {
  std::string text;   // what the library parses
  std::string plain;  // the same contraction with every axis a letter and an explicit output
  std::vector<Shape> shapes;
};

// Splits a letters-only "ab,bc->ac" (no ellipsis, explicit output) into an Expr.
inline Expr plain_expr(const std::string& plain, const std::vector<Shape>& shapes, const std::string& text) {
  Expr e;
  std::map<char, int> id;
  const auto arrow = plain.find("->");
  std::vector<int>* cur = nullptr;
  e.inputs.emplace_back();
  cur = &e.inputs.back();
  for (std::size_t p = 0; p < plain.size(); ++p) {
    const char c = plain[p];
    if (c == ',') {
      e.inputs.emplace_back();
      cur = &e.inputs.back();
      continue;
    }
    if (c == '-') {
      cur = &e.output;
      ++p;
      continue;
    }
    if (!id.count(c)) {
      id[c] = static_cast<int>(e.names.size());
      e.names.emplace_back(1, c);
      e.extents.push_back(1);
    }
    cur->push_back(id[c]);
    (void)arrow;
  }
  e.shapes = shapes;
  for (std::size_t o = 0; o < e.inputs.size(); ++o)
    for (std::size_t d = 0; d < e.inputs[o].size(); ++d)
      if (shapes[o][d] != 1) e.extents[static_cast<std::size_t>(e.inputs[o][d])] = shapes[o][d];  // 1 broadcasts
  e.text = text;
  return e;
}

inline std::vector<DocumentedCase> documented_cases() {
  return {
      {"ii->", "ii->", {{4, 4}}},                                // trace
      {"ii", "ii->", {{5, 5}}},                                  // implicit trace
      {"ii->i", "ii->i", {{3, 3}}},                              // diagonal
      {"ij->ji", "ij->ji", {{2, 3}}},                            // transpose
      {"ba", "ba->ab", {{2, 3}}},                                // implicit output is sorted: a transpose
      {"Ba", "Ba->Ba", {{2, 3}}},                                // ASCII order: upper case first
      {"ij->", "ij->", {{3, 4}}},                                // sum
      {"ij->j", "ij->j", {{3, 4}}},                              // column sums
      {"ij,jk->ki", "ij,jk->ki", {{2, 3}, {3, 4}}},              // transposed output
      {"ij,jk", "ij,jk->ik", {{2, 3}, {3, 5}}},                  // implicit matmul
      {"ij,jk->ik", "ij,jk->ik", {{128, 3}, {3, 129}}},          // tile edges
      {"bij,bkj->bik", "bij,bkj->bik", {{2, 3, 3}, {2, 3, 3}}},  // j == k extents (the upstream misplan)
      {"bij,bjk->bik", "bij,bjk->bik", {{3, 2, 5}, {3, 5, 4}}},
      {"i,i", "i,i->", {{7}, {7}}},                                    // inner product
      {"i,j", "i,j->ij", {{3}, {4}}},                                  // outer product
      {"i,i->i", "i,i->i", {{5}, {5}}},                                // Hadamard
      {",ij", ",ij->ij", {{}, {2, 3}}},                                // scalar times tensor
      {",", ",->", {{}, {}}},                                          // scalars
      {"...ii->...i", "Aii->Ai", {{2, 3, 3}}},                         // batched diagonal
      {"...ij,...jk->...ik", "Aij,Ajk->Aik", {{4, 2, 3}, {1, 3, 2}}},  // broadcast batch
      {"ij...,jk...->ik...", "ijA,jkA->ikA", {{2, 3, 4}, {3, 2, 4}}},
      {"...,...", "A,A->A", {{3}, {3}}},  // implicit: broadcast axes kept
      {"i...->", "iA->", {{3, 4}}},       // explicit output without "...": summed
      {"ij,jk,kl->il", "ij,jk,kl->il", {{3, 4}, {4, 5}, {5, 2}}},
      {"ij,jk,kl,lm->mi", "ij,jk,kl,lm->mi", {{2, 3}, {3, 4}, {4, 5}, {5, 6}}},  // 4 operands
      {"ea,fb,abcd,gc,hd->efgh", "ea,fb,abcd,gc,hd->efgh", {{2, 3}, {2, 3}, {3, 3, 3, 3}, {2, 3}, {2, 3}}},
      {"iij,jkk->ik", "iij,jkk->ik", {{3, 3, 2}, {2, 4, 4}}},  // diagonals inside a contraction
      {"ij,ij->", "ij,ij->", {{0, 3}, {0, 3}}},                // empty extent
      {"ij,jk->ik", "ij,jk->ik", {{2, 0}, {0, 3}}},            // empty contraction: zeros
  };
}

// A random expression (at most 200000 terms for the oracle's loop); `rng` drives everything, so the corpus is the same on every run.
inline Expr random_expr(std::mt19937_64& rng) {
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  static const std::string letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (;;) {
    Expr e;
    const int n_ops = 1 + (pick(4) == 0 ? pick(5) : pick(3));
    const int n_letters = 2 + pick(6);
    std::string pool = letters;
    std::shuffle(pool.begin(), pool.end(), rng);
    pool.resize(static_cast<std::size_t>(n_letters));
    const bool with_zero = pick(40) == 0;
    std::vector<std::int64_t> letter_ext(static_cast<std::size_t>(n_letters));
    for (auto& x : letter_ext) x = with_zero && pick(3) == 0 ? 0 : 1 + pick(7);
    if (pick(3) == 0) letter_ext[static_cast<std::size_t>(pick(n_letters))] = 20 + pick(50);  // GEMM-sized
    // Ellipsis: each operand takes r ≤ 2 broadcast axes, right-aligned.
    const bool ellipsis = pick(4) == 0;
    std::vector<int> ell_rank(static_cast<std::size_t>(n_ops), 0), ell_pos(static_cast<std::size_t>(n_ops), -1);
    std::vector<std::vector<int>> terms(static_cast<std::size_t>(n_ops));  // letter indices into pool
    for (int o = 0; o < n_ops; ++o) {
      const int len = pick(8) == 0 ? 0 : 1 + pick(4);
      for (int a = 0; a < len; ++a) terms[static_cast<std::size_t>(o)].push_back(pick(n_letters));
      if (ellipsis && pick(3) != 0) {
        ell_rank[static_cast<std::size_t>(o)] = pick(3);
        ell_pos[static_cast<std::size_t>(o)] = pick(len + 1);
      }
    }
    const int E = *std::max_element(ell_rank.begin(), ell_rank.end());
    std::vector<std::int64_t> ell_ext(static_cast<std::size_t>(E));
    for (auto& x : ell_ext) x = 2 + pick(2);
    // Labels: 0..E−1 broadcast axes, then the letters that occur.
    std::vector<int> letter_id(static_cast<std::size_t>(n_letters), -1);
    for (int k = 0; k < E; ++k) {
      e.names.push_back("");
      e.extents.push_back(ell_ext[static_cast<std::size_t>(k)]);
    }
    std::vector<int> count(static_cast<std::size_t>(n_letters), 0);
    for (int o = 0; o < n_ops; ++o) {
      std::vector<int> labels;
      std::string text;
      const auto& t = terms[static_cast<std::size_t>(o)];
      for (int p = 0; p <= static_cast<int>(t.size()); ++p) {
        if (p == ell_pos[static_cast<std::size_t>(o)]) {
          text += "...";
          for (int k = 0; k < ell_rank[static_cast<std::size_t>(o)]; ++k)
            labels.push_back(E - ell_rank[static_cast<std::size_t>(o)] + k);
        }
        if (p == static_cast<int>(t.size())) break;
        const int L = t[static_cast<std::size_t>(p)];
        ++count[static_cast<std::size_t>(L)];
        if (letter_id[static_cast<std::size_t>(L)] < 0) {
          letter_id[static_cast<std::size_t>(L)] = static_cast<int>(e.names.size());
          e.names.emplace_back(1, pool[static_cast<std::size_t>(L)]);
          e.extents.push_back(letter_ext[static_cast<std::size_t>(L)]);
        }
        labels.push_back(letter_id[static_cast<std::size_t>(L)]);
        text += pool[static_cast<std::size_t>(L)];
      }
      e.inputs.push_back(labels);
      e.text += (o ? "," : "") + text;
    }
    // Stored extents: sometimes 1 (broadcast) unless the label repeats in the operand; then make sure some
    // operand holds every label at its full extent.
    std::vector<bool> full(e.extents.size(), false);
    for (const auto& labels : e.inputs) {
      Shape s;
      for (int l : labels) {
        const bool repeated = std::count(labels.begin(), labels.end(), l) > 1;
        const bool bcast = !repeated && e.extents[static_cast<std::size_t>(l)] > 1 && pick(6) == 0;
        s.push_back(bcast ? 1 : e.extents[static_cast<std::size_t>(l)]);
        if (!bcast) full[static_cast<std::size_t>(l)] = true;
      }
      e.shapes.push_back(s);
    }
    for (std::size_t l = 0; l < full.size(); ++l)
      if (!full[l] && l >= static_cast<std::size_t>(E)) e.extents[l] = 1;
    for (int k = 0; k < E; ++k)
      if (!full[static_cast<std::size_t>(k)]) e.extents[static_cast<std::size_t>(k)] = 1;
    // Output.
    if (pick(3) == 0) {  // implicit: broadcast axes, then letters occurring once, ASCII order
      for (int k = 0; k < E; ++k) e.output.push_back(k);
      std::string once;
      for (int L = 0; L < n_letters; ++L)
        if (count[static_cast<std::size_t>(L)] == 1) once += pool[static_cast<std::size_t>(L)];
      std::sort(once.begin(), once.end());
      for (char c : once) e.output.push_back(letter_id[static_cast<std::size_t>(pool.find(c))]);
    } else {
      std::vector<int> used;
      for (int L = 0; L < n_letters; ++L)
        if (letter_id[static_cast<std::size_t>(L)] >= 0 && pick(2) == 0) used.push_back(L);
      std::shuffle(used.begin(), used.end(), rng);
      std::string out;
      const int at = E > 0 && pick(4) != 0 ? pick(static_cast<int>(used.size()) + 1) : -1;
      for (int p = 0; p <= static_cast<int>(used.size()); ++p) {
        if (p == at) {
          out += "...";
          for (int k = 0; k < E; ++k) e.output.push_back(k);
        }
        if (p == static_cast<int>(used.size())) break;
        out += pool[static_cast<std::size_t>(used[static_cast<std::size_t>(p)])];
        e.output.push_back(letter_id[static_cast<std::size_t>(used[static_cast<std::size_t>(p)])]);
      }
      e.text += "->" + out;
    }
    double work = 1;
    for (auto x : e.extents) work *= static_cast<double>(x);
    if (work <= 200000) return e;
  }
}

}  // namespace trntensor::test
