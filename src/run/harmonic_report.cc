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

// Amplitude [m] and phase [deg] of a cos + b sin = amplitude cos(theta + phase).
std::pair<double, double> Polar(double a, double b) {
  return {std::hypot(a, b), std::atan2(-b, a) * 180.0 / std::numbers::pi};
}

// The columns of frequency_response.csv: level, frequency [Hz], per output mean_<name>
// (bases with the static term) and amp_<name>_h<k>, phase_<name>_h<k> [deg] per harmonic k
// (q = amp cos(k omega t + phase)), then stable (with stability) and turning_point.
std::vector<std::string> Columns(const ResponseOutputs& outputs) {
  std::vector<std::string> columns = {"level", "frequency_hz"};
  const auto& basis = outputs.basis;
  for (const std::string& name : outputs.names) {
    if (basis.has_static()) columns.push_back("mean_" + name);
    for (int p = 0; p < basis.num_pairs(); ++p) {
      const std::string k = std::to_string(basis.PairHarmonic(p));
      columns.push_back("amp_" + name + "_h" + k);
      columns.push_back("phase_" + name + "_h" + k);
    }
  }
  if (outputs.stability) columns.push_back("stable");
  columns.push_back("turning_point");
  return columns;
}

std::vector<double> Row(const ResponseOutputs& outputs, const harmonic::SolutionPoint& point) {
  std::vector<double> row = {point.level, point.omega / kHz};
  const auto& basis = outputs.basis;
  const MatX coefficients = outputs.coefficients(point);
  for (Eigen::Index o = 0; o < coefficients.rows(); ++o) {
    if (basis.has_static()) row.push_back(coefficients(o, 0));
    for (int p = 0; p < basis.num_pairs(); ++p) {
      const int c = basis.CosIndex(p);
      const auto [amplitude, phase] = Polar(coefficients(o, c), coefficients(o, c + 1));
      row.push_back(amplitude);
      row.push_back(phase);
    }
  }
  if (outputs.stability) row.push_back(point.stability == harmonic::Stability::kStable ? 1.0 : 0.0);
  row.push_back(point.turning_point ? 1.0 : 0.0);
  return row;
}

// Harmonic 1 of output `o` at a point: amplitude [m] and phase [deg].
std::pair<double, double> FirstHarmonic(const ResponseOutputs& outputs,
                                        const harmonic::SolutionPoint& point, int o) {
  const MatX coefficients = outputs.coefficients(point);
  const int c = outputs.basis.CosIndex(0);
  return Polar(coefficients(o, c), coefficients(o, c + 1));
}

// Harmonic 1's amplitude (and, by frequency, its phase) of each output over the curves,
// one plot per output and quantity, unstable points marked.
void WritePlots(const ResponseOutputs& outputs, const std::vector<analysis::HarmonicCurve>& curves,
                bool frequency, const std::string& title, OutputFolder& folder) {
  const auto x_of = [&](const harmonic::SolutionPoint& point) {
    return frequency ? point.omega / kHz : point.level;
  };
  for (int o = 0; o < static_cast<int>(outputs.names.size()); ++o) {
    const std::string& name = outputs.names[o];
    for (const bool phase : {false, true}) {
      if (phase && !frequency) continue;
      io::PlotSpec plot{title.empty() ? "Harmonic response of " + name : title,
                        frequency ? "frequency f [Hz]" : "excitation level [-]",
                        phase ? "phase of harmonic 1 of " + name + " [deg]"
                              : "amplitude of harmonic 1 of " + name + " [m]",
                        false,
                        false,
                        {}};
      for (const analysis::HarmonicCurve& c : curves) {
        const std::string label = frequency ? "level " + FormatValue(c.fixed)
                                            : "f = " + FormatValue(c.fixed / kHz) + " Hz";
        io::PlotSeries curve{label, {}, {}, false, true}, marks{"", {}, {}, true, false};
        for (const auto& point : c.continuation.points) {
          const auto [amplitude, angle] = FirstHarmonic(outputs, point, o);
          const double y = phase ? angle : amplitude;
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
      io::WriteSvgPlot(plot, folder.File((phase ? "phase_" : "amplitude_") + name + ".svg"));
    }
  }
}

// One curve's figures; `peak` of harmonic 1 of the first output.
nlohmann::json CurveSummary(const ResponseOutputs& outputs, const analysis::HarmonicCurve& curve,
                            bool frequency) {
  const harmonic::ContinuationResult& r = curve.continuation;
  double peak = 0.0, peak_x = 0.0;
  if (!outputs.names.empty())
    for (const auto& point : r.points) {
      const double a = FirstHarmonic(outputs, point, 0).first;
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

void WriteResponseCurves(const ResponseOutputs& outputs,
                         const std::vector<analysis::HarmonicCurve>& curves, bool by_frequency,
                         const std::string& title, OutputFolder& folder, nlohmann::json& summary) {
  io::CsvWriter csv(folder.File("frequency_response.csv"), Columns(outputs));
  nlohmann::json figures = nlohmann::json::array();
  int points = 0, steps = 0, rejected = 0, turning = 0, iterations = 0, unstable = 0;
  for (const analysis::HarmonicCurve& curve : curves) {
    const harmonic::ContinuationResult& r = curve.continuation;
    for (const auto& point : r.points) {
      csv.Row(Row(outputs, point));
      if (point.stability == harmonic::Stability::kUnstable) ++unstable;
    }
    figures.push_back(CurveSummary(outputs, curve, by_frequency));
    points += static_cast<int>(r.points.size());
    steps += r.steps;
    rejected += r.rejected_steps;
    turning += r.turning_points;
    iterations += r.newton_iterations;
  }
  if (points >= 2) WritePlots(outputs, curves, by_frequency, title, folder);
  summary["harmonics"] = outputs.basis.harmonics;
  summary["odd_only"] = outputs.basis.odd_only;
  summary["parameter"] = by_frequency ? "frequency" : "level";
  summary["curves"] = figures;
  summary["points"] = points;
  summary["steps"] = steps;
  summary["rejected_steps"] = rejected;
  summary["turning_points"] = turning;
  summary["newton_iterations"] = iterations;
  summary["unstable_points"] = unstable;
}

RunOutcome HarmonicReport::Finish(const analysis::HarmonicResult& result) {
  ResponseOutputs outputs{{},
                          options_.harmonics.basis,
                          options_.continuation.solve.stability,
                          [&](const harmonic::SolutionPoint& point) {
                            MatX rows(options_.output_dofs.size(), point.coefficients.cols());
                            for (size_t o = 0; o < options_.output_dofs.size(); ++o)
                              rows.row(o) = point.coefficients.row(options_.output_dofs[o]);
                            return rows;
                          }};
  for (const int d : options_.output_dofs) outputs.names.push_back(options_.model.dofs[d].name);
  const lumped::LumpedModel& model = options_.model;
  nlohmann::json summary = SummaryHead(analysis_, model_file_, options_.title);
  summary["dofs"] = result.dofs;
  summary["unknowns"] = result.unknowns;
  summary["elements"] = LumpedElementCounts(model);
  summary["elements"]["polynomial_springs"] = options_.polynomial_springs.size();
  summary["elements"]["dry_friction"] = options_.dry_friction.size();
  summary["samples_per_period"] = options_.harmonics.samples;
  WriteResponseCurves(outputs, result.curves, options_.by_frequency(), options_.title, folder_,
                      summary);
  summary["wall_time_s"] = result.wall_seconds;
  return WriteSummary(folder_, std::move(summary), result.status);
}

}  // namespace jointdyn::run
