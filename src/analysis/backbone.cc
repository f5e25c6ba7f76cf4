#include "analysis/backbone.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "analysis/ring_down.h"
#include "core/clock.h"
#include "core/error.h"
#include "harmonic/nonlinear_mode.h"
#include "time/integrator.h"

namespace jointdyn::analysis {
namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

MatX Dense(const solvers::Matrix& m) { return m.is_dense() ? m.dense() : MatX(m.sparse()); }

VecX Times(const solvers::Matrix& m, const VecX& v) {
  return m.is_dense() ? VecX(m.dense() * v) : VecX(m.sparse() * v);
}

// Progress over the amplitudes in log scale, in thousandths.
int LogProgress(const std::vector<double>& amplitudes, double a) {
  const double range = std::log(amplitudes.back() / amplitudes.front());
  const double done = range > 0.0 ? std::log(a / amplitudes.front()) / range : 1.0;
  return std::clamp(static_cast<int>(std::lround(1000.0 * done)), 0, 1000);
}

// The constant loads of the system (the locked bolts) at t = 0.
VecX HeldLoads(const joint::JointedSystem& system) {
  VecX held = VecX::Zero(system.size());
  for (const joint::TimedLoad& load : system.loads()) held += load.vector * load.factor.Value(0.0);
  return held;
}

joint::StaticResult SolveStatic(const joint::JointedSystem& system,
                                std::vector<joint::JointOperator>& joints,
                                const joint::StaticLoadPath& path,
                                const joint::StaticOptions& options) {
  return system.stiffness().is_dense()
             ? joint::SolveStatic(system.stiffness().dense(), joints, path, options)
             : joint::SolveStatic(system.stiffness().sparse(), joints, path, options);
}

// u^T C u / u^T M u: the viscous part of xi in the deflection shape u [1/s] (phi^T C phi
// for an M-normalized mode phi).
double ViscousXi(const joint::JointedSystem& system, const VecX& u) {
  if (system.damping().rows() == 0) return 0.0;
  return u.dot(Times(system.damping(), u)) / u.dot(Times(system.mass(), u));
}

// One quasi-static cycle of the modal load lambda M phi (plus the held loads) about the
// start x0, the joints from their committed history: 0 -> +lambda -> -lambda -> +lambda,
// cycle_increments static solves up to +lambda and 2 cycle_increments + 1 per unload and
// reload (the load never exactly zero there: an unpreloaded interface sits at its contact
// kink at zero load, where Newton cycles: the friction bar took 18 000 iterations and 177
// cutbacks at the zero sample), the unload-reload repeated until the loop closes. The
// loop is the last two branches: its states at the reversals and the energy it dissipates,
// the closed integral of lambda dq with q the modal displacement phi^T M (x - x0)
// (clockwise: the reloading branch runs above).
constexpr int kMaxCycles = 50;          // 2D slip ratchets slowly: 0.43 per cycle measured
constexpr double kCycleClosure = 1e-6;  // [-] of the loop's largest state change

struct Cycle {
  Status status;
  VecX top, bottom;         // the states at +lambda (the end) and at -lambda
  double dissipated = 0.0;  // [J]
  int iterations = 0;
  int cycles = 0;  // unload-reload cycles until the loop closed
};

Cycle QuasiStaticCycle(const joint::JointedSystem& system, const VecX& x0, const VecX& held,
                       const VecX& m_phi, double lambda, const NonlinearModeSpec& spec) {
  std::vector<joint::JointOperator> joints(system.joints().begin(), system.joints().end());
  Cycle cycle;
  joint::StaticLoadPath path{.start = x0, .start_load = held};
  double load = 0.0, q = 0.0, work = 0.0;
  // From the current load to `target` in `steps` solves; the work on the loop counted.
  const auto branch = [&](double target, int steps, bool on_loop) {
    for (int k = 0; k < steps; ++k) {
      const double next = load + (target - load) / (steps - k);
      path.end_load = held + next * m_phi;
      const joint::StaticResult solved = SolveStatic(system, joints, path, spec.static_solver);
      cycle.iterations += solved.iterations;
      if (!solved.status) {
        cycle.status =
            Status::Failure("at modal load " + FormatValue(next) + ": " + solved.status.message);
        return false;
      }
      const double q_next = m_phi.dot(solved.q - x0);
      if (on_loop) work += 0.5 * (load + next) * (q_next - q);
      load = next;
      q = q_next;
      path.start = solved.q;
      path.start_load = path.end_load;
    }
    return true;
  };
  const int n = spec.cycle_increments;
  if (!branch(lambda, n, false)) return cycle;
  // Cycles until the loop closes (the first one shakes down the pairs the preload left at
  // the slip limit): the state back at +lambda within kCycleClosure of the loop's span.
  for (cycle.cycles = 1; cycle.cycles <= kMaxCycles; ++cycle.cycles) {
    const VecX before = path.start;
    work = 0.0;
    if (!branch(-lambda, 2 * n + 1, true)) return cycle;
    cycle.bottom = path.start;
    if (!branch(lambda, 2 * n + 1, true)) return cycle;
    cycle.top = path.start;
    cycle.dissipated = work;
    const double span = (cycle.top - cycle.bottom).cwiseAbs().maxCoeff();
    if ((cycle.top - before).cwiseAbs().maxCoeff() <= kCycleClosure * span) return cycle;
  }
  cycle.status =
      Status::Failure("the load cycle did not close in " + std::to_string(kMaxCycles) + " cycles");
  return cycle;
}

// The loop of the modal load for modal amplitude a (in the linear mode's ratio: lambda =
// omega0^2 a) and its figures.
struct Loop {
  Status status;
  int iterations = 0;
  double q = 0.0;      // the loop's modal amplitude [sqrt(kg) m]
  double omega = 0.0;  // secant [rad/s]
  double xi = 0.0;     // 2 omega D [1/s]: the loop's dissipation and the viscous part
  VecX half, centre;   // (top - bottom) / 2 and (top + bottom) / 2 - x0 [m]
};

Loop QuasiStaticLoop(const joint::JointedSystem& system, const VecX& x0, const StartMode& start,
                     double a, const NonlinearModeSpec& spec) {
  const VecX m_phi = Times(system.mass(), start.shape);
  const double lambda = start.omega * start.omega * a;  // the linear load of amplitude a
  const Cycle cycle = QuasiStaticCycle(system, x0, HeldLoads(system), m_phi, lambda, spec);
  Loop loop{.status = cycle.status, .iterations = cycle.iterations};
  if (!cycle.status) return loop;
  loop.half = 0.5 * (cycle.top - cycle.bottom);
  loop.centre = 0.5 * (cycle.top + cycle.bottom) - x0;
  loop.q = m_phi.dot(loop.half);
  if (!(loop.q > 0.0)) {
    loop.status = Status::Failure("no modal displacement (" + FormatValue(loop.q) + ")");
    return loop;
  }
  const double omega2 = lambda / loop.q;
  loop.omega = std::sqrt(omega2);
  loop.xi = cycle.dissipated / (std::numbers::pi * loop.omega * loop.q * loop.q) +
            ViscousXi(system, loop.half);
  return loop;
}

}  // namespace

