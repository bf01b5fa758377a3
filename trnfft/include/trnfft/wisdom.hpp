#pragma once
/// @file
/// FFTW wisdom: what the planner learned with Rigor::measure and above, saved and restored so later
/// runs plan fast without timing again. Wisdom is kept per precision (T = float: fftw3f, double: fftw3).
/// Every function holds planner_mutex() while it calls FFTW, so it is safe against concurrent planning.

#include <trnfft/types.hpp>

#include <string>
#include <string_view>

namespace trnfft {

/// The accumulated wisdom of precision T, in FFTW's text format (fftw_export_wisdom_to_string).
template <Real T>
std::string export_wisdom();

/// Merges wisdom text (from export_wisdom<T>() of a compatible FFTW build) into the planner's.
/// @throws trncore::ParseError (line and column 0: FFTW does not say where) when FFTW rejects the text;
///         the wisdom held before is unchanged then.
template <Real T>
void import_wisdom(std::string_view text);

/// Writes export_wisdom<T>() to the file at `path` (replacing it).
/// @throws trncore::IoError naming the path when it cannot be written.
template <Real T>
void export_wisdom_to_file(const std::string& path);

/// Reads wisdom from the file at `path` and merges it, as import_wisdom.
/// @throws trncore::IoError naming the path when it cannot be read; trncore::ParseError when FFTW
///         rejects its contents.
template <Real T>
void import_wisdom_from_file(const std::string& path);

/// Forgets all wisdom of precision T (fftw_forget_wisdom). Existing plans keep working.
template <Real T>
void forget_wisdom();

}  // namespace trnfft
