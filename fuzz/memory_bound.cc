// Linked into every fuzz target: the memory bound on sizes read from input is lowered from
// the machine's memory to a share of libFuzzer's RSS limit (2 GB by default, and ASan
// roughly doubles what a program uses), so a model that asks for gigabytes is the input
// error a user would get on a small machine rather than the fuzzer's out-of-memory stop.
#include <cstdint>

#include "core/memory.h"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  jointdyn::SetMemoryBound(std::uint64_t{256} << 20);
  return 0;
}
