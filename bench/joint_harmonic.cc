// Issue 23 performance study: harmonic balance of a reduced jointed FE structure
// (analysis/joint_harmonic.h) against reaching the same steady states by time integration,
// and a backbone of 50 amplitude levels by nonlinear modes (EPMC).
//
// The model is a joint_harmonic model file read as a user's run reads it (default:
// examples/harmonic/bolted_lap_joint_frf.yaml: the preloaded bolted lap joint, 31 reduced
// coordinates, 9 contact pairs, H = 3, N = 256), at its first level:
// (a) the frequency-response curve: points, Newton iterations and CPU time per point;
// (b) at three frequencies of the curve (0.96, 1 and 1.04 times its peak): the periodic
//     solution from the linearized guess (a cold point: CPU time, Newton iterations; near
//     the resonance of a weakly damped joint it may not converge, which is reported) and
//     from the curve's nearest point (what the first harmonic is compared with), and
//     the transient of the same reduced system (the joints from the preloaded history, the
//     excitation as a sinusoid; Newmark average acceleration, 200 steps per period) from
//     rest, one period per time::Integrate call, until steady state: the peak |y| of the
//     first output over a period changes by less than 1e-4 relative twice in a row. The
//     ratios transient / cold point and transient / average point of the curve, and the
//     first-harmonic amplitudes of the two (the transient's over its last period);
// (c) the backbone of the first mode at 50 amplitudes, log spaced over the amplitude range
//     of the curve's points (EPMC on the same reduced model): CPU time (issue's goal: under
//     a minute).
// Times are process CPU times (single-threaded). Progress on stderr; writes
// OUT_DIR/summary.json.
// bench/models/friction_bar_frf.yaml is the friction bar (1615 pairs, H = 5); the
// third argument sets its number of joint modes g (reduction.joint_modes.modes).
//
//   ./build/bench/joint_harmonic [MODEL.yaml] [OUT_DIR] [g]
#include "analysis/joint_harmonic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>

#include "core/error.h"
#include "model/joint_harmonic_reader.h"
#include "time/integrator.h"

using namespace jointdyn;

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr int kStepsPerPeriod = 200;
constexpr double kSteadyTolerance = 1e-4;
constexpr int kMaxPeriods = 2000;
constexpr int kBackboneLevels = 50;

double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// The first output's first-harmonic amplitude at a point [m].
double Amplitude(const analysis::JointHarmonicResult& result, const harmonic::SolutionPoint& p) {
  const MatX c = analysis::OutputCoefficients(result, p);
  return std::hypot(c(0, 1), c(0, 2));
}

struct Transient {
  int periods = 0;
  double seconds = 0.0;    // CPU time to steady state
  double amplitude = 0.0;  // first harmonic of the first output over the last period [m]
};

// The reduced system with the excitation (harmonic 1 at `level`) as a sinusoid of f [Hz],
// integrated period by period from the start until steady state.
Transient ToSteadyState(const analysis::JointHarmonicSystem& built, double level, double f) {
  const joint::JointedSystem& s = *built.system;
  VecX force = VecX::Zero(s.size());
  for (const harmonic::ExcitationTerm& term : built.hb->system().excitation)
    if (term.harmonic == 1) force(term.dof) += std::hypot(term.cos_amplitude, term.sin_amplitude);
  std::vector<joint::TimedLoad> loads = s.loads();
  loads.push_back({force, time::TimeFunction::Sinusoid(level, f, 0.5 * std::numbers::pi, 0.0)});
  joint::JointedSystem system({s.mass(), s.stiffness(), s.damping()},
                              {s.joints().begin(), s.joints().end()}, loads, s.CoordinateUnits());
  const VecX output = built.result.output_map.row(0).transpose();
  time::IntegratorOptions integrator;
  integrator.scheme = time::Scheme::kNewmark;
  integrator.dt = 1.0 / (kStepsPerPeriod * f);
  integrator.position_scale = 1e-12;
  VecX q = built.start, v = VecX::Zero(s.size());
  Transient out;
  const double start = CpuSeconds();
  double last_peak = 0.0;
  int calm = 0;
  for (int p = 0; p < kMaxPeriods && calm < 2; ++p) {
    integrator.t_start = p / f;
    integrator.t_end = (p + 1) / f;
    double peak = 0.0, a = 0.0, b = 0.0;
    const time::TransientResult r =
        time::Integrate(system, integrator, q, v, [&](const time::StepRecord& record) {
          q = *record.q;
          v = *record.v;
          if (record.t <= integrator.t_start) return;
          const double y = output.dot(q - built.start);
          peak = std::max(peak, std::abs(y));
          a += y * std::cos(kTwoPi * f * record.t);
          b += y * std::sin(kTwoPi * f * record.t);
        });
    JD_CHECK(r.status.ok, "transient at " + std::to_string(f) + " Hz: " + r.status.message);
    calm = std::abs(peak - last_peak) <= kSteadyTolerance * peak ? calm + 1 : 0;
    if ((p + 1) % 50 == 0)
      std::fprintf(stderr, "transient at %.3f Hz: %d periods, peak change %.1e (%.0f s CPU)\n", f,
                   p + 1, std::abs(peak - last_peak) / peak, CpuSeconds());
    last_peak = peak;
    out.periods = p + 1;
    out.amplitude = 2.0 * std::hypot(a, b) / kStepsPerPeriod;
  }
  out.seconds = CpuSeconds() - start;
  return out;
}

