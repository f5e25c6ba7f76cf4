#include "io/harmonic_model.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include "core/clock.h"
#include "harmonic/dry_friction.h"
#include "harmonic/point_kernel.h"
#include "io/lumped_reader.h"
#include "io/results.h"
#include "io/svg_plot.h"
#include "laws/contact_point.h"
#include "laws/normal_law.h"

namespace jointdyn::io {
namespace {

using harmonic::ContinuationParameter;
using lumped::kGround;

constexpr double kHz = 2.0 * std::numbers::pi;  // omega [rad/s] per frequency [Hz]

// A friction element whose normal force comes from a normal law at a prescribed gap is
// not supported (a constant gap is a constant pressure: give normal.pressure).
void CheckElements(const ModelNode& root, const lumped::LumpedModel& lm) {
  for (const auto& e : lm.friction)
    if (e.normal.kind == lumped::NormalSource::Kind::kGapFunction)
      root.FailValue(e.name.starts_with("chain_ground") && root.Has("chain") ? "chain" : "elements",
                     e.name,
                     "has a normal law at a prescribed gap: a harmonic analysis takes "
                     "normal.pressure or a normal DOF pair (normal.a, normal.b)");
}

// harmonic::ContactKernel with the gap at r = 0 shifted to gap0: its last input r is the
// approach at gap0 = 0 (lumped sign convention: q_b - q_a of the normal pair) and the
// kernel sees v = r - gap0, so that g = -v = gap0 + q_a - q_b (lumped/elements.h).
class GapOffsetKernel final : public harmonic::PointKernel {
 public:
  GapOffsetKernel(laws::ContactPoint point, double gap0) : kernel_(std::move(point)), gap0_(gap0) {}

  int num_inputs() const override { return kernel_.num_inputs(); }
  int state_size() const override { return kernel_.state_size(); }
  bool dt_dependent() const override { return kernel_.dt_dependent(); }
  bool uses_rates() const override { return kernel_.uses_rates(); }
  void InitState(std::span<double> state) const override { kernel_.InitState(state); }
  Status Evaluate(const harmonic::KernelInput& in, std::span<const double> committed,
                  std::span<double> trial, harmonic::KernelResponse& out) const override {
    return kernel_.Evaluate(Shifted(in), committed, trial, out);
  }
  bool has_history_sensitivity() const override { return kernel_.has_history_sensitivity(); }
  void Sensitivity(const harmonic::KernelInput& in, std::span<const double> committed,
                   const harmonic::KernelResponse& response,
                   harmonic::HistorySensitivity& out) const override {
    kernel_.Sensitivity(Shifted(in), committed, response, out);
  }

 private:
  harmonic::KernelInput Shifted(harmonic::KernelInput in) const {
    in.r(in.r.size() - 1) -= gap0_;
    return in;
  }

  harmonic::ContactKernel kernel_;
  double gap0_;  // [m]
};

// A normal law alone (a contact element): one input r = q_b - q_a [m] of the element's
// ends, gap g = gap0 - r, force p(g, g_dot) >= 0 [N] on b (and -p on a), memoryless.
class NormalKernel final : public harmonic::PointKernel {
 public:
  NormalKernel(std::shared_ptr<const laws::NormalLaw> law, double gap0)
      : law_(std::move(law)), gap0_(gap0) {}

  int num_inputs() const override { return 1; }
  int state_size() const override { return 0; }
  bool dt_dependent() const override { return false; }
  bool uses_rates() const override { return true; }
  void InitState(std::span<double>) const override {}
  Status Evaluate(const harmonic::KernelInput& in, std::span<const double>, std::span<double>,
                  harmonic::KernelResponse& out) const override {
    const laws::NormalResponse p = law_->Evaluate(gap0_ - in.r(0), -in.r_dot(0));
    if (!std::isfinite(p.pressure) || !std::isfinite(p.d_pressure_d_gap) ||
        !std::isfinite(p.d_pressure_d_gap_rate))
      return Status::Failure("normal law " + std::string(law_->type()) +
                             ": the pressure or its tangent is not finite at gap " +
                             std::to_string(gap0_ - in.r(0)) + " m");
    out.force.setConstant(1, p.pressure);
    out.d_force_d_r.setConstant(1, 1, -p.d_pressure_d_gap);
    out.d_force_d_r_dot.setConstant(1, 1, -p.d_pressure_d_gap_rate);
    out.state = p.pressure > 0.0 ? laws::ContactState::kStick : laws::ContactState::kOpen;
    return Status::Ok();
  }

