#pragma once
// Preprocessor helpers for the symbol tables (fortran_functions.inc, cblas_functions.inc): a table row
// lists a function's parameter *types* only; these macros turn the type list into a parameter list with
// positional names (t1 a1, t2 a2, ...) and the matching argument list (a1, a2, ...), so one row yields
// the declaration, the exported forwarder and the __wrap_ forwarder of the function. Up to 16 parameters
// (the longest BLAS signature, ?trmm_/?trsm_ with four hidden string lengths, has 15).

#define TRNBLAS_DROPIN_CAT(a, b) TRNBLAS_DROPIN_CAT_(a, b)
#define TRNBLAS_DROPIN_CAT_(a, b) a##b
/// Parameter list "t1 a1, t2 a2, ..." of the types given.
#define TRNBLAS_DROPIN_PARAMS(...) \
  TRNBLAS_DROPIN_CAT(TRNBLAS_DROPIN_PARAMS_, TRNBLAS_DROPIN_NARGS(__VA_ARGS__))(__VA_ARGS__)
/// Argument list "a1, a2, ..." matching TRNBLAS_DROPIN_PARAMS of the same types.
#define TRNBLAS_DROPIN_ARGS(...) \
  TRNBLAS_DROPIN_CAT(TRNBLAS_DROPIN_ARGS_, TRNBLAS_DROPIN_NARGS(__VA_ARGS__))(__VA_ARGS__)

// clang-format off
#define TRNBLAS_DROPIN_NARGS(...) TRNBLAS_DROPIN_NARGS_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define TRNBLAS_DROPIN_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, n, ...) n
#define TRNBLAS_DROPIN_PARAMS_1(t1) t1 a1
#define TRNBLAS_DROPIN_PARAMS_2(t1, t2) t1 a1, t2 a2
#define TRNBLAS_DROPIN_PARAMS_3(t1, t2, t3) t1 a1, t2 a2, t3 a3
#define TRNBLAS_DROPIN_PARAMS_4(t1, t2, t3, t4) t1 a1, t2 a2, t3 a3, t4 a4
#define TRNBLAS_DROPIN_PARAMS_5(t1, t2, t3, t4, t5) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5
#define TRNBLAS_DROPIN_PARAMS_6(t1, t2, t3, t4, t5, t6) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6
#define TRNBLAS_DROPIN_PARAMS_7(t1, t2, t3, t4, t5, t6, t7) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7
#define TRNBLAS_DROPIN_PARAMS_8(t1, t2, t3, t4, t5, t6, t7, t8) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8
#define TRNBLAS_DROPIN_PARAMS_9(t1, t2, t3, t4, t5, t6, t7, t8, t9) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9
#define TRNBLAS_DROPIN_PARAMS_10(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9, t10 a10
#define TRNBLAS_DROPIN_PARAMS_11(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9, t10 a10, t11 a11
#define TRNBLAS_DROPIN_PARAMS_12(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9, t10 a10, t11 a11, t12 a12
#define TRNBLAS_DROPIN_PARAMS_13(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9, t10 a10, t11 a11, t12 a12, t13 a13
#define TRNBLAS_DROPIN_PARAMS_14(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9, t10 a10, t11 a11, t12 a12, t13 a13, t14 a14
#define TRNBLAS_DROPIN_PARAMS_15(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9, t10 a10, t11 a11, t12 a12, t13 a13, t14 a14, t15 a15
#define TRNBLAS_DROPIN_PARAMS_16(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16) t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6, t7 a7, t8 a8, t9 a9, t10 a10, t11 a11, t12 a12, t13 a13, t14 a14, t15 a15, t16 a16
#define TRNBLAS_DROPIN_ARGS_1(t1) a1
#define TRNBLAS_DROPIN_ARGS_2(t1, t2) a1, a2
#define TRNBLAS_DROPIN_ARGS_3(t1, t2, t3) a1, a2, a3
#define TRNBLAS_DROPIN_ARGS_4(t1, t2, t3, t4) a1, a2, a3, a4
#define TRNBLAS_DROPIN_ARGS_5(t1, t2, t3, t4, t5) a1, a2, a3, a4, a5
#define TRNBLAS_DROPIN_ARGS_6(t1, t2, t3, t4, t5, t6) a1, a2, a3, a4, a5, a6
#define TRNBLAS_DROPIN_ARGS_7(t1, t2, t3, t4, t5, t6, t7) a1, a2, a3, a4, a5, a6, a7
#define TRNBLAS_DROPIN_ARGS_8(t1, t2, t3, t4, t5, t6, t7, t8) a1, a2, a3, a4, a5, a6, a7, a8
#define TRNBLAS_DROPIN_ARGS_9(t1, t2, t3, t4, t5, t6, t7, t8, t9) a1, a2, a3, a4, a5, a6, a7, a8, a9
#define TRNBLAS_DROPIN_ARGS_10(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10) a1, a2, a3, a4, a5, a6, a7, a8, a9, a10
#define TRNBLAS_DROPIN_ARGS_11(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11) a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11
#define TRNBLAS_DROPIN_ARGS_12(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12) a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12
#define TRNBLAS_DROPIN_ARGS_13(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13) a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13
#define TRNBLAS_DROPIN_ARGS_14(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14) a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14
#define TRNBLAS_DROPIN_ARGS_15(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15) a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15
#define TRNBLAS_DROPIN_ARGS_16(t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16) a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16
// clang-format on
