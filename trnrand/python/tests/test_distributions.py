"""Distributions against scipy.stats: Kolmogorov-Smirnov for continuous laws, chi-square for discrete ones,
moments within CLT bounds; bitwise reproducibility (threads, slices, sim vs engine order); bad input.

Statistical tests use fixed seeds, so they are deterministic; the thresholds are the ones a correct sampler
would exceed with probability ALPHA = 1e-6 on a random seed:
- KS: D_n > sqrt(ln(2/ALPHA) / (2n)) (the Dvoretzky-Kiefer-Wolfowitz-Massart bound), 0.0085 for n = 1e5;
- chi-square with k cells: statistic > chi2.isf(ALPHA, k - 1), cells merged until every expected count >= 20;
- means: |mean - mu| > 6 sigma / sqrt(n) (CLT; P(|Z| > 6) = 2e-9).
"""
import math

import numpy as np
import pytest
from scipy import special, stats

import trncore
import trnrand
from trnrand import streams as st

ALPHA = 1e-6
N = 100_000


def ks_ok(x, cdf):
    x = np.asarray(x, dtype=np.float64)
    d = stats.kstest(x, cdf).statistic
    crit = math.sqrt(math.log(2 / ALPHA) / (2 * x.size))
    assert d <= crit, f"KS D = {d:.5f} > {crit:.5f}"


def chi2_ok(values, pmf_support, pmf):
    """values: integer samples; pmf_support: the integers with enough mass; pmf: their probabilities."""
    n = values.size
    counts = np.array([(values == k).sum() for k in pmf_support], dtype=np.float64)
    expected = n * np.asarray(pmf, dtype=np.float64)
    # The rest of the support as one cell.
    counts = np.append(counts, n - counts.sum())
    expected = np.append(expected, n - expected.sum())
    # Merge cells with expected < 20 into their neighbour.
    c, e = [], []
    acc_c = acc_e = 0.0
    for ci, ei in zip(counts, expected):
        acc_c += ci
        acc_e += ei
        if acc_e >= 20:
            c.append(acc_c)
            e.append(acc_e)
            acc_c = acc_e = 0.0
    if acc_e > 0:
        c[-1] += acc_c
        e[-1] += acc_e
    c, e = np.array(c), np.array(e)
    stat = ((c - e) ** 2 / e).sum()
    crit = stats.chi2.isf(ALPHA, len(c) - 1)
    assert stat <= crit, f"chi2 = {stat:.1f} > {crit:.1f} ({len(c)} cells)"


def mean_ok(x, mu, sigma):
    x = np.asarray(x, dtype=np.float64)
    assert abs(x.mean() - mu) <= 6 * sigma / math.sqrt(x.size), (x.mean(), mu)


def G(seed=2026):
    return trnrand.Generator(seed)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform(dtype):
    x = trnrand.uniform(N, low=-2.0, high=3.0, dtype=dtype, generator=G())
    assert x.dtype == dtype and x.min() >= -2 and x.max() <= 3
    ks_ok(x, stats.uniform(loc=-2, scale=5).cdf)
    mean_ok(x, 0.5, 5 / math.sqrt(12))
    u = trnrand.uniform(N, dtype=dtype, generator=G())
    assert u.min() >= 0 and u.max() < 1  # [0, 1) exactly: no affine map for the default bounds


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_and_standard_normal(dtype):
    x = trnrand.normal(N, mean=1.5, std=2.0, dtype=dtype, generator=G())
    assert x.dtype == dtype and x.shape == (N,)
    ks_ok(x, stats.norm(1.5, 2.0).cdf)
    mean_ok(x, 1.5, 2.0)
    # variance: Var(s^2) = 2 sigma^4 / (n - 1) for normal data
    assert abs(x.var() - 4.0) <= 6 * math.sqrt(2 * 16 / (N - 1))
    z = trnrand.standard_normal(300, 400, dtype=dtype, generator=G(3))
    assert z.shape == (300, 400)
    ks_ok(z.ravel(), stats.norm.cdf)
    # Tails are truncated by the uniform grid: |z| <= sqrt(2 * 24 ln 2) (float32), sqrt(2 * 53 ln 2) (float64).
    bound = math.sqrt(2 * (24 if dtype == np.float32 else 53) * math.log(2)) + 1e-6
    assert np.abs(z).max() <= bound


