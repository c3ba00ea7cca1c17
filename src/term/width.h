// How wide text output may be: --width N, else the terminal's width when standard output is
// one, else 100 columns (a pipe, a file, a projector's default font).
#pragma once

#include <cstddef>

namespace idemlab {

inline constexpr size_t kDefaultWidth = 100;
inline constexpr size_t kMinWidth = 60;

size_t output_width();
void set_output_width(size_t width);

}  // namespace idemlab
