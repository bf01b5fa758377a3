"""trnrand.Generator: a seeded, counter-based random source (upstream trnrand/generator.py's API over NumPy).

A Generator holds one trnrand.Stream (generator, seed, subsequence, offset). Every distribution function
that receives it draws from the stream's current position and advances it past the words it used, so the
same seed always gives the same numbers, on any machine and for any thread count.

Differences from upstream (which wraps torch.Generator):
- positions are counted in 32-bit words of the stream (the C++ Stream's offset), not in samples rounded up to
  512-sample batches: position(), advance(n) and advance_to(p) take and return words;
- seed=None draws a fresh 64-bit seed from the operating system (secrets.randbits); .seed then stays None as
  upstream, and .stream.seed shows the seed in use;
- partition_rank/partition_size split each draw, not the stream: a call for n values on rank r of P returns
  values [r*n, (r+1)*n) of one logical draw of P*n values, and every rank's generator then advances past the
  whole logical draw. Concatenating the ranks' outputs in rank order reproduces the single-generator
  (P = 1) draw of P*n values bit for bit, and successive calls never overlap across ranks (upstream's NKI
  path advances each rank by its own n only, so rank r's next draw reuses rank r+1's counters);
- get_state()/set_state() use trnrand.Stream values, not torch tensors; device is "cpu" only; there is no
  torch_generator or new_program (no torch, no NKI programs).
"""

from __future__ import annotations

import secrets
import threading

import trncore

from ._trnrand import Stream

_U64 = 1 << 64


def _invalid(function, problem, hint):
    return trncore.InvalidArgument.make(function, problem, hint)


def _as_u64(function, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            import operator
            value = operator.index(value)
        except TypeError:
            raise _invalid(function, f"{name} has type {type(value).__name__}", "pass an int in [0, 2**64)") from None
    if not 0 <= value < _U64:
        raise _invalid(function, f"{name} = {value} is outside [0, 2**64)", "pass a non-negative int below 2**64")
    return int(value)


class Generator:
    """Seeded counter-based random number generator (Philox4x32-10 by default, or Threefry4x32-20).

    Generator(seed=None, device="cpu", partition_rank=0, partition_size=1, *, subsequence=0, offset=0,
    generator="philox4x32_10"): the stream curand_init(seed, subsequence, offset) gives (cuRAND's Philox
    layout). Pass it as generator= to the distribution functions. A Generator may be shared by Python
    threads: each draw takes a lock, reserves its words and advances the stream.

    Raises trncore.InvalidArgument for a seed/subsequence/offset outside [0, 2**64), partition_size < 1,
    partition_rank outside [0, partition_size), or a device other than "cpu"; trncore.ParseError for an
    unknown generator name.
    """

    def __init__(self, seed=None, device="cpu", partition_rank=0, partition_size=1, *, subsequence=0, offset=0,
                 generator="philox4x32_10"):
        fn = "trnrand.Generator"
        if device != "cpu":
            raise _invalid(fn, f"device {device!r} is not supported", "pass device='cpu' (use backend='sim' per call "
                           "for the NeuronCore model)")
        if isinstance(partition_size, bool) or not isinstance(partition_size, int) or partition_size < 1:
            raise _invalid(fn, f"partition_size = {partition_size!r} is not an int >= 1", "pass partition_size >= 1")
        if isinstance(partition_rank, bool) or not isinstance(partition_rank, int) or \
                not 0 <= partition_rank < partition_size:
            raise _invalid(fn, f"partition_rank = {partition_rank!r} is outside [0, {partition_size})",
                           "pass 0 <= partition_rank < partition_size")
        self._seed = None if seed is None else _as_u64(fn, "seed", seed)
        key = secrets.randbits(64) if seed is None else self._seed
        self._stream = Stream(key, _as_u64(fn, "subsequence", subsequence), _as_u64(fn, "offset", offset), generator)
        self._device = device
        self._partition_rank = partition_rank
        self._partition_size = partition_size
        self._lock = threading.Lock()

    @property
    def seed(self):
        """The seed given (None when the generator was seeded from the operating system)."""
        return self._seed

    @property
    def device(self):
        """Always "cpu"."""
        return self._device

    @property
    def partition_rank(self):
        """This generator's rank r in [0, partition_size)."""
        return self._partition_rank

    @property
    def partition_size(self):
        """The number P of ranks each draw is split over."""
        return self._partition_size

    @property
    def stream(self):
        """The current position, a trnrand.Stream (an immutable value: use it with trnrand.streams)."""
        with self._lock:
            return self._stream

    def manual_seed(self, seed):
        """Reseeds: the stream (seed, same subsequence and generator) from offset 0. Returns self."""
        seed = _as_u64("trnrand.Generator.manual_seed", "seed", seed)
        with self._lock:
            self._seed = seed
            self._stream = Stream(seed, self._stream.subsequence, 0, self._stream.generator)
        return self

    def position(self):
        """The stream offset: 32-bit words used so far (upstream counts samples; see the module docstring)."""
        with self._lock:
            return self._stream.offset

    def advance(self, n_words):
        """Skips n_words >= 0 words of the stream in O(1) (cuRAND's skipahead)."""
        n = _as_u64("trnrand.Generator.advance", "n_words", n_words)
        with self._lock:
            self._stream = self._stream.skip_ahead(n)

    def advance_to(self, position):
        """Jumps to the absolute stream offset `position` (as position() returned), e.g. to resume a run."""
        p = _as_u64("trnrand.Generator.advance_to", "position", position)
        with self._lock:
            s = self._stream
            self._stream = Stream(s.seed, s.subsequence, p, s.generator)

    def get_state(self):
        """The current trnrand.Stream (a value: set_state(it) later restores this position)."""
        return self.stream

    def set_state(self, state):
        """Continues from a trnrand.Stream (e.g. one get_state() returned)."""
        if not isinstance(state, Stream):
            raise _invalid("trnrand.Generator.set_state", f"state has type {type(state).__name__}",
                           "pass a trnrand.Stream (from get_state())")
        with self._lock:
            self._stream = state

    def _draw(self, fill, out, *params, partitioned=True, **kw):
        """Runs fill(stream, out, *params, **kw) -> Stream at this generator's position and advances it.

        With partition_size P > 1, rank r fills values [r*n, (r+1)*n) of a logical fill of P*n values (the
        per-value word budget b is read from a one-value fill) and the stream advances past all P*n values.
        """
        with self._lock:
            s = self._stream
            if self._partition_size == 1 or out.size == 0 or not partitioned:
                self._stream = fill(s, out, *params, **kw)
                return out
            b = (fill(s, out.reshape(-1)[:1].copy(), *params, **kw).offset - s.offset) % _U64
            n = out.size
            fill(s.skip_ahead(b * n * self._partition_rank % _U64), out, *params, **kw)
            self._stream = s.skip_ahead(b * n * self._partition_size % _U64)
            return out

    def __repr__(self):
        s = self.stream
        return (f"trnrand.Generator(seed={self._seed}, stream={s!r}, partition_rank={self._partition_rank}, "
                f"partition_size={self._partition_size})")


_default_generator = Generator(seed=None)


def manual_seed(seed):
    """Replaces the default generator by Generator(seed) and returns it."""
    global _default_generator
    _default_generator = Generator(seed=_as_u64("trnrand.manual_seed", "seed", seed))
    return _default_generator


def get_default_generator():
    """The generator distribution functions use when generator=None."""
    return _default_generator
