// Issue 23 performance study: harmonic balance of a reduced jointed FE structure
// (analysis/joint_harmonic.h) against reaching the same steady states by time integration,
// and a backbone of 50 amplitude levels by nonlinear modes (EPMC).
//
// The model is a joint_harmonic model file read as a user's run reads it (default:
// examples/harmonic/bolted_lap_joint_frf.yaml: the preloaded bolted lap joint, 31 reduced
// coordinates, 9 contact pairs, H = 3, N = 256), at its first level:
// (a) the frequency-response curve: points, Newton iterations and CPU time per point (the
//     whole run's, the model's stages included);
// (c) the backbone of the first mode at 50 amplitudes, log spaced over the amplitude range
//     of the curve's points (EPMC on the same reduced model): CPU time (issue's goal: under
//     a minute);
// (b) last, since it takes longest: at chosen frequencies of the curve (FACTORS times its
//     peak, default 0.96,1,1.04) the periodic solution from the linearized guess (a cold
//     point: CPU time, Newton iterations; near the resonance of a weakly damped joint it
//     may not converge, which is reported) and from the curve's nearest point (what the
//     first harmonic is compared with), and the transient of the same reduced system (the
//     joints from the preloaded history, the excitation as a sinusoid; Newmark average
//     acceleration, 200 steps per period, the integrator's default Newton) from rest, one
//     period per time::Integrate call, until steady state: the first harmonic of the first
//     output over a period (trapezoidal over the steps taken, which may be cut) changes by
//     less than 1e-4 relative twice in a row, or MAX_PERIODS (default 2000; "NOT steady":
//     the ratio is then a lower bound). The peak |y| is not the test: on the friction bar
//     single steps spike. The ratios transient / cold point and transient / average point
//     of the curve, and the first-harmonic amplitudes of the two (the transient's over its
//     last period).
// Times are process CPU times. Progress on stderr; OUT_DIR/summary.json is
// written after each part.
// bench/models/friction_bar_frf.yaml is the friction bar (1615 pairs, H = 5); the
// third argument sets its number of joint modes g (reduction.joint_modes.modes).
//
//   ./build/bench/joint_harmonic [MODEL.yaml] [OUT_DIR] [g] [FACTORS] [MAX_PERIODS]
#include "analysis/joint_harmonic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "model/joint_harmonic_reader.h"
#include "time/integrator.h"

using namespace jointdyn;

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr int kStepsPerPeriod = 200;
constexpr double kSteadyTolerance = 1e-4;
constexpr int kBackboneLevels = 50;

double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// The first output's first-harmonic amplitude at a point [m].
double Amplitude(const analysis::JointHarmonicResult& result, const harmonic::SolutionPoint& p) {
  const MatX c = analysis::OutputCoefficients(result, p);
  return std::hypot(c(0, 1), c(0, 2));
}

struct Transient {
  int periods = 0;
  bool steady = false;     // the steady-state test met within max_periods
  double seconds = 0.0;    // CPU time to steady state
  double amplitude = 0.0;  // first harmonic of the first output over the last period [m]
  long newton_iterations = 0;
  long steps = 0;  // accepted
};

// The first harmonic of y over one period [t0, t0 + 1/f] from the integrator's records
// (trapezoidal in time: the steps may be cut, so the records need not be equally spaced).
class FirstHarmonic {
 public:
  explicit FirstHarmonic(double f) : f_(f) {}
  void Add(double t, double y) {
    const double c = y * std::cos(kTwoPi * f_ * t), s = y * std::sin(kTwoPi * f_ * t);
    if (started_) a_ += 0.5 * (c + c_) * (t - t_), b_ += 0.5 * (s + s_) * (t - t_);
    started_ = true;
    t_ = t, c_ = c, s_ = s;
  }
  double Amplitude() const { return 2.0 * f_ * std::hypot(a_, b_); }

 private:
  double f_, a_ = 0.0, b_ = 0.0, t_ = 0.0, c_ = 0.0, s_ = 0.0;
  bool started_ = false;
};

