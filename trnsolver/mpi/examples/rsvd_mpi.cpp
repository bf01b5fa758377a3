// Distributed randomized SVD of a Gaussian kernel matrix that is never stored (docs/distributed.md).
//
//   mpirun -np 4 ./trnsolver_mpi_rsvd_example [n] [k]
//
// n points uniform in the unit cube (drawn from one trnrand stream, each rank keeping its block-cyclic rows),
// K(i, j) = exp(−‖x_i − x_j‖²/(2h²)) with h = 0.5, rank-k rsvd with a bf16 range finder refined to fp32.
// Prints n, k, the achieved error and the time; the output is the same bits for every rank count. Exits 1
// when the achieved residual max_i ‖K·v_i − σ_i·u_i‖/σ₁ exceeds 1e-4 (fp32 accuracy: the rounding of the
// final fp32 products is ~√n·u₃₂ ≈ 1e-5 at n = 10⁴, the range-finder error far below that here).
#include <trnsolver/mpi/randomized.hpp>

#include <trncore/mpi.hpp>
#include <trnrand/stream.hpp>

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  namespace tm = trncore::mpi;
  tm::Environment env(argc, argv);
  const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 8000;
  const std::int64_t k = argc > 2 ? std::atoll(argv[2]) : 50;
  const std::int64_t d = 3;
  const double bound = 1e-4;
  int status = 0;
  try {
    const tm::Communicator world = tm::Communicator::world();
    const tm::ProcessGrid grid(world, world.size(), 1);
    // This rank's points: coordinate t of point i is word i + t·n of the stream (uniform floats).
    const tm::Descriptor desc = tm::make_descriptor(grid, n, d, 64, d);
    const std::int64_t rows = tm::local_rows(desc, grid);
    std::vector<float> local(static_cast<std::size_t>(desc.lld * d));
    const trnrand::Stream stream = trnrand::make_stream(2026);
    for (std::int64_t t = 0; t < d; ++t)
      for (std::int64_t il = 0; il < rows; ++il) {
        const std::int64_t i = tm::local_to_global_row(il, desc, grid);
        trnrand::fill_uniform(trnrand::skip_ahead(stream, static_cast<std::uint64_t>(i + t * n)),
                              std::span<float>(&local[static_cast<std::size_t>(il + t * desc.lld)], 1));
      }
    world.barrier();
    const auto start = std::chrono::steady_clock::now();
    const trnsolver::mpi::GaussianKernel<float> kernel(grid, tm::DistMatrix<const float>{desc, local.data()}, 0.5);
    trnsolver::mpi::RandomizedOptions options;  // bf16 range finder, q = 2, one fp32 refinement, 10 probes
    options.sketch.seed = 1;
    const auto r = trnsolver::mpi::rsvd<float>(grid, kernel, k, options);
    world.barrier();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (world.rank() == 0) {
      std::printf("distributed rsvd of a %lld x %lld Gaussian kernel matrix (never stored) on %d ranks\n",
                  static_cast<long long>(n), static_cast<long long>(n), world.size());
      std::printf("n = %lld  k = %lld  l = %lld  work blocks = %lld  products (columns) = %lld\n",
                  static_cast<long long>(n), static_cast<long long>(k), static_cast<long long>(r.report.basis_columns),
                  static_cast<long long>(r.report.work_blocks), static_cast<long long>(r.report.matvecs));
      if (r.rank == k)
        std::printf("sigma_1 = %.6g  sigma_k = %.6g\n", static_cast<double>(r.s[0]),
                    static_cast<double>(r.s[static_cast<std::size_t>(k - 1)]));
      std::printf(
          "error: residual max_i |K v_i - s_i u_i| / s_1 = %.3e (bound %.0e), "
          "estimate |K - U S V^T|_2 / s_1 <= %.3e (P >= 1 - 1e-10), refinement moved the bf16 basis by %.3e\n",
          r.report.residual, bound, r.report.error_estimate, r.report.refinement_change);
      // FNV-1a over the bits of s and Vᵀ (both replicated): the same value for every rank count.
      std::uint64_t hash = 1469598103934665603ull;
      const auto mix = [&](const void* p, std::size_t bytes) {
        for (std::size_t i = 0; i < bytes; ++i)
          hash = (hash ^ static_cast<const unsigned char*>(p)[i]) * 1099511628211ull;
      };
      mix(r.s.data(), r.s.size() * sizeof(float));
      mix(r.vt.data.data(), r.vt.data.size() * sizeof(float));
      std::printf("fingerprint of the bits of s and V^T = %016llx (the same for every rank count)\n",
                  static_cast<unsigned long long>(hash));
      std::printf("time = %.3f s\n", seconds);
    }
    if (r.rank != k || !(r.report.residual <= bound)) status = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rsvd_mpi: %s\n", e.what());
    status = 1;
  }
  return status;
}
