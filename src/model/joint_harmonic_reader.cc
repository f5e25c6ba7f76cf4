#include "model/joint_harmonic_reader.h"

#include <string>

#include "model/fe_reader.h"
#include "model/harmonic_reader.h"
#include "model/joint_mode_reader.h"
#include "model/jointed_structure_reader.h"

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
  load.loads = ReadFeLoads(node, fe);
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
  for (const ModelNode& node : root.Maps("excitation"))
    options.excitation.push_back(ReadHarmonicLoad(node, options.fe, options.harmonics.basis));
  if (const auto march = root.OptionalMap("march")) ReadMarch(*march, options.march);
  ReadContinuation(root, options.continuation, options.levels, -1, options.harmonics.basis, true);
  const ModelNode output = root.Map("output");
  for (const ModelNode& node : output.Maps("dofs"))
    options.output_dofs.push_back(ReadFeDof(node, options.fe));
  output.Finish();
  root.Finish();
  return options;  // RunJointHarmonic validates the rest (JointHarmonicOptions::Validate)
}

}  // namespace jointdyn::model
