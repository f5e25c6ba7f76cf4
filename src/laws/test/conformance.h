// The one conformance suite every interface law passes (ARCHITECTURE.md, "Conventions").
//
// Tangential laws: consistent tangent against central differences at seeded random
// states (relative error < 1e-6 away from switching points), zero traction at the virgin
// state, non-negative dissipation over closed cycles, evaluate/commit/rollback
// idempotence, and identical loops at 1 Hz and 1 kHz for rate-independent laws.
// Normal laws: tangents against central differences, zero pressure when open, p >= 0,
// stored energy consistent with the pressure, non-negative dissipation over a cycle.
//
// A family registers its laws with
//   INSTANTIATE_TEST_SUITE_P(Family, TangentialConformance, ::testing::ValuesIn(cases));
//   INSTANTIATE_TEST_SUITE_P(Family, NormalConformance, ::testing::ValuesIn(cases));
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "laws/law_point.h"
#include "laws/normal_law.h"
#include "laws/tangential_law.h"

namespace jointdyn::laws::conformance {

struct TangentialCase {
  std::string name;  // unique, [A-Za-z0-9_] only (gtest parameter name)
  std::function<std::unique_ptr<TangentialLaw>()> make;
  double slip_scale = 1e-5;  // typical slip amplitude, a few stick ranges [m]
  double pressure = 1e6;     // typical normal pressure [Pa]
  double dt = 1e-3;          // increment length used for rate-dependent laws [s]
};

struct NormalCase {
  std::string name;
  std::function<std::unique_ptr<NormalLaw>()> make;
  double gap_scale = 1e-5;       // typical penetration depth [m]
  double gap_rate_scale = 1e-3;  // typical gap rate [m/s]
};

inline void PrintTo(const TangentialCase& c, std::ostream* os) { *os << c.name; }
inline void PrintTo(const NormalCase& c, std::ostream* os) { *os << c.name; }

class TangentialConformance : public ::testing::TestWithParam<TangentialCase> {};
class NormalConformance : public ::testing::TestWithParam<NormalCase> {};

// Name generator for INSTANTIATE_TEST_SUITE_P.
struct CaseName {
  template <class Info>
  std::string operator()(const Info& info) const {
    return info.param.name;
  }
};

}  // namespace jointdyn::laws::conformance
