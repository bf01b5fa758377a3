#include <trnblas/types.hpp>
#include <trncore/detail/enum_names.hpp>

namespace trnblas {

namespace {

using trncore::detail::EnumNames;

constexpr EnumNames<Op, 3> kOps{{{{"no_trans", Op::no_trans}, {"trans", Op::trans}, {"conj_trans", Op::conj_trans}}}};
constexpr EnumNames<Uplo, 2> kUplos{{{{"upper", Uplo::upper}, {"lower", Uplo::lower}}}};
constexpr EnumNames<Diag, 2> kDiags{{{{"non_unit", Diag::non_unit}, {"unit", Diag::unit}}}};
constexpr EnumNames<Side, 2> kSides{{{{"left", Side::left}, {"right", Side::right}}}};

}  // namespace

std::string_view to_string(Op v) noexcept { return kOps.name(v); }
std::string_view to_string(Uplo v) noexcept { return kUplos.name(v); }
std::string_view to_string(Diag v) noexcept { return kDiags.name(v); }
std::string_view to_string(Side v) noexcept { return kSides.name(v); }
Op parse_op(std::string_view t) { return kOps.parse(t, "trnblas::parse_op", "op"); }
Uplo parse_uplo(std::string_view t) { return kUplos.parse(t, "trnblas::parse_uplo", "uplo"); }
Diag parse_diag(std::string_view t) { return kDiags.parse(t, "trnblas::parse_diag", "diag"); }
Side parse_side(std::string_view t) { return kSides.parse(t, "trnblas::parse_side", "side"); }

}  // namespace trnblas