 private:
  std::shared_ptr<const laws::NormalLaw> law_;
  double gap0_;  // [m]
};

harmonic::HarmonicOptions ReadHarmonics(const ModelNode& node) {
  harmonic::HarmonicOptions o;
  o.basis.harmonics = node.Int("count", AtLeast(1));
  o.basis.odd_only = node.Bool("odd_only", false);
  if (o.basis.odd_only && o.basis.harmonics % 2 == 0)
    node.FailValue("count", std::to_string(o.basis.harmonics), "must be odd with odd_only");
  o.samples = node.Int("samples", o.samples, AtLeast(2 * o.basis.harmonics + 1));
  o.condense = node.Bool("condense", o.condense);
  node.Finish();
  return o;
}

harmonic::ExcitationTerm ReadExcitation(const ModelNode& node, const DofTable& dofs,
                                        const harmonic::HarmonicBasis& basis) {
  harmonic::ExcitationTerm term;
  term.dof = dofs.Read(node, "dof", false);
  const double amplitude = node.Double("amplitude");
  term.harmonic = node.Int("harmonic", 1, AtLeast(0));
  if (!basis.Contains(term.harmonic))
    node.FailValue("harmonic", std::to_string(term.harmonic),
                   "is not in the basis (harmonics.count, harmonics.odd_only)");
  if (term.harmonic == 0 && node.Has("phase_deg"))
    node.FailValue("phase_deg", "", "a static force (harmonic 0) has no phase");
  // amplitude cos(k omega t + phase) = a cos(k omega t) + b sin(k omega t).
  const double phase = node.Double("phase_deg", 0.0) * std::numbers::pi / 180.0;
  term.cos_amplitude = amplitude * std::cos(phase);
  term.sin_amplitude = -amplitude * std::sin(phase);
  node.Finish();
  return term;
}

void ReadContinuation(const ModelNode& root, HarmonicModel& model) {
  const ModelNode node = root.Map("continuation");
  auto& o = model.continuation;
  o.parameter = node.Enum<ContinuationParameter>(
      "parameter",
      {{"frequency", ContinuationParameter::kFrequency}, {"level", ContinuationParameter::kLevel}});
  const bool frequency = o.parameter == ContinuationParameter::kFrequency;
  const double unit = frequency ? kHz : 1.0;
  o.start = node.Double("from", frequency ? Positive() : Any()) * unit;
  o.end = node.Double("to", frequency ? Positive() : Any()) * unit;
  if (o.end == o.start) node.FailValue("to", FormatValue(o.end / unit), "must differ from from");
  if (node.Has(frequency ? "frequency" : "level"))
    node.FailValue(frequency ? "frequency" : "level", "",
                   "is the continuation parameter: give from and to");
  if (frequency) {
    if (root.Has("levels")) {
      if (node.Has("level"))
        node.FailValue("level", "", "give either continuation.level or levels");
      model.levels = root.Doubles("levels");
      if (model.levels.empty()) root.FailValue("levels", "", "must list at least one level");
    } else {
      model.levels = {node.Double("level", 1.0)};
    }
  } else {
    if (root.Has("levels"))
      root.FailValue("levels", "", "applies to continuation.parameter: frequency only");
    o.fixed = node.Double("frequency", Positive()) * kHz;
  }
  o.initial_step = node.Double("initial_step", o.initial_step, Positive());
  o.min_step = node.Double("min_step", std::min(o.min_step, o.initial_step), Positive());
  if (o.min_step > o.initial_step)
    node.FailValue("min_step", FormatValue(o.min_step),
                   "must be <= initial_step = " + FormatValue(o.initial_step));
  o.max_step = node.Double("max_step", std::max(o.max_step, o.initial_step), Positive());
  if (o.max_step < o.initial_step)
    node.FailValue("max_step", FormatValue(o.max_step),
                   "must be >= initial_step = " + FormatValue(o.initial_step));
  o.target_iterations = node.Int("target_iterations", o.target_iterations, AtLeast(1));
  o.max_points = node.Int("max_points", o.max_points, AtLeast(2));
  o.solve.stability = node.Bool("stability", false);
  if (o.solve.stability) {
    if (const Status size = harmonic::CheckDenseSize(int(model.lumped.dofs.size()),
                                                     model.harmonics.basis, "Hill's method");
        !size)
      node.FailValue("stability", "true", size.message + ": set stability: false");
  }
  if (const auto newton = node.OptionalMap("newton")) {
    auto& n = o.solve.newton;
    n.residual_tolerance = newton->Double("residual_tolerance", n.residual_tolerance, Positive());
    n.increment_tolerance =
        newton->Double("increment_tolerance", n.increment_tolerance, Positive());
    n.max_iterations = newton->Int("max_iterations", n.max_iterations, AtLeast(1));
    newton->Finish();
  }
  node.Finish();
  if (frequency) o.fixed = model.levels.front();
  if (const Status status = o.Validate(); !status)
    throw InputError("continuation", "", status.message).Located(root.file(), node.line(), "");
}

}  // namespace

HarmonicModel ReadHarmonicModel(const ModelNode& root) {
  HarmonicModel model;
  model.title = root.String("title", "");
  for (const std::string key : {"forces", "gravity"})
    if (root.Has(key))
      root.FailValue(key, "",
                     "a harmonic analysis takes excitation (harmonic forces), not time-function "
                     "forces");
  LumpedStructure structure = ReadLumpedStructure(root, false);
  model.lumped = std::move(structure.model);
  const DofTable& dofs = structure.dofs;
  CheckElements(root, model.lumped);
  for (const ModelNode& node : root.OptionalMaps("polynomial_springs")) {
    PolynomialSpring spring;
    spring.a = dofs.Read(node, "a", false);
    spring.b = dofs.ReadEnd(node, "b");
    if (spring.a == spring.b) node.FailValue("b", dofs.name(spring.a), "must differ from a");
    spring.coefficients = node.Doubles("coefficients");
    if (spring.coefficients.empty())
      node.FailValue("coefficients", "", "must list c0, c1, ... (N/m^p)");
    node.Finish();
    model.polynomial_springs.push_back(std::move(spring));
  }

  const std::vector<lumped::ElementInfo> lumped_elements = lumped::Elements(model.lumped);
  for (const ModelNode& node : root.OptionalMaps("dry_friction")) {
    DryFriction element;
    element.name = node.String("name", "dry_friction_" + std::to_string(model.dry_friction.size()));
    const auto named = [&](const auto& e) { return e.name == element.name; };
    if (std::any_of(lumped_elements.begin(), lumped_elements.end(), named) ||
        std::any_of(model.dry_friction.begin(), model.dry_friction.end(), named))
      node.FailValue("name", element.name, "is used by another element");
    element.a = dofs.Read(node, "a", false);
    element.b = dofs.ReadEnd(node, "b");
    if (element.a == element.b) node.FailValue("b", dofs.name(element.a), "must differ from a");
    element.slip_force = node.Double("slip_force", Positive());
    node.Finish();
    model.dry_friction.push_back(std::move(element));
  }

  model.harmonics = ReadHarmonics(root.Map("harmonics"));
  if (const Status size = harmonic::CheckDenseSize(dofs.size(), model.harmonics.basis,
                                                   "solving without condensation");
      !model.harmonics.condense && !size)
    root.Map("harmonics").FailValue("condense", "false", size.message + ": condense (true)");
  for (const ModelNode& node : root.Maps("excitation"))
    model.excitation.push_back(ReadExcitation(node, dofs, model.harmonics.basis));
  ReadContinuation(root, model);

  const auto output = root.OptionalMap("output");
  bool all = true;
  if (output && output->Has("dofs")) {
    model.output_dofs = dofs.ReadList(*output, "dofs", &all);
  } else {
    for (int i = 0; i < dofs.size(); ++i) model.output_dofs.push_back(i);
  }
  if (output) output->Finish();
  root.Finish();
  return model;
}

harmonic::HarmonicSystem BuildHarmonicSystem(const HarmonicModel& model) {
  const auto& lm = model.lumped;
  const int n = int(lm.dofs.size());
  harmonic::HarmonicSystem system;
  using Triplets = std::vector<Eigen::Triplet<double>>;
  Triplets mass, damping, stiffness;
  for (int i = 0; i < n; ++i) mass.emplace_back(i, i, lm.dofs[i].mass);
  const auto add = [](Triplets& matrix, int a, int b, double value) {
    matrix.emplace_back(a, a, value);
    if (b == kGround) return;
    matrix.emplace_back(b, b, value);
    matrix.emplace_back(a, b, -value);
    matrix.emplace_back(b, a, -value);
  };
  for (const auto& s : lm.springs) add(stiffness, s.a, s.b, s.k);
  for (const auto& d : lm.dampers) add(damping, d.a, d.b, d.c);
  const auto assemble = [n](solvers::SparseMatrix& matrix, const Triplets& triplets) {
    matrix.resize(n, n);
    matrix.setFromTriplets(triplets.begin(), triplets.end());
  };
  assemble(system.mass, mass);
  assemble(system.damping, damping);
  assemble(system.stiffness, stiffness);
  system.excitation = model.excitation;
  // One component per input: from dof_a[i] to dof_b[i].
  const auto element = [&](std::unique_ptr<harmonic::PointKernel> kernel, std::vector<int> dof_a,
                           std::vector<int> dof_b) {
    system.elements.push_back(
        {std::make_unique<harmonic::MarchedForce>(std::move(kernel), harmonic::MarchOptions{}),
         std::move(dof_a), std::move(dof_b)});
  };
  // One tangential component per slip component (a[i] to b[i], the law's dim). A
  // non-positive pressure opens the element (lumped::NormalSource): no friction force.
  // A normal DOF pair enters as the kernel's last component from normal.b to normal.a
  // (r = q_b - q_a, the approach at gap0 = 0), so that the normal force p acts as -p on
  // normal.a and +p on normal.b like in the time domain (lumped/elements.h).
  for (const auto& f : lm.friction) {
    if (f.normal.kind == lumped::NormalSource::Kind::kGapDofs) {
      std::vector<int> from = f.a, to = f.b;
      from.push_back(f.normal.b);
      to.push_back(f.normal.a);
      element(
          std::make_unique<GapOffsetKernel>(laws::ContactPoint(f.normal.law, f.law), f.normal.gap0),
          std::move(from), std::move(to));
    } else {
      element(std::make_unique<harmonic::TangentialKernel>(
                  f.law, std::max(0.0, f.normal.pressure.Value(0.0))),
              f.a, f.b);
    }
  }
  for (const auto& c : lm.contacts)
    element(std::make_unique<NormalKernel>(c.law, c.gap0), {c.b}, {c.a});
  for (const auto& s : model.polynomial_springs)
    element(std::make_unique<harmonic::PolynomialKernel>(s.coefficients), {s.a}, {s.b});
  for (const auto& d : model.dry_friction)
    system.elements.push_back(
        {std::make_unique<harmonic::DryFrictionForce>(d.slip_force, d.name), {d.a}, {d.b}});
  return system;
}

std::vector<std::string> HarmonicColumns(const HarmonicModel& model) {
  std::vector<std::string> columns = {"level", "frequency_hz"};
  const auto& basis = model.harmonics.basis;
  for (const int d : model.output_dofs) {
    const std::string& name = model.lumped.dofs[d].name;
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

namespace {

// Amplitude [m] and phase [deg] of a cos + b sin = amplitude cos(theta + phase).
std::pair<double, double> Polar(double a, double b) {
  return {std::hypot(a, b), std::atan2(-b, a) * 180.0 / std::numbers::pi};
}

std::vector<double> Row(const HarmonicModel& model, const harmonic::SolutionPoint& point) {
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

// Amplitude of harmonic 1 of DOF d [m].
double FirstHarmonic(const HarmonicModel& model, const harmonic::SolutionPoint& point, int d) {
  const int c = model.harmonics.basis.CosIndex(0);
  return std::hypot(point.coefficients(d, c), point.coefficients(d, c + 1));
}

}  // namespace

RunOutcome RunHarmonicModel(const ModelNode& root, const std::filesystem::path& out_dir) {
  const auto start = Clock::now();
  const HarmonicModel model = ReadHarmonicModel(root);
  harmonic::HarmonicSystem system = BuildHarmonicSystem(model);
  harmonic::HarmonicBalance hb(std::move(system), model.harmonics);
  EnsureDirectory(out_dir);
  CsvWriter csv(out_dir / "frequency_response.csv", HarmonicColumns(model));

  const bool frequency = model.continuation.parameter == ContinuationParameter::kFrequency;
  const std::vector<double> curves =
      frequency ? model.levels : std::vector<double>{model.continuation.fixed};
  const auto x_of = [&](const harmonic::SolutionPoint& point) {
    return frequency ? point.omega / kHz : point.level;
  };
  const int first_dof = model.output_dofs.empty() ? -1 : model.output_dofs.front();
  std::vector<PlotSpec> plots;
  for (const int d : model.output_dofs) {
    const std::string& name = model.lumped.dofs[d].name;
    plots.push_back({model.title.empty() ? "Harmonic response of " + name : model.title,
                     frequency ? "frequency f [Hz]" : "excitation level [-]",
                     "amplitude of harmonic 1 of " + name + " [m]",
                     false,
                     false,
                     {}});
  }

  Status status = Status::Ok();
  nlohmann::json curve_summaries = nlohmann::json::array();
  int points = 0, steps = 0, rejected = 0, turning = 0, iterations = 0, unstable = 0;
  for (const double fixed : curves) {
    harmonic::ContinuationOptions options = model.continuation;
    options.fixed = fixed;
    const harmonic::ContinuationResult result = harmonic::Continue(hb, options);
    const std::string label =
        frequency ? "level " + FormatValue(fixed) : "f = " + FormatValue(fixed / kHz) + " Hz";
    double peak = 0.0, peak_x = 0.0;
    for (size_t i = 0; i < plots.size(); ++i) {
      PlotSeries curve{label, {}, {}, false, true}, marks{"", {}, {}, true, false};
      for (const auto& point : result.points) {
        const double y = FirstHarmonic(model, point, model.output_dofs[i]);
        curve.x.push_back(x_of(point));
        curve.y.push_back(y);
        if (point.stability == harmonic::Stability::kUnstable) {
          marks.x.push_back(x_of(point));
          marks.y.push_back(y);
        }
      }
      plots[i].series.push_back(std::move(curve));
      if (!marks.x.empty()) {
        marks.label = label + ": unstable";
        plots[i].series.push_back(std::move(marks));
      }
    }
    for (const auto& point : result.points) {
      csv.Row(Row(model, point));
      if (point.stability == harmonic::Stability::kUnstable) ++unstable;
      if (first_dof >= 0 && FirstHarmonic(model, point, first_dof) > peak) {
        peak = FirstHarmonic(model, point, first_dof);
        peak_x = x_of(point);
      }
    }
    nlohmann::json c = {{"points", result.points.size()},
                        {"steps", result.steps},
                        {"rejected_steps", result.rejected_steps},
                        {"turning_points", result.turning_points},
                        {"newton_iterations", result.newton_iterations},
                        {"stop_reason", result.stop_reason},
                        {"status", result.status ? "ok" : "failed"},
                        {"seconds", result.seconds},
                        {"peak_amplitude", peak}};
    c[frequency ? "level" : "frequency_hz"] = frequency ? fixed : fixed / kHz;
    c[frequency ? "peak_frequency_hz" : "peak_level"] = peak_x;
    curve_summaries.push_back(std::move(c));
    points += int(result.points.size());
    steps += result.steps;
    rejected += result.rejected_steps;
    turning += result.turning_points;
    iterations += result.newton_iterations;
    if (!result.status) {
      status = Status::Failure(label + ": " + result.status.message);
      break;
    }
  }
  if (points >= 2)
    for (size_t i = 0; i < plots.size(); ++i)
      WriteSvgPlot(plots[i], out_dir / ("amplitude_" +
                                        model.lumped.dofs[model.output_dofs[i]].name + ".svg"));

  nlohmann::json summary;
  summary["analysis"] = "harmonic";
  summary["model"] = root.file();
  summary["title"] = model.title;
  summary["status"] = status ? "ok" : "failed";
  summary["message"] = status.message;
  summary["dofs"] = hb.num_dofs();
  summary["unknowns"] = hb.num_unknowns();
  summary["elements"] = {{"springs", model.lumped.springs.size()},
                         {"dampers", model.lumped.dampers.size()},
                         {"friction", model.lumped.friction.size()},
                         {"contacts", model.lumped.contacts.size()},
                         {"polynomial_springs", model.polynomial_springs.size()},
                         {"dry_friction", model.dry_friction.size()}};
  summary["harmonics"] = model.harmonics.basis.harmonics;
  summary["odd_only"] = model.harmonics.basis.odd_only;
  summary["samples_per_period"] = model.harmonics.samples;
  summary["parameter"] = frequency ? "frequency" : "level";
  summary["curves"] = curve_summaries;
  summary["points"] = points;
  summary["steps"] = steps;
  summary["rejected_steps"] = rejected;
  summary["turning_points"] = turning;
  summary["newton_iterations"] = iterations;
  summary["unstable_points"] = unstable;
  summary["wall_time_s"] = Seconds(start);
  RunOutcome outcome{bool(status), status.message, out_dir / "summary.json"};
  WriteJson(outcome.summary, summary);
  return outcome;
}

}  // namespace jointdyn::io