def test_exponential_lognormal_student():
    ks_ok(trnrand.exponential(N, rate=2.5, generator=G()), stats.expon(scale=1 / 2.5).cdf)
    x = trnrand.exponential(N, dtype=np.float64, generator=G(1))
    mean_ok(x, 1.0, 1.0)
    assert np.isfinite(x).all() and x.min() >= 0
    ks_ok(trnrand.lognormal(N, mean=0.3, std=0.7, dtype=np.float64, generator=G()),
          stats.lognorm(s=0.7, scale=math.exp(0.3)).cdf)
    ks_ok(trnrand.student_t(N, df=4.0, generator=G()), stats.t(4.0).cdf)


@pytest.mark.parametrize("shape,scale", [(0.5, 2.0), (3.0, 1.0), (40.0, 0.1)])
def test_gamma(shape, scale):
    x = trnrand.gamma(N, shape=shape, scale=scale, dtype=np.float64, generator=G())
    ks_ok(x, stats.gamma(shape, scale=scale).cdf)
    mean_ok(x, shape * scale, math.sqrt(shape) * scale)


def test_chi_squared_and_beta():
    x = trnrand.chi_squared(N, df=3.5, generator=G())
    ks_ok(x, stats.chi2(3.5).cdf)
    mean_ok(x, 3.5, math.sqrt(7.0))
    for a, b in [(0.7, 2.5), (2.0, 3.0)]:
        y = trnrand.beta(N, alpha=a, beta=b, dtype=np.float64, generator=G())
        assert y.min() >= 0 and y.max() <= 1
        ks_ok(y, stats.beta(a, b).cdf)


@pytest.mark.parametrize("mean,std,low,high", [(0, 1, -2, 2), (1.0, 2.0, -1.0, 0.5), (0, 1, 3.0, np.inf)])
def test_truncated_normal(mean, std, low, high):
    # Bounds in std units, as upstream.
    x = trnrand.truncated_normal(N, mean=mean, std=std, low=low, high=high, dtype=np.float64, generator=G())
    assert x.min() >= mean + low * std and x.max() <= mean + high * std
    ks_ok(x, stats.truncnorm(low, high, loc=mean, scale=std).cdf)


def test_bernoulli():
    x = trnrand.bernoulli(N, p=0.3, generator=G())
    assert x.dtype == np.float32 and set(np.unique(x)) <= {0.0, 1.0}
    mean_ok(x, 0.3, math.sqrt(0.3 * 0.7))
    assert trnrand.bernoulli(7, p=0.0).sum() == 0 and trnrand.bernoulli(7, p=1.0).sum() == 7
    assert trnrand.bernoulli(5, p=0.5, dtype=np.uint8).dtype == np.uint8


def test_randint():
    x = trnrand.randint(N, low=-3, high=4, generator=G())
    assert x.dtype == np.int64 and x.min() == -3 and x.max() == 3  # [low, high) half-open, as upstream
    chi2_ok(x, range(-3, 4), [1 / 7] * 7)
    assert trnrand.randint(10, low=0, high=2**62, generator=G()).max() < 2**62
    assert np.all(trnrand.randint(5, low=4, high=5) == 4)
    full = trnrand.randint(1000, low=-(2**63), high=2**63, generator=G())  # the whole int64 range
    assert (full < 0).sum() > 400 and (full > 0).sum() > 400


def test_randperm():
    for n in [0, 1, 2, 127, 1000]:
        p = trnrand.randperm(n, generator=G(n))
        assert p.dtype == np.int64 and np.array_equal(np.sort(p), np.arange(n))
    g = G()
    first = np.array([trnrand.randperm(5, generator=g)[0] for _ in range(4000)])
    chi2_ok(first, range(5), [0.2] * 5)


