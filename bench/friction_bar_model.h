// The friction bar of seed 003 section 4.1.1 as a full FE transient model (the setup of
// the dynamic study): tet10 sheets (fe/gmsh_structures.h), sheet 1 clamped, the sheets
// bolted at the two middle holes (both bores rigidly coupled to one reference node per
// hole), the load end rigidly coupled to the reference node "tip" that carries the force
// along z; linear penalty 5e4 N/mm^3, three-parameter Coulomb mu = 0.15, stick
// c1 + c2 = 1e4 N/mm^3, slide c2 = 500 N/mm^3, no damping. The load is a haversine step to
// `tip_force` in `rise_time` (lumped TimeFunction::SmoothStep0 with period 2 rise_time).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fe/assembly.h"
#include "fe/constraints.h"
#include "fe/contact_surface.h"
#include "fe/gmsh_structures.h"
#include "joint/contact_kinematics.h"
#include "joint/jointed_system.h"
#include "laws/coulomb.h"
#include "laws/normal_laws.h"
#include "lumped/time_function.h"

namespace jointdyn::bench {

struct FrictionBarModel {
  std::unique_ptr<fe::DofMap> dofs;
  std::unique_ptr<joint::JointedSystem> system;
  int tip = -1;  // the tip's z DOF among the independent DOFs
};

inline FrictionBarModel MakeFrictionBarModel(double mesh_size, double tip_force, double rise_time) {
  fe::FrictionBarOptions bar;
  bar.mesh = {
      .mesh_size = mesh_size, .order = fe::ElementOrder::kQuadratic, .shape = fe::CellShape::kTet};
  const fe::Mesh mesh = fe::BuildFrictionBar(bar);
  FrictionBarModel m;
  m.dofs = std::make_unique<fe::DofMap>(mesh, fe::RigidlyBoltedFrictionBar(bar));
  std::map<std::string, fe::ElasticMaterial> materials;
  for (const fe::ElementBlock& block : mesh.blocks) materials[block.name] = {};  // steel
  const fe::AssemblyResult fe = fe::Assemble(mesh, materials);
  const fe::PairingResult pairing = fe::PairSurfaces(
      mesh, fe::SurfaceFromFaceSet(mesh, "sheet_2_joint"),
      fe::SurfaceFromFaceSet(mesh, "sheet_1_joint"),
      {.search_distance = 1e-4, .area_weighting = fe::AreaWeighting::kDiagonalScaled});
  const joint::ContactKinematics kinematics = joint::BuildContactKinematics(mesh, pairing);
  std::vector<joint::JointOperator> joints;
  joints.emplace_back(
      joint::OnIndependentDofs(kinematics.relative, *m.dofs), kinematics.initial_gap,
      kinematics.area,
      joint::JointLaws{.normal = std::make_shared<laws::LinearPenaltyLaw>(
                           laws::LinearPenaltyParams{.eps = 5e13}),
                       .tangential = std::make_shared<laws::CoulombLaw>(
                           laws::CoulombParams{.c1 = 9.5e12, .c2 = 5e11, .mu = 0.15}, 2)},
      // No touch band: the mass keeps the step's tangent regular, and a band inconsistent
      // with the residual would hold Newton to linear convergence while the joint moves by
      // less than the band (the first steps from rest).
      joint::JointOptions{.touch_band = 0.0});
  VecX f = VecX::Zero(m.dofs->num_dofs());
  const int tip = m.dofs->ReferenceDof("tip", 2);
  f(tip) = 1.0;
  m.tip = m.dofs->FreeIndex(tip);
  const lumped::TimeFunction step = lumped::TimeFunction::SmoothStep0(tip_force, 2.0 * rise_time);
  std::vector<joint::TimedLoad> loads = {
      {m.dofs->ReduceLoad(f), [step](double t) { return step.Value(t); }}};
  m.system = std::make_unique<joint::JointedSystem>(
      joint::StructureMatrices{.mass = m.dofs->Reduce(fe.mass),
                               .stiffness = m.dofs->Reduce(fe.stiffness)},
      std::move(joints), std::move(loads));
  return m;
}

}  // namespace jointdyn::bench