LinearModes StuckModes(const joint::JointedSystem& system, const VecX& x, int count) {
  const int n = system.size();
  if (n > harmonic::kMaxDenseUnknowns) return {};
  MatX stiffness = Dense(system.stiffness());
  for (const joint::JointOperator& joint : system.joints()) {
    joint::JointOperator at_x = joint;
    at_x.StickAt(x);
    if (!at_x.Evaluate(x)) return {};
    if (at_x.relative().is_sparse()) {
      solvers::SparseMatrix j;
      at_x.Jacobian(j);
      stiffness += MatX(j);
    } else {
      MatX j;
      at_x.Jacobian(j);
      stiffness += j;
    }
  }
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> eigen(0.5 * (stiffness + stiffness.transpose()),
                                                       Dense(system.mass()));
  if (eigen.info() != Eigen::Success) return {};
  const int kept = std::min(n, count);
  return {eigen.eigenvalues().head(kept).cwiseMax(0.0).cwiseSqrt(),
          eigen.eigenvectors().leftCols(kept)};
}

void NonlinearModeSpec::Validate() const {
  if (mode < 1 || mode > 10)
    throw InputError("nonlinear_mode.mode", std::to_string(mode), "must be in 1..10");
  if (amplitudes.empty())
    throw InputError("nonlinear_mode.amplitudes", "", "must give at least one amplitude");
  for (size_t i = 0; i < amplitudes.size(); ++i)
    if (!(amplitudes[i] > 0.0 && std::isfinite(amplitudes[i])) ||
        (i > 0 && !(amplitudes[i] > amplitudes[i - 1])))
      throw InputError("nonlinear_mode.amplitudes", FormatValue(amplitudes[i]),
                       "must be amplitudes > 0 [m] in ascending order");
  if (!epmc && !quasi_static && !ring_down)
    throw InputError("nonlinear_mode.methods", "", "must name epmc, quasi_static or ring_down");
  if (ring_down_periods < 4)
    throw InputError("nonlinear_mode.ring_down.periods", std::to_string(ring_down_periods),
                     "must be >= 4");
  if (steps_per_period < 20)
    throw InputError("nonlinear_mode.ring_down.steps_per_period", std::to_string(steps_per_period),
                     "must be >= 20");
  if (const Status status = newton.Validate(); !status)
    throw InputError("nonlinear_mode.newton", "", status.message);
  if (max_refinements < 0)
    throw InputError("nonlinear_mode.max_refinements", std::to_string(max_refinements),
                     "must be >= 0");
  if (cycle_increments < 1)
    throw InputError("nonlinear_mode.cycle_increments", std::to_string(cycle_increments),
                     "must be >= 1");
  if (const Status status = static_solver.Validate(); !status)
    throw InputError("nonlinear_mode.static_solver", "", status.message);
}

