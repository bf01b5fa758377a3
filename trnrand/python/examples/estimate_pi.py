"""Estimate pi by Monte Carlo: a Python port of NVIDIA's MC_EstimatePi samples (cuRAND, CUDA samples 4_CUDA_Libraries).

Points uniform in the unit square fall inside the quarter disc x^2 + y^2 <= 1 with probability p = pi/4, so
4 * hits / N estimates pi with standard deviation sigma = 4 sqrt(p (1 - p) / N) (binomial).

- Pseudo-random (MC_EstimatePiP): 10 independent Philox streams (subsequences 0..9 of one seed, as the
  sample gives each CUDA thread block its own curand_init subsequence), 10**6 points each, 10**7 in all.
- Quasi-random (MC_EstimatePiQ): 2**20 points of the 2-D Sobol sequence with Owen scrambling. Its first two
  dimensions are a (0, m, 2)-net in base 2, for which Owen (1997) bounds the variance of the estimate by
  (b / (b - 1))**(s - 1) = 2 times the Monte Carlo variance of the same N, so sigma_Q <= sqrt(2) sigma.

Exits with status 1 if either error exceeds its 4-sigma bound (probability < 1e-4 for a correct generator;
the seeds are fixed, so the run is deterministic).
"""
import math
import sys
import time

import numpy as np

import trnrand

SEED = 2026
STREAMS = 10
POINTS_PER_STREAM = 1_000_000


def hits_in_quarter_disc(xy):
    return int(np.count_nonzero(xy[:, 0] * xy[:, 0] + xy[:, 1] * xy[:, 1] <= 1.0))


def main():
    failed = False
    t0 = time.perf_counter()
    hits = 0
    for k in range(STREAMS):
        g = trnrand.Generator(SEED, subsequence=k)
        xy = trnrand.uniform(POINTS_PER_STREAM, 2, dtype=np.float64, generator=g)
        h = hits_in_quarter_disc(xy)
        hits += h
        print(f"  stream {k}: pi ~ {4.0 * h / POINTS_PER_STREAM:.6f}")
    n = STREAMS * POINTS_PER_STREAM
    estimate = 4.0 * hits / n
    p = math.pi / 4
    sigma = 4.0 * math.sqrt(p * (1 - p) / n)
    error = abs(estimate - math.pi)
    print(f"pseudo-random (Philox4x32-10, {STREAMS} streams, {n} points, {time.perf_counter() - t0:.2f} s): "
          f"pi ~ {estimate:.7f}, error {error:.2e}, 4-sigma bound {4 * sigma:.2e}")
    if error > 4 * sigma:
        print("FAILED: pseudo-random error exceeds the 4-sigma binomial bound")
        failed = True

    t0 = time.perf_counter()
    m = 1 << 20
    xy = trnrand.sobol(m, 2, seed=SEED, scramble="owen", dtype=np.float64)
    estimate_q = 4.0 * hits_in_quarter_disc(xy) / m
    sigma_q = math.sqrt(2.0) * 4.0 * math.sqrt(p * (1 - p) / m)
    error_q = abs(estimate_q - math.pi)
    print(f"quasi-random (Owen-scrambled Sobol, {m} points, {time.perf_counter() - t0:.2f} s): "
          f"pi ~ {estimate_q:.7f}, error {error_q:.2e}, 4-sigma bound {4 * sigma_q:.2e}")
    if error_q > 4 * sigma_q:
        print("FAILED: quasi-random error exceeds its 4-sigma bound")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
