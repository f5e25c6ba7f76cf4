// Seed 002's belt drive (section 4, tables 2-4) on its nominal (240 elements, dt = 5e-5 s) or
// another discretization: the frictionless static pre-solve, then the run to t_end with the
// trapezoidal rule (Newmark 1/4, 1/2, as the seed's Exudyn runs) and the post-Newton step
// (tolerance 1e-3 N, at most 5 passes). Prints the figures of table 4 at t_end: the span
// forces F1 (top, tight) and F2 (bottom, slack) at the spans' middles, P1's driving torque
// and (F1 - F2) r (eq. 38), P2's speed, the belt's speed in both spans; and the cost: CPU
// per step, Newton iterations and post-Newton passes per step.
//
//   ./build/bench/belt_drive [ELEMENTS] [DT] [T_END]
#include "ancf/belt_drive.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "time/integrator.h"

namespace {

using namespace jointdyn;
using namespace jointdyn::ancf;

// The element whose start node is nearest to `point` and the node's slope direction.
int ElementAt(const CableSystem& system, const VecX& q, const Vec2& point) {
  int best = 0;
  double distance = 1e9;
  for (size_t e = 0; e < system.model().elements.size(); ++e) {
    const int node = system.model().elements[e].a;
    const double d = (q.segment<2>(4 * node) - point).norm();
    if (d < distance) distance = d, best = int(e);
  }
  return best;
}

struct SpanFigures {
  double force = 0.0, speed = 0.0;  // [N], along the belt [m/s]
};

SpanFigures Span(const CableSystem& system, const VecX& q, const VecX& v, const Vec2& point) {
  const int e = ElementAt(system, q, point);
  const CableModel::Element& element = system.model().elements[e];
  const ElementVector qe = system.ElementCoordinates(e, q), ve = system.ElementCoordinates(e, v);
  const Vec2 tangent = qe.segment<2>(2).normalized();
  return {system.model().section.axial_stiffness *
              (AxialStrain(qe, element.data.length, 0.0) - element.data.reference_strain),
          ve.segment<2>(0).dot(tangent)};
}

}  // namespace

int main(int argc, char** argv) {
  const int elements = argc > 1 ? std::atoi(argv[1]) : 240;
  const double dt = argc > 2 ? std::atof(argv[2]) : 5e-5;
  const double t_end = argc > 3 ? std::atof(argv[3]) : 2.45;
  CableModel model = SeedBeltDrive(elements);
  if (const Status status = PreSolve(model); !status) {
    std::printf("%s\n", status.message.c_str());
    return 3;
  }
  CableSystem system(model);
  time::IntegratorOptions options;
  options.scheme = time::Scheme::kNewmark;
  options.t_end = t_end;
  options.dt = dt;
  options.position_scale = 0.1;
  options.force_scale = 400.0;
  options.newton.line_search = solvers::LineSearch::kNone;
  options.post_newton_tolerance = 1e-3;
  options.post_newton_max = 5;
  options.newton.reuse_contraction = argc > 4 ? std::atof(argv[4]) : 0.0;
  options.output_interval = 0.05;
  const int p1 = system.cable_size(), p2 = p1 + 1;
  VecX q_end, v_end;
  double torque = 0.0;
  const auto start = std::chrono::steady_clock::now();
  const time::TransientResult result = time::Integrate(
      system, options, system.InitialPositions(), system.InitialVelocities(),
      [&](const time::StepRecord& r) {
        q_end = *r.q;
        v_end = *r.v;
        torque = -(*r.lambda)(0);  // the drive's constraint force on P1's angle
        std::printf("t = %.3f s: omega P1 %.4f, P2 %.4f rad/s, P1 torque %.3f N m\n", r.t,
                    (*r.v)(p1), (*r.v)(p2), torque);
      });
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result.status) std::printf("failed: %s\n", result.status.message.c_str());
  const double d = 0.1 * M_PI, r = model.pulleys[0].radius;
  const SpanFigures top = Span(system, q_end, v_end, {0.5 * d, 0.1});
  const SpanFigures bottom = Span(system, q_end, v_end, {0.5 * d, -0.1});
  std::printf(
      "belt drive, %d elements, dt = %.0e s, t = %.3f s:\n"
      "  F1 (top span) %.2f N, F2 (bottom span) %.2f N (seed table 4: 665.22, 186.65)\n"
      "  P1 torque %.3f N m, (F1 - F2) r = %.3f N m (seed 47.68; eq. 38)\n"
      "  omega P2 %.4f rad/s (seed 11.3405); span speeds %.4f, %.4f m/s (seed 1.2025, 1.133)\n"
      "  %d steps, CPU %.1f s, wall %.1f s: %.2f ms per step; %.2f Newton iterations and %.3f "
      "post-Newton passes per step\n",
      elements, dt, result.t_reached, top.force, bottom.force, torque,
      (top.force - bottom.force) * r, v_end(p2), std::abs(top.speed), std::abs(bottom.speed),
      result.accepted_steps, result.cpu_seconds, wall,
      1e3 * result.cpu_seconds / result.accepted_steps,
      double(result.newton_iterations) / result.accepted_steps,
      double(result.post_newton_passes) / result.accepted_steps);
  return result.status ? 0 : 3;
}
