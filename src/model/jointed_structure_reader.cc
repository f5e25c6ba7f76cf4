#include "model/jointed_structure_reader.h"

#include "model/fe_reader.h"
#include "model/joints_reader.h"
#include "model/preload_reader.h"

namespace jointdyn::model {

void ReadJointedStructure(const ModelNode& root, const std::string& loads_rule,
                          analysis::JointedStructureOptions& options) {
  options.fe = ReadFeModelSpec(root);
  if (!options.fe.loads.empty()) root.FailValue("loads", "(given)", loads_rule);
  options.preloads = ReadBoltPreloads(root, "preload", options.fe);
  if (const auto solver = root.OptionalMap("preload_solver")) {
    if (options.preloads.empty())
      root.FailValue("preload_solver", "(given)", "needs a bolt preload (key preload)");
    ReadStaticSolver(*solver, options.preload_solver);
    solver->Finish();
  }
  options.joints = ReadJoints(root, options.fe);
  if (const auto damping = root.OptionalMap("damping")) {
    const ModelNode rayleigh = damping->Map("rayleigh");
    options.rayleigh_alpha = rayleigh.Double("alpha", 0.0, NonNegative());
    options.rayleigh_beta = rayleigh.Double("beta", 0.0, NonNegative());
    rayleigh.Finish();
    damping->Finish();
  }
}

}  // namespace jointdyn::model
