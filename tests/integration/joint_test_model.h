// A small jointed model shared by the TVD and joint-mode tests: two steel plates 100 x 20 x
// 5 mm stacked in z and touching (conforming hex8, node-to-node pairs of the upper plate's
// bottom on the lower plate's top), both end faces of both plates coupled rigidly to the
// reference nodes "mount" (x = 0, supported) and "tip" (x = 100 mm, the Craig-Bampton
// boundary), so that K_ii (tip held) is positive definite while the plates can open and
// close against each other in between. Craig-Bampton with 4 fixed-interface modes and the 6
// constraint modes of the tip gives m = 10; the joint is a linear penalty eps (seed 003
// section 4.1: 5e4 N/mm^3) on the pairs' area weights.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "fe/assembly.h"
#include "fe/constraints.h"
#include "fe/contact_surface.h"
#include "joint/contact_kinematics.h"
#include "joint/test/joint_test_util.h"
#include "reduction/craig_bampton.h"
#include "reduction/trial_vector_derivatives.h"

namespace jointdyn::reduction::test {

constexpr double kPenalty = 5e13;  // [Pa/m]

struct JointedPlates {
  fe::Mesh mesh;
  std::unique_ptr<fe::DofMap> dofs;
  solvers::SparseMatrix k, m;  // on the free DOFs
  CraigBamptonResult cb;
  solvers::SparseMatrix k_c;  // K_ii (tip held)
  NormalRows normals;         // N on the free DOFs
  NormalRows tangents;        // T (t1, t2 per pair) on the free DOFs
  VecX area;                  // A_p [m^2]
  VecX zero_gap;              // the plates touch: g0 = 0 (the pairing gives ~1e-19 m)

  // c(p, g) = A_p eps for g < 0 (linear penalty), else 0 [N/m].
  PairContactStiffness Stiffness() const {
    return [this](int p, double gap) { return gap < 0.0 ? area(p) * kPenalty : 0.0; };
  }
};

// `free`: no support; the mount joins the tip in Craig-Bampton's boundary (the basis then
// spans the six rigid-body motions).
inline JointedPlates MakeJointedPlates(int fixed_interface_modes = 4, bool free = false) {
  JointedPlates model;
  const fe::BoxMeshOptions plate{.size = Vec3(0.1, 0.02, 0.005), .divisions = {10, 2, 1}};
  model.mesh = joint::test::StackBoxes(plate, plate, 0.0);
  fe::ConstraintSpec spec;
  spec.reference_nodes = {{"mount", Vec3(0.0, 0.01, 0.005)}, {"tip", Vec3(0.1, 0.01, 0.005)}};
  spec.couplings = {{fe::CouplingKind::kRigid, "mount", "lower_xmin"},
                    {fe::CouplingKind::kRigid, "mount", "upper_xmin"},
                    {fe::CouplingKind::kRigid, "tip", "lower_xmax"},
                    {fe::CouplingKind::kRigid, "tip", "upper_xmax"}};
  if (!free) spec.supports = {{"mount", {}}};
  model.dofs = std::make_unique<fe::DofMap>(model.mesh, spec);
  const fe::ElasticMaterial steel{210e9, 0.3, 7850.0, 1.0};
  const fe::AssemblyResult assembled =
      fe::Assemble(model.mesh, {{"lower", steel}, {"upper", steel}});
  model.k = model.dofs->Reduce(assembled.stiffness);
  model.m = model.dofs->Reduce(assembled.mass);
  const std::vector<std::string> boundary =
      free ? std::vector<std::string>{"mount", "tip"} : std::vector<std::string>{"tip"};
  model.cb = CraigBampton(model.k, model.m, ReferenceNodeBoundary(*model.dofs, boundary),
                          {.fixed_interface_modes = fixed_interface_modes});
  EXPECT_TRUE(model.cb.status) << model.cb.status.message;
  model.k_c = PrincipalBlock(model.k, model.cb.interior_dofs);
  const fe::PairingResult pairing =
      fe::PairSurfaces(model.mesh, fe::SurfaceFromFaceSet(model.mesh, "upper_zmin"),
                       fe::SurfaceFromFaceSet(model.mesh, "lower_zmax"), {.search_distance = 1e-4});
  const joint::ContactKinematics kinematics = joint::BuildContactKinematics(model.mesh, pairing);
  const NormalRows relative = joint::OnIndependentDofs(kinematics.relative, *model.dofs).sparse();
  model.normals = SelectNormalRows(relative);
  model.tangents = SelectTangentRows(relative);
  model.area = kinematics.area;
  model.zero_gap = VecX::Zero(model.area.size());
  return model;
}

}  // namespace jointdyn::reduction::test
