#include "core/memory.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace jointdyn {
namespace {

std::atomic<std::uint64_t> set_bound{0};

// The number in the first line of `path`, or 0 when the file is missing or says "max".
std::uint64_t ReadLimit(const char* path) {
  std::ifstream file(path);
  std::uint64_t limit = 0;
  if (!(file >> limit)) return 0;
  return limit;
}

// The control group's memory limit [bytes], 0 when there is none. Where cgroup v1 has no
// limit it reports a huge number, which the minimum with the physical memory absorbs.
std::uint64_t GroupLimit() {
  for (const char* path :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"})
    if (const std::uint64_t limit = ReadLimit(path); limit > 0) return limit;
  return 0;
}

// The smaller of two bounds where 0 means "none".
std::uint64_t Lower(std::uint64_t a, std::uint64_t b) {
  if (a == 0) return b;
  if (b == 0) return a;
  return std::min(a, b);
}

}  // namespace

std::uint64_t PhysicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::uint64_t MemoryBound() {
  static const std::uint64_t machine = Lower(PhysicalMemory(), GroupLimit());
  return Lower(machine, set_bound.load());
}

void SetMemoryBound(std::uint64_t bytes) { set_bound.store(bytes); }

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
  const std::uint64_t bound = MemoryBound();
  if (bound == 0 || bytes <= static_cast<double>(bound)) return "";
  const std::string whose = bound < PhysicalMemory() ? "this process may use " : "the machine has ";
  return "needs " + FormatBytes(bytes) + " for " + what + " but " + whose +
         FormatBytes(static_cast<double>(bound)) + " of memory";
}

}  // namespace jointdyn
