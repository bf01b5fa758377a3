// The geometry checks of plan creation (geometry.hpp).
#include "geometry.hpp"

#include <trncore/error.hpp>

#include <algorithm>

namespace trnfft::detail {

using trncore::DimensionMismatch;
using trncore::InvalidArgument;

std::string dims_text(const std::vector<IoDim>& dims) {
  std::string s = "[";
  for (std::size_t k = 0; k < dims.size(); ++k) {
    if (k > 0) s += ", ";
    s += "n=" + std::to_string(dims[k].n) + " is=" + std::to_string(dims[k].is) + " os=" + std::to_string(dims[k].os);
  }
  return s + "]";
}

std::int64_t checked_mul(const char* function, std::int64_t a, std::int64_t b, const std::string& what) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    throw InvalidArgument(function, what + " overflows int64 (" + std::to_string(a) + " * " + std::to_string(b) + ")",
                          "use smaller sizes or strides");
  return r;
}

std::int64_t checked_add(const char* function, std::int64_t a, std::int64_t b, const std::string& what) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    throw InvalidArgument(function, what + " overflows int64 (" + std::to_string(a) + " + " + std::to_string(b) + ")",
                          "use smaller sizes or strides");
  return r;
}

std::int64_t array_extent(const char* function, const char* name, const std::vector<IoDim>& dims,
                          const std::vector<IoDim>& batch, bool input, bool halve_last) {
  struct Axis {
    std::int64_t n, stride;
    const char* what;
    std::size_t index;
  };
  std::vector<Axis> axes;
  auto add = [&](const std::vector<IoDim>& list, const char* what, bool halve) {
    for (std::size_t k = 0; k < list.size(); ++k) {
      std::int64_t n = list[k].n;
      if (halve && k + 1 == list.size()) n = n / 2 + 1;
      const std::int64_t stride = input ? list[k].is : list[k].os;
      if (n > 1 && stride <= 0)
        throw InvalidArgument(function,
                              std::string(what) + " dimension " + std::to_string(k) +
                                  " (n=" + std::to_string(list[k].n) + ") has " + (input ? "input" : "output") +
                                  " stride " + std::to_string(stride) + " for array '" + name + "'",
                              "strides must be positive: point the array at its lowest element and reorder the "
                              "data rather than pass a negative or zero stride");
      if (n > 1) axes.push_back({n, stride, what, k});
    }
  };
  add(dims, "transform", halve_last);
  add(batch, "batch", false);
  std::stable_sort(axes.begin(), axes.end(), [](const Axis& a, const Axis& b) { return a.stride < b.stride; });
  std::int64_t span = 1;
  for (const Axis& a : axes) {
    if (a.stride < span)
      throw InvalidArgument(function,
                            std::string("elements of array '") + name + "' overlap: " + a.what + " dimension " +
                                std::to_string(a.index) + " has stride " + std::to_string(a.stride) +
                                " but the dimensions with smaller strides already span " + std::to_string(span) +
                                " elements",
                            "give every dimension a stride at least the extent of the faster ones (e.g. idist >= "
                            "the extent of one transform)");
    span =
        checked_add(function, span, checked_mul(function, a.n - 1, a.stride, "the array extent"), "the array extent");
  }
  return span;
}

std::string describe(const Geometry& g) {
  std::string s = std::string(to_string(g.kind)) + " ";
  if (g.kind == Kind::c2c) s += std::string(to_string(g.direction)) + " ";
  s += std::string(to_string(g.layout)) + (g.in_place ? " in-place" : " out-of-place");
  s += " dims " + dims_text(g.dims) + " batch " + dims_text(g.batch) + " threads " + std::to_string(g.threads);
  return s;
}

std::vector<IoDim> many_dims(const char* function, const std::vector<std::int64_t>& n,
                             const std::vector<std::int64_t>& inembed, std::int64_t istride,
                             const std::vector<std::int64_t>& onembed, std::int64_t ostride, Kind kind) {
  if (n.empty()) throw InvalidArgument(function, "rank 0 (n is empty)", "pass at least one transform length");
  for (std::size_t k = 0; k < n.size(); ++k)
    if (n[k] < 1)
      throw InvalidArgument(function, "n[" + std::to_string(k) + "] = " + std::to_string(n[k]),
                            "every transform length must be >= 1");
  auto side = [&](bool halve) {
    std::vector<std::int64_t> s = n;
    if (halve) s.back() = s.back() / 2 + 1;
    return s;
  };
  const std::vector<std::int64_t> in_shape = side(kind == Kind::c2r);
  const std::vector<std::int64_t> out_shape = side(kind == Kind::r2c);
  auto strides = [&](const std::vector<std::int64_t>& embed_arg, const std::vector<std::int64_t>& shape,
                     std::int64_t stride, const char* name) {
    const std::vector<std::int64_t>& embed = embed_arg.empty() ? shape : embed_arg;
    if (embed.size() != shape.size())
      throw DimensionMismatch(function,
                              std::string(name) + " has " + std::to_string(embed.size()) + " entries for a rank " +
                                  std::to_string(shape.size()) + " transform",
                              "pass one entry per dimension, or an empty embedding for the dense shape");
    for (std::size_t k = 1; k < shape.size(); ++k)
      if (embed[k] < shape[k])
        throw DimensionMismatch(function,
                                std::string(name) + "[" + std::to_string(k) + "] = " + std::to_string(embed[k]) +
                                    " is below the transform's " + std::to_string(shape[k]) + " points there",
                                "the embedding must contain the transform");
    std::vector<std::int64_t> out(shape.size());
    std::int64_t s = stride;
    for (std::size_t k = shape.size(); k-- > 0;) {
      out[k] = s;
      if (k > 0) s = checked_mul(function, s, embed[k], std::string("the stride from ") + name);
    }
    return out;
  };
  const auto is = strides(inembed, in_shape, istride, "inembed");
  const auto os = strides(onembed, out_shape, ostride, "onembed");
  std::vector<IoDim> dims(n.size());
  for (std::size_t k = 0; k < n.size(); ++k) dims[k] = IoDim{n[k], is[k], os[k]};
  return dims;
}

std::vector<IoDim> many_batch(const char* function, std::int64_t howmany, std::int64_t idist, std::int64_t odist) {
  if (howmany < 1)
    throw InvalidArgument(function, "howmany = " + std::to_string(howmany),
                          "howmany must be >= 1 (skip the call for an empty batch)");
  return {IoDim{howmany, idist, odist}};
}

std::vector<std::int64_t> padded_real_embed(const char* function, const std::vector<std::int64_t>& n, bool in_place) {
  if (!in_place || n.empty()) return {};
  for (std::size_t k = 0; k < n.size(); ++k)
    if (n[k] < 1)
      throw trncore::InvalidArgument(function, "n[" + std::to_string(k) + "] = " + std::to_string(n[k]),
                                     "every transform length must be >= 1");
  std::vector<std::int64_t> e = n;
  e.back() = 2 * (n.back() / 2 + 1);
  return e;
}

}  // namespace trnfft::detail