// Progress of the long stages on stderr (every 5 % of a task) and the analyses' notes.
class StderrProgress final : public analysis::Observer {
 public:
  void Progress(const std::string& task, int done, int total) override {
    const int percent = total > 0 ? 100 * done / total : 0;
    if (task == task_ && percent < shown_ + 5) return;
    task_ = task;
    shown_ = percent;
    std::fprintf(stderr, "%s: %d %% (%.0f s CPU)\n", task.c_str(), percent, CpuSeconds());
  }
  void Note(const std::string& text) override { std::fprintf(stderr, "%s\n", text.c_str()); }

 private:
  std::string task_;
  int shown_ = 0;
};

struct Solved {
  harmonic::PeriodicResult result;
  double seconds = 0.0;  // CPU time
};

Solved Solve(const analysis::JointHarmonicSystem& built, double omega, double level,
             const analysis::JointHarmonicOptions& options, const VecX* guess) {
  const double start = CpuSeconds();
  Solved out{harmonic::SolvePeriodic(*built.hb, omega, level, options.continuation.solve, guess)};
  out.seconds = CpuSeconds() - start;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string model =
      argc > 1 ? argv[1]
               : std::string(JOINTDYN_SOURCE_DIR) + "/examples/harmonic/bolted_lap_joint_frf.yaml";
  const std::string out_dir = argc > 2 ? argv[2] : "out/joint_harmonic";
  analysis::JointHarmonicOptions options =
      model::ReadJointHarmonic(model::ModelNode::LoadFile(model));
  if (argc > 3) options.joint_modes.modes.modes = std::stoi(argv[3]);
  options.levels.resize(1);
  const double level = options.levels[0];
  StderrProgress progress;
  nlohmann::json summary = {
      {"model", model}, {"level", level}, {"joint_modes", options.joint_modes.modes.modes}};

  // (a) the curve.
  double start = CpuSeconds();
  const analysis::JointHarmonicResult curve = analysis::RunJointHarmonic(options, progress);
  const double curve_seconds = CpuSeconds() - start;
  JD_CHECK(curve.status.ok, "the curve: " + curve.status.message);
  const harmonic::ContinuationResult& c = curve.curves[0].continuation;
  const double per_point = c.seconds / c.points.size();
  double peak_hz = 0.0, peak = 0.0, smallest = 1e300;
  for (const harmonic::SolutionPoint& p : c.points) {
    const double a = Amplitude(curve, p);
    smallest = std::min(smallest, a);
    if (a > peak) peak = a, peak_hz = p.omega / kTwoPi;
  }
  std::printf(
      "(a) %s: %d coordinates, %d pairs, %d unknowns; curve %zu points, %d Newton "
      "iterations, %.1f ms per point (%.1f s with the model)\n",
      curve.basis.c_str(), curve.coordinates, curve.elements, curve.unknowns, c.points.size(),
      c.newton_iterations, 1e3 * per_point, curve_seconds);
  std::fflush(stdout);
  summary["curve"] = {
      {"points", c.points.size()},        {"newton_iterations", c.newton_iterations},
      {"seconds_per_point", per_point},   {"peak_hz", peak_hz},
      {"coordinates", curve.coordinates}, {"pairs", curve.elements},
      {"unknowns", curve.unknowns}};

  // (b) three frequencies against the transient.
  analysis::JointHarmonicSystem built = analysis::BuildJointHarmonicSystem(options, progress);
  JD_CHECK(built.result.status.ok, built.result.status.message);
  nlohmann::json points = nlohmann::json::array();
  for (const double factor : {0.96, 1.0, 1.04}) {
    const double f = factor * peak_hz;
    // Harmonic balance at f from the linearized guess (cold) and from the curve's nearest
    // point (warm: what a point costs next to its neighbour, as along the curve).
    const harmonic::SolutionPoint& nearest =
        *std::min_element(c.points.begin(), c.points.end(), [&](const auto& a, const auto& b) {
          return std::abs(a.omega - kTwoPi * f) < std::abs(b.omega - kTwoPi * f);
        });
    const VecX warm_guess = built.hb->Restrict(nearest.coefficients);
    const Solved cold = Solve(built, kTwoPi * f, level, options, nullptr);
    const Solved warm = Solve(built, kTwoPi * f, level, options, &warm_guess);
    JD_CHECK(warm.result.status.ok, "periodic solution: " + warm.result.status.message);
    const Transient transient = ToSteadyState(built, level, f);
    const double hb = Amplitude(built.result, warm.result.point);
    std::printf(
        "(b) %.2f Hz: harmonic balance %.4e m (cold: %s, %d iterations, %.3f s; from the "
        "curve: %d iterations, %.3f s), transient %.4e m (%d periods, %.2f s): ratio %.1f "
        "cold, %.1f along the curve; amplitudes %.1e\n",
        f, hb, cold.result.status.ok ? "converged" : "failed", cold.result.newton.iterations,
        cold.seconds, warm.result.newton.iterations, warm.seconds, transient.amplitude,
        transient.periods, transient.seconds, transient.seconds / cold.seconds,
        transient.seconds / per_point, hb / transient.amplitude - 1.0);
    std::fflush(stdout);
    points.push_back(
        {{"frequency_hz", f},
         {"cold_converged", cold.result.status.ok},
         {"cold_seconds", cold.seconds},
         {"cold_newton_iterations", cold.result.newton.iterations},
         {"warm_seconds", warm.seconds},
         {"warm_newton_iterations", warm.result.newton.iterations},
         {"transient_seconds", transient.seconds},
         {"transient_periods", transient.periods},
         {"ratio_cold", cold.result.status.ok ? transient.seconds / cold.seconds : 0.0},
         {"ratio_curve", transient.seconds / per_point},
         {"amplitude_difference", hb / transient.amplitude - 1.0}});
  }
  summary["points"] = points;

  // (c) the backbone of 50 amplitude levels over the curve's amplitudes.
  analysis::JointHarmonicOptions backbone = options;
  backbone.excitation.clear();
  backbone.nonlinear_mode.emplace();
  for (int i = 0; i < kBackboneLevels; ++i)
    backbone.nonlinear_mode->amplitudes.push_back(
        smallest * std::pow(peak / smallest, static_cast<double>(i) / (kBackboneLevels - 1)));
  start = CpuSeconds();
  const analysis::JointHarmonicResult modes = analysis::RunJointHarmonic(backbone, progress);
  const double backbone_seconds = CpuSeconds() - start;
  JD_CHECK(modes.status.ok, "the backbone: " + modes.status.message);
  const analysis::Backbone& b = modes.backbones.at(0);
  std::printf(
      "(c) backbone: %d amplitudes from %.2e to %.2e m, %.2f to %.2f Hz, %d Newton "
      "iterations, %.2f s (EPMC %.2f s)\n",
      b.size(), smallest, peak, b.frequency.front(), b.frequency.back(), b.iterations,
      backbone_seconds, b.seconds);
  summary["backbone"] = {{"amplitudes", b.size()},
                         {"newton_iterations", b.iterations},
                         {"seconds", backbone_seconds},
                         {"epmc_seconds", b.seconds}};
  std::filesystem::create_directories(out_dir);
  std::ofstream(out_dir + "/summary.json") << summary.dump(2) << "\n";
  return 0;
}
