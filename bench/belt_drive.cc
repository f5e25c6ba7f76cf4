// Seed 002's belt drive (section 4, tables 2-4) from examples/belt_drive/seed_belt_drive.yaml
// (the nominal case: 240 elements, dt = 5e-5 s, the trapezoidal rule and the post-Newton
// step as the seed's Exudyn runs) or another discretization (the reference case: 480
// elements, dt = 1e-5 s), through analysis::RunBeltDrive as a user's run. Prints the
// figures of table 4 at t_end: the span forces F1 (top, tight) and F2 (bottom, slack) at
// the spans' middles, P1's driving torque and (F1 - F2) r (eq. 38), P2's speed, the belt's
// speed in both spans; and the cost: CPU per step and steps per second, Newton iterations,
// Jacobian evaluations and post-Newton passes per step.
//
//   ./build/bench/belt_drive [ELEMENTS] [DT] [T_END] [REUSE_CONTRACTION]
#include "analysis/belt_drive.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "model/belt_drive_reader.h"

using namespace jointdyn;

namespace {

// The column `name` of the last sample.
double Last(const analysis::BeltDriveResult& result, const std::string& name) {
  for (size_t c = 0; c < result.columns.size(); ++c)
    if (result.columns[c] == name) return result.rows.back()[c];
  return std::nan("");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = JOINTDYN_SOURCE_DIR "/examples/belt_drive/seed_belt_drive.yaml";
  YAML::Node file = YAML::LoadFile(path);
  file["belt"]["elements"] = argc > 1 ? std::atoi(argv[1]) : 240;
  file["integrator"]["dt"] = argc > 2 ? std::atof(argv[2]) : 5e-5;
  const double t_end = argc > 3 ? std::atof(argv[3]) : 2.45;
  file["integrator"]["t_end"] = t_end;
  file["integrator"]["newton"]["reuse_contraction"] = argc > 4 ? std::atof(argv[4]) : 0.0;
  file["output"].remove("profiles");
  file["output"]["frames"] = 0;
  const model::BeltDriveFile input =
      model::ReadBeltDrive(model::ModelNode::LoadString(YAML::Dump(file), path));
  analysis::BeltDriveObserver quiet;
  const analysis::BeltDriveResult result = analysis::RunBeltDrive(input.options, quiet);
  if (!result.status) std::printf("failed: %s\n", result.status.message.c_str());
  if (result.rows.empty()) return 3;
  const time::TransientResult& r = result.integration;
  const double radius = input.options.model.pulleys[0].radius;
  const double f1 = Last(result, "N_top"), f2 = Last(result, "N_bottom");
  const double steps = std::max(r.accepted_steps, 1);
  std::printf(
      "belt drive, %zu elements, dt = %.0e s, t = %.3f s:\n"
      "  F1 (top span) %.2f N, F2 (bottom span) %.2f N (seed table 4: 665.22, 186.65)\n"
      "  P1 drive torque %.3f N m, (F1 - F2) r = %.3f N m (seed 47.68; eq. 38)\n"
      "  omega P2 %.4f rad/s (seed 11.3405); span speeds %.4f, %.4f m/s (seed 1.2025, 1.133)\n"
      "  %d steps, CPU %.1f s, wall %.1f s: %.2f ms per step, %.0f steps/s; per step %.2f "
      "Newton iterations, %.2f Jacobian evaluations, %.3f post-Newton passes\n",
      input.options.model.elements.size(), input.options.integrator.dt, r.t_reached, f1, f2,
      Last(result, "drive_P1"), (f1 - f2) * radius, Last(result, "omega_P2"),
      std::abs(Last(result, "v_top")), std::abs(Last(result, "v_bottom")), r.accepted_steps,
      r.cpu_seconds, result.wall_seconds, 1e3 * r.cpu_seconds / steps, steps / r.cpu_seconds,
      r.newton_iterations / steps, r.jacobian_evaluations / steps, r.post_newton_passes / steps);
  return result.status ? 0 : 3;
}
