#include "fe/constraints.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <set>

#include "core/error.h"
#include "fe/shape_functions.h"

namespace jointdyn::fe {
namespace {

// kFixed: out of the model (the out-of-plane DOFs of a 2D reference node); kHeld: held by a
// support (a column of DofMap::held_transform()).
enum class DofState { kFree, kFixed, kHeld, kDependent, kResolving, kResolved };
using Combination = std::vector<std::pair<int, double>>;  // (DOF, coefficient)

// The Levi-Civita symbol e_ckl: (theta x r)_c = sum_kl e_ckl theta_k r_l.
double LeviCivita(int c, int k, int l) {
  if (c == k || k == l || c == l) return 0.0;
  return ((k - c + 3) % 3 == 1) ? 1.0 : -1.0;
}

// Sums the coefficients of equal DOFs and drops zeros.
Combination Merge(Combination terms) {
  std::sort(terms.begin(), terms.end());
  Combination merged;
  for (const auto& [dof, value] : terms) {
    if (!merged.empty() && merged.back().first == dof) {
      merged.back().second += value;
    } else {
      merged.emplace_back(dof, value);
    }
  }
  std::erase_if(merged, [](const auto& term) { return term.second == 0.0; });
  return merged;
}

class Builder {
 public:
  Builder(const Mesh& mesh, const ConstraintSpec& spec) : mesh_(mesh), spec_(spec) {}

  // The DOFs as combinations of free and held DOFs; `held` gets the DOFs each support holds.
  std::vector<Combination> Build(int& num_mesh_dofs, std::map<std::string, int>& references,
                                 std::vector<std::vector<int>>& held) {
    const int dim = mesh_.dim;
    num_mesh_dofs = mesh_.num_nodes() * dim;
    for (int r = 0; r < static_cast<int>(spec_.reference_nodes.size()); ++r) {
      const ReferenceNode& node = spec_.reference_nodes[r];
      const std::string key = "reference_nodes[" + std::to_string(r) + "].name";
      if (node.name.empty()) throw InputError(key, "", "must not be empty");
      if (!references.emplace(node.name, r).second) {
        throw InputError(key, node.name, "is the name of an earlier reference node");
      }
      if (!node.position.allFinite()) {
        throw InputError("reference_nodes[" + std::to_string(r) + "].position", node.name,
                         "must be finite");
      }
    }
    references_ = &references;
    num_mesh_dofs_ = num_mesh_dofs;
    const int num_dofs = num_mesh_dofs + 6 * static_cast<int>(references.size());
    state_.assign(num_dofs, DofState::kFree);
    relation_.assign(num_dofs, {});
    owner_.assign(num_dofs, -1);
    if (dim == 2) {  // in-plane motion only
      for (int r = 0; r < static_cast<int>(references.size()); ++r) {
        for (int c : {2, 3, 4}) state_[ReferenceDof(r, c)] = DofState::kFixed;
      }
    }
    for (int k = 0; k < static_cast<int>(spec_.couplings.size()); ++k) AddCoupling(k);
    for (int k = 0; k < static_cast<int>(spec_.supports.size()); ++k) held.push_back(AddSupport(k));
    std::vector<Combination> resolved(num_dofs);
    for (int d = 0; d < num_dofs; ++d) Resolve(d, resolved);
    return resolved;
  }

 private:
  int ReferenceDof(int r, int c) const { return num_mesh_dofs_ + 6 * r + c; }

  int FindReference(const std::string& key, const std::string& name) const {
    auto it = references_->find(name);
    if (it == references_->end()) throw InputError(key, name, "must name a reference node");
    return it->second;
  }

  // Nodes of a node set or face set (node sets first).
  std::vector<int> SetNodes(const std::string& key, const std::string& name) const {
    if (auto it = mesh_.node_sets.find(name); it != mesh_.node_sets.end()) return it->second;
    if (mesh_.face_sets.contains(name)) return mesh_.FaceSetNodes(name);
    throw InputError(key, name, "must name a node set or face set");
  }

  void MakeDependent(int dof, int coupling, Combination terms, const std::string& key,
                     const std::string& set, const std::string& what) {
    if (state_[dof] == DofState::kDependent) {
      throw InputError(key, set,
                       what + " is already dependent in couplings[" + std::to_string(owner_[dof]) +
                           "]: a DOF may follow one coupling only");
    }
    if (state_[dof] == DofState::kFixed) return;  // a reference node's out-of-plane DOF (2D)
    state_[dof] = DofState::kDependent;
    owner_[dof] = coupling;
    relation_[dof] = Merge(std::move(terms));
  }

