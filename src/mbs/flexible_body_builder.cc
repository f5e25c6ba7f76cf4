#include "mbs/flexible_body_builder.h"

#include <algorithm>

#include "core/error.h"
#include "reduction/basis.h"

namespace jointdyn::mbs {
namespace {

using solvers::SparseMatrix;

// The in-plane role of each of the model's DOFs (mesh DOFs, then 6 per reference node).
struct PlanarDofs {
  std::vector<int> x, y, rz;   // DOF indices: x and y translations (same point), rotations
  std::vector<Vec2> position;  // of each x/y pair [m]
  int count = 0;               // all DOFs
};

PlanarDofs Classify(const fe::FeModel& model) {
  PlanarDofs d;
  const fe::DofMap& dofs = *model.dofs;
  d.count = dofs.num_dofs();
  for (int node = 0; node < model.mesh.nodes.rows(); ++node) {
    d.x.push_back(dofs.MeshDof(node, 0));
    d.y.push_back(dofs.MeshDof(node, 1));
    d.position.emplace_back(model.mesh.nodes(node, 0), model.mesh.nodes(node, 1));
  }
  for (const fe::ReferenceNode& r : model.reference_nodes) {
    d.x.push_back(dofs.ReferenceDof(r.name, 0));
    d.y.push_back(dofs.ReferenceDof(r.name, 1));
    d.rz.push_back(dofs.ReferenceDof(r.name, 5));
    d.position.push_back(r.position.head<2>());
  }
  return d;
}

// The mass matrix on all DOFs: the elements' on the mesh DOFs, the beams' on the
// reference nodes'.
SparseMatrix FullMass(const fe::FeModel& model, int count) {
  std::vector<Eigen::Triplet<double>> entries;
  const auto add = [&](const SparseMatrix& a, int offset) {
    for (int k = 0; k < a.outerSize(); ++k)
      for (SparseMatrix::InnerIterator it(a, k); it; ++it)
        entries.emplace_back(offset + it.row(), offset + it.col(), it.value());
  };
  add(model.mass, 0);
  add(model.reference_mass, model.dofs->num_mesh_dofs());
  SparseMatrix m(count, count);
  m.setFromTriplets(entries.begin(), entries.end());
  return m;
}

// S_t u: each point's displacement turned by 90 degrees (rotation DOFs 0), column by column.
MatX Turn(const PlanarDofs& d, const MatX& u) {
  MatX out = MatX::Zero(u.rows(), u.cols());
  for (size_t p = 0; p < d.x.size(); ++p) {
    out.row(d.x[p]) = -u.row(d.y[p]);
    out.row(d.y[p]) = u.row(d.x[p]);
  }
  return out;
}

// The translation vectors I2 (all DOFs x 2): 1 at the x and y DOFs of every point.
MatX Translations(const PlanarDofs& d) {
  MatX i2 = MatX::Zero(d.count, 2);
  for (size_t p = 0; p < d.x.size(); ++p) i2(d.x[p], 0) = i2(d.y[p], 1) = 1.0;
  return i2;
}

// The centre of mass: per direction k, I2_k' M X_k / (I2_k' M I2_k), X_k the points'
// coordinates k at their k DOFs.
Vec2 CentreOfMass(const PlanarDofs& d, const SparseMatrix& m) {
  const MatX m_i2 = m * Translations(d);
  Vec2 moment = Vec2::Zero();
  for (size_t p = 0; p < d.x.size(); ++p) {
    moment.x() += m_i2(d.x[p], 0) * d.position[p].x();
    moment.y() += m_i2(d.y[p], 1) * d.position[p].y();
  }
  return moment / m_i2.col(0).sum();
}

// The inertia shape integrals of flexible_inertia.h for the basis `phi` on all DOFs, about
// `origin`; I2 the translations, G0 the rigid rotation field about the origin.
FlexibleInertia Integrals(const PlanarDofs& d, const SparseMatrix& m, const MatX& phi,
                          const Vec2& origin) {
  const MatX i2 = Translations(d);
  VecX g0 = VecX::Zero(d.count);
  for (size_t p = 0; p < d.x.size(); ++p) {
    const Vec2 r = d.position[p] - origin;
    g0(d.x[p]) = -r.y();
    g0(d.y[p]) = r.x();
  }
  for (const int dof : d.rz) g0(dof) = 1.0;
  const MatX turned = Turn(d, phi);
  const MatX m_i2 = m * i2, m_phi = m * phi, m_turned = m * turned;
  const VecX m_g0 = m * g0;
  FlexibleInertia b;
  b.m_ww = i2.transpose() * m_i2;
  b.c0 = i2.transpose() * m_g0;
  b.c1 = i2.transpose() * m_turned;
  b.s_f = i2.transpose() * m_phi;
  b.g00 = g0.dot(m_g0);
  b.g01 = turned.transpose() * m_g0;
  b.g11 = turned.transpose() * m_turned;
  b.g11 = 0.5 * (b.g11 + b.g11.transpose()).eval();
  b.h0 = phi.transpose() * m_g0;
  b.h = phi.transpose() * m_turned;
  b.m_ff = phi.transpose() * m_phi;
  b.m_ff = 0.5 * (b.m_ff + b.m_ff.transpose()).eval();
  b.Check();
  return b;
}

}  // namespace

reduction::ReductionBasis UnitDofBasis(const fe::FeModel& model, const std::string& frame) {
  const fe::DofMap& dofs = *model.dofs;
  std::vector<int> fixed;
  for (const int c : {0, 1, 5}) {
    fixed.push_back(dofs.FreeIndex(dofs.ReferenceDof(frame, c)));
    if (fixed.back() < 0)
      throw InputError("interface", frame,
                       "the frame node of an unreduced body needs independent ux, uy and rz "
                       "(the reference node of a rigid coupling, not supported)");
  }
  const int n = dofs.num_free_dofs();
  reduction::ReductionBasis basis;
  basis.vectors = MatX::Zero(n, n - 3);
  for (int i = 0, column = 0; i < n; ++i) {
    if (std::find(fixed.begin(), fixed.end(), i) != fixed.end()) continue;
    basis.vectors(i, column++) = 1.0;
    basis.columns.push_back({reduction::VectorKind::kUnitDof, "dof_" + std::to_string(i)});
  }
  return basis;
}

FlexibleBodyResult BuildFlexibleBody(const fe::FeModel& model,
                                     const reduction::ReductionBasis& elastic,
                                     const FlexibleBodySpec& spec) {
  if (model.mesh.dim != 2)
    throw InputError("mesh", std::to_string(model.mesh.dim) + "D", "a planar body needs a 2D mesh");
  FlexibleBodyResult result;
  const MatX& v = elastic.vectors;  // on the independent DOFs

  const PlanarDofs d = Classify(model);
  const SparseMatrix full_mass = FullMass(model, d.count);
  const MatX phi = model.dofs->transform() * v;  // on all DOFs
  result.centre_of_mass = CentreOfMass(d, full_mass);

  auto body = std::make_shared<FlexibleBody>();
  body->inertia = Integrals(d, full_mass, phi, result.centre_of_mass);
  body->stiffness = reduction::Project(v, model.ReducedStiffness());
  body->units = VecX(phi.cols());
  for (int j = 0; j < phi.cols(); ++j) {
    double largest = 0.0;
    for (size_t p = 0; p < d.x.size(); ++p)
      largest = std::max({largest, std::abs(phi(d.x[p], j)), std::abs(phi(d.y[p], j))});
    body->units(j) = largest > 0.0 ? largest : 1.0;
  }
  for (const joint::JointOperator& joint : spec.joints) body->joints.push_back(joint.Reduced(v));
  body->joint_nodes = spec.joint_nodes;
  const int nodes = static_cast<int>(model.mesh.nodes.rows());
  body->mesh = std::make_shared<fe::Mesh>(model.mesh);
  body->mesh_positions.resize(nodes, 2);
  body->mesh_shapes.resize(2 * nodes, phi.cols());
  for (int p = 0; p < nodes; ++p) {  // the mesh nodes come first in d
    body->mesh_positions.row(p) = (d.position[p] - result.centre_of_mass).transpose();
    body->mesh_shapes.row(2 * p) = phi.row(d.x[p]);
    body->mesh_shapes.row(2 * p + 1) = phi.row(d.y[p]);
  }
  for (const std::string& name : spec.interface) {
    const int r = model.dofs->ReferenceIndex(name);
    FlexibleNode node{name, model.reference_nodes[r].position.head<2>() - result.centre_of_mass,
                      MatX(3, phi.cols())};
    for (int c = 0; c < 3; ++c)
      node.shape.row(c) = phi.row(model.dofs->ReferenceDof(name, c == 2 ? 5 : c));
    body->nodes.push_back(std::move(node));
  }
  result.body = std::move(body);
  return result;
}

}  // namespace jointdyn::mbs
