// Issue 4 performance study: condensed harmonic balance on a chain of 1000 linear DOFs with
// 20 Jenkins friction contacts, H = 7 (static term and harmonics 1..7, N = 128 samples),
// against integrating the same system in time to steady state.
//
// The chain: 1000 masses of 0.1 kg, springs of 1e8 N/m from ground to mass 0 and between
// neighbours (fixed at mass 0's end, free at mass 999), dampers of beta k parallel to the
// springs with beta = 2 zeta_1 / omega_1 (stiffness-proportional: zeta_1 = 2 % in the
// first mode, higher modes more), a Jenkins contact to ground (three-parameter Coulomb law,
// c1 = 5e3 N/m, c2 = 0, mu = 0.5 at a normal force of 40 N: slip at 20 N) on every 50th
// mass (49, 99, ..., 999), and the force P cos(omega t), P = 100 N, on the free end.
//
// (a) Frequency continuation from 0.8 to 1.5 times the first natural frequency of the
//     chain without contacts (7.90 Hz; the stuck contacts stiffen it): CPU time per
//     continuation point, Newton iterations per point, and the CPU time of one evaluation
//     split into the linear part (a new omega) and the elements (Breakdown).
// (b) At the peak frequency of (a): the time integration (lumped::LumpedSystem, Newmark
//     average acceleration, 256 steps per period, fixed steps) from rest, one period per
//     time::Integrate call (the law histories stay in the system; Newmark's restart is
//     exact), until steady state: the peak |q| of the forced DOF over a period changes by
//     less than 1e-4 relative between consecutive periods, twice in a row. Its CPU time up
//     to that period against the harmonic-balance single-point solve at that frequency
//     from the linearized guess: the speed-up; and the peak amplitudes of the two.
//
// Writes OUT_DIR (default out/harmonic_chain): summary.json, frequency_response.csv (per
// point: frequency, amplitude of harmonic 1 and peak |q| of the forced DOF, Newton
// iterations), time_periods.csv (per period: peak |q| of the forced DOF, its relative
// change, CPU time so far). Times are process CPU times. `--hb-only` skips (b) (for profiling the
// continuation).
//
//   ./build/bench/harmonic_chain [OUT_DIR] [--hb-only]
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <numbers>
#include <string>

#include "analysis/harmonic.h"
#include "core/error.h"
#include "harmonic/continuation.h"
#include "io/results.h"
#include "laws/coulomb.h"
#include "lumped/lumped_system.h"
#include "time/integrator.h"

using namespace jointdyn;

