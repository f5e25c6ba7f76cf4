// The friction bar dynamic study of seed 003 section 4.1.1 on the full FE model (the
// reference the reduced models are measured against, issue 7): haversine step of the tip
// force to 50 N in 0.01 s, T = 0.1 s, linear penalty 5e4 N/mm^3, three-parameter Coulomb
// mu = 0.15, stick 1e4 N/mm^3, slide 500 N/mm^3, HHT alpha = -0.3, tet10 4 mm, clamp
// supported (examples/dynamics/friction_bar_dynamic_study.yaml, bench/friction_bar_study.h).
// Prints the run time, steps, Newton iterations per step, factorizations and the tip
// deflection / gap norm over time.
//
//   ./build/bench/friction_bar_dynamics [t_end s = 0.1] [dt s = 1e-4] [mesh size m = 4e-3]
//                                       [solver: auto | sparse_lu | umfpack_lu]
//                                       [Newton iterations per step = 25]
//                                       [line search: directional | residual_norm | none]
//                                       [Newton residual tolerance = 1e-4 of the load]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/friction_bar_study.h"
#include "time/integrator.h"

using namespace jointdyn;

int main(int argc, char** argv) {
  const double t_end = argc > 1 ? std::atof(argv[1]) : 0.1;
  const double dt = argc > 2 ? std::atof(argv[2]) : 1e-4;
  const double h = argc > 3 ? std::atof(argv[3]) : 4e-3;
  const std::string solver = argc > 4 ? argv[4] : "auto";
  const int max_iterations = argc > 5 ? std::atoi(argv[5]) : 25;
  const std::string search = argc > 6 ? argv[6] : "directional";
  const double residual_tolerance = argc > 7 ? std::atof(argv[7]) : 1e-4;
  const analysis::JointDynamicsSystem bar = bench::FrictionBarSystem(h);
  joint::JointedSystem& system = *bar.system;
  std::printf(
      "friction bar tet10 h = %.1f mm: %d DOFs, %d pairs; HHT alpha = -0.3, dt = %g s, "
      "T = %g s, linear solver %s\n",
      1e3 * h, system.size(), system.joints()[0].num_pairs(), dt, t_end, solver.c_str());
  time::IntegratorOptions options;
  options.scheme = time::Scheme::kHht;
  options.alpha = -0.3;
  options.dt = dt;
  options.t_end = t_end;
  options.output_interval = t_end / 20.0;
  // Convergence relative to the load level and the tip deflection's scale: from rest the
  // joint first moves by rounding-level amounts (time/integrator.h, force_scale). The
  // three-parameter Coulomb law's stick/slip switch makes Newton cycle at scaled residuals
  // of 1e-6 .. 3e-5 (measured on this model): the tolerances sit above that cycle (5 mN of
  // the 50 N load, 10 nm of the ~25 mm tip deflection).
  options.force_scale = 50.0;
  options.position_scale = 1e-2;
  options.newton.residual_tolerance = residual_tolerance;
  options.newton.increment_tolerance = 1e-6;
  options.newton.max_iterations = max_iterations;
  options.newton.line_search = search == "residual_norm" ? solvers::LineSearch::kResidualNorm
                               : search == "none"        ? solvers::LineSearch::kNone
                                                         : solvers::LineSearch::kDirectional;
  options.newton.linear_solver = solver == "sparse_lu"    ? solvers::LinearSolverKind::kSparseLU
                                 : solver == "umfpack_lu" ? solvers::LinearSolverKind::kUmfpackLU
                                                          : solvers::LinearSolverKind::kAuto;
  std::printf("%10s %14s %12s %10s\n", "t [ms]", "tip z [mm]", "||g|| [um]", "in contact");
  const VecX zero = VecX::Zero(system.size());
  const time::TransientResult result =
      time::Integrate(system, options, zero, zero, [&](const time::StepRecord& r) {
        const joint::JointOperator& joint = system.joints()[0];
        std::printf("%10.3f %14.6f %12.4f %10d\n", 1e3 * r.t, 1e3 * (*r.q)(bar.measure_dof),
                    1e6 * joint.GapNorm(), joint.CountInContact());
        std::fflush(stdout);
      });
  std::printf("status: %s\n", result.status.ok ? "ok" : result.status.message.c_str());
  std::printf(
      "t reached %g s, %d accepted / %d rejected steps, %d Newton iterations (%.2f per "
      "step), %d factorizations, %.1f s CPU (%.3f s per step)\n",
      result.t_reached, result.accepted_steps, result.rejected_steps, result.newton_iterations,
      double(result.newton_iterations) / std::max(1, result.accepted_steps), result.factorizations,
      result.cpu_seconds, result.cpu_seconds / std::max(1, result.accepted_steps));
  return result.status.ok ? 0 : 1;
}
