#include "mbs/flexible_body_builder.h"

#include <algorithm>

#include "core/error.h"
#include "mbs/body_matrix.h"
#include "reduction/basis.h"

namespace jointdyn::mbs {
namespace {

using solvers::SparseMatrix;
using spatial::PointDofs;

// The roles of the model's DOFs (mesh DOFs, then 6 per reference node): per point its
// translations and rotations (spatial_flexible_inertia.h: PointDofs); a planar model's
// points have no z translation (-1) and rotations about z only (at reference nodes).
PointDofs Classify(const fe::FeModel& model) {
  PointDofs d;
  const fe::DofMap& dofs = *model.dofs;
  const int dim = model.mesh.dim;
  d.count = dofs.num_dofs();
  for (int node = 0; node < model.mesh.nodes.rows(); ++node) {
    std::array<int, 3> t = {-1, -1, -1};
    for (int a = 0; a < dim; ++a) t[a] = dofs.MeshDof(node, a);
    d.translation.push_back(t);
    d.rotation.push_back({-1, -1, -1});
    Vec3 x = Vec3::Zero();
    x.head(dim) = model.mesh.nodes.row(node).head(dim).transpose();
    d.position.push_back(x);
  }
  for (const fe::ReferenceNode& r : model.reference_nodes) {
    std::array<int, 3> t = {-1, -1, -1}, rotation = {-1, -1, -1};
    for (int a = 0; a < dim; ++a) t[a] = dofs.ReferenceDof(r.name, a);
    for (int a = 3 - (dim == 2 ? 1 : 3); a < 3; ++a) rotation[a] = dofs.ReferenceDof(r.name, 3 + a);
    d.translation.push_back(t);
    d.rotation.push_back(rotation);
    Vec3 x = Vec3::Zero();
    x.head(dim) = r.position.head(dim);
    d.position.push_back(x);
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

// The rows `dofs` of all DOFs: (dofs.size() x count).
SparseMatrix Selection(const std::vector<int>& dofs, int count) {
  std::vector<Eigen::Triplet<double>> entries;
  for (size_t i = 0; i < dofs.size(); ++i) entries.emplace_back(int(i), dofs[i], 1.0);
  SparseMatrix s(int(dofs.size()), count);
  s.setFromTriplets(entries.begin(), entries.end());
  return s;
}

// The `dim` translation DOFs of points first .. last - 1, interleaved (x0, y0, (z0,) x1, ...).
std::vector<int> PointTranslations(const PointDofs& d, int dim, size_t first, size_t last) {
  std::vector<int> dofs;
  for (size_t p = first; p < last; ++p)
    dofs.insert(dofs.end(), d.translation[p].begin(), d.translation[p].begin() + dim);
  return dofs;
}

// (A + A') / 2.
SparseMatrix Symmetric(const SparseMatrix& a) {
  const SparseMatrix t = a.transpose();
  return 0.5 * (a + t);
}

// The translation vectors (all DOFs x dim): 1 at each point's DOF in each direction.
MatX Translations(const PointDofs& d, int dim) {
  MatX t = MatX::Zero(d.count, dim);
  for (const std::array<int, 3>& p : d.translation)
    for (int a = 0; a < dim; ++a) t(p[a], a) = 1.0;
  return t;
}

// The centre of mass: per direction k, T_k' M X_k / (T_k' M T_k), X_k the points'
// coordinates k at their k DOFs (zero beyond dim).
Vec3 CentreOfMass(const PointDofs& d, int dim, const SparseMatrix& m) {
  const MatX m_t = m * Translations(d, dim);
  Vec3 moment = Vec3::Zero();
  for (size_t p = 0; p < d.translation.size(); ++p)
    for (int a = 0; a < dim; ++a) moment(a) += m_t(d.translation[p][a], a) * d.position[p](a);
  return moment / m_t.col(0).sum();
}

// The planar inertia shape integrals of flexible_inertia.h for the basis `phi` on all DOFs
// (dense or sparse), about `origin`; I2 the translations, G0 the rigid rotation field about
// the origin, S_t the turn of each point's displacement by 90 degrees.
template <class Basis>
FlexibleInertia PlanarIntegrals(const PointDofs& d, const SparseMatrix& m, const Basis& phi,
                                const Vec3& origin) {
  const MatX i2 = Translations(d, 2);
  VecX g0 = VecX::Zero(d.count);
  std::vector<Eigen::Triplet<double>> turn;
  for (size_t p = 0; p < d.translation.size(); ++p) {
    const Vec3 r = d.position[p] - origin;
    const int x = d.translation[p][0], y = d.translation[p][1];
    g0(x) = -r.y();
    g0(y) = r.x();
    if (d.rotation[p][2] >= 0) g0(d.rotation[p][2]) = 1.0;
    turn.emplace_back(x, y, -1.0);
    turn.emplace_back(y, x, 1.0);
  }
  SparseMatrix s_t(d.count, d.count);
  s_t.setFromTriplets(turn.begin(), turn.end());
  const Basis turned = s_t * phi;
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

// The displacement per unit of each coordinate: the largest |phi| at a point's
// translation [m] (1 for a coordinate that moves no point).
VecX CoordinateUnits(const SparseMatrix& at_points) {
  VecX units = VecX::Zero(at_points.cols());
  for (int j = 0; j < at_points.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(at_points, j); it; ++it)
      units(j) = std::max(units(j), std::abs(it.value()));
  for (double& u : units)
    if (u == 0.0) u = 1.0;
  return units;
}

// What differs between a planar and a spatial body: the dimension, its integrals and the
// components of a node markers sit on.
template <class Body>
struct Traits;

template <>
struct Traits<FlexibleBody> {
  using Result = FlexibleBodyResult;
  static constexpr int kDim = 2;
  static constexpr std::array<int, 3> kNodeComponents = {0, 1, 5};  // ux, uy, rz
  template <class Basis>
  static FlexibleInertia Integrals(const PointDofs& d, const SparseMatrix& m, const Basis& phi,
                                   const Vec3& origin) {
    return PlanarIntegrals(d, m, phi, origin);
  }
};

template <>
struct Traits<spatial::FlexibleBody> {
  using Result = spatial::FlexibleBodyResult;
  static constexpr int kDim = 3;
  static constexpr std::array<int, 6> kNodeComponents = {0, 1, 2, 3, 4, 5};
  template <class Basis>
  static spatial::FlexibleInertia Integrals(const PointDofs& d, const SparseMatrix& m,
                                            const Basis& phi, const Vec3& origin) {
    return spatial::InertiaIntegrals(d, m, phi, origin);
  }
};

// The body on the elastic basis `v` on the independent DOFs (dense: reduced; sparse: the
// unreduced body's unit DOFs).
template <class Body, class Basis>
typename Traits<Body>::Result Build(const fe::FeModel& model, const Basis& v,
                                    const FlexibleBodySpec& spec) {
  constexpr int dim = Traits<Body>::kDim;
  if (model.mesh.dim != dim)
    throw InputError("mesh", std::to_string(model.mesh.dim) + "D",
                     dim == 2 ? "a planar body needs a 2D mesh" : "a spatial body needs a 3D mesh");
  typename Traits<Body>::Result result;
  const PointDofs d = Classify(model);
  const SparseMatrix full_mass = FullMass(model, d.count);
  const Basis phi = model.dofs->transform() * v;  // on all DOFs
  const Vec3 centre = CentreOfMass(d, dim, full_mass);
  result.centre_of_mass = centre.head<dim>();

  auto body = std::make_shared<Body>();
  body->inertia = Traits<Body>::Integrals(d, full_mass, phi, centre);
  const SparseMatrix k = model.ReducedStiffness();
  body->stiffness = Symmetric(ToSparse(v.transpose() * (k * v)));
  const int nodes = static_cast<int>(model.mesh.nodes.rows());  // the mesh nodes come first
  body->units = CoordinateUnits(
      ToSparse(Selection(PointTranslations(d, dim, 0, d.translation.size()), d.count) * phi));
  for (const joint::JointOperator& joint : spec.joints) body->joints.push_back(joint.Reduced(v));
  body->joint_nodes = spec.joint_nodes;
  body->mesh = std::make_shared<fe::Mesh>(model.mesh);
  body->mesh_positions.resize(nodes, dim);
  for (int p = 0; p < nodes; ++p)
    body->mesh_positions.row(p) = (d.position[p] - centre).head<dim>().transpose();
  body->mesh_shapes = ToSparse(Selection(PointTranslations(d, dim, 0, nodes), d.count) * phi);
  for (const std::string& name : spec.interface) {
    const int r = model.dofs->ReferenceIndex(name);
    std::vector<int> dofs;
    for (const int c : Traits<Body>::kNodeComponents)
      dofs.push_back(model.dofs->ReferenceDof(name, c));
    body->nodes.push_back({name, (model.reference_nodes[r].position - centre).template head<dim>(),
                           MatX(Selection(dofs, d.count) * phi)});
  }
  result.body = std::move(body);
  return result;
}

}  // namespace

SparseMatrix UnreducedBasis(const fe::FeModel& model, const std::string& frame) {
  const fe::DofMap& dofs = *model.dofs;
  const std::vector<int> components =
      model.mesh.dim == 2 ? std::vector<int>{0, 1, 5} : std::vector<int>{0, 1, 2, 3, 4, 5};
  std::vector<int> fixed;
  for (const int c : components) {
    fixed.push_back(dofs.FreeIndex(dofs.ReferenceDof(frame, c)));
    if (fixed.back() < 0)
      throw InputError("interface", frame,
                       "the frame node of an unreduced body needs independent translations and "
                       "rotations (the reference node of a rigid coupling, not supported)");
  }
  const int n = dofs.num_free_dofs();
  std::vector<int> kept;
  for (int i = 0; i < n; ++i)
    if (std::find(fixed.begin(), fixed.end(), i) == fixed.end()) kept.push_back(i);
  return Selection(kept, n).transpose();
}

namespace {

template <class Body>
typename Traits<Body>::Result BuildUnreduced(const fe::FeModel& model,
                                             const FlexibleBodySpec& spec) {
  if (spec.interface.empty())
    throw InputError("interface", "[]", "an unreduced body needs a reference node for its frame");
  return Build<Body>(model, UnreducedBasis(model, spec.interface.front()), spec);
}

}  // namespace

FlexibleBodyResult BuildFlexibleBody(const fe::FeModel& model,
                                     const reduction::ReductionBasis& elastic,
                                     const FlexibleBodySpec& spec) {
  return Build<FlexibleBody>(model, elastic.vectors, spec);
}

FlexibleBodyResult BuildUnreducedBody(const fe::FeModel& model, const FlexibleBodySpec& spec) {
  return BuildUnreduced<FlexibleBody>(model, spec);
}

spatial::FlexibleBodyResult BuildSpatialBody(const fe::FeModel& model,
                                             const reduction::ReductionBasis& elastic,
                                             const FlexibleBodySpec& spec) {
  return Build<spatial::FlexibleBody>(model, elastic.vectors, spec);
}

spatial::FlexibleBodyResult BuildSpatialUnreducedBody(const fe::FeModel& model,
                                                      const FlexibleBodySpec& spec) {
  return BuildUnreduced<spatial::FlexibleBody>(model, spec);
}
}  // namespace jointdyn::mbs