@pytest.mark.parametrize("lam", [0.0, 3.7, 25.0, 1e6])
def test_poisson(lam):
    x = trnrand.poisson(N, lam=lam, dtype=np.int64, generator=G())
    if lam == 0:
        assert np.all(x == 0)
        return
    mean_ok(x, lam, math.sqrt(lam))
    lo, hi = int(stats.poisson(lam).ppf(1e-7)), int(stats.poisson(lam).isf(1e-7))
    support = range(lo, hi + 1) if hi - lo < 400 else range(int(lam - 4 * lam**0.5), int(lam + 4 * lam**0.5))
    if hi - lo < 400:
        chi2_ok(x, support, stats.poisson(lam).pmf(np.array(support)))
    assert trnrand.poisson(3, lam=lam).dtype == np.float32  # upstream's default dtype


def test_binomial_geometric_categorical():
    x = trnrand.binomial(N, n=20, p=0.3, generator=G())
    chi2_ok(x, range(21), stats.binom(20, 0.3).pmf(np.arange(21)))
    y = trnrand.geometric(N, p=0.2, generator=G())
    assert y.min() >= 1
    chi2_ok(y, range(1, 40), stats.geom(0.2).pmf(np.arange(1, 40)))
    w = np.array([1.0, 0.0, 3.0, 6.0])
    c = trnrand.categorical(N, weights=w, generator=G())
    chi2_ok(c, range(4), w / w.sum())
    t = trnrand.AliasTable(w)
    out = np.empty(N, np.int64)
    s = trnrand.Stream(4)
    assert t.size == 4 and t.sample(s, out) == s.skip_ahead(2 * N)
    c2 = np.empty(N, np.int64)
    st.categorical(s, c2, w)
    assert np.array_equal(out, c2)


