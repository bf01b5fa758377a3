// The host backend's Executor (executor.hpp): FFTW guru64 planning under the planner mutex, execution on
// the creation arrays (fftw_execute) or on new arrays (fftw_execute_dft and its r2c, c2r and split
// siblings), and the SIMD alignment rule of new-array execute.
#include "executor.hpp"
#include "host/fftw_api.hpp"

#include <trncore/error.hpp>

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace trnfft {

std::mutex& planner_mutex() noexcept {
  static std::mutex mutex;
  return mutex;
}

namespace detail {
namespace {

unsigned fftw_flags(const PlanOptions& options, Kind kind) {
  unsigned f = 0;
  switch (options.rigor) {
    case Rigor::estimate: f = FFTW_ESTIMATE; break;
    case Rigor::measure: f = FFTW_MEASURE; break;
    case Rigor::patient: f = FFTW_PATIENT; break;
    case Rigor::exhaustive: f = FFTW_EXHAUSTIVE; break;
  }
  if (options.preserve_input)
    f |= FFTW_PRESERVE_INPUT;
  else if (kind == Kind::c2r)
    f |= FFTW_DESTROY_INPUT;
  if (options.unaligned) f |= FFTW_UNALIGNED;
  return f;
}

std::vector<fftw_iodim64> to_fftw(const std::vector<IoDim>& dims) {
  std::vector<fftw_iodim64> out(dims.size());
  for (std::size_t k = 0; k < dims.size(); ++k)
    out[k] = fftw_iodim64{static_cast<std::ptrdiff_t>(dims[k].n), static_cast<std::ptrdiff_t>(dims[k].is),
                          static_cast<std::ptrdiff_t>(dims[k].os)};
  return out;
}

template <Real T>
bool& threads_ready() {
  static bool ready = false;  // guarded by planner_mutex()
  return ready;
}

template <Real T>
class FftwExecutor final : public Executor<T> {
  using F = host::Fftw<T>;

 public:
  FftwExecutor(const char* function, const Geometry& g, const Arrays& arrays, const PlanOptions& options)
      : kind_(g.kind),
        layout_(g.layout),
        nread_(g.nread),
        nwrite_(g.nwrite),
        unaligned_(options.unaligned),
        names_(array_names(g.kind, g.layout)) {
    for (int i = 0; i < g.nread + g.nwrite; ++i) alignment_[i] = F::alignment_of(static_cast<const T*>(arrays[i]));
    const auto fdims = to_fftw(g.dims);
    const auto fbatch = to_fftw(g.batch);
    const int rank = static_cast<int>(fdims.size());
    const int hrank = static_cast<int>(fbatch.size());
    const unsigned f = fftw_flags(options, g.kind);
    const bool interleaved = g.layout == ComplexLayout::interleaved;
    {
      std::lock_guard<std::mutex> lock(planner_mutex());
      // FFTW wants its threads set up before other planner calls: do it on trnfft's first plan. Threaded
      // solvers only apply when a plan is made with more than one thread.
      static bool threads_tried = false;  // per T (a static of a class template member); guarded by the mutex
      if (!threads_tried) {
        threads_tried = true;
        threads_ready<T>() = F::init_threads() != 0;
      }
      if (g.threads > 1 && !threads_ready<T>())
        throw trncore::ResourceExhausted(function, "FFTW could not initialise its threads", "use options.threads = 1");
      if (threads_ready<T>()) F::plan_with_nthreads(g.threads);
      T* const* t = reinterpret_cast<T* const*>(arrays.data());
      switch (g.kind) {
        case Kind::c2c:
          if (interleaved) {
            plan_ = F::guru_dft(rank, fdims.data(), hrank, fbatch.data(), arrays[0], arrays[1],
                                g.direction == Direction::forward ? FFTW_FORWARD : FFTW_BACKWARD, f);
          } else {
            // FFTW's split interface is forward-only: backward swaps the real and imaginary parts.
            swap_parts_ = g.direction == Direction::backward;
            plan_ = swap_parts_
                        ? F::guru_split_dft(rank, fdims.data(), hrank, fbatch.data(), t[1], t[0], t[3], t[2], f)
                        : F::guru_split_dft(rank, fdims.data(), hrank, fbatch.data(), t[0], t[1], t[2], t[3], f);
          }
          break;
        case Kind::r2c:
          plan_ = interleaved ? F::guru_r2c(rank, fdims.data(), hrank, fbatch.data(), t[0], arrays[1], f)
                              : F::guru_split_r2c(rank, fdims.data(), hrank, fbatch.data(), t[0], t[1], t[2], f);
          break;
        case Kind::c2r:
          plan_ = interleaved ? F::guru_c2r(rank, fdims.data(), hrank, fbatch.data(), arrays[0], t[1], f)
                              : F::guru_split_c2r(rank, fdims.data(), hrank, fbatch.data(), t[0], t[1], t[2], f);
          break;
      }
    }
    if (plan_ == nullptr)
      throw trncore::NotSupported(function, "FFTW cannot plan " + describe(g),
                                  g.in_place ? "use an out-of-place layout, or in-place strides FFTW supports (equal "
                                               "input and output strides; padded real rows for r2c/c2r)"
                                             : "for multi-dimensional c2r drop preserve_input; otherwise use a "
                                               "simpler layout");
  }

  ~FftwExecutor() override {
    if (plan_ != nullptr) {
      std::lock_guard<std::mutex> lock(planner_mutex());
      F::destroy(plan_);
    }
  }
  FftwExecutor(const FftwExecutor&) = delete;
  FftwExecutor& operator=(const FftwExecutor&) = delete;

  void execute(const char*, const Arrays* arrays, trncore::AccuracyReport*) const override {
    if (arrays == nullptr) return F::execute(plan_);
    const Arrays& a = *arrays;
    T* const* t = reinterpret_cast<T* const*>(a.data());
    const bool interleaved = layout_ == ComplexLayout::interleaved;
    switch (kind_) {
      case Kind::c2c:
        if (interleaved)
          F::execute_dft(plan_, a[0], a[1]);
        else if (swap_parts_)
          F::execute_split_dft(plan_, t[1], t[0], t[3], t[2]);
        else
          F::execute_split_dft(plan_, t[0], t[1], t[2], t[3]);
        break;
      case Kind::r2c:
        if (interleaved)
          F::execute_r2c(plan_, t[0], a[1]);
        else
          F::execute_split_r2c(plan_, t[0], t[1], t[2]);
        break;
      case Kind::c2r:
        if (interleaved)
          F::execute_c2r(plan_, a[0], t[1]);
        else
          F::execute_split_c2r(plan_, t[0], t[1], t[2]);
        break;
    }
  }

  void check_arrays(const char* function, const Arrays& a) const override {
    if (unaligned_) return;
    for (int i = 0; i < nread_ + nwrite_; ++i) {
      const int al = F::alignment_of(static_cast<const T*>(a[i]));
      if (al != alignment_[i])
        throw trncore::InvalidArgument(function,
                                       std::string("array '") + names_[i] + "' has SIMD alignment offset " +
                                           std::to_string(al) + " bytes but the plan was made for offset " +
                                           std::to_string(alignment_[i]),
                                       "use arrays aligned like the creation arrays (e.g. fftw_malloc'd), or make the "
                                       "plan with PlanOptions::unaligned");
    }
  }

  bool certifies() const override { return false; }
  trncore::AccuracyReport a_priori_report() const override { return {}; }

  std::string algorithm() const override {
    char* text = nullptr;
    {
      std::lock_guard<std::mutex> lock(planner_mutex());
      text = F::sprint(plan_);
    }
    std::string out = text != nullptr ? text : "";
    std::free(text);
    return out;
  }

  std::string description_suffix() const override { return {}; }

 private:
  Kind kind_;
  ComplexLayout layout_;
  int nread_;
  int nwrite_;
  bool unaligned_;
  bool swap_parts_ = false;
  std::array<const char*, 4> names_;
  std::array<int, 4> alignment_{};  // fftw_alignment_of of each creation array
  void* plan_ = nullptr;            // fftw_plan or fftwf_plan
};

}  // namespace

template <Real T>
std::unique_ptr<Executor<T>> make_fftw_executor(const char* function, const Geometry& geometry, const Arrays& arrays,
                                                const PlanOptions& options) {
  return std::make_unique<FftwExecutor<T>>(function, geometry, arrays, options);
}

template std::unique_ptr<Executor<float>> make_fftw_executor<float>(const char*, const Geometry&, const Arrays&,
                                                                    const PlanOptions&);
template std::unique_ptr<Executor<double>> make_fftw_executor<double>(const char*, const Geometry&, const Arrays&,
                                                                      const PlanOptions&);

}  // namespace detail
}  // namespace trnfft
