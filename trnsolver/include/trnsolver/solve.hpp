#pragma once
/// @file
/// Certified mixed-precision solution of A x = b: LU-IR and three-precision GMRES-IR chosen from a
/// condition estimate to meet `target_forward_error`, with a SolveReport of what was achieved.