  void AddCoupling(int k) {
    const Coupling& coupling = spec_.couplings[k];
    const std::string key = "couplings[" + std::to_string(k) + "]";
    const int r = FindReference(key + ".reference", coupling.reference);
    const Vec3 xr = spec_.reference_nodes[r].position;
    const int dim = mesh_.dim;
    if (coupling.kind == CouplingKind::kRigid) {
      for (int node : SetNodes(key + ".set", coupling.set)) {
        const Vec3 offset = mesh_.nodes.row(node).transpose() - xr;
        for (int c = 0; c < dim; ++c) {
          Combination terms = {{ReferenceDof(r, c), 1.0}};
          for (int rk = 0; rk < 3; ++rk) {
            for (int l = 0; l < 3; ++l) {
              const double e = LeviCivita(c, rk, l);
              if (e != 0.0) terms.emplace_back(ReferenceDof(r, 3 + rk), e * offset(l));
            }
          }
          MakeDependent(node * dim + c, k, std::move(terms), key + ".set", coupling.set,
                        mesh_.NodeName(node) + " component " + "xyz"[c]);
        }
      }
      return;
    }
    const std::vector<std::pair<int, double>> weights = Weights(coupling, key);
    // Weighted least-squares rigid fit with offsets scaled by their largest length (so
    // that the normal matrix is dimensionless): P_i = [I, -[r_i / length] x] on the active
    // reference components.
    const std::vector<int> active =
        dim == 3 ? std::vector<int>{0, 1, 2, 3, 4, 5} : std::vector<int>{0, 1, 5};
    const int na = static_cast<int>(active.size());
    double length = 0.0;
    for (const auto& [node, w] : weights) {
      length = std::max(length, (mesh_.nodes.row(node).transpose() - xr).norm());
    }
    if (length == 0.0) length = 1.0;
    std::vector<MatX> p;
    MatX normal = MatX::Zero(na, na);
    double total = 0.0;
    for (const auto& [node, w] : weights) {
      const Vec3 offset = (mesh_.nodes.row(node).transpose() - xr) / length;
      MatX pi = MatX::Zero(dim, na);
      for (int c = 0; c < dim; ++c) {
        for (int a = 0; a < na; ++a) {
          if (active[a] < 3) {
            pi(c, a) = c == active[a] ? 1.0 : 0.0;
          } else {
            for (int l = 0; l < 3; ++l) pi(c, a) += LeviCivita(c, active[a] - 3, l) * offset(l);
          }
        }
      }
      normal += w * pi.transpose() * pi;
      total += w;
      p.push_back(std::move(pi));
    }
    const Eigen::SelfAdjointEigenSolver<MatX> eigen(normal);
    if (!(total > 0.0) || !(eigen.eigenvalues()(0) > 1e-8 * eigen.eigenvalues()(na - 1))) {
      throw InputError(key + ".set", coupling.set,
                       "the face nodes do not determine the reference node's rotation "
                       "(a single node or collinear nodes)");
    }
    const MatX inverse = normal.inverse();
    std::vector<Combination> rows(na);  // u_ref(active[a]) = rows[a] . u_face
    for (int a = 0; a < na; ++a) {
      const double unscale = active[a] < 3 ? 1.0 : 1.0 / length;  // rotation of the fit [rad]
      for (int i = 0; i < static_cast<int>(weights.size()); ++i) {
        const auto& [node, w] = weights[i];
        const VecX row = w * unscale * (inverse.row(a) * p[i].transpose()).transpose();
        for (int c = 0; c < dim; ++c) rows[a].emplace_back(node * dim + c, row(c));
      }
    }
    if (coupling.independent_reference) return FollowReference(k, r, active, rows, key);
    for (int a = 0; a < na; ++a)
      MakeDependent(ReferenceDof(r, active[a]), k, std::move(rows[a]), key + ".reference",
                    coupling.reference, "its component " + std::to_string(active[a]));
  }

