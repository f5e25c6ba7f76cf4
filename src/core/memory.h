// The memory bound on sizes read from input: a count or size whose estimated memory
// exceeds the memory the process may use is an input error (it could only end in
// std::bad_alloc, or in swapping for minutes), found before anything is allocated.
#pragma once

#include <cstdint>
#include <string>

namespace jointdyn {

// The machine's physical memory [bytes] (sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGE_SIZE));
// 0 when the system does not tell.
std::uint64_t PhysicalMemory();

// The memory this process may use [bytes]: the physical memory, lowered by the memory limit
// of its control group (a container or a batch job: cgroup v2 `memory.max`, v1
// `memory.limit_in_bytes`) and by SetMemoryBound. 0 when nothing is known.
std::uint64_t MemoryBound();

// Lowers MemoryBound for this process (a fuzz target sets its fuzzer's memory limit, an
// embedding program its own share); 0 removes the bound set earlier.
void SetMemoryBound(std::uint64_t bytes);

// Bytes for messages with a binary-prefixed unit: "512 B", "3.2 kB", "48 GB", "1.5e+03 TB".
std::string FormatBytes(double bytes);

// Empty when `bytes` (an estimate of what a request needs) fit in MemoryBound(), else the
// rule for a message: "needs 48 GB for <what> but the machine has 23 GB of memory" (or
// "... but this process may use 2.0 GB of memory" under a lower bound). `bytes` may be
// huge or infinite (computed in double, it never overflows).
std::string ExceedsMemory(double bytes, const std::string& what);

}  // namespace jointdyn