namespace {

constexpr int kMasses = 1000;
constexpr int kContacts = 20;
constexpr double kMass = 0.1;         // [kg]
constexpr double kStiffness = 1e8;    // [N/m]
constexpr double kZeta = 0.02;        // first-mode damping ratio [-]
constexpr double kForce = 100.0;      // [N]
constexpr int kForced = kMasses - 1;  // the free end
constexpr int kHarmonics = 7;
constexpr int kSamples = 128;
constexpr int kStepsPerPeriod = 256;
constexpr double kSteadyTolerance = 1e-4;
constexpr int kMaxPeriods = 400;

// Process CPU time [s]: the figures are CPU times (the program is single-threaded), less
// sensitive than wall time to other processes on the machine.
double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// First natural frequency of the fixed-free chain of equal masses and springs [rad/s].
double FirstFrequency() {
  return 2.0 * std::sqrt(kStiffness / kMass) *
         std::sin(std::numbers::pi / (2.0 * (2 * kMasses + 1)));
}

lumped::LumpedModel Chain() {
  lumped::LumpedModel model;
  const double c = 2.0 * kZeta / FirstFrequency() * kStiffness;
  for (int i = 0; i < kMasses; ++i) {
    model.dofs.push_back({.name = "m" + std::to_string(i), .mass = kMass});
    const int left = i == 0 ? lumped::kGround : i - 1;
    model.springs.push_back({.name = "k" + std::to_string(i), .a = i, .b = left, .k = kStiffness});
    model.dampers.push_back({.name = "c" + std::to_string(i), .a = i, .b = left, .c = c});
  }
  const auto law = std::make_shared<laws::CoulombLaw>(laws::CoulombParams{5e3, 0.0, 0.5}, 1);
  for (int j = 1; j <= kContacts; ++j) {
    lumped::FrictionElement contact;
    contact.name = "contact" + std::to_string(j);
    contact.a = {j * (kMasses / kContacts) - 1};
    contact.law = law;
    contact.normal.pressure = time::TimeFunction::Constant(40.0);
    model.friction.push_back(std::move(contact));
  }
  return model;
}

// Largest |q(theta)| of a DOF's harmonic coefficients on a fine grid [m].
double Peak(const harmonic::HarmonicBasis& basis, const MatX& coefficients, int dof) {
  harmonic::Aft aft(basis, 4096);
  VecX x(4096);
  aft.ToTime(coefficients.row(dof).transpose(), x);
  return x.cwiseAbs().maxCoeff();
}

struct TimeDomain {
  Status status;
  int periods = 0;         // periods integrated until steady
  double seconds = 0.0;    // CPU time up to steady state
  double amplitude = 0.0;  // peak |q| of the forced DOF in the last period [m]
  int steps = 0, newton_iterations = 0;
};

TimeDomain IntegrateToSteadyState(const lumped::LumpedModel& chain, double omega,
                                  io::CsvWriter& csv) {
  lumped::LumpedModel model = chain;
  model.loads.push_back(
      {kForced, time::TimeFunction::Sinusoid(kForce, omega / (2.0 * std::numbers::pi),
                                             std::numbers::pi / 2.0, 0.0)});
  lumped::LumpedSystem system(model);
  const double period = 2.0 * std::numbers::pi / omega;
  time::IntegratorOptions options;
  options.scheme = time::Scheme::kNewmark;  // average acceleration: exact restarts
  options.dt = period / kStepsPerPeriod;
  options.newton.residual_tolerance = 1e-10;
  VecX q = system.initial_positions(), v = system.initial_velocities();
  TimeDomain out;
  const double start = CpuSeconds();
  double previous = 0.0;
  int settled = 0;
  for (int p = 0; p < kMaxPeriods; ++p) {
    options.t_start = p * period;
    options.t_end = (p + 1) * period;
    double peak = 0.0;
    const time::TransientResult r =
        time::Integrate(system, options, q, v, [&](const time::StepRecord& step) {
          peak = std::max(peak, std::abs((*step.q)(kForced)));
          q = *step.q;
          v = *step.v;
        });
    if (!r.status) {
      out.status = r.status;
      return out;
    }
    out.steps += r.accepted_steps;
    out.newton_iterations += r.newton_iterations;
    const double change = std::abs(peak - previous) / peak;
    csv.Row({double(p + 1), peak, change, CpuSeconds() - start});
    previous = peak;
    settled = change < kSteadyTolerance ? settled + 1 : 0;
    if (settled == 2) {
      out.periods = p + 1;
      out.seconds = CpuSeconds() - start;
      out.amplitude = peak;
      return out;
    }
  }
  out.status =
      Status::Failure("no steady state within " + std::to_string(kMaxPeriods) + " periods");
  return out;
}

// CPU time of one residual-and-Jacobian evaluation at a solution point, split into the
// linear part (the condensed blocks for a new omega: the sparse LU per harmonic and the
// solves) and the rest (the AFT march of the elements and the assembly), from evaluations
// at a new omega each time and at the same omega.
nlohmann::json Breakdown(harmonic::HarmonicBalance& hb, const harmonic::SolutionPoint& point) {
  const VecX q = hb.Restrict(point.coefficients);
  VecX r, d_omega;
  MatX d_q;
  constexpr int kRepeats = 20;
  auto time = [&](bool new_omega) {
    const double start = CpuSeconds();
    for (int i = 0; i < kRepeats; ++i) {
      const double omega = point.omega * (1.0 + (new_omega ? 1e-9 * (i + 1) : 0.0));
      JD_CHECK(hb.Evaluate(q, omega, point.level, r, &d_q, &d_omega, nullptr).ok,
               "breakdown evaluation");
    }
    return (CpuSeconds() - start) / kRepeats;
  };
  time(false);  // the blocks at point.omega
  const double same = time(false), fresh = time(true);
  std::printf(
      "evaluation at %.3f Hz: %.2f ms, of which linear part (new omega) %.2f ms, elements "
      "and assembly %.2f ms (%d periods marched)\n",
      point.omega / (2 * std::numbers::pi), 1e3 * fresh, 1e3 * (fresh - same), 1e3 * same,
      hb.last_periods());
  return {{"frequency_hz", point.omega / (2 * std::numbers::pi)},
          {"evaluation_cpu_seconds", fresh},
          {"linear_part_cpu_seconds", fresh - same},
          {"elements_and_assembly_cpu_seconds", same},
          {"periods_marched", hb.last_periods()}};
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path out = "out/harmonic_chain";
  bool hb_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--hb-only") {
      hb_only = true;
    } else {
      out = argv[i];
    }
  }
  io::EnsureDirectory(out);
  const double omega1 = FirstFrequency();

  analysis::HarmonicOptions model;
  model.model = Chain();
  model.excitation = {{.dof = kForced, .harmonic = 1, .cos_amplitude = kForce}};
  model.harmonics.basis = {.harmonics = kHarmonics};
  model.harmonics.samples = kSamples;
  harmonic::HarmonicBalance hb(analysis::BuildHarmonicSystem(model), model.harmonics);
  std::cerr << "harmonic balance: " << hb.num_dofs() << " DOFs, " << hb.num_unknowns()
            << " unknowns after condensation\n";

  // (a) The sweep from 0.8 omega_1 (below the slipping resonance) to 1.5 omega_1 (above the
  // stuck one).
  harmonic::ContinuationOptions sweep;
  sweep.start = 0.8 * omega1;
  sweep.end = 1.5 * omega1;
  sweep.fixed = 1.0;
  const double curve_start = CpuSeconds();
  const harmonic::ContinuationResult curve = harmonic::Continue(hb, sweep);
  const double curve_cpu = CpuSeconds() - curve_start;
  if (!curve.status) {
    std::cerr << "continuation: " << curve.status.message << "\n";
    return 3;
  }
  io::CsvWriter response(out / "frequency_response.csv",
                         {"frequency_hz", "amplitude_h1", "peak", "newton_iterations"});
  double peak = 0.0, peak_omega = 0.0;
  const int c1 = model.harmonics.basis.CosIndex(0);
  for (const harmonic::SolutionPoint& point : curve.points) {
    const double a1 =
        std::hypot(point.coefficients(kForced, c1), point.coefficients(kForced, c1 + 1));
    response.Row({point.omega / (2.0 * std::numbers::pi), a1,
                  Peak(model.harmonics.basis, point.coefficients, kForced),
                  double(point.newton_iterations)});
    if (a1 > peak) {
      peak = a1;
      peak_omega = point.omega;
    }
  }
  const int points = static_cast<int>(curve.points.size());
  const double per_point = curve_cpu / points;
  std::printf(
      "(a) continuation %.2f-%.2f Hz: %d points in %.2f s CPU (%.2f s wall): %.1f ms per point, "
      "%.2f Newton iterations per point, %d rejected steps; peak %.4e m at %.3f Hz\n",
      sweep.start / (2 * std::numbers::pi), sweep.end / (2 * std::numbers::pi), points, curve_cpu,
      curve.seconds, 1e3 * per_point, double(curve.newton_iterations) / points,
      curve.rejected_steps, peak, peak_omega / (2 * std::numbers::pi));

  nlohmann::json summary;
  summary["system"] = {{"dofs", hb.num_dofs()},
                       {"contacts", kContacts},
                       {"unknowns", hb.num_unknowns()},
                       {"harmonics", kHarmonics},
                       {"samples", kSamples},
                       {"first_mode_damping_ratio", kZeta},
                       {"linear_first_frequency_hz", omega1 / (2 * std::numbers::pi)}};
  summary["continuation"] = {
      {"points", points},
      {"cpu_seconds", curve_cpu},
      {"wall_seconds", curve.seconds},
      {"cpu_seconds_per_point", per_point},
      {"residual_evaluations", curve.residual_evaluations},
      {"jacobian_evaluations", curve.jacobian_evaluations},
      {"newton_iterations", curve.newton_iterations},
      {"newton_iterations_per_point", double(curve.newton_iterations) / points},
      {"rejected_steps", curve.rejected_steps},
      {"peak_amplitude_h1", peak},
      {"peak_frequency_hz", peak_omega / (2 * std::numbers::pi)}};
  summary["evaluation_breakdown"] = Breakdown(hb, curve.points[points / 2]);
  if (!hb_only) {
    // (b) At the peak frequency: one harmonic-balance solve and the time integration.
    const double single_start = CpuSeconds();
    const harmonic::PeriodicResult single =
        harmonic::SolvePeriodic(hb, peak_omega, 1.0, sweep.solve);
    const double single_cpu = CpuSeconds() - single_start;
    if (!single.status) {
      std::cerr << "single point: " << single.status.message << "\n";
      return 3;
    }
    const double hb_peak = Peak(model.harmonics.basis, single.point.coefficients, kForced);
    io::CsvWriter periods(out / "time_periods.csv",
                          {"period", "peak", "relative_change", "cpu_seconds"});
    const TimeDomain td = IntegrateToSteadyState(model.model, peak_omega, periods);
    if (!td.status) {
      std::cerr << "time integration: " << td.status.message << "\n";
      return 3;
    }
    const double difference = std::abs(hb_peak - td.amplitude) / td.amplitude;
    std::printf(
        "(b) at %.3f Hz: HB single point %.1f ms (%d Newton iterations), peak %.6e m; time "
        "integration to steady state %d periods (%d steps, %d Newton iterations) in %.2f s, "
        "peak %.6e m; difference %.2e; speed-up %.0f\n",
        peak_omega / (2 * std::numbers::pi), 1e3 * single_cpu, single.newton.iterations, hb_peak,
        td.periods, td.steps, td.newton_iterations, td.seconds, td.amplitude, difference,
        td.seconds / single_cpu);
    summary["single_point"] = {{"frequency_hz", peak_omega / (2 * std::numbers::pi)},
                               {"cpu_seconds", single_cpu},
                               {"newton_iterations", single.newton.iterations},
                               {"peak", hb_peak}};
    summary["time_integration"] = {{"scheme", "newmark average acceleration"},
                                   {"steps_per_period", kStepsPerPeriod},
                                   {"steady_tolerance", kSteadyTolerance},
                                   {"periods", td.periods},
                                   {"steps", td.steps},
                                   {"newton_iterations", td.newton_iterations},
                                   {"cpu_seconds", td.seconds},
                                   {"peak", td.amplitude}};
    summary["speed_up"] = td.seconds / single_cpu;
    summary["speed_up_per_continuation_point"] = td.seconds / per_point;
    summary["peak_relative_difference"] = difference;
  }
  io::WriteJson(out / "summary.json", summary);
  return 0;
}
