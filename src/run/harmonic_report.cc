#include "run/harmonic_report.h"

#include <cmath>
#include <numbers>
#include <utility>

#include "core/error.h"
#include "io/results.h"
#include "io/svg_plot.h"
#include "run/summaries.h"

namespace jointdyn::run {
namespace {

constexpr double kHz = 2.0 * std::numbers::pi;  // omega [rad/s] per frequency [Hz]

// The columns of frequency_response.csv: level, frequency [Hz], per output DOF mean_<dof>
// (bases with the static term) and amp_<dof>_h<k>, phase_<dof>_h<k> [deg] per harmonic k
// (q = amp cos(k omega t + phase)), then stable (with stability) and turning_point.
std::vector<std::string> Columns(const analysis::HarmonicOptions& model) {
  std::vector<std::string> columns = {"level", "frequency_hz"};
  const auto& basis = model.harmonics.basis;
  for (const int d : model.output_dofs) {
    const std::string& name = model.model.dofs[d].name;
    if (basis.has_static()) columns.push_back("mean_" + name);
    for (int p = 0; p < basis.num_pairs(); ++p) {
      const std::string k = std::to_string(basis.PairHarmonic(p));
      columns.push_back("amp_" + name + "_h" + k);
      columns.push_back("phase_" + name + "_h" + k);
    }
  }
  if (model.continuation.solve.stability) columns.push_back("stable");
  columns.push_back("turning_point");
  return columns;
}

// Amplitude [m] and phase [deg] of a cos + b sin = amplitude cos(theta + phase).
std::pair<double, double> Polar(double a, double b) {
  return {std::hypot(a, b), std::atan2(-b, a) * 180.0 / std::numbers::pi};
}

std::vector<double> Row(const analysis::HarmonicOptions& model,
                        const harmonic::SolutionPoint& point) {
  std::vector<double> row = {point.level, point.omega / kHz};
  const auto& basis = model.harmonics.basis;
  for (const int d : model.output_dofs) {
    if (basis.has_static()) row.push_back(point.coefficients(d, 0));
    for (int p = 0; p < basis.num_pairs(); ++p) {
      const int c = basis.CosIndex(p);
      const auto [amplitude, phase] = Polar(point.coefficients(d, c), point.coefficients(d, c + 1));
      row.push_back(amplitude);
      row.push_back(phase);
    }
  }
  if (model.continuation.solve.stability)
    row.push_back(point.stability == harmonic::Stability::kStable ? 1.0 : 0.0);
  row.push_back(point.turning_point ? 1.0 : 0.0);
  return row;
}

// The amplitude of harmonic 1 of each output DOF over the curves, one plot per DOF.
void WritePlots(const analysis::HarmonicOptions& options, const analysis::HarmonicResult& result,
                OutputFolder& folder) {
  const bool frequency = options.by_frequency();
  const auto x_of = [&](const harmonic::SolutionPoint& point) {
    return frequency ? point.omega / kHz : point.level;
  };
  for (const int d : options.output_dofs) {
    const std::string& name = options.model.dofs[d].name;
    io::PlotSpec plot{options.title.empty() ? "Harmonic response of " + name : options.title,
                      frequency ? "frequency f [Hz]" : "excitation level [-]",
                      "amplitude of harmonic 1 of " + name + " [m]",
                      false,
                      false,
                      {}};
    for (const analysis::HarmonicCurve& c : result.curves) {
      const std::string label =
          frequency ? "level " + FormatValue(c.fixed) : "f = " + FormatValue(c.fixed / kHz) + " Hz";
      io::PlotSeries curve{label, {}, {}, false, true}, marks{"", {}, {}, true, false};
      for (const auto& point : c.continuation.points) {
        const double y = analysis::FirstHarmonicAmplitude(options.harmonics.basis, point, d);
        curve.x.push_back(x_of(point));
        curve.y.push_back(y);
        if (point.stability == harmonic::Stability::kUnstable) {
          marks.x.push_back(x_of(point));
          marks.y.push_back(y);
        }
      }
      plot.series.push_back(std::move(curve));
      if (!marks.x.empty()) {
        marks.label = label + ": unstable";
        plot.series.push_back(std::move(marks));
      }
    }
    io::WriteSvgPlot(plot, folder.File("amplitude_" + name + ".svg"));
  }
}

// One curve's figures; `peak` of harmonic 1 of the first output DOF.
nlohmann::json CurveSummary(const analysis::HarmonicOptions& options,
                            const analysis::HarmonicCurve& curve) {
  const bool frequency = options.by_frequency();
  const harmonic::ContinuationResult& r = curve.continuation;
  double peak = 0.0, peak_x = 0.0;
  if (!options.output_dofs.empty())
    for (const auto& point : r.points) {
      const double a =
          analysis::FirstHarmonicAmplitude(options.harmonics.basis, point, options.output_dofs[0]);
      if (a > peak) {
        peak = a;
        peak_x = frequency ? point.omega / kHz : point.level;
      }
    }
  nlohmann::json c = {{"points", r.points.size()},
                      {"steps", r.steps},
                      {"rejected_steps", r.rejected_steps},
                      {"turning_points", r.turning_points},
                      {"newton_iterations", r.newton_iterations},
                      {"stop_reason", r.stop_reason},
                      {"status", r.status ? "ok" : "failed"},
                      {"seconds", r.seconds},
                      {"peak_amplitude", peak}};
  c[frequency ? "level" : "frequency_hz"] = frequency ? curve.fixed : curve.fixed / kHz;
  c[frequency ? "peak_frequency_hz" : "peak_level"] = peak_x;
  return c;
}

}  // namespace

RunOutcome HarmonicReport::Finish(const analysis::HarmonicResult& result) {
  io::CsvWriter csv(folder_.File("frequency_response.csv"), Columns(options_));
  nlohmann::json curves = nlohmann::json::array();
  int points = 0, steps = 0, rejected = 0, turning = 0, iterations = 0, unstable = 0;
  for (const analysis::HarmonicCurve& curve : result.curves) {
    const harmonic::ContinuationResult& r = curve.continuation;
    for (const auto& point : r.points) {
      csv.Row(Row(options_, point));
      if (point.stability == harmonic::Stability::kUnstable) ++unstable;
    }
    curves.push_back(CurveSummary(options_, curve));
    points += static_cast<int>(r.points.size());
    steps += r.steps;
    rejected += r.rejected_steps;
    turning += r.turning_points;
    iterations += r.newton_iterations;
  }
  if (points >= 2) WritePlots(options_, result, folder_);
  const lumped::LumpedModel& model = options_.model;
  nlohmann::json summary = SummaryHead(analysis_, model_file_, options_.title);
  summary["dofs"] = result.dofs;
  summary["unknowns"] = result.unknowns;
  summary["elements"] = LumpedElementCounts(model);
  summary["elements"]["polynomial_springs"] = options_.polynomial_springs.size();
  summary["elements"]["dry_friction"] = options_.dry_friction.size();
  summary["harmonics"] = options_.harmonics.basis.harmonics;
  summary["odd_only"] = options_.harmonics.basis.odd_only;
  summary["samples_per_period"] = options_.harmonics.samples;
  summary["parameter"] = options_.by_frequency() ? "frequency" : "level";
  summary["curves"] = curves;
  summary["points"] = points;
  summary["steps"] = steps;
  summary["rejected_steps"] = rejected;
  summary["turning_points"] = turning;
  summary["newton_iterations"] = iterations;
  summary["unstable_points"] = unstable;
  summary["wall_time_s"] = result.wall_seconds;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
