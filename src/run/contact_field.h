// Contact field output over time (seed 003 section 3.3.3): the state of a joint's pairs as
// a VTU point cloud (one vertex per pair at its slave node, io/vtu.h) per time step; the
// joint-dynamics report lists the steps in a PVD collection (io/pvd.h), so that ParaView
// opens the .pvd as a time series (File > Open the .pvd; the Time control steps through it;
// Glyph or Point Gaussian shows the points coloured by an array).
//
// Point data per pair (joint::PairOutput, after JointOperator::Evaluate):
//   gap [m] (> 0 open), pressure [Pa], status (0 open, 1 stick, 2 slip: the order of
//   laws::ContactState; the legend is an XML comment in the file), s1, s2 [m] (tangential
//   displacement since contact closure), friction_stress |tau| [Pa], tau1, tau2 [Pa], and
//   normal_force A p [N] (A the slave node's area weight).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/types.h"
#include "fe/contact_pairing.h"
#include "fe/mesh.h"
#include "io/vtu.h"
#include "joint/joint_operator.h"

namespace jointdyn::run {

// The positions [m] of the slave nodes of `pairing` (rows, one per pair): the reference
// positions, plus the displacements when `mesh_displacement` (on the mesh DOFs, node * dim
// + component) is given.
MatX SlavePositions(const fe::Mesh& mesh, const fe::PairingResult& pairing,
                    const VecX* mesh_displacement = nullptr);

// The contact field of `joint` at `positions` (num_pairs rows) as a grid of vertex cells.
io::VtuGrid ContactFieldGrid(const joint::JointOperator& joint, const MatX& positions);

}  // namespace jointdyn::run
