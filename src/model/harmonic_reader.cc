#include "model/harmonic_reader.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "model/lumped_reader.h"

namespace jointdyn::model {
namespace {

using harmonic::ContinuationParameter;

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

}  // namespace

harmonic::HarmonicOptions ReadHarmonics(const ModelNode& node) {
  harmonic::HarmonicOptions o;
  o.basis.harmonics = node.Int("count", AtLeast(1));
  o.basis.odd_only = node.Bool("odd_only", false);
  if (o.basis.odd_only && o.basis.harmonics % 2 == 0)
    node.FailValue("count", std::to_string(o.basis.harmonics), "must be odd with odd_only");
  o.samples = node.Int("samples", o.samples, AtLeast(2.0 * o.basis.harmonics + 1.0));
  o.condense = node.Bool("condense", o.condense);
  node.Finish();
  return o;
}

double ReadPhase(const ModelNode& node, int harmonic) {
  if (harmonic == 0 && node.Has("phase_deg"))
    node.FailValue("phase_deg", "", "a static force (harmonic 0) has no phase");
  return node.Double("phase_deg", 0.0) * std::numbers::pi / 180.0;
}

namespace {

// harmonics.samples within memory. Per sample: the AFT tables of the basis functions and
// their derivatives (2 nc doubles for nc coefficients) and FFT buffers (3 doubles); per
// input of each nonlinear element (nin of them: a friction element's dim, else 1) its
// samples and forces (4 nin doubles) and its Jacobian rows, kept twice (2 nin (nc nin + 1)
// doubles). A lower bound: the normal inputs of friction elements are not counted.
void CheckSamples(const ModelNode& harmonics, const analysis::HarmonicOptions& model) {
  if (!model.harmonics.basis.Validate()) return;  // reported at harmonics by RunHarmonic
  const double nc = model.harmonics.basis.size();
  double doubles = 2.0 * nc + 3.0;
  const auto add = [&](double nin) { doubles += 4.0 * nin + 2.0 * nin * (nc * nin + 1.0); };
  for (const auto& e : model.model.friction) add(double(e.a.size()));
  for (size_t i = 0; i < model.model.contacts.size() + model.dry_friction.size() +
                             model.polynomial_springs.size();
       ++i)
    add(1.0);
  const int samples = model.harmonics.samples;
  harmonics.CheckMemory("samples", samples * doubles * 8.0,
                        std::to_string(samples) + " samples of " + FormatValue(nc) +
                            " coefficients per signal (the AFT tables and the nonlinear "
                            "elements' samples and Jacobian rows)",
                        std::to_string(samples));
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
  // amplitude cos(k omega t + phase) = a cos(k omega t) + b sin(k omega t).
  const double phase = ReadPhase(node, term.harmonic);
  term.cos_amplitude = amplitude * std::cos(phase);
  term.sin_amplitude = -amplitude * std::sin(phase);
  node.Finish();
  return term;
}

}  // namespace

void ReadContinuation(const ModelNode& root, harmonic::ContinuationOptions& o,
                      std::vector<double>& levels, int dense_dofs,
                      const harmonic::HarmonicBasis& basis, bool frequency_only) {
  const ModelNode node = root.Map("continuation");
  o.parameter = frequency_only && !node.Has("parameter")
                    ? ContinuationParameter::kFrequency
                    : node.Enum<ContinuationParameter>(
                          "parameter", {{"frequency", ContinuationParameter::kFrequency},
                                        {"level", ContinuationParameter::kLevel}});
  if (frequency_only && o.parameter != ContinuationParameter::kFrequency)
    node.FailValue("parameter", "level", "this analysis continues in frequency only");
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
      levels = root.Doubles("levels");
      if (levels.empty()) root.FailValue("levels", "", "must list at least one level");
    } else {
      levels = {node.Double("level", 1.0)};
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
  if (o.solve.stability && dense_dofs >= 0) {
    if (const Status size = harmonic::CheckDenseSize(dense_dofs, basis, "Hill's method"); !size)
      node.FailValue("stability", "true", size.message + ": set stability: false");
  }
  if (const auto newton = node.OptionalMap("newton")) ReadNewton(*newton, o.solve.newton);
  node.Finish();  // the analyses validate the continuation (ContinuationOptions::Validate)
}

void ReadNewton(const ModelNode& node, solvers::NewtonOptions& n) {
  n.residual_tolerance = node.Double("residual_tolerance", n.residual_tolerance, Positive());
  n.increment_tolerance = node.Double("increment_tolerance", n.increment_tolerance, Positive());
  n.max_iterations = node.Int("max_iterations", n.max_iterations, AtLeast(1));
  n.reuse_contraction = node.Double("reuse_contraction", n.reuse_contraction, BelowOne());
  node.Finish();
}

analysis::HarmonicOptions ReadHarmonic(const ModelNode& root) {
  analysis::HarmonicOptions model;
  root.ExpectAnalysis("harmonic");
  model.title = root.String("title", "");
  for (const std::string key : {"forces", "gravity"})
    if (root.Has(key))
      root.FailValue(key, "",
                     "a harmonic analysis takes excitation (harmonic forces), not time-function "
                     "forces");
  LumpedStructure structure = ReadLumpedStructure(root, false);
  model.model = std::move(structure.model);
  const DofTable& dofs = structure.dofs;
  CheckElements(root, model.model);
  for (const ModelNode& node : root.OptionalMaps("polynomial_springs")) {
    analysis::PolynomialSpring spring;
    spring.a = dofs.Read(node, "a", false);
    spring.b = dofs.ReadEnd(node, "b");
    if (spring.a == spring.b) node.FailValue("b", dofs.name(spring.a), "must differ from a");
    spring.coefficients = node.Doubles("coefficients");
    if (spring.coefficients.empty())
      node.FailValue("coefficients", "", "must list c0, c1, ... (N/m^p)");
    node.Finish();
    model.polynomial_springs.push_back(std::move(spring));
  }

  const std::vector<lumped::ElementInfo> lumped_elements = lumped::Elements(model.model);
  for (const ModelNode& node : root.OptionalMaps("dry_friction")) {
    analysis::DryFriction element;
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
  CheckSamples(root.Map("harmonics"), model);
  if (const Status size = harmonic::CheckDenseSize(dofs.size(), model.harmonics.basis,
                                                   "solving without condensation");
      !model.harmonics.condense && !size)
    root.Map("harmonics").FailValue("condense", "false", size.message + ": condense (true)");
  for (const ModelNode& node : root.Maps("excitation"))
    model.excitation.push_back(ReadExcitation(node, dofs, model.harmonics.basis));
  ReadContinuation(root, model.continuation, model.levels, int(model.model.dofs.size()),
                   model.harmonics.basis, false);

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

}  // namespace jointdyn::model
