// Time-integration throughput on the seed 003 100-mass oscillator (case sticking/sliding,
// 1 s, adaptive HHT settings of the example) for each friction law and integrator:
// steps per second and Newton iterations per step. A second benchmark measures, in the
// same run, the cost of one Jacobian assembly + factorization relative to one residual
// evaluation of the same system.
//
//   ./build/bench/transient_throughput
#include <benchmark/benchmark.h>

#include <chrono>

#include "bench/multi_mass_common.h"
#include "lumped/lumped_system.h"
#include "solvers/linear_solver.h"

namespace {

using namespace jointdyn;

const std::pair<const char*, time::Scheme> kSchemes[] = {
    {"newmark", time::Scheme::kNewmark},
    {"hht", time::Scheme::kHht},
    {"generalized_alpha", time::Scheme::kGeneralizedAlpha}};

void Integrate(benchmark::State& state, std::string law, time::Scheme scheme) {
  analysis::TransientOptions model =
      bench::MultiMassModel(JOINTDYN_SOURCE_DIR, "sticking_sliding", law);
  model.integrator.scheme = scheme;
  model.integrator.t_end = 1.0;
  double steps = 0, newton = 0, seconds = 0;
  for (auto _ : state) {
    lumped::LumpedSystem system(model.model);
    const auto start = std::chrono::steady_clock::now();
    const time::TransientResult r = time::Integrate(
        system, model.integrator, system.initial_positions(), system.initial_velocities());
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!r.status) state.SkipWithError(r.status.message.c_str());
    steps += r.accepted_steps;
    newton += r.newton_iterations;
  }
  state.counters["steps_per_second"] = steps / seconds;
  state.counters["newton_per_step"] = newton / steps;
  state.counters["steps"] = steps / state.iterations();
}

// One residual evaluation (internal force only) against one Jacobian assembly (force with
// K and D) plus the LU factorization of the Newton matrix M + (beta h^2) K + (gamma h) D.
void JacobianVersusResidual(benchmark::State& state) {
  const analysis::TransientOptions model =
      bench::MultiMassModel(JOINTDYN_SOURCE_DIR, "sticking_sliding", "coulomb");
  lumped::LumpedSystem system(model.model);
  const VecX q = VecX::Constant(system.size(), 1e-4), v = VecX::Constant(system.size(), 1e-3);
  const VecX q_start = VecX::Zero(system.size());
  const time::StepPoint point{.t = 1e-3, .dt = 1e-3, .q = &q, .v = &v, .q_start = &q_start};
  VecX f(system.size());
  time::Matrix k, d;
  auto solver = solvers::MakeLinearSolver(solvers::LinearSolverKind::kAuto, system.size());
  const auto time_of = [&](auto&& body) {
    const int repeats = 2000;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < repeats; ++i) body();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
           repeats;
  };
  double residual = 0, jacobian = 0;
  for (auto _ : state) {
    residual += time_of([&] {
      f.setZero();
      (void)system.InternalForce(point, f, nullptr, nullptr);
    });
    jacobian += time_of([&] {
      f.setZero();
      (void)system.InternalForce(point, f, &k, &d);
      const time::SparseMatrix newton =
          system.mass().sparse() + 0.25e-6 * k.sparse() + 0.5e-3 * d.sparse();
      (void)solver->Factor(newton);
    });
  }
  state.counters["residual_us"] = 1e6 * residual / state.iterations();
  state.counters["jacobian_factor_us"] = 1e6 * jacobian / state.iterations();
  state.counters["ratio"] = jacobian / residual;
}

}  // namespace

int main(int argc, char** argv) {
  for (const std::string& law : bench::MultiMassLaws())
    for (const auto& [name, scheme] : kSchemes)
      benchmark::RegisterBenchmark((law + "/" + name).c_str(), Integrate, law, scheme)
          ->Unit(benchmark::kMillisecond)
          ->Iterations(3);
  benchmark::RegisterBenchmark("jacobian_vs_residual", JacobianVersusResidual)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(3);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
