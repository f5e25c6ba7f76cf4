// Contact kinematics of a joint on the unreduced FE model: the relative-displacement
// operator R of the pairs of a PairingResult on the mesh DOFs (node * dim + component, as
// fe/assembly.h), their initial gaps and area weights.
//
// Rows per pair i, in the order of the law interfaces (laws::ContactInput, eq. 3.80):
//   z_i = [t1_i; t2_i; n_i]^T (u_S - sum_j w_ij u_Mj)   (s1, s2, normal displacement) [m]
// with the pair's frame (fe/contact_pairing.h: n the master's outward normal, t2 = n x t1),
// slave node S and master nodes M_j with weights w_ij. The normal gap is
//   g_i = g0_i + z_i(2),   g0_i = (X_S - X_M) . n   (the pairing's gap),
// positive open and negative in penetration: exactly the normal laws' convention
// (laws/normal_law.h), so the gap goes to NormalLaw::Evaluate without a sign change.
// Seed 003 writes the relative displacement master minus slave (y^MS = x^M - x^S, eq.
// 3.71); R is its negative: R = -Phi^MS of eq. 3.79 / D.16 with the identity basis (and
// R V = -Phi^MS for a basis V). The tangential offsets s_t* at contact closure (eq. 3.80)
// are history of the joint operator (joint_operator.h), not of the kinematics.
#pragma once

#include "core/types.h"
#include "fe/constraints.h"
#include "fe/contact_pairing.h"
#include "fe/mesh.h"
#include "joint/pair_projection.h"

namespace jointdyn::joint {

struct ContactKinematics {
  PairProjection relative;  // R (3 num_pairs x mesh DOFs), sparse
  VecX initial_gap;         // g0_i [m], > 0 open
  VecX area;                // A_i [m^2], the slave node's area weight
};

// R on the mesh DOFs of `mesh` (num_nodes * dim columns). In a 2D mesh the out-of-plane
// components are dropped (t2 = +-z there, so its row is zero).
ContactKinematics BuildContactKinematics(const fe::Mesh& mesh, const fe::PairingResult& pairing);

// R T_mesh: the operator on the independent DOFs q of a DofMap (u = T q), built from the
// mesh rows of T (supported DOFs drop out, coupled DOFs follow their reference nodes).
PairProjection OnIndependentDofs(const PairProjection& relative, const fe::DofMap& dofs);

}  // namespace jointdyn::joint
