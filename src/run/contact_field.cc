#include "run/contact_field.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <utility>

#include "core/error.h"
#include "io/svg_plot.h"
#include "io/vtu.h"

namespace jointdyn::run {

MatX SlavePositions(const fe::Mesh& mesh, const fe::PairingResult& pairing,
                    const VecX* mesh_displacement) {
  const int dim = mesh.dim;
  JD_CHECK(mesh_displacement == nullptr || mesh_displacement->size() == mesh.num_nodes() * dim,
           "SlavePositions: one displacement per mesh DOF");
  MatX positions(static_cast<Eigen::Index>(pairing.pairs.size()), 3);
  for (size_t i = 0; i < pairing.pairs.size(); ++i) {
    const int node = pairing.pairs[i].slave;
    positions.row(static_cast<Eigen::Index>(i)) = mesh.nodes.row(node);
    if (mesh_displacement != nullptr)
      for (int c = 0; c < dim; ++c) positions(i, c) += (*mesh_displacement)(node * dim + c);
  }
  return positions;
}

io::VtuGrid ContactFieldGrid(const joint::JointOperator& joint, const MatX& positions) {
  const int n = joint.num_pairs();
  JD_CHECK(positions.rows() == n && positions.cols() == 3,
           "ContactFieldGrid: one position (x, y, z) per pair");
  io::VtuGrid grid = io::PointGrid(positions);
  grid.comment =
      "jointdyn contact field (seed 003 section 3.3.3), one point per contact pair at its slave "
      "node. status: 0 open, 1 stick, 2 slip. gap [m] (> 0 open), pressure [Pa], s1, s2 [m] "
      "(tangential displacement since contact closure), friction_stress = |tau| [Pa], tau1, "
      "tau2 [Pa], normal_force = A p [N], openings (times the pair opened so far), "
      "opening_energy [J] (tangential law energy dropped by those openings).";
  const std::vector<std::string> names = {
      "gap",          "pressure", "status",        "s1", "s2", "friction_stress", "tau1", "tau2",
      "normal_force", "openings", "opening_energy"};
  for (const std::string& name : names) grid.point_data.push_back({name, 1, {}});
  for (io::VtuArray& array : grid.point_data) array.values.reserve(n);
  for (int i = 0; i < n; ++i) {
    const joint::PairOutput out = joint.Output(i);
    const double values[] = {out.gap,
                             out.pressure,
                             static_cast<double>(out.state),
                             out.s1,
                             out.s2,
                             out.friction_stress(),
                             out.tau1,
                             out.tau2,
                             joint.area()(i) * out.pressure,
                             static_cast<double>(out.openings),
                             out.opening_energy};
    for (size_t a = 0; a < names.size(); ++a) grid.point_data[a].values.push_back(values[a]);
  }
  return grid;
}

std::string FileName(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return out;
}

void ContactFieldSeries::Write(const std::string& prefix, int step, double time,
                               std::span<const joint::JointOperator> joints,
                               const VecX& mesh_displacement) {
  for (size_t j = 0; j < joints.size(); ++j) {
    const std::string stem = prefix + FileName(contacts_[j]);
    std::unique_ptr<io::PvdWriter>& pvd = pvds_[stem];
    if (!pvd)
      pvd = std::make_unique<io::PvdWriter>(folder_.File("contact_fields/" + stem + ".pvd"));
    const int contact = model_.ContactIndex(contacts_[j], "joints");
    const MatX positions =
        SlavePositions(model_.mesh, model_.contacts[contact], &mesh_displacement);
    char number[16];
    std::snprintf(number, sizeof number, "_%06d.vtu", step);
    const std::string file = stem + number;
    io::WriteVtu(folder_.File("contact_fields/" + file), ContactFieldGrid(joints[j], positions));
    pvd->Add(time, file);
  }
}

}  // namespace jointdyn::run
