#include "ancf/belt_drive.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"

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

namespace {

// The axial force and speed of element e at x.
BeltSection SectionAt(const CableSystem& system, const VecX& q, const VecX& v, int e, double x) {
  const CableElement& element = system.model().elements[e].data;
  const ElementVector qe = system.ElementCoordinates(e, q);
  const ElementVector ve = system.ElementCoordinates(e, v);
  return {e,
          system.model().section.axial_stiffness *
              (AxialStrain(qe, element.length, x) - element.reference_strain),
          Interpolate(ve, element.length, x, 0)
              .dot(Interpolate(qe, element.length, x, 1).normalized())};
}

}  // namespace

BeltSection BeltAt(const CableSystem& system, const VecX& q, const VecX& v, const Vec2& point) {
  int nearest_element = 0;
  double nearest = std::numeric_limits<double>::infinity();
  const CableModel& model = system.model();
  for (size_t e = 0; e < model.elements.size(); ++e) {
    const double half = 0.5 * model.elements[e].data.length;
    const double d = (Interpolate(system.ElementCoordinates(int(e), q), 2 * half, half, 0) - point)
                         .squaredNorm();
    if (d < nearest) nearest = d, nearest_element = int(e);
  }
  return SectionAt(system, q, v, nearest_element,
                   0.5 * model.elements[nearest_element].data.length);
}

BeltSection CableAt(const CableSystem& system, const VecX& q, const VecX& v, double s) {
  const std::vector<CableModel::Element>& elements = system.model().elements;
  size_t e = 0;
  for (; e + 1 < elements.size() && s > elements[e].data.length; ++e) s -= elements[e].data.length;
  return SectionAt(system, q, v, int(e), std::clamp(s, 0.0, elements[e].data.length));
}

CableModel OpenCable(const Vec2& start, const Vec2& end, int elements, const CableSection& section,
                     double reference_strain, Support start_support, Support end_support) {
  CableModel m = StraightCable(start, end, elements, section);
  for (CableModel::Element& e : m.elements) e.data.reference_strain = reference_strain;
  // The slope's component across the cable: y' for a cable along x, x' along y.
  const int across = std::abs(end.y() - start.y()) <= std::abs(end.x() - start.x()) ? 3 : 2;
  if ((start_support == Support::kClamped || end_support == Support::kClamped) &&
      start.x() != end.x() && start.y() != end.y())
    throw InputError("supports", "clamped", "a clamped end needs the cable along x or y");
  for (const auto& [node, support] :
       {std::pair{0, start_support}, std::pair{elements, end_support}}) {
    if (support == Support::kFree) continue;
    m.fixed.insert(m.fixed.end(), {4 * node, 4 * node + 1});
    if (support == Support::kClamped) m.fixed.push_back(4 * node + across);
  }
  return m;
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
  const auto centre = [&](int body) {
    return Vec2(q(system.CoordinateIndex(body, mbs::Coordinate::kX)),
                q(system.CoordinateIndex(body, mbs::Coordinate::kY)));
  };
  for (size_t b = 0; b < model.mechanism.bodies.size(); ++b)
    model.mechanism.bodies[b].position = centre(int(b));
  for (size_t p = 0; p < model.pulleys.size(); ++p)
    if (Pulley& pulley = model.pulleys[p]; pulley.moves)
      pulley.shift = centre(system.circles()[system.PulleyCircle(int(p))].body) - pulley.centre;
  return {Status::Ok(), result.iterations};
}

}  // namespace jointdyn::ancf
