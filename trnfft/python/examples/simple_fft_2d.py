"""simpleCUFFT, 2-D r2c/c2r form, with trnfft plans: FFT-based 2-D convolution of a real signal with a filter.

NVIDIA's simpleCUFFT sample convolves a signal with a filter kernel by padding both to a common size,
transforming them (cufftExecR2C / C2C), multiplying pointwise, transforming back and scaling by 1/N, then
checks the result against a direct convolution on the host. This port does the 2-D real-to-complex form on
trnfft.Plan objects (one r2c plan executed twice — signal and filter —, one c2r plan) and checks it against
the direct circular convolution computed with NumPy (sum over the kernel of shifted copies of the signal),
which scipy.signal.convolve2d(mode='same', boundary='wrap') also computes.

Bound (docs/trnfft.md "Accuracy": each host transform within delta = (10*log2 N + 1)*u relative, normwise;
r2c relative to the half spectrum; |H| <= ||h||_1 and ||S||_2 <= sqrt(N)*||s||_2; c2r maps an input error e to
at most sqrt(2N)*||e||_2; the product adds sqrt(2)*gamma_2 <= 3u; the 1/N scaling one rounding):
    ||y^ - y||_2 <= 1.01 * (sqrt(2)*||s||_2 * (delta*(2*||h||_1 + sqrt(N)*||h||_2) + 3u*||h||_1) + u*||y||_2)
The example exits with status 1 if the maximum error exceeds it.
"""
import sys

import numpy as np

import trnfft

NX, NY = 128, 96          # signal size (the sample's SIGNAL_SIZE, in 2-D)
KX, KY = 11, 7            # filter kernel size (the sample's FILTER_KERNEL_SIZE = 11)


def pad_filter(kernel, shape):
    """The kernel in an array of the signal's shape, its centre at the origin (the sample's PadData)."""
    h = np.zeros(shape)
    cx, cy = kernel.shape[0] // 2, kernel.shape[1] // 2
    for a in range(kernel.shape[0]):
        for b in range(kernel.shape[1]):
            h[(a - cx) % shape[0], (b - cy) % shape[1]] = kernel[a, b]
    return h


def direct_convolution(signal, kernel):
    """y[i, j] = sum_{a,b} k[a, b] * s[(i - a + cx) mod NX, (j - b + cy) mod NY], in double precision."""
    cx, cy = kernel.shape[0] // 2, kernel.shape[1] // 2
    y = np.zeros_like(signal)
    for a in range(kernel.shape[0]):
        for b in range(kernel.shape[1]):
            y += kernel[a, b] * np.roll(signal, (a - cx, b - cy), axis=(0, 1))
    return y


def main():
    rng = np.random.default_rng(2026)
    signal = rng.random((NX, NY))                 # the sample fills with rand() / RAND_MAX
    kernel = rng.random((KX, KY))
    h = pad_filter(kernel, signal.shape)

    forward = trnfft.Plan(signal.shape, np.float64, kind="r2c")   # cufftPlan2d(..., CUFFT_R2C)
    inverse = trnfft.Plan(signal.shape, np.float64, kind="c2r")   # cufftPlan2d(..., CUFFT_C2R)
    S = forward.execute(signal)                  # the same plan, executed on two arrays
    H = forward.execute(h)
    P = S * H                                    # the sample's ComplexPointwiseMulAndScale ...
    n = NX * NY
    y = inverse.execute(P) / n                   # ... whose 1/N scaling is applied here

    ref = direct_convolution(signal, kernel)
    err = np.abs(y - ref).max()
    u = 2.0**-53
    delta = (10 * np.log2(n) + 1) * u
    s2, h1, h2 = np.linalg.norm(signal), np.abs(kernel).sum(), np.linalg.norm(kernel)
    bound = 1.01 * (np.sqrt(2) * s2 * (delta * (2 * h1 + np.sqrt(n) * h2) + 3 * u * h1) + u * np.linalg.norm(ref))

    print(f"simpleCUFFT 2-D r2c/c2r convolution: signal {NX}x{NY}, filter {KX}x{KY}, trnfft {trnfft.__version__}")
    print(f"  plans: {forward.description}")
    print(f"         {inverse.description}")
    print(f"  max |FFT convolution - direct convolution| = {err:.3e}   (bound {bound:.3e}, |y| max {np.abs(ref).max():.3f})")
    try:
        import scipy.signal

        sc = scipy.signal.convolve2d(signal, kernel, mode="same", boundary="wrap")
        print(f"  scipy.signal.convolve2d(wrap) vs the direct sum: {np.abs(sc - ref).max():.3e}")
    except ImportError:
        pass
    ok = err <= bound
    print("  PASSED" if ok else "  FAILED: error above the bound")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
