// The multibody analysis' energy-gain warning (analysis/multibody.h): silent while the laws
// dissipate or store, raised once they have gained more than 0.1 % of the energy.
#include "analysis/multibody.h"

#include <gtest/gtest.h>

namespace jointdyn::analysis {
namespace {

TEST(EnergyGainWarning, RaisedWhenTheLawsGainMoreThanATenthOfAPercent) {
  time::EnergyBalance e;
  e.external_work = 2.0;
  e.kinetic = 1.5;
  e.stored = 0.4;
  e.law_dissipation = 0.1;  // dissipating
  EXPECT_EQ(EnergyGainWarning(e, 0.5), "");
  e.law_dissipation = -1.9e-3;  // below 0.1 % of 2 J: rounding of the balance
  EXPECT_EQ(EnergyGainWarning(e, 0.5), "");
  e.law_dissipation = -2.1e-3;
  const std::string warning = EnergyGainWarning(e, 0.5);
  EXPECT_NE(warning.find("gained 0.0021 J by t = 0.5 s"), std::string::npos) << warning;
  EXPECT_NE(warning.find("alpha"), std::string::npos) << warning;
  time::EnergyBalance rest;  // nothing moves: no scale, no warning
  EXPECT_EQ(EnergyGainWarning(rest, 0.0), "");
}

}  // namespace
}  // namespace jointdyn::analysis
