#include "ancf/belt_drive.h"

#include <cmath>

namespace jointdyn::ancf {
namespace {

// The point at arc length s of the belt's path and its unit tangent.
std::pair<Vec2, Vec2> PathPoint(const Vec2& left, const Vec2& right, double r, double s) {
  const double d = (right - left).norm(), arc = M_PI * r;
  const auto on_arc = [&](const Vec2& centre, double start_angle, double t) {
    const double a = start_angle - t / r;  // clockwise
    return std::pair{Vec2(centre + r * Vec2(std::cos(a), std::sin(a))),
                     Vec2(std::sin(a), -std::cos(a))};
  };
  if (s < d) return {left + Vec2(s, r), Vec2(1.0, 0.0)};                              // top span
  if (s < d + arc) return on_arc(right, 0.5 * M_PI, s - d);                           // round P2
  if (s < 2.0 * d + arc) return {right + Vec2(-(s - d - arc), -r), Vec2(-1.0, 0.0)};  // bottom
  return on_arc(left, -0.5 * M_PI, s - 2.0 * d - arc);                                // round P1
}

}  // namespace

CableModel ClosedBelt(const Vec2& left, const Vec2& right, double centreline_radius, int elements,
                      const CableSection& section, double reference_strain) {
  CableModel m;
  m.section = section;
  const double length = 2.0 * M_PI * centreline_radius + 2.0 * (right - left).norm();
  m.nodes.resize(elements, 4);
  for (int i = 0; i < elements; ++i) {
    const auto [p, t] = PathPoint(left, right, centreline_radius, length * i / elements);
    m.nodes.row(i) << p.x(), p.y(), t.x(), t.y();
  }
  for (int i = 0; i < elements; ++i)
    m.elements.push_back({i,
                          (i + 1) % elements,
                          {.length = length / elements, .reference_strain = reference_strain}});
  return m;
}

Status PreSolve(CableModel& model) {
  CableModel frictionless = model;
  frictionless.contact.friction = 0.0;
  frictionless.contact.bristle_stiffness = 0.0;
  frictionless.contact.velocity_penalty = 0.0;
  CableSystem system(frictionless);
  VecX q = system.InitialPositions();
  const solvers::NewtonResult result = SolveStatic(system, 0.0, q);
  if (!result.status) return Status::Failure("static pre-solve: " + result.status.message);
  model.nodes = q.head(system.cable_size()).reshaped(4, model.nodes.rows()).transpose();
  return Status::Ok();
}

CableModel SeedBeltDrive(int elements) {
  const double r = 0.09995, h = 1e-4, width = 0.08;
  const CableSection section{.axial_stiffness = 8000.0,
                             .bending_stiffness = 4.0 / 3.0 * 1e-3,
                             .mass_per_length = 1036.0 * width * 0.01,  // seeds README
                             .axial_damping = 1.0,
                             .integration = Integration::kC};
  CableModel m = ClosedBelt({0.0, 0.0}, {0.1 * M_PI, 0.0}, r + 0.5 * h, elements, section, -0.05);
  m.gravity = {0.0, -9.81};
  Pulley p1{.radius = r,
            .inertia = 0.25,
            .driven = true,
            .motion = time::TimeFunction::SpeedRamp(0.0, 12.0, 0.55).Delayed(0.05)};
  Pulley p2{.centre = {0.1 * M_PI, 0.0},
            .radius = r,
            .inertia = 0.25,
            .damping = 2.0,
            .torque = time::TimeFunction::SmoothStep0(-25.0, 1.0).Delayed(1.0)};
  m.pulleys = {p1, p2};
  m.contact = {.width = width,
               .offset = 0.5 * h,
               .normal_stiffness = 4e9,
               .normal_damping = 8e4,
               .friction = 0.5,
               .bristle_stiffness = 5e9,
               .velocity_penalty = 3.22e5,
               .segments = 4};
  return m;
}

}  // namespace jointdyn::ancf
