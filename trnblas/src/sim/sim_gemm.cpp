// The sim backend's GEMM: gathers op(A) and op(B), picks the TensorEngine method (mode_choice), runs it
// (sim_product), applies alpha/beta in the output type's precision (the VectorEngine's fp32 for float),
// optionally rounds the stored result stochastically, and reports what ran and the bound it certifies.
#include "sim/sim_gemm.hpp"

#include "sim/mode_choice.hpp"
#include "sim/operand.hpp"
#include "sim/row_blocks.hpp"
#include "sim/sim_product.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trncore/philox.hpp>
#include <trncore/sim/spec.hpp>
#include <trncore/small_float.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

namespace trnblas::detail {

namespace {

// fl(fl(α·fl(p)) + fl(β·c)) in T (fl(p): p arrives in double): at most three roundings on each path, so
// |out − (αP + βc)| ≤ |α||p − P| + ((1+u)³ − 1)(|α||p| + |β||c|); with |p − P| ≤ ε|A||B| the output
// bound is ε + (1 + ε)((1+u)³ − 1) relative to |α||A||B| + |β||c|.
double output_term(double u) { return u * (3 + u * (3 + u)); }  // (1+u)³ − 1 without cancellation

template <class T>
double output_bound(double eps) {
  return eps + (1 + eps) * output_term(std::numeric_limits<T>::epsilon() / 2);
}

using trncore::detail::sci;

// What the output stage saw that voids the relative rounding model of output_bound, counted per row block.
struct OutputFlags {
  std::int64_t underflows = 0;     // a nonzero value rounded to a subnormal or zero on the output path
  std::int64_t nonfinite_c = 0;    // inf/NaN in C read with beta != 0
  std::int64_t nonfinite_out = 0;  // inf/NaN written to C
};

// Whether rounding a nonzero finite exact value `exact` to `rounded` in T left T's normal range (a subnormal
// or zero result): the rounding error is then absolute, not relative. inf/NaN are explained elsewhere.
template <class T, class E>
bool left_normal_range(E exact, T rounded) {
  return exact != E(0) && std::isfinite(exact) && !(std::abs(rounded) >= std::numeric_limits<T>::min());
}

// SR to bf16 of the stored value: the result is one of the two neighbours, so the error is below one
// bf16 ulp, 2^-7 relative.
constexpr double kSrStore = 0x1p-7;

}  // namespace

template <class T>
void sim_gemm(trncore::Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
              const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc,
              const trncore::Options& options, trncore::AccuracyReport& report) {
  constexpr double u_out = std::numeric_limits<T>::epsilon() / 2;
  const bool stochastic = options.math_mode == trncore::MathMode::sr;
  ChoiceInputs in;
  in.mode = options.math_mode;
  in.product = options.product.value_or(trncore::sim::default_product_model(options.generation));
  in.generation = options.generation;
  in.k = k;
  in.inputs_are_float = std::is_same_v<T, float>;
  in.threads = options.threads;
  if (options.target_forward_error) {
    // The TensorEngine part may use what the output stage leaves of the target.
    const double t = *options.target_forward_error;
    in.target = (t - output_term(u_out) - (stochastic ? kSrStore : 0.0)) / (1 + output_term(u_out)) /
                (stochastic ? 1 + kSrStore : 1.0);
  }

  // BLAS: with k = 0 or alpha = 0, C = beta·C and A, B are not read (so inf/NaN there cannot leak in).
  const bool no_product = k == 0 || alpha == T(0);
  const Buffer<T> opa = no_product ? Buffer<T>{} : gather_op(layout, transa, m, k, a, lda, options.threads);
  const Buffer<T> opb = no_product ? Buffer<T>{} : gather_op(layout, transb, k, n, b, ldb, options.threads);

  const auto total_bound = [&](double eps) {
    const double b = output_bound<T>(eps);
    return stochastic ? b + kSrStore * (1 + b) : b;
  };
  std::vector<std::string> tried;
  SimProduct product;
  for (const ProductPlan& plan : candidate_plans(in)) {
    if (no_product) {  // α·P = 0 exactly: C = beta·C, as BLAS
      product.exact.assign(static_cast<std::size_t>(m * n), 0.0);
      product.method =
          k == 0 ? "k = 0: no TensorEngine work, C = beta*C" : "alpha = 0: no TensorEngine work, C = beta*C";
      break;
    }
    product = sim_product(m, n, k, std::span<const T>(opa), std::span<const T>(opb), plan);
    if (!in.target || (product.certified && total_bound(product.bound) <= *options.target_forward_error)) break;
    tried.push_back(product.method + ": bound " + sci(product.bound) +
                    (product.certified ? "" : " (not certified: " + product.caveat + ")"));
  }

  // Output stage on the VectorEngine: C = α·P + β·C in T; β = 0 does not read C (BLAS semantics). Every
  // rounding on this path is relative (output_bound) unless its result leaves T's normal range: such
  // values are counted, and void the certificate.
  const bool row_major = layout == trncore::Layout::row_major;
  const trncore::RandomBits bits{options.seed, options.stream};
  const std::int64_t blocks = row_block_count(m, n, options.threads);
  std::vector<OutputFlags> flags(static_cast<std::size_t>(blocks));
  for_row_blocks(m, blocks, options.threads, [&](std::int64_t block, std::int64_t begin, std::int64_t end) {
    OutputFlags& f = flags[static_cast<std::size_t>(block)];
    std::vector<double> p(static_cast<std::size_t>(n));
    for (std::int64_t i = begin; i < end; ++i) {
      f.underflows += product.row(i, n, p.data());
      for (std::int64_t j = 0; j < n; ++j) {
        T& out = row_major ? c[i * ldc + j] : c[i + j * ldc];
        const double pj = p[static_cast<std::size_t>(j)];
        const T pt = static_cast<T>(pj);
        const T scaled = alpha * pt;
        // (α·pt: a nonzero product of two nonzero finite values; its result 0 or subnormal means it underflowed.)
        f.underflows += left_normal_range(pj, pt) || (alpha != T(0) && left_normal_range(pt, scaled));
        T value = scaled;
        if (beta != T(0)) {
          f.nonfinite_c += !std::isfinite(out);
          const T old = beta * out;
          f.underflows += left_normal_range(out, old);
          value = scaled + old;
        }
        if (stochastic) {
          // Element (i, j)'s random word is keyed by its row-major index: the same for any layout or thread count.
          const auto word = bits(static_cast<std::uint64_t>(i * n + j));
          const T stored = static_cast<T>(
              trncore::bf16::from_double(static_cast<double>(value), trncore::RoundingMode::stochastic, word)
                  .to_double());
          f.underflows += left_normal_range(value, static_cast<float>(stored));
          value = stored;
        }
        f.nonfinite_out += !std::isfinite(value);
        out = value;
      }
    }
  });
  OutputFlags total;
  for (const OutputFlags& f : flags) {
    total.underflows += f.underflows;
    total.nonfinite_c += f.nonfinite_c;
    total.nonfinite_out += f.nonfinite_out;
  }
  {  // the output stage: one VectorEngine pass over C
    const auto& spec = trncore::sim::spec(options.generation);
    auto& v = product.stats[trncore::sim::Engine::vector];
    v.instructions += 1;
    v.elements += m * n;
    v.cycles +=
        static_cast<double>(m * n) / trncore::sim::vector_elements_per_cycle(spec) + spec.instruction_overhead_cycles;
  }

  trncore::AccuracyReport r;
  r.target = options.target_forward_error;
  for (const std::string& t : tried) r.trajectory.push_back({"tried " + t});
  r.trajectory.push_back({product.method + (stochastic ? ", result stored to bf16 with stochastic rounding" : "")});
  r.references = {
      "componentwise bound relative to |alpha||A||B| + |beta||C| (Higham, Accuracy and Stability of "
      "Numerical Algorithms, 2nd ed., SIAM 2002, sec. 3.5)"};
  if (product.method.rfind("ozaki", 0) == 0)
    r.references.push_back(
        "error-free splitting of matrix products: Ozaki, Ogita, Oishi, Rump, Numer. Algorithms "
        "59 (2012) 95-118; slice width chosen so every product and PSUM sum is exact");
  r.cost = trncore::sim::estimate_cost(product.stats, options.generation);
  r.certify(total_bound(product.bound));
  const std::string out_format = std::is_same_v<T, float> ? "fp32" : "fp64";
  std::string reason = product.certified ? std::string() : product.caveat;
  const auto add = [&](const std::string& what) { reason += (reason.empty() ? "" : "; ") + what; };
  if (total.nonfinite_c > 0) add(std::to_string(total.nonfinite_c) + " entries of C are inf/NaN and read (beta != 0)");
  if (total.underflows > 0)
    add(std::to_string(total.underflows) + " value(s) of alpha*P + beta*C fall below " + out_format +
        (stochastic ? " (or the stored bf16)" : "") +
        "'s normal range on the output path, where the relative rounding bound does not hold");
  if (total.nonfinite_out > 0 && reason.empty())
    add(std::to_string(total.nonfinite_out) + " result entries overflow " + out_format +
        "'s range (inf/NaN from finite inputs)");
  if (!reason.empty()) {
    r.trajectory.push_back({"bound not certified: " + reason});
    r.uncertify(reason);
  }
  report = std::move(r);
}

template void sim_gemm<float>(trncore::Layout, Op, Op, std::int64_t, std::int64_t, std::int64_t, float, const float*,
                              std::int64_t, const float*, std::int64_t, float, float*, std::int64_t,
                              const trncore::Options&, trncore::AccuracyReport&);
template void sim_gemm<double>(trncore::Layout, Op, Op, std::int64_t, std::int64_t, std::int64_t, double, const double*,
                               std::int64_t, const double*, std::int64_t, double, double*, std::int64_t,
                               const trncore::Options&, trncore::AccuracyReport&);

}  // namespace trnblas::detail