  // A distributing coupling u_ref = C u_face with the reference DOFs independent: with C =
  // [C_P, C_R] split into pivot columns P (free face DOFs, chosen by a column-pivoted QR of
  // C) and the rest, the pivots follow u_P = C_P^-1 (u_ref - C_R u_R).
  void FollowReference(int k, int r, const std::vector<int>& active,
                       const std::vector<Combination>& rows, const std::string& key) {
    const int na = static_cast<int>(active.size());
    std::map<int, int> column;  // face DOF -> column of C
    for (const Combination& row : rows)
      for (const auto& [dof, value] : row) column.emplace(dof, 0);
    std::vector<int> dofs;
    for (auto& [dof, index] : column) {
      index = static_cast<int>(dofs.size());
      dofs.push_back(dof);
    }
    MatX c = MatX::Zero(na, static_cast<Eigen::Index>(dofs.size())), candidates = c;
    for (int a = 0; a < na; ++a)
      for (const auto& [dof, value] : rows[a]) c(a, column.at(dof)) += value;
    for (size_t j = 0; j < dofs.size(); ++j)
      if (state_[dofs[j]] == DofState::kFree) candidates.col(j) = c.col(j);
    const Eigen::ColPivHouseholderQR<MatX> qr(candidates);
    std::vector<int> pivots(na);
    for (int a = 0; a < na; ++a) pivots[a] = qr.colsPermutation().indices()(a);
    MatX cp(na, na);
    for (int a = 0; a < na; ++a) cp.col(a) = c.col(pivots[a]);
    const Eigen::FullPivLU<MatX> lu(cp);
    if (qr.rank() < na || !lu.isInvertible())
      throw InputError(key + ".independent_reference", "true",
                       "the face has too few free DOFs to follow the reference node");
    const MatX follow = lu.inverse();  // u_P = follow (u_ref - C_R u_R)
    for (int i = 0; i < na; ++i) {
      Combination terms;
      for (int a = 0; a < na; ++a) terms.emplace_back(ReferenceDof(r, active[a]), follow(i, a));
      for (size_t j = 0; j < dofs.size(); ++j) {
        if (std::find(pivots.begin(), pivots.end(), static_cast<int>(j)) != pivots.end()) continue;
        const double value = -(follow.row(i) * c.col(j))(0);
        if (value != 0.0) terms.emplace_back(dofs[j], value);
      }
      MakeDependent(dofs[pivots[i]], k, std::move(terms), key + ".set", spec_.couplings[k].set,
                    "a DOF of its face");
    }
  }

  // The weights of a distributing coupling: the given ones on its node set, or the nodal
  // areas of its face set.
  std::vector<std::pair<int, double>> Weights(const Coupling& coupling,
                                              const std::string& key) const {
    if (coupling.weights.empty()) {
      const auto faces = mesh_.face_sets.find(coupling.set);
      if (faces == mesh_.face_sets.end())
        throw InputError(key + ".set", coupling.set, "must name a face set");
      return NodalAreas(mesh_, faces->second);
    }
    const auto nodes = mesh_.node_sets.find(coupling.set);
    if (nodes == mesh_.node_sets.end() || nodes->second.size() != coupling.weights.size())
      throw InputError(key + ".set", coupling.set, "must name a node set with one node per weight");
    std::vector<std::pair<int, double>> weights;
    for (size_t i = 0; i < coupling.weights.size(); ++i)
      weights.emplace_back(nodes->second[i], coupling.weights[i]);
    return weights;
  }

  // The DOFs support k holds, sorted (the out-of-plane DOFs of a 2D reference node left out).
  std::vector<int> AddSupport(int k) {
    const Support& support = spec_.supports[k];
    const std::string key = "supports[" + std::to_string(k) + "]";
    std::vector<int> dofs;
    const bool reference = references_->contains(support.set);
    const int count = reference ? 6 : mesh_.dim;
    std::vector<int> components = support.components;
    if (components.empty()) {
      for (int c = 0; c < count; ++c) components.push_back(c);
    }
    for (int c : components) {
      if (c < 0 || c >= count) {
        throw InputError(key + ".components", std::to_string(c),
                         "must be in [0, " + std::to_string(count - 1) + "] for " + support.set);
      }
    }
    if (reference) {
      const int r = references_->at(support.set);
      for (int c : components) dofs.push_back(ReferenceDof(r, c));
    } else {
      for (int node : SetNodes(key + ".set", support.set)) {
        for (int c : components) dofs.push_back(node * mesh_.dim + c);
      }
    }
    std::vector<int> held;
    for (int dof : dofs) {
      if (state_[dof] == DofState::kDependent) {
        throw InputError(key + ".set", support.set,
                         DofName(mesh_, num_mesh_dofs_, dof) + " is dependent in couplings[" +
                             std::to_string(owner_[dof]) +
                             "]: support the reference node of a rigid coupling instead");
      }
      if (state_[dof] == DofState::kFixed) continue;
      state_[dof] = DofState::kHeld;
      held.push_back(dof);
    }
    std::sort(held.begin(), held.end());
    held.erase(std::unique(held.begin(), held.end()), held.end());
    return held;
  }

