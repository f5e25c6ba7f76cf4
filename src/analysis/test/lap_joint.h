// A small jointed FE model built in C++ (no model file), as the analysis tests need it:
// the lap joint of tests/models/lap_joint.msh (two steel hex8 blocks, 120 free DOFs, 9
// contact pairs), the lower block clamped at x = 0, the blocks bolted at the overlap's ends
// (both end faces rigidly coupled to `bolt`), the upper block's free end coupled to `tip`.
#pragma once

#include "core/test/test_paths.h"
#include "fe/fe_model.h"

namespace jointdyn::analysis::testing {

inline fe::FeModelSpec LapJoint() {
  fe::FeModelSpec spec;
  spec.source = fe::MeshSource::kMshFile;
  spec.msh_file = test_paths::SourceDir() / "tests" / "models" / "lap_joint.msh";
  const fe::ElasticMaterial steel{.youngs_modulus = 210e9, .poisson_ratio = 0.3, .density = 7850};
  spec.materials = {{"lower", steel}, {"upper", steel}};
  spec.reference_nodes = {{"tip", std::nullopt, "upper_xmax"},
                          {"bolt", Vec3(0.075, 0.025, 0.02), ""}};
  spec.supports = {{.set = "lower_xmin"}};
  spec.couplings = {{fe::CouplingKind::kRigid, "tip", "upper_xmax"},
                    {fe::CouplingKind::kRigid, "bolt", "lower_xmax"},
                    {fe::CouplingKind::kRigid, "bolt", "upper_xmin"}};
  spec.contacts = {{"joint", "upper_joint", "lower_joint", {.search_distance = 1e-4}}};
  return spec;
}

// The lap joint's blocks held together by a vertical beam bolt through the overlap instead
// of the rigid `bolt`: its head and nut rigidly coupled to the upper block's inner end and
// the lower block's, on the overlap's axis (beam 0, "head" to "nut", 8 mm steel).
inline fe::FeModelSpec BoltedLapJoint() {
  fe::FeModelSpec spec = LapJoint();
  spec.couplings.resize(1);        // tip only: no rigid bolt
  spec.reference_nodes.resize(1);  // tip
  spec.reference_nodes.push_back({"head", Vec3(0.075, 0.025, 0.04), ""});
  spec.reference_nodes.push_back({"nut", Vec3(0.075, 0.025, 0.0), ""});
  spec.couplings.push_back({fe::CouplingKind::kRigid, "head", "upper_xmin"});
  spec.couplings.push_back({fe::CouplingKind::kRigid, "nut", "lower_xmax"});
  spec.beams = {{.a = "head",
                 .b = "nut",
                 .diameter = 8e-3,
                 .material = {.youngs_modulus = 210e9, .poisson_ratio = 0.3}}};
  return spec;
}

}  // namespace jointdyn::analysis::testing