void Backbone::Add(double a, double f_hz, double ratio, const VecX& outputs) {
  modal_amplitude.push_back(a);
  frequency.push_back(f_hz);
  damping_ratio.push_back(ratio);
  output_amplitude.conservativeResize(size(), outputs.size());
  output_amplitude.row(size() - 1) = outputs.transpose();
}

Status MakeStartMode(const NonlinearModeSpec& spec, const LinearModes& modes,
                     const MatX& output_map, const std::string& output_name, StartMode& start) {
  if (spec.mode > modes.omega.size())
    return Status::Failure("nonlinear_mode.mode " + std::to_string(spec.mode) + ": only " +
                           std::to_string(modes.omega.size()) +
                           " stuck modes were computed (a dense eigenproblem of at most " +
                           std::to_string(harmonic::kMaxDenseUnknowns) + " DOFs)");
  start.shape = modes.shapes.col(spec.mode - 1);
  start.omega = modes.omega(spec.mode - 1);
  const double at_output = std::abs(output_map.row(0).dot(start.shape));
  const double scale = output_map.row(0).cwiseAbs().dot(start.shape.cwiseAbs());
  if (!(at_output > 1e-9 * scale))
    return Status::Failure(output_name + " does not move in mode " + std::to_string(spec.mode) +
                           ": give another first output DOF (output.dofs[0]) for the amplitudes");
  start.modal_amplitudes.clear();
  for (const double amplitude : spec.amplitudes)
    start.modal_amplitudes.push_back(amplitude / at_output);
  return Status::Ok();
}

Backbone EpmcBackbone(harmonic::HarmonicBalance& hb, const joint::JointedSystem& system,
                      const VecX& x0, const StartMode& start, const NonlinearModeSpec& spec,
                      const MatX& output_map, Observer& observer) {
  const Clock::time_point t = Clock::now();
  Backbone backbone{.method = "epmc"};
  harmonic::NonlinearModeOptions options{.shape = start.shape,
                                         .omega = start.omega,
                                         .amplitudes = start.modal_amplitudes,
                                         .newton = spec.newton,
                                         .max_refinements = spec.max_refinements};
  const std::string task = "nonlinear mode (EPMC)";
  const Loop loop = QuasiStaticLoop(system, x0, start, start.modal_amplitudes.front(), spec);
  if (loop.status) {
    options.guess = harmonic::ModeGuess{loop.centre, loop.half, loop.omega, loop.xi};
    observer.Note(task + ": the first amplitude starts from its quasi-static loop (" +
                  FormatValue(loop.omega / kTwoPi) + " Hz, D " +
                  FormatValue(loop.xi / (2.0 * loop.omega)) + "; " +
                  std::to_string(loop.iterations) + " static Newton iterations)");
  } else {
    observer.Note(task + ": the first amplitude's quasi-static loop failed (" +
                  loop.status.message + "); starting from the linear mode");
  }
  const int c = hb.basis().CosIndex(0);
  options.on_point = [&](const harmonic::ModePoint& point) {
    const MatX outputs = output_map * point.coefficients;
    backbone.Add(point.amplitude, point.omega / kTwoPi, point.damping_ratio(),
                 (outputs.col(c).array().square() + outputs.col(c + 1).array().square()).sqrt());
    observer.Progress(task, LogProgress(start.modal_amplitudes, point.amplitude), 1000);
  };
  const harmonic::NonlinearModeResult result = harmonic::ContinueNonlinearMode(hb, options);
  backbone.status = result.status;
  backbone.iterations = result.newton_iterations;
  backbone.refinements = result.refinements;
  backbone.seconds = Seconds(t);
  return backbone;
}

