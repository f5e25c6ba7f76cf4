#include "core/memory.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace jointdyn {

std::uint64_t PhysicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::string FormatBytes(double bytes) {
  if (!std::isfinite(bytes)) return "more than 1e308 B";
  static const char* const kUnits[] = {"B", "kB", "MB", "GB", "TB"};
  int unit = 0;
  while (unit < 4 && bytes >= 1024.0) {
    bytes /= 1024.0;
    ++unit;
  }
  char text[64];
  if (bytes >= 1e4)  // beyond the largest unit
    std::snprintf(text, sizeof text, "%.2g %s", bytes, kUnits[unit]);
  else
    std::snprintf(text, sizeof text, bytes < 10.0 && unit > 0 ? "%.1f %s" : "%.0f %s", bytes,
                  kUnits[unit]);
  return text;
}

std::string ExceedsMemory(double bytes, const std::string& what) {
  const std::uint64_t memory = PhysicalMemory();
  if (memory == 0 || bytes <= static_cast<double>(memory)) return "";
  return "needs " + FormatBytes(bytes) + " for " + what + " but the machine has " +
         FormatBytes(static_cast<double>(memory)) + " of memory";
}

}  // namespace jointdyn
