// The output width, decided once per process.
#include "term/width.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>

namespace idemlab {

namespace {

size_t terminal_width() {
  winsize size{};
  if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return std::max<size_t>(kMinWidth, size.ws_col);
  return kDefaultWidth;
}

size_t& chosen_width() {
  static size_t width = 0;  // 0: not chosen yet
  return width;
}

}  // namespace

size_t output_width() {
  size_t& width = chosen_width();
  if (width == 0) width = terminal_width();
  return width;
}

void set_output_width(size_t width) {
  chosen_width() = std::max(kMinWidth, width);
}

}  // namespace idemlab
