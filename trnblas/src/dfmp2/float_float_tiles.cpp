#include "dfmp2/float_float_tiles.hpp"

namespace trnblas::detail {

using trncore::sim::AluOp;
using trncore::sim::DType;
using trncore::sim::Tile;

Tile FloatFloatTiles::tile(const std::string& name) const { return core_.sbuf(name, partitions_, free_, DType::fp32); }

Tile FloatFloatTiles::op(const Tile& a, const Tile& b, AluOp o) const {
  Tile out = tile("ff.t");
  core_.tensor_tensor(out, a, b, o);
  return out;
}

Tile FloatFloatTiles::op(const Tile& a, float s, AluOp o) const {
  Tile out = tile("ff.s");
  core_.tensor_scalar(out, a, s, o);
  return out;
}

FfTile FloatFloatTiles::constant(float hi, float lo, const std::string& name) const {
  FfTile c = zero(name);  // zero-filled at allocation: adding the constant writes it exactly
  core_.tensor_scalar(c.hi, c.hi, hi, AluOp::add);
  core_.tensor_scalar(c.lo, c.lo, lo, AluOp::add);
  return c;
}

FfTile FloatFloatTiles::two_sum(const Tile& a, const Tile& b) const {
  Tile s = op(a, b, AluOp::add);
  Tile bv = op(s, a, AluOp::subtract);
  Tile av = op(s, bv, AluOp::subtract);
  Tile eb = op(b, bv, AluOp::subtract);
  Tile ea = op(a, av, AluOp::subtract);
  return {std::move(s), op(ea, eb, AluOp::add)};
}

FfTile FloatFloatTiles::fast_two_sum(const Tile& a, const Tile& b) const {
  Tile s = op(a, b, AluOp::add);
  Tile z = op(s, a, AluOp::subtract);
  return {std::move(s), op(b, z, AluOp::subtract)};
}

FfTile FloatFloatTiles::two_prod(const Tile& a, const Tile& b) const {
  // Veltkamp: c = (2^12 + 1)·x, xh = c − (c − x), xl = x − xh; xh and xl have at most 12 significant bits,
  // so every partial product below is exact in fp32 and Dekker's sum recovers the rounding error of a·b.
  const auto split = [&](const Tile& x) {
    Tile c = op(x, 4097.0f, AluOp::multiply);
    Tile d = op(c, x, AluOp::subtract);
    Tile xh = op(c, d, AluOp::subtract);
    Tile xl = op(x, xh, AluOp::subtract);
    return FfTile{std::move(xh), std::move(xl)};
  };
  Tile p = op(a, b, AluOp::multiply);
  const FfTile as = split(a);
  const FfTile bs = split(b);
  Tile t = op(op(as.hi, bs.hi, AluOp::multiply), p, AluOp::subtract);
  t = op(t, op(as.hi, bs.lo, AluOp::multiply), AluOp::add);
  t = op(t, op(as.lo, bs.hi, AluOp::multiply), AluOp::add);
  t = op(t, op(as.lo, bs.lo, AluOp::multiply), AluOp::add);
  return {std::move(p), std::move(t)};
}

FfTile FloatFloatTiles::add(const FfTile& x, const FfTile& y) const {
  // AccurateDWPlusDW.
  const FfTile s = two_sum(x.hi, y.hi);
  const FfTile t = two_sum(x.lo, y.lo);
  const FfTile v = fast_two_sum(s.hi, op(s.lo, t.hi, AluOp::add));
  return fast_two_sum(v.hi, op(t.lo, v.lo, AluOp::add));
}

FfTile FloatFloatTiles::sub(const FfTile& x, const FfTile& y) const {
  const FfTile neg{op(y.hi, -1.0f, AluOp::multiply), op(y.lo, -1.0f, AluOp::multiply)};
  return add(x, neg);
}

FfTile FloatFloatTiles::mul(const FfTile& x, const FfTile& y) const {
  // DWTimesDW1.
  const FfTile c = two_prod(x.hi, y.hi);
  Tile cl2 = op(op(x.hi, y.lo, AluOp::multiply), op(x.lo, y.hi, AluOp::multiply), AluOp::add);
  return fast_two_sum(c.hi, op(c.lo, cl2, AluOp::add));
}

FfTile FloatFloatTiles::mul_word(const FfTile& x, const Tile& y) const {
  // DWTimesFP1.
  const FfTile c = two_prod(x.hi, y);
  Tile cl2 = op(x.lo, y, AluOp::multiply);
  const FfTile t = fast_two_sum(c.hi, cl2);
  return fast_two_sum(t.hi, op(t.lo, c.lo, AluOp::add));
}

FfTile FloatFloatTiles::div(const FfTile& x, const FfTile& y) const {
  // DWDivDW1: th = xh/yh, r = y·th, δ = (xh − rh) + (xl − rl), tl = δ/yh.
  Tile th = op(x.hi, y.hi, AluOp::divide);
  const FfTile r = mul_word(y, th);
  Tile delta = op(op(x.hi, r.hi, AluOp::subtract), op(x.lo, r.lo, AluOp::subtract), AluOp::add);
  return fast_two_sum(th, op(delta, y.hi, AluOp::divide));
}

FfTile FloatFloatTiles::scale_pow2(const FfTile& x, float c) const {
  return {op(x.hi, c, AluOp::multiply), op(x.lo, c, AluOp::multiply)};
}

}  // namespace trnblas::detail
