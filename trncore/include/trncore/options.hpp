#pragma once
/// @file
/// The options every computational call of the suite takes (DESIGN.md §5.1), with defaults that never
/// lose precision silently: host backend, automatic math mode, no target.

#include <trncore/backend.hpp>
#include <trncore/math_mode.hpp>
#include <trncore/monitor.hpp>
#include <trncore/rounding.hpp>
#include <trncore/sim/generation.hpp>
#include <trncore/sim/product_model.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace trncore {

/// What a computational call is asked to do: where it runs (backend), in which arithmetic (math_mode,
/// product model, generation), how accurately (target_forward_error), with which random bits (seed,
/// stream) and how many threads. Every call checks its copy with validate(); the with_*() setters chain:
/// `trncore::Options{}.with_backend(trncore::Backend::sim).with_target(1e-10)`.
struct Options {
  /// Where the call runs: host (the reference CPU libraries) or sim (the modelled NeuronCore).
  Backend backend = Backend::host;
  /// The arithmetic the call uses; automatic picks per call (with a target: the cheapest mode whose bound
  /// meets it). Each call documents the modes it accepts.
  MathMode math_mode = MathMode::automatic;
  /// Rounding of stored results where a call rounds them (sr mode and explicit narrow outputs).
  Rounding rounding{};
  /// Key of the counter-based random bits of stochastic rounding (RandomBits{seed, stream}).
  std::uint64_t seed = 0;
  /// Stream of the counter-based random bits (with seed); successive calls with different streams draw
  /// independent bits.
  std::uint64_t stream = 0;
  /// The forward error the caller needs, relative (normwise unless the call documents otherwise), in
  /// (0, 1). With it, calls certify the bound or report/throw TargetNotMet.
  std::optional<double> target_forward_error;
  /// The modelled NeuronCore generation (sim backend).
  sim::Generation generation = sim::Generation::trn2;
  /// The TensorEngine product model; unset = the generation's default (default_product_model).
  std::optional<sim::ProductModel> product;
  /// Worker threads; 0 = the process default, trncore::default_threads() (TRNSCI_NUM_THREADS, else the
  /// CPUs this process may use). Never changes a result.
  int threads = 0;
  /// Called once per iteration (sweep, panel) by iterative and long-running calls, which stop early when
  /// it returns MonitorAction::stop (monitor.hpp); ignored by calls that do not iterate. Empty = none.
  Monitor monitor;

  /// Sets backend = b; returns *this. Values are checked by validate(), not here.
  Options& with_backend(Backend b) {
    backend = b;
    return *this;
  }
  /// Sets math_mode = m; returns *this.
  Options& with_math_mode(MathMode m) {
    math_mode = m;
    return *this;
  }
  /// Sets target_forward_error = t (must lie in (0, 1) when validated); returns *this.
  Options& with_target(double t) {
    target_forward_error = t;
    return *this;
  }
  /// Sets product = p, overriding the generation's default product model; returns *this.
  Options& with_product(sim::ProductModel p) {
    product = p;
    return *this;
  }
  /// Sets generation = g; returns *this.
  Options& with_generation(sim::Generation g) {
    generation = g;
    return *this;
  }
  /// Sets threads = t (0 = the process default; negative is rejected by validate()); returns *this.
  Options& with_threads(int t) {
    threads = t;
    return *this;
  }
  /// Sets monitor = m; returns *this.
  Options& with_monitor(Monitor m) {
    monitor = std::move(m);
    return *this;
  }
  /// Sets seed = s and stream = st; returns *this.
  Options& with_seed(std::uint64_t s, std::uint64_t st = 0) {
    seed = s;
    stream = st;
    return *this;
  }
};

/// The base of a package's options struct: `struct KrylovOptions : trncore::OptionsFor<KrylovOptions> { … }`
/// has every Options field, converts to `const Options&` wherever a call takes one, and gets Options's
/// with_*() setters returning `KrylovOptions&`, so a chain that starts from the package's struct keeps its
/// own fields (`trnsolver::KrylovOptions{}.with_threads(2)` is still a KrylovOptions). A plain Options
/// converts to it implicitly, with the package's defaults for its own fields.
template <class Derived>
struct OptionsFor : Options {
  OptionsFor() = default;
  /// The suite's options with the package's defaults for the rest.
  OptionsFor(const Options& options) : Options(options) {}  // NOLINT(google-explicit-constructor)

  /// Sets backend = b (Options::with_backend); returns the package's struct.
  Derived& with_backend(Backend b) {
    Options::with_backend(b);
    return self();
  }
  /// Sets math_mode = m (Options::with_math_mode); returns the package's struct.
  Derived& with_math_mode(MathMode m) {
    Options::with_math_mode(m);
    return self();
  }
  /// Sets target_forward_error = t (Options::with_target); returns the package's struct.
  Derived& with_target(double t) {
    Options::with_target(t);
    return self();
  }
  /// Sets product = p (Options::with_product); returns the package's struct.
  Derived& with_product(sim::ProductModel p) {
    Options::with_product(p);
    return self();
  }
  /// Sets generation = g (Options::with_generation); returns the package's struct.
  Derived& with_generation(sim::Generation g) {
    Options::with_generation(g);
    return self();
  }
  /// Sets threads = t (Options::with_threads); returns the package's struct.
  Derived& with_threads(int t) {
    Options::with_threads(t);
    return self();
  }
  /// Sets monitor = m (Options::with_monitor); returns the package's struct.
  Derived& with_monitor(Monitor m) {
    Options::with_monitor(std::move(m));
    return self();
  }
  /// Sets seed = s and stream = st (Options::with_seed); returns the package's struct.
  Derived& with_seed(std::uint64_t s, std::uint64_t st = 0) {
    Options::with_seed(s, st);
    return self();
  }

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

namespace sim {
/// The product model of a generation when Options::product is unset: ProductModel::bf16 for trn1 and
/// trn2 (published measurements on both chips found Ozaki-split products gained nothing over plain bf16,
/// which bf16-rounded products predict; docs/numerics.md), and for trn3, for want of evidence otherwise.
ProductModel default_product_model(Generation generation) noexcept;
}  // namespace sim

/// The product model `o` selects: o.product, else the generation's default.
sim::ProductModel product_model(const Options& o) noexcept;

/// Checks the options a call received. @throws trncore::InvalidArgument naming `function` and the
/// value when target_forward_error is NaN, ≤ 0 or ≥ 1, threads < 0, or the rounding is invalid.
void validate(const Options& options, std::string_view function);

/// One line, e.g. "backend=sim math_mode=ozaki target=1e-12 generation=trn2 product=bf16 threads=0".
std::string to_string(const Options& options);

}  // namespace trncore
