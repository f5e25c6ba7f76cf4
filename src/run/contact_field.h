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
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/types.h"
#include "fe/contact_pairing.h"
#include "fe/fe_model.h"
#include "fe/mesh.h"
#include "io/pvd.h"
#include "io/vtu.h"
#include "joint/joint_operator.h"
#include "run/output_folder.h"

namespace jointdyn::run {

// The positions [m] of the slave nodes of `pairing` (rows, one per pair): the reference
// positions, plus the displacements when `mesh_displacement` (on the mesh DOFs, node * dim
// + component) is given.
MatX SlavePositions(const fe::Mesh& mesh, const fe::PairingResult& pairing,
                    const VecX* mesh_displacement = nullptr);

// The contact field of `joint` at `positions` (num_pairs rows) as a grid of vertex cells.
io::VtuGrid ContactFieldGrid(const joint::JointOperator& joint, const MatX& positions);

// A file-name-safe form of a name ("sheet_1_joint/sheet_2_joint" -> "sheet_1_joint_sheet_2_joint").
std::string FileName(const std::string& name);

// The contact fields of a run's joints over time, at the deformed positions:
// contact_fields/<prefix><contact>.pvd with one VTU per step (<...>_<step>.vtu).
class ContactFieldSeries {
 public:
  // `contacts`: the joints' contact names, in the joints' order.
  ContactFieldSeries(const fe::FeModel& model, std::vector<std::string> contacts,
                     OutputFolder& folder)
      : model_(model), contacts_(std::move(contacts)), folder_(folder) {}
  // The fields of `joints` (evaluated) at step `step`, `time` (increasing per prefix), with
  // the mesh displacement (node * dim + component) [m].
  void Write(const std::string& prefix, int step, double time,
             std::span<const joint::JointOperator> joints, const VecX& mesh_displacement);

 private:
  const fe::FeModel& model_;
  const std::vector<std::string> contacts_;
  OutputFolder& folder_;
  std::map<std::string, std::unique_ptr<io::PvdWriter>> pvds_;  // per prefix and joint
};

}  // namespace jointdyn::run