def test_multivariate_normal():
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]])
    L = np.linalg.cholesky(cov)
    x = trnrand.multivariate_normal(N // 3, mean=mean, L=L, generator=G())
    assert x.shape == (N // 3, 3)
    z = np.linalg.solve(L, (x - mean).T)
    ks_ok((z**2).sum(axis=0), stats.chi2(3).cdf)  # the joint law: |L^-1 (x - mu)|^2 ~ chi2(3)
    ks_ok(x[:, 1], stats.norm(-2.0, 1.0).cdf)


def test_normal_icdf():
    u = np.concatenate([np.random.default_rng(0).random(20000), 10.0 ** -np.arange(1, 300, 7.0),
                        1 - 2.0 ** -np.arange(2, 53)])
    x = trnrand.normal_icdf(u)
    y = special.ndtri(u)
    # trnrand: relative error < 2**-50; Cephes ndtri (scipy): peak relative error 4.6e-16 (its documented
    # IEEE accuracy); so they agree to 2**-50 + 4.6e-16 < 1.4e-15 relative.
    assert np.all(np.abs(x - y) <= 1.4e-15 * np.abs(y))
    f = trnrand.normal_icdf(u[:100].astype(np.float32))
    assert f.dtype == np.float32
    assert trnrand.normal_icdf(np.array([0.0, 1.0])).tolist() == [-np.inf, np.inf]
    out = np.empty(5)
    assert trnrand.normal_icdf(np.full(5, 0.5), out=out) is out and np.all(out == 0)


# ---- in place ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_into_functions_fill_in_place(dtype):
    for into, kw, cdf in [(trnrand.normal_into, {"mean": 2.0, "std": 0.5}, stats.norm(2.0, 0.5).cdf),
                          (trnrand.uniform_into, {"low": 1.0, "high": 4.0}, stats.uniform(1.0, 3.0).cdf),
                          (trnrand.exponential_into, {"rate": 3.0}, stats.expon(scale=1 / 3).cdf)]:
        buf = np.zeros((200, 250), dtype=dtype)
        view = buf[:]
        res = into(buf, generator=G(), **kw)
        assert res is buf and np.shares_memory(res, view)
        ks_ok(buf.ravel(), cdf)
        # The same values as the allocating function with the same generator position.
        name = into.__name__[:-5]
        ref = getattr(trnrand, name)(200, 250, dtype=dtype, generator=G(), **kw)
        assert np.array_equal(ref, buf)


# ---- reproducibility ---------------------------------------------------------------------------------------

# (stream-level function, out dtype, params, words per value)
WINDOW = 2**32
SAMPLERS = [
    (st.normal, np.float32, (0.5, 2.0), 2), (st.normal, np.float64, (0.5, 2.0), 4),
    (st.normal_engine_order, np.float32, (0.5, 2.0), 2), (st.lognormal, np.float64, (0.0, 1.0), 4),
    (st.exponential, np.float32, (2.0,), 1), (st.exponential, np.float64, (2.0,), 2),
    (st.gamma, np.float64, (0.7, 1.0), WINDOW), (st.gamma, np.float32, (4.0, 1.0), WINDOW),
    (st.beta, np.float64, (0.5, 3.0), WINDOW), (st.chi_squared, np.float32, (3.0,), WINDOW),
    (st.student_t, np.float64, (5.0,), WINDOW), (st.truncated_normal, np.float64, (0.0, 1.0, 1.0, 3.0), WINDOW),
    (st.bernoulli, np.uint8, (0.3,), 2), (st.randint, np.int64, (-5, 17), WINDOW),
    (st.poisson, np.int64, (12.5,), WINDOW), (st.binomial, np.int64, (50, 0.4), WINDOW),
    (st.geometric, np.int64, (0.3,), 2), (st.categorical, np.int64, (np.array([1.0, 2.0, 3.0]),), 2),
]


@pytest.mark.parametrize("fill,dtype,params,budget", SAMPLERS, ids=lambda v: getattr(v, "__name__", None))
def test_threads_and_slices_bitwise(fill, dtype, params, budget):
    s = trnrand.Stream(77, 5, 3)
    n = 140_001  # > 2 x 64 Ki values, so threads=2 splits the fill
    a, b = np.empty(n, dtype), np.empty(n, dtype)
    end = fill(s, a, *params, threads=1)
    assert fill(s, b, *params, threads=2) == end and np.array_equal(a, b)
    assert end == s.skip_ahead(budget * n % 2**64)
    # Any slicing of the fill: [0, 1), [1, 8), [8, 131), [131, n), started at skip_ahead(budget * begin).
    parts = []
    for lo, hi in [(0, 1), (1, 8), (8, 131), (131, n)]:
        part = np.empty(hi - lo, dtype)
        fill(s.skip_ahead(budget * lo % 2**64), part, *params)
        parts.append(part)
    assert np.array_equal(np.concatenate(parts), a)


def test_randperm_reproducible():
    s = trnrand.Stream(8)
    a, b = np.empty(1000, np.int64), np.empty(1000, np.int64)
    assert st.randperm(s, a, threads=1) == st.randperm(s, b, threads=2) == s.skip_ahead(1000 * WINDOW)
    assert np.array_equal(a, b)


def test_upstream_functions_threads_bitwise():
    for f, kw in [(trnrand.normal, {}), (trnrand.uniform, {"low": -1, "high": 1}), (trnrand.gamma, {"shape": 2.0}),
                  (trnrand.poisson, {"lam": 30.0}), (trnrand.truncated_normal, {}), (trnrand.beta,
                  {"alpha": 2.0, "beta": 0.5}), (trnrand.chi_squared, {"df": 2.0}), (trnrand.bernoulli, {})]:
        a = f(140_001, generator=G(), threads=1, **kw)
        b = f(140_001, generator=G(), threads=2, **kw)
        assert np.array_equal(a, b), f.__name__


@pytest.mark.parametrize("generation", ["trn1", "trn2"])
def test_sim_normal_is_engine_order(generation):
    # docs/trnrand.md: normal(float32) on sim is trnrand::sim::normal = normal_engine_order, bit for bit.
    s = trnrand.Stream(12, 1, 7, "threefry4x32_20")
    n = 128 * 512 + 5
    host, sim, sim2 = np.empty(n, np.float32), np.empty(n, np.float32), np.empty(n, np.float32)
    assert st.normal_engine_order(s, host, -1.0, 3.0) == st.normal(s, sim, -1.0, 3.0, backend="sim",
                                                                    generation=generation)
    st.normal_engine_order(s, sim2, -1.0, 3.0, backend="sim", generation=generation)
    assert np.array_equal(host, sim) and np.array_equal(host, sim2)
    # Accuracy against normal() of the same words (float64 Box-Muller rounded once): the documented bound
    # |out - z| <= 2**-24 (9.11 std r + |out|) + 2**-147 plus 2**-24 |normal()| for the reference's rounding,
    # with r <= sqrt(48 ln 2).
    ref = np.empty(n, np.float32)
    st.normal(s, ref, -1.0, 3.0)
    r = math.sqrt(48 * math.log(2))
    bound = 2.0**-24 * (9.11 * 3.0 * r + np.abs(host) + np.abs(ref)) + 2.0**-147
    assert np.all(np.abs(host.astype(np.float64) - ref) <= bound)
    ks_ok(trnrand.normal(N, generator=G(), backend="sim", generation=generation), stats.norm.cdf)
    # Only uniform/normal float32 have sim kernels.
    with pytest.raises(trncore.NotSupported):
        trnrand.normal(3, dtype=np.float64, backend="sim")
    with pytest.raises(trncore.NotSupported, match="gamma"):
        trnrand.gamma(3, shape=2.0, backend="sim")
    assert np.array_equal(trnrand.uniform(1000, generator=G(), backend="sim", generation=generation),
                          trnrand.uniform(1000, generator=G()))


# ---- bad input ---------------------------------------------------------------------------------------------

UPSTREAM = [
    (trnrand.uniform, {}), (trnrand.normal, {}), (trnrand.standard_normal, {}), (trnrand.exponential, {}),
    (trnrand.lognormal, {}), (trnrand.bernoulli, {}), (trnrand.randint, {"high": 5}),
    (trnrand.truncated_normal, {}), (trnrand.gamma, {"shape": 1.0}), (trnrand.chi_squared, {"df": 2.0}),
    (trnrand.beta, {"alpha": 1.0, "beta": 2.0}), (trnrand.student_t, {"df": 3.0}), (trnrand.poisson, {}),
    (trnrand.binomial, {"n": 3, "p": 0.5}), (trnrand.geometric, {"p": 0.5}),
    (trnrand.categorical, {"weights": [1.0, 2.0]}),
    (trnrand.multivariate_normal, {"mean": [0.0], "L": [[1.0]]}),
]


@pytest.mark.parametrize("f,kw", UPSTREAM, ids=lambda v: getattr(v, "__name__", None))
def test_upstream_bad_shape_dtype_keyword_option(f, kw):
    name = f"trnrand.{f.__name__}"
    assert f(0, **kw).size == 0 and f(1, **kw).size >= 1
    with pytest.raises(trncore.InvalidArgument, match=f"{name}.*negative"):
        f(-1, **kw)
    with pytest.raises(trncore.InvalidArgument, match=name):
        f(2.5, **kw)
    if "dtype" in f.__code__.co_varnames:
        with pytest.raises(trncore.InvalidArgument, match=f"{name}.*dtype"):
            f(3, dtype=np.complex64, **kw)
    with pytest.raises(TypeError, match=name):
        f(3, colour="red", **kw)
    with pytest.raises(trncore.InvalidArgument, match="threads"):
        f(3, threads=-2, **kw)
    with pytest.raises(trncore.ParseError):
        f(3, backend="sim", generation="trn0", **kw)
    with pytest.raises(trncore.InvalidArgument, match="generator"):
        f(3, generator="seed", **kw)


@pytest.mark.parametrize("call,match", [
    (lambda: trnrand.uniform(3, low=2.0, high=1.0), "trnrand.uniform"),
    (lambda: trnrand.uniform(3, low=np.nan), "trnrand.uniform"),
    (lambda: trnrand.normal(3, std=-1.0), "normal.*stddev"),
    (lambda: trnrand.normal(3, mean=np.inf), "normal.*mean"),
    (lambda: trnrand.exponential(3, rate=0.0), "exponential.*rate"),
    (lambda: trnrand.bernoulli(3, p=1.5), "bernoulli.*p"),
    (lambda: trnrand.bernoulli(3, p=-0.1), "bernoulli.*p"),
    (lambda: trnrand.randint(3, low=5, high=5), "trnrand.randint.*low"),
    (lambda: trnrand.randint(3, low=0.5, high=5), "trnrand.randint"),
    (lambda: trnrand.randint(3, low=0, high=2**63 + 1), "trnrand.randint.*int64"),
    (lambda: trnrand.randperm(-1), "trnrand.randperm.*negative"),
    (lambda: trnrand.randperm(4, dtype=np.float32), "trnrand.randperm.*dtype"),
    (lambda: trnrand.truncated_normal(3, low=1.0, high=-1.0), "truncated_normal"),
    (lambda: trnrand.truncated_normal(3, std=0.0), "truncated_normal"),
    (lambda: trnrand.gamma(3, shape=-1.0), "gamma.*shape"),
    (lambda: trnrand.gamma(3, shape=1.0, scale=0.0), "gamma.*scale"),
    (lambda: trnrand.chi_squared(3, df=0.0), "chi_squared"),
    (lambda: trnrand.beta(3, alpha=0.0, beta=1.0), "beta"),
    (lambda: trnrand.beta(3, alpha=1.0, beta=np.nan), "beta"),
    (lambda: trnrand.student_t(3, df=-1.0), "student_t"),
    (lambda: trnrand.poisson(3, lam=-1.0), "poisson"),
    (lambda: trnrand.poisson(3, lam="x"), "trnrand.poisson"),
    (lambda: trnrand.binomial(3, n=-1, p=0.5), "binomial"),
    (lambda: trnrand.binomial(3, n=5, p=2.0), "binomial"),
    (lambda: trnrand.geometric(3, p=0.0), "geometric"),
    (lambda: trnrand.categorical(3, weights=[1.0, -1.0]), "weight"),
    (lambda: trnrand.categorical(3, weights=[[1.0]]), "trnrand.categorical"),
    (lambda: trnrand.AliasTable([]), "AliasTable"),
    (lambda: trnrand.normal_icdf([0.5, 1.5]), "normal_icdf"),
    (lambda: trnrand.normal_icdf(np.array(["a"])), "trnrand.normal_icdf"),
    (lambda: trnrand.multivariate_normal(2, mean=[0.0, 0.0], L=[[1.0, 0.0], [0.0, -1.0]]), "multivariate_normal"),
])
def test_bad_parameters(call, match):
    with pytest.raises(trncore.InvalidArgument, match=match):
        call()


def test_bad_shapes_are_dimension_mismatch():
    with pytest.raises(trncore.DimensionMismatch, match="multivariate_normal"):
        trnrand.multivariate_normal(2, mean=[0.0, 0.0], L=[[1.0, 0.0, 0.0]])
    with pytest.raises(trncore.DimensionMismatch, match="normal_icdf"):
        trnrand.normal_icdf(np.full(3, 0.5), out=np.empty(4))


@pytest.mark.parametrize("into", [trnrand.normal_into, trnrand.uniform_into, trnrand.exponential_into])
def test_into_bad_buffers(into):
    name = f"trnrand.{into.__name__}"
    with pytest.raises(trncore.InvalidArgument, match=f"{name}.*dtype"):
        into(np.zeros(4, dtype=np.int32))
    with pytest.raises(trncore.InvalidArgument, match=f"{name}.*dtype"):
        into(np.zeros(4, dtype=np.complex128))
    with pytest.raises(trncore.InvalidArgument, match=f"{name}.*not a NumPy array"):
        into([0.0, 0.0])
    with pytest.raises(trncore.InvalidArgument, match=f"{name}.*contiguous"):
        into(np.zeros((4, 4))[:, 1])
    ro = np.zeros(4)
    ro.flags.writeable = False
    with pytest.raises(trncore.InvalidArgument, match=f"{name}.*read-only"):
        into(ro)
    with pytest.raises(TypeError, match=name):
        into(np.zeros(4), colour=1)
    with pytest.raises(trncore.InvalidArgument, match="threads"):
        into(np.zeros(4), threads=-1)
    with pytest.raises(trncore.ParseError):
        into(np.zeros(4, np.float32), backend="sim", generation="trn7")


@pytest.mark.parametrize("fill,dtype,params,budget", SAMPLERS, ids=lambda v: getattr(v, "__name__", None))
def test_stream_level_bad_out(fill, dtype, params, budget):
    s = trnrand.Stream(1)
    wrong = np.float16 if dtype != np.float16 else np.int8
    with pytest.raises(trncore.InvalidArgument, match=f"trnrand.streams.{fill.__name__}.*dtype"):
        fill(s, np.empty(4, wrong), *params)
    with pytest.raises(trncore.InvalidArgument, match="contiguous"):
        fill(s, np.empty(8, dtype)[::2], *params)
    with pytest.raises(trncore.InvalidArgument, match="not a NumPy array"):
        fill(s, [1, 2], *params)
    with pytest.raises(TypeError, match=fill.__name__):
        fill(s, np.empty(4, dtype), *params, colour=1)
    with pytest.raises(trncore.InvalidArgument, match="threads"):
        fill(s, np.empty(4, dtype), *params, threads=-1)


def test_stream_level_bad_input_rest():
    s = trnrand.Stream(1)
    with pytest.raises(trncore.InvalidArgument, match="trnrand.streams.randperm.*dtype"):
        st.randperm(s, np.empty(4, np.int32))
    with pytest.raises(trncore.InvalidArgument, match="trnrand.streams.randperm.*read-only"):
        ro = np.empty(4, np.int64)
        ro.flags.writeable = False
        st.randperm(s, ro)
    with pytest.raises(TypeError, match="randperm"):
        st.randperm(s, np.empty(4, np.int64), colour=1)
    t = trnrand.AliasTable([1.0, 2.0])
    with pytest.raises(trncore.InvalidArgument, match="trnrand.AliasTable.sample.*dtype"):
        t.sample(s, np.empty(4, np.float64))
    with pytest.raises(trncore.InvalidArgument, match="threads"):
        t.sample(s, np.empty(4, np.int64), threads=-1)
    with pytest.raises(trncore.InvalidArgument, match="trnrand.AliasTable.*dtype"):
        trnrand.AliasTable(np.array(["a", "b"]))
    with pytest.raises(trncore.DimensionMismatch, match="AliasTable"):
        trnrand.AliasTable(np.ones((2, 2)))
    mvn = st.multivariate_normal
    with pytest.raises(trncore.InvalidArgument, match="trnrand.streams.multivariate_normal.*dtype"):
        mvn(s, np.empty((2, 1), np.int64), [0.0], [[1.0]])
    with pytest.raises(trncore.InvalidArgument, match="not a NumPy array"):
        mvn(s, [[0.0]], [0.0], [[1.0]])
    with pytest.raises(trncore.DimensionMismatch, match="multivariate_normal"):
        mvn(s, np.empty((3, 1)), [0.0, 1.0], [[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(trncore.InvalidArgument, match="multivariate_normal"):
        mvn(s, np.empty((2, 1)), [np.nan], [[1.0]])
    with pytest.raises(trncore.InvalidArgument, match="normal_icdf.*dtype"):
        trnrand.normal_icdf(np.full(3, 0.5), out=np.empty(3, np.float32))
    with pytest.raises(TypeError, match="normal_icdf"):
        trnrand.normal_icdf(np.full(3, 0.5), colour=1)
    with pytest.raises(trncore.InvalidArgument, match="manual_seed"):
        trnrand.Generator(1).manual_seed(-1)
    with pytest.raises(trncore.InvalidArgument, match="trnrand.manual_seed"):
        trnrand.manual_seed(2**64)


def test_multivariate_normal_stream_level_matches_normal():
    # Row r is mean + L z_r with z the values normal() draws from the same stream (float64: 4 words each).
    s = trnrand.Stream(21)
    mean = np.array([1.0, 2.0])
    L = np.array([[2.0, 0.0], [0.5, 1.5]])
    x = np.empty((1000, 2))
    z = np.empty(2000)
    assert st.multivariate_normal(s, x, mean, L) == st.normal(s, z)
    want = mean + z.reshape(1000, 2) @ L.T
    # Each entry summed in double and rounded once: within a few ulps of the NumPy evaluation.
    assert np.allclose(x, want, rtol=4 * 2.0**-52, atol=4 * 2.0**-52 * np.abs(want).max())
