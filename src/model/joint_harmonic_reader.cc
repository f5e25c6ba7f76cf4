#include "model/joint_harmonic_reader.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "model/fe_reader.h"
#include "model/harmonic_reader.h"
#include "model/joint_mode_reader.h"
#include "model/jointed_structure_reader.h"
#include "model/preload_reader.h"

namespace jointdyn::model {
namespace {

// reduction: the CMS keys and joint_modes with its method and g (`modes`, 0: none).
void ReadReducedBasis(const ModelNode& root, analysis::JointHarmonicOptions& options) {
  const ModelNode reduction = root.Map("reduction");
  options.cms = ReadCmsSpec(reduction);
  const ModelNode joint_modes = reduction.Map("joint_modes");
  if (!joint_modes.Has("modes"))
    joint_modes.FailValue("modes", "", "must be given: the number g of joint modes (0: none)");
  options.joint_modes = ReadJointModeSpecOfJoints(joint_modes, options.fe, options.joints);
  reduction.Finish();
}

analysis::HarmonicLoad ReadHarmonicLoad(const ModelNode& node, const fe::FeModelSpec& fe,
                                        const harmonic::HarmonicBasis& basis) {
  analysis::HarmonicLoad load;
  if (node.Has("base_acceleration")) {
    if (node.Has("loads"))
      node.FailValue("base_acceleration", "(given)", "give loads or base_acceleration, not both");
    load.base_acceleration = ReadVec3(node, "base_acceleration");
    if (load.base_acceleration.isZero())
      node.FailValue("base_acceleration", "[0, 0, 0]", "must not be zero");
  } else {
    load.loads = ReadFeLoads(node, fe);
  }
  load.harmonic = node.Int("harmonic", 1, AtLeast(0));
  if (!basis.Contains(load.harmonic))
    node.FailValue("harmonic", std::to_string(load.harmonic),
                   "is not in the basis (harmonics.count, harmonics.odd_only)");
  load.phase = ReadPhase(node, load.harmonic);
  node.Finish();
  return load;
}

void ReadMarch(const ModelNode& node, harmonic::MarchOptions& march) {
  march.closure_tolerance = node.Double("closure_tolerance", march.closure_tolerance, Positive());
  if (march.closure_tolerance >= 1.0)
    node.FailValue("closure_tolerance", FormatValue(march.closure_tolerance), "must be < 1");
  march.max_periods = node.Int("max_periods", march.max_periods, AtLeast(2));
  node.Finish();
}

// amplitudes: a list [m], or {from, to, count} spaced logarithmically.
std::vector<double> ReadAmplitudes(const ModelNode& node) {
  if (node.KindOf("amplitudes") != ModelNode::Kind::kMap)
    return node.Doubles("amplitudes", Positive());
  const ModelNode range = node.Map("amplitudes");
  const double from = range.Double("from", Positive()), to = range.Double("to", Positive());
  const int count = range.Int("count", InRange(2, 10000));
  if (!(to > from)) range.FailValue("to", FormatValue(to), "must be > from = " + FormatValue(from));
  range.Finish();
  std::vector<double> values;
  for (int i = 0; i < count; ++i)
    values.push_back(from * std::pow(to / from, static_cast<double>(i) / (count - 1)));
  return values;
}

analysis::NonlinearModeSpec ReadNonlinearMode(const ModelNode& node) {
  analysis::NonlinearModeSpec spec;
  spec.mode = node.Int("mode", 1, InRange(1, 10));
  spec.amplitudes = ReadAmplitudes(node);
  if (node.Has("methods")) {
    enum Method { kEpmc, kQuasiStatic, kRingDown };
    const std::vector<Method> methods = node.EnumList<Method>(
        "methods", {{"epmc", kEpmc}, {"quasi_static", kQuasiStatic}, {"ring_down", kRingDown}});
    const auto has = [&](Method m) {
      return std::find(methods.begin(), methods.end(), m) != methods.end();
    };
    spec.epmc = has(kEpmc);
    spec.quasi_static = has(kQuasiStatic);
    spec.ring_down = has(kRingDown);
  }
  if (const auto newton = node.OptionalMap("newton")) ReadNewton(*newton, spec.newton);
  spec.max_refinements = node.Int("max_refinements", spec.max_refinements, AtLeast(0));
  spec.cycle_increments = node.Int("cycle_increments", spec.cycle_increments, InRange(1, 10000));
  if (const auto ring_down = node.OptionalMap("ring_down")) {
    spec.ring_down_periods = ring_down->Int("periods", spec.ring_down_periods, InRange(4, 1e5));
    spec.steps_per_period =
        ring_down->Int("steps_per_period", spec.steps_per_period, InRange(20, 1e5));
    ring_down->Finish();
  }
  if (const auto solver = node.OptionalMap("static_solver")) {
    ReadStaticSolver(*solver, spec.static_solver);
    solver->Finish();
  }
  node.Finish();
  return spec;
}

}  // namespace

analysis::JointHarmonicOptions ReadJointHarmonic(const ModelNode& root) {
  analysis::JointHarmonicOptions options;
  root.ExpectAnalysis("joint_harmonic");
  options.title = root.String("title", "");
  ReadJointedStructure(root, "joint_harmonic takes harmonic loads from excitation; remove the key",
                       options);
  options.full = root.Bool("full", false);
  if (options.full && root.Has("reduction"))
    root.FailValue("reduction", "(given)", "full: true solves the unreduced model; remove one");
  if (!options.full) ReadReducedBasis(root, options);
  options.harmonics = ReadHarmonics(root.Map("harmonics"));
  if (const auto mode = root.OptionalMap("nonlinear_mode"))
    options.nonlinear_mode = ReadNonlinearMode(*mode);
  // Without a nonlinear mode the frequency response is what the analysis is for.
  if (!options.nonlinear_mode || root.Has("excitation")) {
    for (const ModelNode& node : root.Maps("excitation"))
      options.excitation.push_back(ReadHarmonicLoad(node, options.fe, options.harmonics.basis));
    ReadContinuation(root, options.continuation, options.levels, -1, options.harmonics.basis, true);
  }
  if (const auto march = root.OptionalMap("march")) ReadMarch(*march, options.march);
  const ModelNode output = root.Map("output");
  for (const ModelNode& node : output.Maps("dofs"))
    options.output_dofs.push_back(ReadFeDof(node, options.fe));
  if (const auto fields = output.OptionalMap("contact_fields")) {
    if (options.excitation.empty())
      output.FailValue("contact_fields", "(given)", "needs a frequency response (excitation)");
    analysis::ContactFieldPoints points;
    for (const double f : fields->Doubles("frequencies", Positive()))
      points.frequencies.push_back(2.0 * std::numbers::pi * f);
    if (points.frequencies.empty())
      fields->FailValue("frequencies", "", "must list at least one frequency [Hz]");
    points.phases = fields->Int("phases", points.phases, InRange(2, 1000));
    fields->Finish();
    options.contact_fields = std::move(points);
  }
  output.Finish();
  root.Finish();
  return options;  // RunJointHarmonic validates the rest (JointHarmonicOptions::Validate)
}

}  // namespace jointdyn::model
