#include "model/reduction_reader.h"

#include "model/fe_reader.h"
#include "model/joint_mode_reader.h"

namespace jointdyn::model {

analysis::ReductionOptions ReadReduction(const ModelNode& root) {
  analysis::ReductionOptions options;
  root.ExpectAnalysis("reduction");
  options.title = root.String("title", "");
  options.fe = ReadFeModelSpec(root);
  const ModelNode node = root.Map("reduction");
  options.boundary = node.Strings("boundary");  // non-empty
  options.craig_bampton.fixed_interface_modes =
      node.Int("vibration_modes", options.craig_bampton.fixed_interface_modes, NonNegative());
  options.orthogonalize = node.Bool("orthogonalize", options.orthogonalize);
  options.free_free.rigid_ratio =
      node.Double("rigid_ratio", options.free_free.rigid_ratio,
                  Rule{[](double x) { return x > 0.0 && x < 1.0; }, "must be in (0, 1)"});
  options.compare_full = node.Int("compare_full", options.compare_full, NonNegative());
  if (const auto joint_modes = node.OptionalMap("joint_modes"))
    options.joint_modes = ReadJointModeSpec(*joint_modes, options.fe);
  if (const auto preload = node.OptionalMap("preload")) {
    if (!options.joint_modes)
      node.FailValue("preload", "(given)",
                     "needs joint_modes (its contact and normal_law; modes: 0 for none)");
    options.preload = ReadPreloadSpec(*preload, options.fe);
  }
  node.Finish();
  root.Finish();
  return options;
}

}  // namespace jointdyn::model
