// Contact field output over time (seed 003 section 3.3.3): the state of a joint's pairs as
// a VTU point cloud (one vertex per pair at its slave node, io/vtu.h) per time step, and a
// PVD collection that lists the steps with their times, so that ParaView opens the .pvd as
// a time series (File > Open the .pvd; the Time control steps through it; Glyph or Point
// Gaussian shows the points coloured by an array).
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

namespace jointdyn::io {

// The positions [m] of the slave nodes of `pairing` (rows, one per pair): the reference
// positions, plus the displacements when `mesh_displacement` (on the mesh DOFs, node * dim
// + component) is given.
MatX SlavePositions(const fe::Mesh& mesh, const fe::PairingResult& pairing,
                    const VecX* mesh_displacement = nullptr);

// The contact field of `joint` at `positions` (num_pairs rows) as a grid of vertex cells.
VtuGrid ContactFieldGrid(const joint::JointOperator& joint, const MatX& positions);

// A PVD collection: Add() records one VTU file per time step and rewrites the .pvd, so the
// collection is complete after every step (also when a run stops early).
class PvdWriter {
 public:
  // `path`: the .pvd file; its directory must exist.
  explicit PvdWriter(std::filesystem::path path);

  // Records `file` (relative to the .pvd's directory, as ParaView resolves it) at `time`
  // [s]; times must increase (InternalError otherwise). Throws std::runtime_error naming
  // the path when the .pvd cannot be written.
  void Add(double time, const std::string& file);
  int size() const { return static_cast<int>(entries_.size()); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::vector<std::pair<double, std::string>> entries_;
};

// Writes the contact field of one time step as "<stem>_<step>.vtu" (step zero-padded to 6
// digits) next to the collection and adds it at `time` [s].
void WriteContactFieldStep(PvdWriter& pvd, const std::string& stem, int step, double time,
                           const joint::JointOperator& joint, const MatX& positions);

}  // namespace jointdyn::io
