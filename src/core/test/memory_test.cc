#include "core/memory.h"

#include <gtest/gtest.h>

#include <limits>

namespace jointdyn {
namespace {

TEST(Memory, PhysicalMemoryIsKnownOnLinux) { EXPECT_GT(PhysicalMemory(), 1u << 20); }

TEST(Memory, FormatsBytesWithUnits) {
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1536), "1.5 kB");
  EXPECT_EQ(FormatBytes(48.0 * (1ull << 30)), "48 GB");
  EXPECT_EQ(FormatBytes(2e16), "1.8e+04 TB");
  EXPECT_EQ(FormatBytes(std::numeric_limits<double>::infinity()), "more than 1e308 B");
}

TEST(Memory, ExceedsMemoryNamesTheNeedAndTheMachine) {
  EXPECT_EQ(ExceedsMemory(1024.0, "a table"), "");
  const std::string rule = ExceedsMemory(1e30, "a table");
  EXPECT_EQ(rule.rfind("needs ", 0), 0u) << rule;
  EXPECT_NE(rule.find(" for a table but the machine has "), std::string::npos) << rule;
  EXPECT_NE(rule.find(" of memory"), std::string::npos) << rule;
  EXPECT_NE(ExceedsMemory(std::numeric_limits<double>::infinity(), "x"), "");
}

TEST(Memory, ASetBoundLowersTheBoundUntilRemoved) {
  const std::uint64_t machine = MemoryBound();
  EXPECT_GT(machine, 1u << 20);
  EXPECT_LE(machine, PhysicalMemory());
  SetMemoryBound(1u << 20);
  EXPECT_EQ(MemoryBound(), 1u << 20);
  EXPECT_EQ(ExceedsMemory(1000.0, "a table"), "");
  EXPECT_EQ(ExceedsMemory(3.0 * (1u << 20), "a table"),
            "needs 3.0 MB for a table but this process may use 1.0 MB of memory");
  SetMemoryBound(0);
  EXPECT_EQ(MemoryBound(), machine);
  EXPECT_EQ(ExceedsMemory(3.0 * (1u << 20), "a table"), "");
}

}  // namespace
}  // namespace jointdyn
