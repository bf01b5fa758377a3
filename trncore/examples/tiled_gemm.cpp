// A tiled GEMM written against the NeuronCore engine API: C (M×N) = A (M×K) · B (K×N) with bf16 inputs.
// For each 128-row block of C and each 512-column block: DMA the K-tiles of Aᵀ (stationary) and B
// (moving) into SBUF, matmul them into one PSUM tile with accumulation across K, and copy the PSUM result
// out through the VectorEngine with stochastic rounding to bf16. Checks the PSUM result against
// matmul_psum (the whole-matrix model) bit for bit and prints the engine statistics and cost estimate.
#include <trncore/format.hpp>
#include <trncore/philox.hpp>
#include <trncore/sim/matmul.hpp>
#include <trncore/sim/neuron_core.hpp>
#include <trncore/small_float.hpp>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <vector>

int main() {
  using namespace trncore::sim;
  const std::int64_t M = 256, N = 640, K = 300;
  NeuronCore core(Generation::trn2);

  // Inputs in HBM: Aᵀ (K×M, so K-tiles of it are stationary tiles) and B (K×N), bf16 values.
  const trncore::RandomBits bits{2026, 0};
  auto value = [&](std::uint64_t i) {
    return trncore::bf16::from_float(static_cast<float>(bits(i)) * 0x1p-31f - 1.0f).to_float();
  };
  HbmBuffer at{"A^T", DType::bf16, std::vector<float>(K * M), {}};
  HbmBuffer b{"B", DType::bf16, std::vector<float>(K * N), {}};
  for (std::int64_t i = 0; i < K * M; ++i)
    at.values[static_cast<std::size_t>(i)] = value(static_cast<std::uint64_t>(i));
  for (std::int64_t i = 0; i < K * N; ++i)
    b.values[static_cast<std::size_t>(i)] = value(static_cast<std::uint64_t>(K * M + i));
  HbmBuffer c{"C", DType::bf16, std::vector<float>(M * N), {}};
  std::vector<float> psum_result(static_cast<std::size_t>(M * N));

  WriteOptions sr;
  sr.rounding.mode = trncore::RoundingMode::stochastic;
  sr.seed = 7;
  for (std::int64_t m0 = 0; m0 < M; m0 += 128)
    for (std::int64_t n0 = 0; n0 < N; n0 += 512) {
      const std::int64_t mt = std::min<std::int64_t>(128, M - m0), nt = std::min<std::int64_t>(512, N - n0);
      Tile acc = core.psum("acc", mt, nt);
      for (std::int64_t k0 = 0; k0 < K; k0 += 128) {
        const std::int64_t kt = std::min<std::int64_t>(128, K - k0);
        Tile stationary = core.sbuf("a", kt, mt, DType::bf16), moving = core.sbuf("b", kt, nt, DType::bf16);
        core.dma_to_tile(stationary, at, k0 * M + m0, M);
        core.dma_to_tile(moving, b, k0 * N + n0, N);
        core.matmul(acc, stationary, moving, /*accumulate=*/k0 > 0);
      }
      for (std::int64_t i = 0; i < mt; ++i)
        for (std::int64_t j = 0; j < nt; ++j)
          psum_result[static_cast<std::size_t>((m0 + i) * N + n0 + j)] = acc.value(i, j);
      Tile out = core.sbuf("c", mt, nt, DType::bf16);
      sr.stream = static_cast<std::uint64_t>(m0 * N + n0);  // a distinct random stream per output block
      core.copy(out, acc, sr);
      core.dma_to_hbm(c, out, m0 * N + n0, N);
    }

  // The whole-matrix model of the same product: A (M×K) row-major from Aᵀ.
  std::vector<float> a(static_cast<std::size_t>(M * K)), want(static_cast<std::size_t>(M * N));
  for (std::int64_t k = 0; k < K; ++k)
    for (std::int64_t i = 0; i < M; ++i)
      a[static_cast<std::size_t>(i * K + k)] = at.values[static_cast<std::size_t>(k * M + i)];
  MatmulOptions o;
  o.product = core.product_model();
  matmul_psum(M, N, K, a.data(), K, b.values.data(), N, want.data(), N, o);
  std::int64_t mismatches = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    mismatches += std::bit_cast<std::uint32_t>(want[i]) != std::bit_cast<std::uint32_t>(psum_result[i]);

  // Stochastic rounding returns one of the two bf16 neighbours of each PSUM value (or the value itself).
  std::int64_t off_grid = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto& f = trncore::formats::bf16;
    const double x = psum_result[i];
    const double down = trncore::decode(f, trncore::encode(f, x, trncore::Rounding{trncore::RoundingMode::down}));
    const double up = trncore::decode(f, trncore::encode(f, x, trncore::Rounding{trncore::RoundingMode::up}));
    off_grid += c.values[i] != down && c.values[i] != up;
  }

  std::printf("tiled GEMM %lldx%lldx%lld, bf16 inputs, %s products, fp32 PSUM, SR(32) to bf16 on the way out\n",
              static_cast<long long>(M), static_cast<long long>(N), static_cast<long long>(K),
              std::string(to_string(core.product_model())).c_str());
  std::printf("PSUM results equal matmul_psum bit for bit: %s (%lld mismatches)\n", mismatches == 0 ? "yes" : "NO",
              static_cast<long long>(mismatches));
  std::printf("bf16 outputs that are not a neighbour of their PSUM value: %lld\n", static_cast<long long>(off_grid));
  std::printf("%s", core.report().to_string().c_str());
  return mismatches == 0 && off_grid == 0 ? 0 : 1;
}