// The reduced system with the excitation (harmonic 1 at `level`) as a sinusoid of f [Hz],
// integrated period by period from the start until steady state (or max_periods).
Transient ToSteadyState(const analysis::JointHarmonicSystem& built, double level, double f,
                        int max_periods) {
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
  double last_amplitude = 0.0;
  int calm = 0;
  for (int p = 0; p < max_periods && calm < 2; ++p) {
    integrator.t_start = p / f;
    integrator.t_end = (p + 1) / f;
    double peak = 0.0;
    FirstHarmonic harmonic(f);
    const time::TransientResult r =
        time::Integrate(system, integrator, q, v, [&](const time::StepRecord& record) {
          q = *record.q;
          v = *record.v;
          const double y = output.dot(q - built.start);
          harmonic.Add(record.t, y);
          peak = std::max(peak, std::abs(y));
        });
    JD_CHECK(r.status.ok, "transient at " + std::to_string(f) + " Hz: " + r.status.message);
    const double amplitude = harmonic.Amplitude();
    const double change = std::abs(amplitude - last_amplitude) / amplitude;
    calm = change <= kSteadyTolerance ? calm + 1 : 0;
    out.newton_iterations += r.newton_iterations;
    out.steps += r.accepted_steps;
    if ((p + 1) % 10 == 0)
      std::fprintf(stderr,
                   "transient at %.3f Hz: %d periods, first harmonic %.4e m (change %.1e), peak "
                   "%.4e m, %.1f Newton iterations per step (%.0f s CPU)\n",
                   f, p + 1, amplitude, change, peak,
                   static_cast<double>(out.newton_iterations) / out.steps, CpuSeconds());
    last_amplitude = amplitude;
    out.periods = p + 1;
    out.amplitude = amplitude;
  }
  out.steady = calm >= 2;
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

// The summary, written after each part (the transients may take hours).
struct Report {
  std::string out_dir;
  nlohmann::json summary;
  void Write() const {
    std::filesystem::create_directories(out_dir);
    std::ofstream(out_dir + "/summary.json") << summary.dump(2) << "\n";
  }
};

struct Curve {
  analysis::JointHarmonicResult result;
  double per_point = 0.0;  // CPU time of the run (the model's stages included) per point [s]
  double peak_hz = 0.0, peak = 0.0, smallest = 0.0;  // first output's amplitudes [m]
  const harmonic::ContinuationResult& continuation() const { return result.curves[0].continuation; }
};

// (a) the frequency-response curve.
Curve RunCurve(const analysis::JointHarmonicOptions& options, analysis::Observer& progress,
               Report& report) {
  const double start = CpuSeconds();
  Curve curve{analysis::RunJointHarmonic(options, progress)};
  const double seconds = CpuSeconds() - start;
  JD_CHECK(curve.result.status.ok, "the curve: " + curve.result.status.message);
  const harmonic::ContinuationResult& c = curve.continuation();
  curve.per_point = seconds / c.points.size();
  curve.smallest = 1e300;
  for (const harmonic::SolutionPoint& p : c.points) {
    const double a = Amplitude(curve.result, p);
    curve.smallest = std::min(curve.smallest, a);
    if (a > curve.peak) curve.peak = a, curve.peak_hz = p.omega / kTwoPi;
  }
  const analysis::JointHarmonicResult& r = curve.result;
  std::printf(
      "(a) %s: %d coordinates, %d pairs, %d unknowns; curve %zu points, %d Newton "
      "iterations, %.1f ms CPU per point (the model's stages included: %.1f s)\n",
      r.basis.c_str(), r.coordinates, r.elements, r.unknowns, c.points.size(), c.newton_iterations,
      1e3 * curve.per_point, seconds);
  std::fflush(stdout);
  report.summary["curve"] = {{"points", c.points.size()},
                             {"newton_iterations", c.newton_iterations},
                             {"seconds_per_point", curve.per_point},
                             {"peak_hz", curve.peak_hz},
                             {"coordinates", r.coordinates},
                             {"pairs", r.elements},
                             {"unknowns", r.unknowns}};
  report.Write();
  return curve;
}

// (c) the backbone of 50 amplitude levels over the curve's amplitudes.
void RunBackbone(const analysis::JointHarmonicOptions& options, const Curve& curve,
                 analysis::Observer& progress, Report& report) {
  analysis::JointHarmonicOptions backbone = options;
  backbone.excitation.clear();
  backbone.nonlinear_mode.emplace();
  const double ratio = curve.peak / curve.smallest;
  for (int i = 0; i < kBackboneLevels; ++i)
    backbone.nonlinear_mode->amplitudes.push_back(
        curve.smallest * std::pow(ratio, static_cast<double>(i) / (kBackboneLevels - 1)));
  const double start = CpuSeconds();
  const analysis::JointHarmonicResult modes = analysis::RunJointHarmonic(backbone, progress);
  const double seconds = CpuSeconds() - start;
  JD_CHECK(modes.status.ok, "the backbone: " + modes.status.message);
  const analysis::Backbone& b = modes.backbones.at(0);
  std::printf(
      "(c) backbone: %d amplitudes from %.2e to %.2e m, %.2f to %.2f Hz, %d Newton "
      "iterations, %.2f s (EPMC %.2f s)\n",
      b.size(), curve.smallest, curve.peak, b.frequency.front(), b.frequency.back(), b.iterations,
      seconds, b.seconds);
  std::fflush(stdout);
  report.summary["backbone"] = {{"amplitudes", b.size()},
                                {"newton_iterations", b.iterations},
                                {"seconds", seconds},
                                {"epmc_seconds", b.seconds}};
  report.Write();
}

// (b) the chosen frequencies (factors of the peak's) against the transient.
void CompareWithTransients(const analysis::JointHarmonicOptions& options, const Curve& curve,
                           const std::vector<double>& factors, int max_periods,
                           analysis::Observer& progress, Report& report) {
  const double level = options.levels[0];
  analysis::JointHarmonicSystem built = analysis::BuildJointHarmonicSystem(options, progress);
  JD_CHECK(built.result.status.ok, built.result.status.message);
  nlohmann::json points = nlohmann::json::array();
  for (const double factor : factors) {
    const double f = factor * curve.peak_hz;
    // Harmonic balance at f from the linearized guess (cold) and from the curve's nearest
    // point (warm: what a point costs next to its neighbour, as along the curve).
    const harmonic::SolutionPoint& nearest =
        *std::min_element(curve.continuation().points.begin(), curve.continuation().points.end(),
                          [&](const auto& a, const auto& b) {
                            return std::abs(a.omega - kTwoPi * f) < std::abs(b.omega - kTwoPi * f);
                          });
    const VecX warm_guess = built.hb->Restrict(nearest.coefficients);
    const Solved cold = Solve(built, kTwoPi * f, level, options, nullptr);
    const Solved warm = Solve(built, kTwoPi * f, level, options, &warm_guess);
    JD_CHECK(warm.result.status.ok, "periodic solution: " + warm.result.status.message);
    const Transient transient = ToSteadyState(built, level, f, max_periods);
    const double hb = Amplitude(built.result, warm.result.point);
    std::printf(
        "(b) %.2f Hz: harmonic balance %.4e m (cold: %s, %d iterations, %.3f s; from the "
        "curve: %d iterations, %.3f s), transient %.4e m (%s after %d periods, %.1f Newton "
        "iterations per step, %.2f s): ratio %.1f cold, %.1f along the curve; amplitudes "
        "%.1e\n",
        f, hb, cold.result.status.ok ? "converged" : "failed", cold.result.newton.iterations,
        cold.seconds, warm.result.newton.iterations, warm.seconds, transient.amplitude,
        transient.steady ? "steady" : "NOT steady", transient.periods,
        static_cast<double>(transient.newton_iterations) / transient.steps, transient.seconds,
        transient.seconds / cold.seconds, transient.seconds / curve.per_point,
        hb / transient.amplitude - 1.0);
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
         {"transient_steady", transient.steady},
         {"transient_newton_iterations", transient.newton_iterations},
         {"transient_steps", transient.steps},
         {"ratio_cold", cold.result.status.ok ? transient.seconds / cold.seconds : 0.0},
         {"ratio_curve", transient.seconds / curve.per_point},
         {"amplitude_difference", hb / transient.amplitude - 1.0}});
    report.summary["points"] = points;
    report.Write();
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string model =
      argc > 1 ? argv[1]
               : std::string(JOINTDYN_SOURCE_DIR) + "/examples/harmonic/bolted_lap_joint_frf.yaml";
  analysis::JointHarmonicOptions options =
      model::ReadJointHarmonic(model::ModelNode::LoadFile(model));
  if (argc > 3) options.joint_modes.modes.modes = std::stoi(argv[3]);
  std::vector<double> factors = {0.96, 1.0, 1.04};
  if (argc > 4) {
    factors.clear();
    std::stringstream list(argv[4]);
    for (std::string item; std::getline(list, item, ',');) factors.push_back(std::stod(item));
  }
  const int max_periods = argc > 5 ? std::stoi(argv[5]) : 2000;
  options.levels.resize(1);
  StderrProgress progress;
  Report report{argc > 2 ? argv[2] : "out/joint_harmonic",
                {{"model", model},
                 {"level", options.levels[0]},
                 {"joint_modes", options.joint_modes.modes.modes}}};
  const Curve curve = RunCurve(options, progress, report);
  RunBackbone(options, curve, progress, report);
  CompareWithTransients(options, curve, factors, max_periods, progress, report);
  return 0;
}
