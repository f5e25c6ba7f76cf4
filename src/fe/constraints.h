// Boundary conditions and couplings of a finite element model as one sparse
// transformation u = T q from the independent DOFs q to all DOFs u.
//
// All DOFs ("full" numbering): the mesh DOFs node * dim + component first, then 6 DOFs per
// reference node (ux, uy, uz [m], rx, ry, rz [rad]) in the order the reference nodes are
// given: mesh.num_nodes() * dim + 6 * r + c. In a 2D mesh a reference node moves in the
// plane only: its uz, rx, ry are fixed.
//
// - Support: zero displacement of chosen components of a node set, face set or reference
//   node (a clamp, a symmetry plane, a mounting through a reference node).
// - Rigid coupling (like RBE2): the nodes of a node set or face set follow the reference
//   node rigidly, u_i = u_r + theta_r x (x_i - x_r) (linearized rotation); their DOFs become
//   dependent on the reference node's.
// - Distributing coupling (like RBE3): the reference node's motion is the weighted
//   least-squares rigid fit of the face nodes' displacements, (u_r, theta_r) = argmin
//   sum_i w_i |u_i - u_r - theta_r x (x_i - x_r)|^2, with the consistent nodal areas
//   w_i = int_face N_i dA as weights (sum w_i u_i / A is then the exact area mean of u over
//   the face; the corner weights of quadratic faces are 0 (tri6) or negative (quad8)). The
//   reference DOFs become dependent; a force F and moment M on the reference node reach the
//   face nodes as f_i = w_i (c + d x (x_i - x_r)) with (c, d) such that sum f_i = F and
//   sum (x_i - x_r) x f_i = M exactly, without adding stiffness.
//
// A DOF may be dependent in one coupling only, and a dependent DOF cannot be supported
// (support the reference node of a rigid coupling instead). Couplings may chain (the face
// nodes of a distributing coupling may be rigidly coupled elsewhere); cycles are errors.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/types.h"
#include "fe/mesh.h"
#include "solvers/residual_model.h"

namespace jointdyn::fe {

struct ReferenceNode {
  std::string name;              // unique among reference nodes
  Vec3 position = Vec3::Zero();  // [m]
};

struct Support {
  std::string set;  // a node set, a face set or a reference node, by name
  // Components held at zero: 0 .. dim - 1 (x, y, z) for mesh nodes, 0 .. 5 (ux, uy, uz, rx,
  // ry, rz) for a reference node; empty: all of them.
  std::vector<int> components;
};

enum class CouplingKind {
  kRigid,         // RBE2-like
  kDistributing,  // RBE3-like
};

struct Coupling {
  CouplingKind kind = CouplingKind::kRigid;
  std::string reference;  // name of a reference node
  std::string set;        // rigid: a node set or face set; distributing: a face set, or a
                          // node set with `weights`
  // Distributing over a node set: the weight of each node of the set (in its sorted order),
  // as Nastran's RBE3; empty: the consistent nodal areas of the face set.
  std::vector<double> weights;
  // Distributing: the reference node's DOFs stay independent and as many DOFs of the face
  // (the best-conditioned, by a pivoted QR) follow it instead, so that the reference node
  // can be supported or be a Craig-Bampton boundary (interface) node. The same constraint.
  bool independent_reference = false;
};

struct ConstraintSpec {
  std::vector<ReferenceNode> reference_nodes;
  std::vector<Support> supports;
  std::vector<Coupling> couplings;
};

class DofMap {
 public:
  // Throws InputError naming the entry ("couplings[1].set = tip: ...") for unknown names,
  // components out of range, conflicts (a DOF dependent twice, supported and dependent),
  // cycles, and distributing couplings whose face nodes do not determine a rotation.
  DofMap(const Mesh& mesh, const ConstraintSpec& spec);

  int num_mesh_dofs() const { return num_mesh_dofs_; }
  int num_dofs() const { return static_cast<int>(free_index_.size()); }  // all DOFs
  int num_free_dofs() const { return static_cast<int>(transform_.cols()); }
  int MeshDof(int node, int component) const { return node * dim_ + component; }
  // Full DOF of a reference node's component (0 .. 5); throws InputError for an unknown name.
  int ReferenceDof(const std::string& name, int component) const;
  // The reference node's index (in ConstraintSpec::reference_nodes); InputError as above.
  int ReferenceIndex(const std::string& name) const;
  bool HasReference(const std::string& name) const { return reference_index_.count(name) > 0; }
  // Column of T of an independent DOF; -1 for a supported or dependent one.
  int FreeIndex(int dof) const { return free_index_[dof]; }

  // T (num_dofs x num_free_dofs): u = T q.
  const solvers::SparseMatrix& transform() const { return transform_; }

  // The DOFs held by supports (each once, ascending) and the support's own (indices into
  // held_dofs(), ascending; a DOF two supports hold is in both lists).
  const std::vector<int>& held_dofs() const { return held_dofs_; }
  const std::vector<int>& SupportHeld(int support) const { return support_held_[support]; }
  // T_h (num_dofs x held_dofs().size()): with the held DOFs at values h instead of zero,
  // u = T q + T_h h (a DOF coupled to a held one follows it). A static analysis prescribes
  // h and reads the reactions T_h^T (K u - f) of the supports.
  const solvers::SparseMatrix& held_transform() const { return held_transform_; }
  // T^T A T for a matrix A on the mesh DOFs (K or M of the elements), plus T_r^T B T_r for a
  // matrix B on the reference-node DOFs (6 per reference node, in their order: beams between
  // reference nodes); an empty B (0 x 0): none.
  solvers::SparseMatrix Reduce(const solvers::SparseMatrix& mesh_matrix,
                               const solvers::SparseMatrix& reference_matrix = {}) const;
  // [T T_h] (num_dofs x (num_free_dofs + held_dofs().size())): u = T q + T_h h for the state
  // [q; h] of a static analysis.
  solvers::SparseMatrix ExtendedTransform() const;
  // X^T A X (+ X_r^T B X_r) as Reduce for another transform X of all DOFs, e.g.
  // ExtendedTransform().
  solvers::SparseMatrix Reduce(const solvers::SparseMatrix& mesh_matrix,
                               const solvers::SparseMatrix& reference_matrix,
                               const solvers::SparseMatrix& transform) const;
  // T^T f for forces f on all DOFs [N, N m].
  VecX ReduceLoad(const VecX& load) const { return transform_.transpose() * load; }
  // u = T q: all DOFs from the independent ones.
  VecX Expand(const VecX& free) const { return transform_ * free; }

 private:
  int dim_;
  int num_mesh_dofs_;
  std::map<std::string, int> reference_index_;
  std::vector<int> free_index_;
  std::vector<int> held_dofs_;
  std::vector<std::vector<int>> support_held_;
  solvers::SparseMatrix transform_;            // all DOFs x free
  solvers::SparseMatrix held_transform_;       // all DOFs x held
  solvers::SparseMatrix mesh_transform_;       // mesh DOFs x free (the first rows of T)
  solvers::SparseMatrix reference_transform_;  // reference DOFs x free (the last rows of T)
};

// "node 57 component z" for a mesh DOF (the file's node numbering), "reference DOF 3" for
// the DOFs after the mesh DOFs.
std::string DofName(const Mesh& mesh, int num_mesh_dofs, int dof);

// Consistent nodal areas w_i = int N_i dA of a face set [m^2] (lengths [m] for the edges
// of a 2D mesh), as (node, weight) pairs sorted by node.
std::vector<std::pair<int, double>> NodalAreas(const Mesh& mesh, const FaceSet& faces);

}  // namespace jointdyn::fe