Backbone QuasiStaticBackbone(const joint::JointedSystem& system, const VecX& x0,
                             const StartMode& start, const NonlinearModeSpec& spec,
                             const MatX& output_map, Observer& observer) {
  const Clock::time_point t = Clock::now();
  Backbone backbone{.method = "quasi_static"};
  const std::string task = "nonlinear mode (quasi-static)";
  for (const double a : start.modal_amplitudes) {
    const Loop loop = QuasiStaticLoop(system, x0, start, a, spec);
    backbone.iterations += loop.iterations;
    if (!loop.status) {
      backbone.status = Status::Failure("modal load cycle for amplitude " + FormatValue(a) + ": " +
                                        loop.status.message);
      break;
    }
    backbone.Add(loop.q, loop.omega / kTwoPi, loop.xi / (2.0 * loop.omega),
                 (output_map * loop.half).cwiseAbs());
    observer.Progress(task, LogProgress(start.modal_amplitudes, a), 1000);
  }
  backbone.seconds = Seconds(t);
  return backbone;
}

namespace {

// The output DOFs' samples of a transient (one vector per output).
struct Samples {
  std::vector<double> time;
  std::vector<std::vector<double>> outputs;
};

// The free decay from x (at rest; `joints` at x's history) over the spec's periods.
Status FreeDecay(const joint::JointedSystem& system, std::vector<joint::JointOperator> joints,
                 const VecX& x, const StartMode& start, const NonlinearModeSpec& spec,
                 const MatX& output_map, Samples& samples, Observer& observer) {
  joint::JointedSystem decay({system.mass(), system.stiffness(), system.damping()},
                             std::move(joints), system.loads(), system.CoordinateUnits());
  const double period = kTwoPi / start.omega;
  time::IntegratorOptions integrator;
  integrator.scheme = time::Scheme::kNewmark;  // average acceleration: no numerical damping
  integrator.dt = period / spec.steps_per_period;
  integrator.t_end = spec.ring_down_periods * period;
  integrator.position_scale = 1e-3 * spec.amplitudes.front();
  samples.outputs.assign(output_map.rows(), {});
  const int steps = spec.ring_down_periods * spec.steps_per_period;
  const std::string task = "nonlinear mode (ring-down)";
  const time::TransientResult result =
      time::Integrate(decay, integrator, x, VecX::Zero(x.size()), [&](const time::StepRecord& r) {
        samples.time.push_back(r.t);
        const VecX y = output_map * *r.q;
        for (Eigen::Index o = 0; o < y.size(); ++o) samples.outputs[o].push_back(y(o));
        if (samples.time.size() % spec.steps_per_period == 0)
          observer.Progress(task, static_cast<int>(samples.time.size()), steps);
      });
  return result.status;
}

}  // namespace

Backbone RingDownBackbone(const joint::JointedSystem& system, const VecX& x0,
                          const StartMode& start, const NonlinearModeSpec& spec,
                          const MatX& output_map, Observer& observer) {
  const Clock::time_point t = Clock::now();
  Backbone backbone{.method = "ring_down"};
  std::vector<joint::JointOperator> joints(system.joints().begin(), system.joints().end());
  const VecX held = HeldLoads(system);
  const double lambda = start.omega * start.omega * start.modal_amplitudes.back();
  joint::StaticOptions pluck = spec.static_solver;
  pluck.load_steps = spec.cycle_increments;
  const joint::StaticResult plucked =
      SolveStatic(system, joints,
                  {.start = x0,
                   .start_load = held,
                   .end_load = held + lambda * Times(system.mass(), start.shape)},
                  pluck);
  backbone.iterations = plucked.iterations;
  Samples samples;
  Status status = plucked.status;
  if (!status) {
    backbone.status = Status::Failure("the pluck (static modal load): " + status.message);
  } else if (status = FreeDecay(system, std::move(joints), plucked.q, start, spec, output_map,
                                samples, observer);
             !status) {
    backbone.status = Status::Failure("the free decay: " + status.message);
  }
  const double scale = std::abs(output_map.row(0).dot(start.shape));  // A per modal amplitude
  const std::vector<RingDownPoint> points =
      samples.time.empty() ? std::vector<RingDownPoint>{}
                           : IdentifyRingDown(samples.time, samples.outputs[0]);
  const double dt = kTwoPi / start.omega / spec.steps_per_period;
  for (auto it = points.rbegin(); it != points.rend(); ++it) {
    if (it->amplitude < spec.amplitudes.front()) continue;  // below the requested range
    // Newmark's period elongation removed: it advances a linear oscillation of angular
    // frequency w by 2 atan(w dt / 2) per step (7e-5 at 200 steps per period).
    const double frequency =
        std::tan(std::numbers::pi * it->frequency * dt) / (std::numbers::pi * dt);
    VecX outputs(output_map.rows());
    for (Eigen::Index o = 0; o < outputs.size(); ++o)
      outputs(o) = AmplitudeAt(*it, samples.time, samples.outputs[o]);
    backbone.Add(it->amplitude / scale, frequency, it->damping_ratio, outputs);
  }
  backbone.seconds = Seconds(t);
  return backbone;
}

}  // namespace jointdyn::analysis
