#include "model/hysteresis_reader.h"

#include <cmath>

#include "model/law_registry.h"

namespace jointdyn::model {
namespace {

using laws::PathKind;

// cycles x samples_per_cycle + 1 samples within an int and memory: per sample its time,
// slip and the stored result (laws::HysteresisSample).
void CheckSamples(const ModelNode& node, const laws::SlipPath& path) {
  const double samples = double(path.cycles) * path.samples_per_cycle + 1.0;
  const std::string what = FormatValue(samples) + " samples (cycles x samples_per_cycle + 1)";
  node.CheckMemory("cycles",
                   samples * (sizeof(double) + sizeof(Vec2) + sizeof(laws::HysteresisSample)), what,
                   std::to_string(path.cycles));
  if (samples > 2147483647.0)
    node.FailValue("cycles", std::to_string(path.cycles),
                   "gives " + what + ", more than the 2147483647 an int counts");
}

// Reads the slip path; a table with a gap column fills `gap_table`.
laws::SlipPath ReadPath(const ModelNode& node, std::vector<double>& gap_table) {
  laws::SlipPath path;
  path.kind = node.Enum<PathKind>("type", {{"sinusoid", PathKind::kSinusoid},
                                           {"ellipse", PathKind::kEllipse},
                                           {"circle", PathKind::kEllipse},
                                           {"table", PathKind::kTable}});
  const std::string type = node.String("type");
  if (path.kind == PathKind::kTable) {
    double previous = -INFINITY;
    const auto rows = node.Rows("points", 2, 4);
    for (size_t i = 0; i < rows.size(); ++i) {
      const std::string row = "points[" + std::to_string(i) + "]";
      if (rows[i].size() != rows[0].size())
        node.FailValue(row, "", "must have as many columns as points[0]");
      if (!(rows[i][0] > previous))
        node.FailValue(row + "[0]", FormatValue(rows[i][0]),
                       "times must increase strictly from row to row");
      previous = rows[i][0];
      path.table_time.push_back(rows[i][0]);
      path.table_slip.emplace_back(rows[i][1], rows[i].size() > 2 ? rows[i][2] : 0.0);
      if (rows[i].size() > 3) gap_table.push_back(rows[i][3]);
    }
    if (rows.size() < 2) node.FailValue("points", "", "needs at least two rows");
    path.frequency = 1.0 / (path.table_time.back() - path.table_time.front());
  } else {
    if (type == "sinusoid") {
      path.amplitude_x = node.Double("amplitude", Positive());
      path.amplitude_y = node.Double("amplitude_y", 0.0);
    } else if (type == "ellipse") {
      path.amplitude_x = node.Double("amplitude_x", Positive());
      path.amplitude_y = node.Double("amplitude_y", Positive());
    } else {
      path.amplitude_x = path.amplitude_y = node.Double("radius", Positive());
    }
    path.frequency = node.Double("frequency", Positive());
    path.cycles = node.Int("cycles", 3, AtLeast(1));
    path.samples_per_cycle = node.Int("samples_per_cycle", 400, AtLeast(8));
    CheckSamples(node, path);
  }
  node.Finish();
  return path;
}

std::vector<double> ReadSweep(const ModelNode& node) {
  std::vector<double> amplitudes;
  if (node.Has("amplitudes")) {
    amplitudes = node.Doubles("amplitudes", Positive());
  } else {
    const double from = node.Double("from", Positive());
    const double to = node.Double("to", Positive());
    const int count = node.Int("count", AtLeast(2));
    // Per amplitude: its value and its result (a few doubles: counted as 6).
    node.CheckMemory("count", count * 7.0 * sizeof(double),
                     std::to_string(count) + " sweep amplitudes");
    if (!(to > from)) node.FailValue("to", FormatValue(to), "must be > sweep.from");
    for (int i = 0; i < count; ++i)
      amplitudes.push_back(from * std::pow(to / from, double(i) / (count - 1)));
  }
  node.Finish();
  return amplitudes;
}

// The normal side: a constant pressure, or a normal law with an optional gap path.
void ReadNormal(const ModelNode& normal, analysis::HysteresisOptions& options) {
  if (normal.Has("pressure") == normal.Has("law"))
    normal.FailValue(normal.Has("law") ? "law" : "pressure", "",
                     "give either a constant pressure or a normal law with a gap path");
  if (normal.Has("pressure")) {
    options.loop.pressure = normal.Double("pressure", NonNegative());
  } else {
    options.normal = ReadNormalLaw(normal.Map("law"));
    if (const auto gap = normal.OptionalMap("gap")) {
      options.loop.gap.mean = gap->Double("mean", 0.0);
      options.loop.gap.amplitude = gap->Double("amplitude", 0.0, NonNegative());
      options.loop.gap.phase = gap->Double("phase_deg", 0.0) * M_PI / 180.0;
      gap->Finish();
    }
  }
  normal.Finish();
}

}  // namespace

analysis::HysteresisOptions ReadHysteresis(const ModelNode& root) {
  analysis::HysteresisOptions options;
  root.ExpectAnalysis("hysteresis");
  options.title = root.String("title", "");
  if (const auto law = root.OptionalMap("law")) options.law = ReadTangentialLaw(*law);
  const ModelNode normal = root.Map("normal");
  ReadNormal(normal, options);
  const ModelNode path = root.Map("path");
  options.loop.path = ReadPath(path, options.loop.gap.table);
  if (!options.loop.gap.table.empty() && normal.Has("gap"))
    normal.FailValue("gap", "", "the gap is given twice: by the path table and by normal.gap");
  if (const auto sweep = root.OptionalMap("sweep")) options.sweep = ReadSweep(*sweep);
  if (const auto pn = root.OptionalMap("post_newton")) {
    options.loop.post_newton.tolerance = pn->Double("tolerance", 1e-9, Positive());
    options.loop.post_newton.max_iterations = pn->Int("max_iterations", 20, AtLeast(1));
    pn->Finish();
  }
  const bool force_law = options.law && options.law->type().starts_with("iwan_");
  options.traction_unit = root.String("traction_unit", force_law ? "N" : "Pa");
  root.Finish();
  return options;  // RunHysteresis validates the combination (HysteresisOptions::Validate)
}

}  // namespace jointdyn::model
