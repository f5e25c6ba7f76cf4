// The model-file keys of a small jointed FE model for the run tests: the lap joint of two
// steel blocks (tests/models/lap_joint.msh: 120 free DOFs, 9 contact pairs), the lower block
// clamped at x = 0, the blocks bolted at the overlap's ends (both end faces rigidly coupled
// to `bolt`), the upper block's free end coupled to `tip`; the joint of the friction bar
// (penalty 5e4 N/mm^3, Coulomb mu = 0.15).
#pragma once

#include <string>

#include "core/test/test_paths.h"

namespace jointdyn::run::testing {

// mesh, materials, reference_nodes, supports (the clamp, then `more_supports`: YAML list
// entries), couplings, contact and joints.
inline std::string LapJointKeys(const std::string& more_supports = "") {
  return "mesh: {file: " +
         (test_paths::SourceDir() / "tests" / "models" / "lap_joint.msh").string() + "}\n" +
         R"(materials:
  lower: &steel {E: 210.0e9, nu: 0.3, rho: 7850.0}
  upper: *steel
reference_nodes:
  - {name: tip, at: upper_xmax}
  - {name: bolt, position: [0.075, 0.025, 0.02]}
supports:
  - {set: lower_xmin}
)" + more_supports +
         R"(couplings:
  - {type: rigid, reference: tip, set: upper_xmax}
  - {type: rigid, reference: bolt, set: lower_xmax}
  - {type: rigid, reference: bolt, set: upper_xmin}
contact:
  - {name: joint, slave: upper_joint, master: lower_joint, search_distance: 1.0e-4}
joints:
  - contact: joint
    normal: {type: linear, eps: 5.0e13}
    friction: {type: coulomb, dim: 2, c1: 9.5e12, c2: 5.0e11, mu: 0.15}
)";
}

}  // namespace jointdyn::run::testing
