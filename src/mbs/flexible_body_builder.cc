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

// S_t: each point's displacement turned by 90 degrees (rotation DOFs 0).
SparseMatrix TurnOperator(const PlanarDofs& d) {
  std::vector<Eigen::Triplet<double>> entries;
  for (size_t p = 0; p < d.x.size(); ++p) {
    entries.emplace_back(d.x[p], d.y[p], -1.0);
    entries.emplace_back(d.y[p], d.x[p], 1.0);
  }
  SparseMatrix s(d.count, d.count);
  s.setFromTriplets(entries.begin(), entries.end());
  return s;
}

// The rows `dofs` of all DOFs: (dofs.size() x count).
SparseMatrix Selection(const std::vector<int>& dofs, int count) {
  std::vector<Eigen::Triplet<double>> entries;
  for (size_t i = 0; i < dofs.size(); ++i) entries.emplace_back(int(i), dofs[i], 1.0);
  SparseMatrix s(int(dofs.size()), count);
  s.setFromTriplets(entries.begin(), entries.end());
  return s;
}

// The x and y DOFs of points first .. last - 1, interleaved (x0, y0, x1, y1, ...).
std::vector<int> PointDofs(const PlanarDofs& d, size_t first, size_t last) {
  std::vector<int> dofs;
  for (size_t p = first; p < last; ++p) dofs.insert(dofs.end(), {d.x[p], d.y[p]});
  return dofs;
}

template <class E>
SparseMatrix ToSparse(const Eigen::MatrixBase<E>& a) {
  return MatX(a).sparseView();
}
template <class E>
SparseMatrix ToSparse(const Eigen::SparseMatrixBase<E>& a) {
  return SparseMatrix(a);
}

// (A + A') / 2.
SparseMatrix Symmetric(const SparseMatrix& a) {
  const SparseMatrix t = a.transpose();
  return 0.5 * (a + t);
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

// The inertia shape integrals of flexible_inertia.h for the basis `phi` on all DOFs (dense
// or sparse), about `origin`; I2 the translations, G0 the rigid rotation field about the
// origin.
template <class Basis>
FlexibleInertia Integrals(const PlanarDofs& d, const SparseMatrix& m, const Basis& phi,
                          const Vec2& origin) {
  const MatX i2 = Translations(d);
  VecX g0 = VecX::Zero(d.count);
  for (size_t p = 0; p < d.x.size(); ++p) {
    const Vec2 r = d.position[p] - origin;
    g0(d.x[p]) = -r.y();
    g0(d.y[p]) = r.x();
  }
  for (const int dof : d.rz) g0(dof) = 1.0;
  const Basis turned = TurnOperator(d) * phi;
  const Basis m_phi = m * phi, m_turned = m * turned;
  const VecX m_g0 = m * g0;
  FlexibleInertia b;
  b.m_ww = i2.transpose() * (m * i2);
  b.c0 = i2.transpose() * m_g0;
  b.c1 = i2.transpose() * m_turned;
  b.s_f = i2.transpose() * m_phi;
  b.g00 = g0.dot(m_g0);
  b.g01 = turned.transpose() * m_g0;
  b.g11 = Symmetric(ToSparse(turned.transpose() * m_turned));
  b.h0 = phi.transpose() * m_g0;
  b.h = ToSparse(phi.transpose() * m_turned);
  b.m_ff = Symmetric(ToSparse(phi.transpose() * m_phi));
  b.Check();
  return b;
}

// The displacement per unit of each coordinate: the largest |phi| at a point's x or y [m]
// (1 for a coordinate that moves no point).
VecX CoordinateUnits(const PlanarDofs& d, const SparseMatrix& at_points) {
  VecX units = VecX::Zero(at_points.cols());
  for (int j = 0; j < at_points.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(at_points, j); it; ++it)
      units(j) = std::max(units(j), std::abs(it.value()));
  for (double& u : units)
    if (u == 0.0) u = 1.0;
  return units;
}

// The body on the elastic basis `v` on the independent DOFs (dense: reduced; sparse: the
// unreduced body's unit DOFs).
template <class Basis>
FlexibleBodyResult Build(const fe::FeModel& model, const Basis& v, const FlexibleBodySpec& spec) {
  if (model.mesh.dim != 2)
    throw InputError("mesh", std::to_string(model.mesh.dim) + "D", "a planar body needs a 2D mesh");
  FlexibleBodyResult result;
  const PlanarDofs d = Classify(model);
  const SparseMatrix full_mass = FullMass(model, d.count);
  const Basis phi = model.dofs->transform() * v;  // on all DOFs
  result.centre_of_mass = CentreOfMass(d, full_mass);

  auto body = std::make_shared<FlexibleBody>();
  body->inertia = Integrals(d, full_mass, phi, result.centre_of_mass);
  const SparseMatrix k = model.ReducedStiffness();
  body->stiffness = Symmetric(ToSparse(v.transpose() * (k * v)));
  const int nodes = static_cast<int>(model.mesh.nodes.rows());  // the mesh nodes come first
  body->units = CoordinateUnits(d, ToSparse(Selection(PointDofs(d, 0, d.x.size()), d.count) * phi));
  for (const joint::JointOperator& joint : spec.joints) body->joints.push_back(joint.Reduced(v));
  body->joint_nodes = spec.joint_nodes;
  body->mesh = std::make_shared<fe::Mesh>(model.mesh);
  body->mesh_positions.resize(nodes, 2);
  for (int p = 0; p < nodes; ++p)
    body->mesh_positions.row(p) = (d.position[p] - result.centre_of_mass).transpose();
  body->mesh_shapes = ToSparse(Selection(PointDofs(d, 0, nodes), d.count) * phi);
  for (const std::string& name : spec.interface) {
    const int r = model.dofs->ReferenceIndex(name);
    std::vector<int> dofs;
    for (const int c : {0, 1, 5}) dofs.push_back(model.dofs->ReferenceDof(name, c));
    body->nodes.push_back({name,
                           model.reference_nodes[r].position.head<2>() - result.centre_of_mass,
                           MatX(Selection(dofs, d.count) * phi)});
  }
  result.body = std::move(body);
  return result;
}

// Every independent DOF but the in-plane ones (ux, uy, rz) of reference node `frame`,
// which stays fixed in the body frame: the unreduced body's basis (independent DOFs x
// coordinates, one 1 per column).
SparseMatrix UnitDofSelection(const fe::FeModel& model, const std::string& frame) {
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
  std::vector<int> kept;
  for (int i = 0; i < n; ++i)
    if (std::find(fixed.begin(), fixed.end(), i) == fixed.end()) kept.push_back(i);
  return Selection(kept, n).transpose();
}

}  // namespace

FlexibleBodyResult BuildFlexibleBody(const fe::FeModel& model,
                                     const reduction::ReductionBasis& elastic,
                                     const FlexibleBodySpec& spec) {
  return Build(model, elastic.vectors, spec);
}

FlexibleBodyResult BuildUnreducedBody(const fe::FeModel& model, const FlexibleBodySpec& spec) {
  if (spec.interface.empty())
    throw InputError("interface", "[]", "an unreduced body needs a reference node for its frame");
  return Build(model, UnitDofSelection(model, spec.interface.front()), spec);
}

}  // namespace jointdyn::mbs
