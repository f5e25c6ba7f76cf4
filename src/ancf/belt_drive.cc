#include "ancf/belt_drive.h"

#include <cmath>
#include <limits>

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

BeltSection BeltAt(const CableSystem& system, const VecX& q, const VecX& v, const Vec2& point) {
  BeltSection at;
  double nearest = std::numeric_limits<double>::infinity();
  const CableModel& model = system.model();
  for (size_t e = 0; e < model.elements.size(); ++e) {
    const double half = 0.5 * model.elements[e].data.length;
    const double d = (Interpolate(system.ElementCoordinates(int(e), q), 2 * half, half, 0) - point)
                         .squaredNorm();
    if (d < nearest) nearest = d, at.element = int(e);
  }
  const CableElement& element = model.elements[at.element].data;
  const ElementVector qe = system.ElementCoordinates(at.element, q);
  const ElementVector ve = system.ElementCoordinates(at.element, v);
  const double half = 0.5 * element.length;
  at.axial_force = model.section.axial_stiffness *
                   (AxialStrain(qe, element.length, half) - element.reference_strain);
  at.speed = Interpolate(ve, element.length, half, 0)
                 .dot(Interpolate(qe, element.length, half, 1).normalized());
  return at;
}

PreSolveResult PreSolve(CableModel& model) {
  CableModel frictionless = model;
  frictionless.contact.friction = 0.0;
  frictionless.contact.bristle_stiffness = 0.0;
  frictionless.contact.velocity_penalty = 0.0;
  CableSystem system(frictionless);
  VecX q = system.InitialPositions();
  const solvers::NewtonResult result = SolveStatic(system, 0.0, q);
  if (!result.status)
    return {Status::Failure("static pre-solve: " + result.status.message), result.iterations};
  model.nodes = q.head(system.cable_size()).reshaped(4, model.nodes.rows()).transpose();
  return {Status::Ok(), result.iterations};
}

}  // namespace jointdyn::ancf
