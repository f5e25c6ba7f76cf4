#include "io/run_model.h"

#include "io/harmonic_model.h"
#include "io/hysteresis_model.h"
#include "io/joint_dynamics.h"
#include "io/joint_mode_study.h"
#include "io/modal_model.h"
#include "io/model_node.h"
#include "io/reduction_model.h"
#include "io/transient_model.h"

namespace jointdyn::io {

RunOutcome RunModelFile(const std::filesystem::path& model, const std::filesystem::path& out_dir) {
  const ModelNode root = ModelNode::LoadFile(model.string());
  enum class Analysis {
    kHysteresis,
    kTransient,
    kHarmonic,
    kModal,
    kReduction,
    kJointModeStudy,
    kJointDynamics
  };
  switch (root.Enum<Analysis>("analysis", {{"hysteresis", Analysis::kHysteresis},
                                           {"transient", Analysis::kTransient},
                                           {"harmonic", Analysis::kHarmonic},
                                           {"modal", Analysis::kModal},
                                           {"reduction", Analysis::kReduction},
                                           {"joint_mode_study", Analysis::kJointModeStudy},
                                           {"joint_dynamics", Analysis::kJointDynamics}})) {
    case Analysis::kHysteresis:
      return RunHysteresisModel(root, out_dir);
    case Analysis::kTransient:
      return RunTransientModel(root, out_dir);
    case Analysis::kHarmonic:
      return RunHarmonicModel(root, out_dir);
    case Analysis::kModal:
      return RunModalModel(root, out_dir);
    case Analysis::kReduction:
      return RunReductionModel(root, out_dir);
    case Analysis::kJointModeStudy:
      return RunJointModeStudy(root, out_dir);
    case Analysis::kJointDynamics:
      return RunJointDynamics(root, out_dir);
  }
  return {};
}

}  // namespace jointdyn::io
