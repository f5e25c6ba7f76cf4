// Seed 002's belt drive set up (section 4, eq. 35-36): the closed belt's geometry and its
// frictionless static pre-solve against the belt theory: a uniform pre-tension of
// -EA eps_ref = 400 N, the contact pressure T / (r b) on the pulleys and each pulley's
// reaction 2 T.
#include "ancf/belt_drive.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace jointdyn::ancf {
namespace {

// Seed 002's belt on its two pulleys (tables 2-3; examples/belt_drive/seed_belt_drive.yaml
// is the whole drive) without gravity, the belt theory's case.
CableModel SeedBelt() {
  const double r = 0.09995, offset = 5e-5, width = 0.08;
  CableModel m = ClosedBelt({0.0, 0.0}, {0.1 * M_PI, 0.0}, r + offset, 240,
                            {.axial_stiffness = 8000.0,
                             .bending_stiffness = 4.0 / 3.0 * 1e-3,
                             .mass_per_length = 0.8288,
                             .axial_damping = 1.0},
                            -0.05);
  m.pulleys = {Pulley{.radius = r, .inertia = 0.25},
               Pulley{.centre = {0.1 * M_PI, 0.0}, .radius = r, .inertia = 0.25}};
  m.contact = {.width = width,
               .offset = offset,
               .normal_stiffness = 4e9,
               .normal_damping = 8e4,
               .segments = 4};
  return m;
}

TEST(BeltDrive, ClosedBeltFollowsTheGeometry) {
  const double r = 0.1, d = 0.1 * M_PI;
  const CableModel m = ClosedBelt({0.0, 0.0}, {d, 0.0}, r, 240,
                                  {.axial_stiffness = 8000.0, .mass_per_length = 0.8}, -0.05);
  EXPECT_EQ(m.nodes.rows(), 240);
  EXPECT_EQ(m.elements.back().b, 0);  // closed
  double length = 0.0, off_path = 0.0, slope = 0.0;
  for (const CableModel::Element& e : m.elements) length += e.data.length;
  for (int i = 0; i < 240; ++i) {
    const Vec2 p = m.nodes.row(i).head<2>();
    const Vec2 centre = p.x() < 0.0 ? Vec2(0.0, 0.0) : p.x() > d ? Vec2(d, 0.0) : Vec2(p.x(), 0.0);
    off_path = std::max(off_path, std::abs((p - centre).norm() - r));
    slope = std::max(slope, std::abs(m.nodes.row(i).tail<2>().norm() - 1.0));
  }
  EXPECT_NEAR(length, 0.4 * M_PI, 1e-12);  // eq. 35
  EXPECT_LT(off_path, 1e-12);
  EXPECT_LT(slope, 1e-12);
  EXPECT_LT((m.nodes.row(0).head<2>() - Vec2(0.0, r).transpose()).norm(), 1e-15);
}

TEST(BeltDrive, StaticPreSolveGivesThePreTensionAndPressure) {
  CableModel m = SeedBelt();
  ASSERT_TRUE(PreSolve(m).status);
  CableSystem system(m);
  const VecX q = system.InitialPositions(), v = VecX::Zero(system.size());
  double lowest = 1e9, highest = 0.0;
  for (size_t e = 0; e < m.elements.size(); ++e)
    for (const double x : {0.0, 0.5, 1.0}) {
      const double t = m.section.axial_stiffness *
                       (AxialStrain(system.ElementCoordinates(int(e), q), m.elements[e].data.length,
                                    x * m.elements[e].data.length) -
                        m.elements[e].data.reference_strain);
      lowest = std::min(lowest, t);
      highest = std::max(highest, t);
    }
  // Each pulley's contact: the belt's total push and the pressure on the wrapped half.
  const ContactLaw& law = m.contact;
  const double tension = 0.5 * (lowest + highest);
  for (int p = 0; p < 2; ++p) {
    const Pulley& pulley = m.pulleys[p];
    Vec2 total = Vec2::Zero();
    double pressure_low = 1e12, pressure_high = 0.0;
    const CircleState circle{pulley.centre, pulley.radius, 0.0, 0.0};
    for (size_t e = 0; e < m.elements.size(); ++e)
      for (int s = 0; s < law.segments; ++s) {
        const SegmentState& state = system.Segment(p, int(e), s);
        if (state.gap > 0.0) continue;
        const ElementVector qe = system.ElementCoordinates(int(e), q);
        const SegmentForces f = SegmentContactForces(law, circle, m.elements[e].data.length, s,
                                                     state, qe, ElementVector::Zero());
        total += f.normal * Vec2(qe.segment<2>(0) - pulley.centre).normalized();
        const double p_seg = f.normal / (law.width * m.elements[e].data.length / law.segments);
        const double middle_x = qe(0) - pulley.centre.x();  // away from the tangent points
        if (std::abs(middle_x) > 0.5 * pulley.radius && (p == 0) == (middle_x < 0.0)) {
          pressure_low = std::min(pressure_low, p_seg);
          pressure_high = std::max(pressure_high, p_seg);
        }
      }
    const double theory = tension / ((pulley.radius + law.offset) * law.width);
    std::printf(
        "pulley %d: contact force %.2f N (2 T = %.2f N), pressure %.0f .. %.0f Pa (T / r b "
        "= %.0f Pa)\n",
        p + 1, total.norm(), 2.0 * tension, pressure_low, pressure_high, theory);
    EXPECT_NEAR(total.norm() / (2.0 * tension), 1.0, 5e-3);
    EXPECT_NEAR(pressure_low / theory, 1.0, 0.05);
    EXPECT_NEAR(pressure_high / theory, 1.0, 0.05);
  }
  std::printf("belt pre-tension %.3f .. %.3f N (-EA eps_ref = 400 N)\n", lowest, highest);
  EXPECT_NEAR(lowest, 400.0, 2.0);  // the belt sinks into the pulleys by p / k_c
  EXPECT_NEAR(highest, 400.0, 2.0);
}

}  // namespace
}  // namespace jointdyn::ancf
