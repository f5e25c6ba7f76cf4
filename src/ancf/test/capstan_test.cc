// Contact with friction between an ANCF cable and a circle (seed 002 sections 2.2-2.5):
// the segment forces' tangents against central differences in stick, slip and at first
// contact, and a belt hanging over a fixed sheave with different end loads, which sticks
// below the capstan formula's ratio T1 / T2 = e^(mu pi) and slides above it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "ancf/cable_system.h"
#include "time/integrator.h"

namespace jointdyn::ancf {
namespace {

ContactLaw Law() {
  return {.width = 0.02,
          .offset = 0.0,
          .normal_stiffness = 1e9,
          .normal_damping = 1e5,
          .friction = 0.3,
          .bristle_stiffness = 1e9,
          .velocity_penalty = 1e4,
          .segments = 4};
}

// K and D of the forces of a segment (N = 9: on the element and the circle's angle; 11: and
// its centre) by central differences: steps of 1e-9 in positions (the penalty's 1e9 N/m^3),
// 1e-5 in rates (the forces are linear in them).
template <int N, class Forces>
std::pair<Eigen::Matrix<double, N, N>, Eigen::Matrix<double, N, N>> Differences(
    const Forces& forces, const ElementVector& q, const ElementVector& v,
    const CircleState& circle) {
  const double h = 1e-9, hv = 1e-5;
  Eigen::Matrix<double, N, N> k, d;
  for (int j = 0; j < N; ++j) {
    ElementVector qp = q, qm = q, vp = v, vm = v;
    CircleState cp = circle, cm = circle, rp = circle, rm = circle;
    if (j < 8) {
      qp(j) += h, qm(j) -= h, vp(j) += hv, vm(j) -= hv;
    } else if (j == 8) {
      cp.angle += h, cm.angle -= h, rp.rate += hv, rm.rate -= hv;
    } else {
      cp.centre(j - 9) += h, cm.centre(j - 9) -= h;
      rp.velocity(j - 9) += hv, rm.velocity(j - 9) -= hv;
    }
    k.col(j) = (forces(qp, v, cp).f - forces(qm, v, cm).f) / (2 * h);
    d.col(j) = (forces(q, vp, rp).f - forces(q, vm, rm).f) / (2 * hv);
  }
  return {k, d};
}

// An element on the circle's top, pressed in by 5 um, moving, and the circle turning.
void PressedElement(const Vec2& centre, double r, double length, ElementVector& q,
                    ElementVector& v) {
  const double a0 = 1.2, a1 = a0 - length / r, rb = r - 5e-6;
  q << rb * std::cos(a0), rb * std::sin(a0), std::sin(a0), -std::cos(a0), rb * std::cos(a1),
      rb * std::sin(a1), std::sin(a1), -std::cos(a1);
  for (int i : {0, 4}) q.segment<2>(i) += centre;
  v << 0.3, -0.1, 0.02, 0.01, 0.31, -0.12, -0.01, 0.02;
}

// The segment forces' tangents against central differences in stick, slip and at first
// contact, with either sticking length.
TEST(CircleContact, SegmentForceTangentsMatchDifferences) {
  const double r = 0.1, length = 0.02;
  ElementVector q, v;
  PressedElement(Vec2::Zero(), r, length, q, v);
  const CircleState circle{Vec2::Zero(), r, 0.4, 2.5};
  for (const StickLength stick : {StickLength::kReference, StickLength::kCurrent})
    for (const SegmentState state : {SegmentState{-1e-6, -2, 0.0}, SegmentState{-1e-6, 0, 0.0123},
                                     SegmentState{-1e-6, 1, 0.0}}) {
      ContactLaw law = Law();
      law.stick_length = stick;
      const auto forces = [&](const ElementVector& qe, const ElementVector& ve,
                              const CircleState& c) {
        return SegmentContactForces(law, c, length, 1, state, qe, ve);
      };
      const SegmentForces at = forces(q, v, circle);
      EXPECT_GT(at.normal, 0.0);
      const auto [k, d] = Differences<9>(forces, q, v, circle);
      EXPECT_LT((at.k - k).lpNorm<Eigen::Infinity>(), 1e-5 * k.lpNorm<Eigen::Infinity>())
          << "slip state " << state.slip;
      EXPECT_LT((at.d - d).lpNorm<Eigen::Infinity>(), 1e-5 * d.lpNorm<Eigen::Infinity>())
          << "slip state " << state.slip;
    }
}

// A moving circle: the forces on (element, angle, centre) from MovingCentre against central
// differences in all 11 positions (the centre moved) and rates (the centre's velocity).
TEST(CircleContact, MovingCentreForcesMatchDifferences) {
  const ContactLaw law = Law();
  const double r = 0.1, length = 0.02;
  const Vec2 centre(0.3, -0.2);
  ElementVector q, v;
  PressedElement(centre, r, length, q, v);
  const CircleState circle{centre, r, 0.4, 2.5, Vec2(0.05, -0.03)};
  const SegmentState state{-1e-6, 0, 0.0123};
  const auto forces = [&](const ElementVector& qe, const ElementVector& ve, const CircleState& c) {
    return MovingCentre(SegmentContactForces(law, c, length, 1, state, qe, ve));
  };
  const CentreForces at = forces(q, v, circle);
  EXPECT_NEAR(at.f.segment<2>(9).norm(), (at.f.segment<2>(0) + at.f.segment<2>(4)).norm(), 1e-12);
  const auto [k, d] = Differences<11>(forces, q, v, circle);
  EXPECT_LT((at.k - k).lpNorm<Eigen::Infinity>(), 1e-5 * k.lpNorm<Eigen::Infinity>());
  EXPECT_LT((at.d - d).lpNorm<Eigen::Infinity>(), 1e-5 * d.lpNorm<Eigen::Infinity>());
}

// A belt (EA 2e4 N) over a sheave of radius 0.1 m (half wrap, centre at the origin), its
// 0.2 m spans hanging down (8 elements each, 16 on the arc); no gravity.
constexpr double kRadius = 0.1, kSpan = 0.2;
constexpr int kSpanElements = 8, kArcElements = 16;

CableModel BeltOverSheave() {
  CableModel m;
  m.section = {.axial_stiffness = 2e4,
               .bending_stiffness = 1e-4,
               .mass_per_length = 0.1,
               .axial_damping = 2.0,
               .bending_damping = 1e-6};
  std::vector<Eigen::Vector4d> nodes;
  for (int i = 0; i < kSpanElements; ++i)
    nodes.push_back({-kRadius, -kSpan + i * kSpan / kSpanElements, 0.0, 1.0});
  for (int j = 0; j <= kArcElements; ++j) {
    const double a = M_PI - j * M_PI / kArcElements;
    nodes.push_back({kRadius * std::cos(a), kRadius * std::sin(a), std::sin(a), -std::cos(a)});
  }
  for (int i = 1; i <= kSpanElements; ++i)
    nodes.push_back({kRadius, -i * kSpan / kSpanElements, 0.0, -1.0});
  m.nodes.resize(int(nodes.size()), 4);
  for (size_t i = 0; i < nodes.size(); ++i) m.nodes.row(int(i)) = nodes[i].transpose();
  for (int e = 0; e + 1 < int(nodes.size()); ++e) {
    const bool arc = e >= kSpanElements && e < kSpanElements + kArcElements;
    m.elements.push_back(
        {e, e + 1, {.length = arc ? kRadius * M_PI / kArcElements : kSpan / kSpanElements}});
  }
  m.pulleys = {{.radius = kRadius,
                .inertia = 1e-3,
                .driven = true,
                .motion = time::TimeFunction::Constant(0.0)}};
  m.contact = Law();
  return m;
}

struct BeltRun {
  VecX q;  // at the end
  time::TransientResult result;
};

BeltRun RunBelt(CableSystem& system, double t_end) {
  time::IntegratorOptions options;
  options.alpha = -0.1;
  options.t_end = t_end;
  options.dt = 1e-4;
  options.position_scale = kSpan;
  options.force_scale = 10.0;
  options.newton.line_search = solvers::LineSearch::kNone;
  options.post_newton_tolerance = 1e-3;  // [N]
  BeltRun run;
  run.result =
      time::Integrate(system, options, system.InitialPositions(), system.InitialVelocities(),
                      [&](const time::StepRecord& rec) { run.q = *rec.q; });
  EXPECT_TRUE(run.result.status) << run.result.status.message;
  return run;
}

// EA eps of element e at x.
double Tension(const CableSystem& system, const VecX& q, int e, double x) {
  return system.model().section.axial_stiffness *
         AxialStrain(system.ElementCoordinates(e, q), system.model().elements[e].data.length, x);
}

// The belt over the fixed sheave loaded at its ends by T1 (left) and T2 = 10 N (right),
// smoothly over 0.05 s: how far it has slid towards T1 after 0.12 s [m].
double SlideOverSheave(double ratio) {
  CableModel m = BeltOverSheave();
  const int last = int(m.nodes.rows()) - 1, top = kSpanElements + kArcElements / 2;
  m.loads = {{0, 1, time::TimeFunction::SmoothStep0(-ratio * 10.0, 0.1)},
             {last, 1, time::TimeFunction::SmoothStep0(-10.0, 0.1)}};
  CableSystem system(m);
  const BeltRun run = RunBelt(system, 0.12);
  const double slid = kRadius * (std::atan2(run.q(4 * top + 1), run.q(4 * top)) - 0.5 * M_PI);
  std::printf(
      "belt over a fixed sheave, T1 / T2 = %.3f (capstan e^(mu pi) = %.3f): slid %.3e m "
      "towards T1; %d steps, %d post-Newton passes; at the end %d sticking, %d slipping "
      "segments\n",
      ratio, std::exp(0.3 * M_PI), slid, run.result.accepted_steps, run.result.post_newton_passes,
      system.CountContact(0), system.CountContact(1) + system.CountContact(-1));
  return slid;
}

TEST(Capstan, BeltSticksBelowTheCapstanRatioAndSlidesAbove) {
  const double capstan = std::exp(0.3 * M_PI);
  EXPECT_LT(std::abs(SlideOverSheave(0.95 * capstan)), 2e-3);  // the spans' elastic stretch
  EXPECT_GT(SlideOverSheave(1.05 * capstan), 2e-2);
}

// The belt's right end held, its left end loaded by T1 = 10 N, the sheave turning slowly
// clockwise (its surface moving under the belt towards the held end): the belt slips on the
// whole arc and stays where it is, friction pushing it towards the held span, whose force
// falls to T1 e^(-mu pi).
TEST(Capstan, TurningSheaveDragsTheBeltToTheCapstanRatio) {
  CableModel m = BeltOverSheave();
  const int last = int(m.nodes.rows()) - 1;
  m.fixed = {4 * last, 4 * last + 1};
  m.loads = {{0, 1, time::TimeFunction::SmoothStep0(-10.0, 0.1)}};
  m.pulleys[0].motion = time::TimeFunction::Ramp(0.0, -0.5);  // [rad/s]
  CableSystem system(m);
  const BeltRun run = RunBelt(system, 0.15);
  const int right = kSpanElements + kArcElements;  // the held span's first element
  const double held = Tension(system, run.q, right + kSpanElements / 2, 0.0);
  const double pulled = Tension(system, run.q, kSpanElements / 2, 0.0);
  const double capstan = std::exp(0.3 * M_PI);
  std::printf(
      "belt dragged by a turning sheave: span forces %.3f N (pulled) and %.3f N (held), "
      "ratio %.4f, capstan %.4f (%+.2e); %d slipping, %d sticking segments\n",
      pulled, held, pulled / held, capstan, pulled / held / capstan - 1.0,
      system.CountContact(1) + system.CountContact(-1), system.CountContact(0));
  EXPECT_NEAR(pulled, 10.0, 0.05);
  EXPECT_NEAR(pulled / held / capstan, 1.0, 0.01);
}

}  // namespace
}  // namespace jointdyn::ancf
