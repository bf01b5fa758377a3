"""stft/istft against the defining formula (NumPy) and scipy.signal.stft's conventions.

Convention (docs/trnfft.md "STFT and iSTFT", torch.stft's): X[t, f] = s * sum_k w[k] x_pad[t*hop + k]
exp(-2 pi i f k / n_fft), returned as (bins, frames) like torch.stft and upstream trnfft. scipy.signal.stft
with boundary='zeros', padded=False, nperseg=n_fft, noverlap=n_fft-hop pads n_fft//2 zeros on both sides,
as trnfft's center=True with pad_mode='constant' does, and scales by 1/sum(w) ('spectrum' scaling): so
trnfft.stft(...) == Zxx * sum(w). Tolerances: each frame is one host FFT of n_fft points (conftest.py), plus
one rounding of the window product.
"""
import numpy as np
import pytest
import scipy.signal as ss

import trncore
import trnfft
from conftest import assert_close, host_bound, rand


def window_of(name, n):
    k = np.arange(n)
    return {"hann": 0.5 - 0.5 * np.cos(2 * np.pi * k / n), "hamming": 0.54 - 0.46 * np.cos(2 * np.pi * k / n),
            "rectangular": np.ones(n)}[name]


def ref_stft(x, n_fft, hop, win, center=True, pad_mode="reflect", normalized=False, onesided=True):
    if center:
        x = np.pad(x, n_fft // 2, mode=pad_mode)
    w = np.zeros(n_fft)
    off = (n_fft - len(win)) // 2
    w[off:off + len(win)] = win
    frames = 1 + (len(x) - n_fft) // hop
    X = np.fft.fft(np.stack([x[t * hop:t * hop + n_fft] * w for t in range(frames)]), axis=1)
    if onesided:
        X = X[:, :n_fft // 2 + 1]
    if normalized:
        X = X / np.sqrt(n_fft)
    return X.T


@pytest.mark.parametrize("n_fft", [16, 127, 128])
@pytest.mark.parametrize("center,pad_mode", [(True, "reflect"), (True, "constant"), (False, "reflect")])
@pytest.mark.parametrize("onesided", [True, False])
def test_stft_formula(n_fft, center, pad_mode, onesided):
    x = rand(1000, np.float64, seed=n_fft)
    hop = n_fft // 4
    X = trnfft.stft(x, n_fft, center=center, pad_mode=pad_mode, onesided=onesided)
    want = ref_stft(x, n_fft, hop, window_of("hann", n_fft), center, pad_mode, onesided=onesided)
    assert X.shape == want.shape
    assert_close(X, want, n_fft, np.float64, factor=3.0)


def test_stft_windows_and_options():
    x = rand(500, np.float64, seed=1)
    for name in ("hann", "hamming", "rectangular"):
        X = trnfft.stft(x, 64, hop_length=10, win_length=50, window=name, normalized=True)
        assert_close(X, ref_stft(x, 64, 10, window_of(name, 50), normalized=True), 64, np.float64, factor=3.0)
    user = np.sqrt(window_of("hann", 40))
    X = trnfft.stft(x, 64, 16, 40, user)
    assert_close(X, ref_stft(x, 64, 16, user), 64, np.float64, factor=3.0)
    # window=None is upstream's periodic hann
    assert np.array_equal(trnfft.stft(x, 64), trnfft.stft(x, 64, window="hann"))


def test_stft_matches_scipy_signal():
    x = rand(777, np.float64, seed=2)
    for n_fft, hop in ((64, 16), (128, 32), (31, 7)):
        w = ss.get_window("hann", n_fft)  # periodic (fftbins=True), as trnfft's
        _, _, Z = ss.stft(x, window=w, nperseg=n_fft, noverlap=n_fft - hop, boundary="zeros", padded=False)
        X = trnfft.stft(x, n_fft, hop, pad_mode="constant")
        assert_close(X, Z * w.sum(), n_fft, np.float64, factor=3.0)


def test_stft_batch_layout_and_dtype():
    x = rand((2, 3, 400), np.float32, seed=3)
    X = trnfft.stft(x, 32, 8)
    assert X.dtype == np.complex64 and X.shape == (2, 3, 17, 1 + 400 // 8)
    for i in range(2):
        for j in range(3):
            assert np.array_equal(X[i, j], trnfft.stft(x[i, j], 32, 8))
    single = trnfft.stft(x[0, 0], 32, 8)
    assert single.swapaxes(-1, -2).flags.c_contiguous  # a view of the C++ frames x bins result
    assert_close(single, ref_stft(x[0, 0].astype(np.float64), 32, 8, window_of("hann", 32)), 32, np.float32,
                 factor=3.0)


@pytest.mark.parametrize("n_fft,hop", [(64, 16), (128, 32), (100, 25), (64, 32)])
@pytest.mark.parametrize("onesided", [True, False])
def test_istft_roundtrip(n_fft, hop, onesided):
    x = rand(2000, np.float64, seed=n_fft + hop)
    X = trnfft.stft(x, n_fft, hop, onesided=onesided)
    y = trnfft.istft(X, n_fft, hop, onesided=onesided, length=len(x))
    # Two FFTs (stft and istft) within host_bound(n_fft) each; the overlap-add divides a sum of n_fft/hop
    # windowed frames by the window-square envelope (>= 1 for hann at hop <= n_fft/2), so 4x per FFT bounds it.
    assert_close(y, x, n_fft, np.float64, factor=8.0 * n_fft / hop)
    assert abs(np.linalg.norm(y - x) / np.linalg.norm(x)) < 1e-13  # docs/trnfft.md: 1e-14-level in double


def test_istft_of_scipy_spectrum_and_batch():
    x = rand(513, np.float64, seed=4)
    w = ss.get_window("hann", 64)
    _, _, Z = ss.stft(x, window=w, nperseg=64, noverlap=48, boundary="zeros", padded=False)
    y = trnfft.istft(Z * w.sum(), 64, 16, length=513)
    assert_close(y, x, 64, np.float64, factor=32.0)
    xb = rand((3, 300), np.float32, seed=5)
    Xb = trnfft.stft(xb, 32, 8)
    yb = trnfft.istft(Xb, 32, 8, length=300)
    assert yb.dtype == np.float32 and yb.shape == (3, 300)
    assert_close(yb, xb, 32, np.float32, factor=32.0)
    # an F-ordered / strided spectrum works the same
    assert np.array_equal(trnfft.istft(np.asfortranarray(Xb[1]), 32, 8, length=300), yb[1])


def test_stft_sim_backend():
    x = rand(256, np.float32, seed=6)
    X = trnfft.stft(x, 32, 8, backend="sim", mode="compensated")
    want = ref_stft(x.astype(np.float64), 32, 8, window_of("hann", 32))
    b = trnfft.Plan((32,), np.float32, kind="r2c", backend="sim", mode="compensated").accuracy().a_priori_bound
    # the plan's certified per-frame bound, plus float32 rounding of the padded, windowed frame
    assert np.linalg.norm(X - want) <= (b + 4 * 2.0**-24) * np.linalg.norm(want)


def test_stft_errors():
    x = rand(100, np.float64)
    with pytest.raises(trncore.InvalidArgument, match="stft"):
        trnfft.stft(x, 0)
    with pytest.raises(trncore.InvalidArgument):
        trnfft.stft(x, 16, hop_length=0)
    with pytest.raises(trncore.InvalidArgument):
        trnfft.stft(x, 16, win_length=17)
    with pytest.raises(trncore.InvalidArgument, match="window"):
        trnfft.stft(x, 16, window="kaiser")
    with pytest.raises(trncore.InvalidArgument, match="pad_mode"):
        trnfft.stft(x, 16, pad_mode="edge")
    with pytest.raises(trncore.DimensionMismatch):
        trnfft.stft(x, 16, win_length=8, window=np.ones(5))
    with pytest.raises(trncore.InvalidArgument, match="complex"):
        trnfft.stft(x + 1j, 16)
    with pytest.raises(trncore.InvalidArgument):
        trnfft.stft(np.zeros(0), 16)
    with pytest.raises(trncore.InvalidArgument):
        trnfft.stft(x[:8], 16)  # reflect padding longer than the signal
    with pytest.raises(trncore.DimensionMismatch):
        trnfft.stft(np.float64(1.0), 16)
    with pytest.raises(trncore.NotSupported):
        trnfft.stft(x, 16, report=True)
    X = trnfft.stft(x, 16)
    with pytest.raises(trncore.DimensionMismatch, match="istft"):
        trnfft.istft(X[:5], 16)
    with pytest.raises(trncore.DimensionMismatch):
        trnfft.istft(X[0], 16)
    with pytest.raises(trncore.InvalidArgument):
        trnfft.istft(X, 16, length=-1)
    with pytest.raises(trncore.InvalidArgument):
        trnfft.istft(trnfft.stft(x, 16, 16, window="hann", center=False), 16, 16)  # NOLA violated at the edges
    with pytest.raises(TypeError, match="hop"):
        trnfft.stft(x, 16, hop=4)  # torch's name is hop_length
