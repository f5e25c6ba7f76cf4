// Loop energy of every rate-independent tangential law against the three-parameter Coulomb
// reference at the same c1, c2, mu (the table for the model-file documentation), printed
// as W / (4 R_G^2 / c1) and as W / W_Coulomb.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "laws/bouc_wen.h"
#include "laws/coulomb.h"
#include "laws/dahl_valanis.h"
#include "laws/test/rate_independent_paths.h"

namespace jointdyn::laws {
namespace {

constexpr double kC1 = 2e11, kC2 = 1e9, kMu = 0.3, kPressure = 1e6;  // Pa/m, Pa/m, -, Pa
constexpr double kLimit = kMu * kPressure;                           // R_G [Pa]
constexpr double kStick = kLimit / kC1;                              // R_G / c1 [m]

struct Entry {
  const char* label;
  std::unique_ptr<TangentialLaw> law;
};

TEST(FrictionLoopEnergy, RatioToCoulombTable) {
  std::vector<Entry> laws;
  laws.push_back({"coulomb", std::make_unique<CoulombLaw>(CoulombParams{kC1, kC2, kMu}, 1)});
  laws.push_back({"dahl", std::make_unique<DahlValanisLaw>(DahlParams{kC1, kC2, kMu}, 1)});
  for (double kappa : {0.5, 0.9})
    laws.push_back({kappa == 0.5 ? "valanis k=0.5" : "valanis k=0.9",
                    std::make_unique<DahlValanisLaw>(ValanisParams{kC1, kC2, kMu, kappa}, 1)});
  for (double n : {1.0, 2.0, 8.0})
    laws.push_back({n == 1.0 ? "bouc_wen n=1" : (n == 2.0 ? "bouc_wen n=2" : "bouc_wen n=8"),
                    std::make_unique<BoucWenLaw>(BoucWenParams{kC1, kC2, kMu, n}, 1)});
  laws.push_back({"masing n=8", std::make_unique<BoucWenLaw>(MasingParams{kC1, kMu, 8.0}, 1)});

  const double amplitudes[] = {0.5, 1.0, 2.0, 5.0, 10.0, 100.0};  // A / (R_G / c1)
  std::printf("%-14s", "A c1 / R_G");
  for (double a : amplitudes) std::printf("  %17.1f", a);
  std::printf("\n%-14s", "");
  for (size_t i = 0; i < std::size(amplitudes); ++i) std::printf("  %8s %8s", "W/W0", "W/W_C");
  std::printf("   (W0 = 4 R_G^2 / c1)\n");
  for (const Entry& entry : laws) {
    std::printf("%-14s", entry.label);
    for (double a : amplitudes) {
      const double amplitude = a * kStick;
      // Steady loop: 20 cycles where the history decays by ~exp(-2 A c1 / R_G) per half
      // cycle, 4 above; slip steps of at most R_G / (200 c1), so the first-order
      // discretization error of the table is below ~0.3% (see the convergence tests).
      const int per_quarter = std::max(400, int(200 * a));
      const int cycles = a <= 2.0 ? 20 : 4;
      const double work = paths::LastCycleWork(*entry.law, Vec2(1.0, 0.0), amplitude, kPressure,
                                               per_quarter, cycles);
      const double coulomb = paths::CoulombLoopEnergy(kLimit, kC1, amplitude);
      // |z| <= R_G on every law, so the loop energy is at most R_G times the path length 4 A;
      // it is >= 0 up to the round-off of the loop sum (Coulomb in stick: exactly 0).
      EXPECT_GE(work, -1e-12 * kLimit * amplitude) << entry.label << " A " << a;
      EXPECT_LE(work, 4.0 * kLimit * amplitude) << entry.label << " A " << a;
      if (coulomb > 0.0)
        std::printf("  %8.4f %8.4f", work / (4 * kLimit * kStick), work / coulomb);
      else
        std::printf("  %8.4f %8s", work / (4 * kLimit * kStick), "-");
    }
    std::printf("\n");
  }
}

}  // namespace
}  // namespace jointdyn::laws