  // The DOF as a combination of free and held DOFs (empty for a fixed one).
  void Resolve(int dof, std::vector<Combination>& resolved) {
    switch (state_[dof]) {
      case DofState::kResolved:
      case DofState::kFixed:
        return;
      case DofState::kFree:
      case DofState::kHeld:
        resolved[dof] = {{dof, 1.0}};
        state_[dof] = DofState::kResolved;
        return;
      case DofState::kResolving:
        throw InputError(
            "couplings[" + std::to_string(owner_[dof]) + "]", "",
            "the couplings form a cycle through " + DofName(mesh_, num_mesh_dofs_, dof));
      case DofState::kDependent:
        break;
    }
    state_[dof] = DofState::kResolving;
    Combination terms;
    for (const auto& [master, coefficient] : relation_[dof]) {
      Resolve(master, resolved);
      for (const auto& [free, value] : resolved[master]) {
        terms.emplace_back(free, coefficient * value);
      }
    }
    resolved[dof] = Merge(std::move(terms));
    state_[dof] = DofState::kResolved;
  }

  const Mesh& mesh_;
  const ConstraintSpec& spec_;
  const std::map<std::string, int>* references_ = nullptr;
  int num_mesh_dofs_ = 0;
  std::vector<DofState> state_;
  std::vector<Combination> relation_;  // dependent DOFs: in terms of other DOFs
  std::vector<int> owner_;             // dependent DOFs: the coupling
};

}  // namespace

std::string DofName(const Mesh& mesh, int num_mesh_dofs, int dof) {
  if (dof >= num_mesh_dofs) return "reference DOF " + std::to_string(dof - num_mesh_dofs);
  return mesh.NodeName(dof / mesh.dim) + " component " + "xyz"[dof % mesh.dim];
}

std::vector<std::pair<int, double>> NodalAreas(const Mesh& mesh, const FaceSet& faces) {
  const int per = NodesPerElement(faces.type);
  const int face_dim = Dimension(faces.type);
  // Degree 4: exact for the quadratic shape functions times a bilinear area element.
  const QuadratureRule rule = Quadrature(faces.type, 4);
  std::map<int, double> area;
  ShapeValues shape;
  MatX x(per, 3);
  for (int f = 0; f < faces.size(); ++f) {
    for (int a = 0; a < per; ++a) x.row(a) = mesh.nodes.row(faces.face(f)[a]);
    for (int q = 0; q < rule.size(); ++q) {
      const VecX xi = rule.points.row(q).transpose();
      EvaluateShape(faces.type, xi.data(), shape);
      const MatX tangents = x.transpose() * shape.dn;  // 3 x face_dim
      const double measure = face_dim == 2
                                 ? Vec3(tangents.col(0)).cross(Vec3(tangents.col(1))).norm()
                                 : tangents.col(0).norm();
      for (int a = 0; a < per; ++a) {
        area[faces.face(f)[a]] += rule.weights(q) * measure * shape.n(a);
      }
    }
  }
  return {area.begin(), area.end()};
}

DofMap::DofMap(const Mesh& mesh, const ConstraintSpec& spec) : dim_(mesh.dim) {
  Builder builder(mesh, spec);
  std::vector<std::vector<int>> held_by_support;
  const std::vector<Combination> resolved =
      builder.Build(num_mesh_dofs_, reference_index_, held_by_support);
  const int num_dofs = static_cast<int>(resolved.size());
  std::vector<bool> held(num_dofs, false);
  for (const std::vector<int>& dofs : held_by_support)
    for (int dof : dofs) held[dof] = true;
  free_index_.assign(num_dofs, -1);
  std::vector<int> held_index(num_dofs, -1);
  int num_free = 0;
  for (int d = 0; d < num_dofs; ++d) {
    if (held[d]) {
      held_index[d] = static_cast<int>(held_dofs_.size());
      held_dofs_.push_back(d);
    } else if (resolved[d].size() == 1 && resolved[d][0].first == d) {
      free_index_[d] = num_free++;
    }
  }
  for (const std::vector<int>& dofs : held_by_support) {
    support_held_.emplace_back();
    for (int dof : dofs) support_held_.back().push_back(held_index[dof]);
  }
  std::vector<Eigen::Triplet<double>> all, mesh_rows, reference_rows, held_rows;
  for (int d = 0; d < num_dofs; ++d) {
    for (const auto& [master, value] : resolved[d]) {
      if (held[master]) {
        held_rows.emplace_back(d, held_index[master], value);
        continue;
      }
      all.emplace_back(d, free_index_[master], value);
      if (d < num_mesh_dofs_)
        mesh_rows.emplace_back(d, free_index_[master], value);
      else
        reference_rows.emplace_back(d - num_mesh_dofs_, free_index_[master], value);
    }
  }
  transform_.resize(num_dofs, num_free);
  transform_.setFromTriplets(all.begin(), all.end());
  held_transform_.resize(num_dofs, static_cast<int>(held_dofs_.size()));
  held_transform_.setFromTriplets(held_rows.begin(), held_rows.end());
  mesh_transform_.resize(num_mesh_dofs_, num_free);
  mesh_transform_.setFromTriplets(mesh_rows.begin(), mesh_rows.end());
  reference_transform_.resize(num_dofs - num_mesh_dofs_, num_free);
  reference_transform_.setFromTriplets(reference_rows.begin(), reference_rows.end());
}

int DofMap::ReferenceIndex(const std::string& name) const {
  auto it = reference_index_.find(name);
  if (it == reference_index_.end()) throw InputError("reference node", name, "is not defined");
  return it->second;
}

int DofMap::ReferenceDof(const std::string& name, int component) const {
  JD_CHECK(component >= 0 && component < 6, "reference node component out of range");
  return num_mesh_dofs_ + 6 * ReferenceIndex(name) + component;
}

namespace {

// X^T A X + X_r^T B X_r for the mesh rows X and reference rows X_r of a transform.
solvers::SparseMatrix ReduceRows(const solvers::SparseMatrix& mesh_matrix,
                                 const solvers::SparseMatrix& reference_matrix,
                                 const solvers::SparseMatrix& mesh_rows,
                                 const solvers::SparseMatrix& reference_rows) {
  JD_CHECK(mesh_matrix.rows() == mesh_rows.rows() && mesh_matrix.cols() == mesh_rows.rows(),
           "DofMap::Reduce: the matrix must have one row and column per mesh DOF");
  const solvers::SparseMatrix product = mesh_matrix * mesh_rows;
  solvers::SparseMatrix reduced = mesh_rows.transpose() * product;
  if (reference_matrix.size() == 0) return reduced;
  JD_CHECK(reference_matrix.rows() == reference_rows.rows() &&
               reference_matrix.cols() == reference_rows.rows(),
           "DofMap::Reduce: the reference matrix must have one row and column per reference DOF");
  const solvers::SparseMatrix reference_product = reference_matrix * reference_rows;
  reduced += reference_rows.transpose() * reference_product;
  return reduced;
}

}  // namespace

solvers::SparseMatrix DofMap::Reduce(const solvers::SparseMatrix& mesh_matrix,
                                     const solvers::SparseMatrix& reference_matrix) const {
  return ReduceRows(mesh_matrix, reference_matrix, mesh_transform_, reference_transform_);
}

solvers::SparseMatrix DofMap::ExtendedTransform() const {
  solvers::SparseMatrix extended(num_dofs(), num_free_dofs() + held_transform_.cols());
  extended.leftCols(num_free_dofs()) = transform_;
  extended.rightCols(held_transform_.cols()) = held_transform_;
  return extended;
}

solvers::SparseMatrix DofMap::Reduce(const solvers::SparseMatrix& mesh_matrix,
                                     const solvers::SparseMatrix& reference_matrix,
                                     const solvers::SparseMatrix& transform) const {
  JD_CHECK(transform.rows() == num_dofs(), "DofMap::Reduce: the transform must act on all DOFs");
  return ReduceRows(mesh_matrix, reference_matrix, transform.topRows(num_mesh_dofs_),
                    transform.bottomRows(num_dofs() - num_mesh_dofs_));
}

}  // namespace jointdyn::fe
