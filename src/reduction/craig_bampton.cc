#include "reduction/craig_bampton.h"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <set>

#include "core/clock.h"
#include "core/error.h"
#include "solvers/eigen_solver.h"
#include "solvers/option_check.h"
#include "solvers/sparse_cholesky.h"

namespace jointdyn::reduction {
namespace {

using solvers::SparseMatrix;
// The rows `new_row[r] >= 0` (renumbered to new_row[r], increasing with r) of the columns
// `columns` of a, as a compressed sparse matrix (num_rows x columns.size()).
SparseMatrix SelectBlock(const SparseMatrix& a, const std::vector<int>& new_row, int num_rows,
                         const std::vector<int>& columns) {
  Eigen::Index nonzeros = 0;
  for (int col : columns) {
    for (SparseMatrix::InnerIterator it(a, col); it; ++it) nonzeros += new_row[it.row()] >= 0;
  }
  SparseMatrix block(num_rows, static_cast<Eigen::Index>(columns.size()));
  block.reserve(nonzeros);
  for (std::size_t j = 0; j < columns.size(); ++j) {
    block.startVec(static_cast<Eigen::Index>(j));
    for (SparseMatrix::InnerIterator it(a, columns[j]); it; ++it) {
      if (const int row = new_row[it.row()]; row >= 0)
        block.insertBack(row, static_cast<Eigen::Index>(j)) = it.value();
    }
  }
  block.finalize();
  return block;
}

std::string Hz(double f) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", f);
  return text;
}

}  // namespace

SparseMatrix PrincipalBlock(const SparseMatrix& a, const std::vector<int>& rows) {
  std::vector<int> new_row(a.rows(), -1);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    JD_CHECK(rows[k] >= 0 && rows[k] < a.rows() && (k == 0 || rows[k] > rows[k - 1]),
             "PrincipalBlock: rows must be ascending and in range");
    new_row[rows[k]] = static_cast<int>(k);
  }
  return SelectBlock(a, new_row, static_cast<int>(rows.size()), rows);
}

std::vector<BoundaryDof> ReferenceNodeBoundary(const fe::DofMap& dofs,
                                               const std::vector<std::string>& reference_nodes,
                                               const std::string& names_key) {
  static constexpr const char* kComponents[6] = {"ux", "uy", "uz", "rx", "ry", "rz"};
  std::vector<BoundaryDof> boundary;
  std::set<std::string> seen, whole, in_parts;  // entries; nodes given whole, by component
  for (std::size_t k = 0; k < reference_nodes.size(); ++k) {
    const std::string& entry = reference_nodes[k];
    const std::string key = names_key + "[" + std::to_string(k) + "]";
    if (!seen.insert(entry).second) throw InputError(key, entry, "is listed twice");
    // "node" (its independent components) or "node.uy" (that one).
    std::string name = entry;
    int only = -1;
    if (const size_t dot = entry.rfind('.'); dot != std::string::npos && !dofs.HasReference(entry))
      for (int c = 0; c < 6; ++c)
        if (entry.substr(dot + 1) == kComponents[c]) {
          name = entry.substr(0, dot);
          only = c;
        }
    if (!dofs.HasReference(name))
      throw InputError(key, entry,
                       "must name a reference node, or one of its components (<node>.ux .. rz)");
    (only < 0 ? whole : in_parts).insert(name);
    if (whole.count(name) > 0 && in_parts.count(name) > 0)
      throw InputError(key, entry, "is listed with its node's components too");
    const int first_dof = dofs.ReferenceDof(name, 0);
    const std::size_t before = boundary.size();
    for (int c = 0; c < 6; ++c) {
      const int free = dofs.FreeIndex(first_dof + c);
      if (free >= 0 && (only < 0 || c == only))
        boundary.push_back({free, name + "." + kComponents[c]});
    }
    if (boundary.size() == before)
      throw InputError(key, entry,
                       std::string("has no independent DOF: it is ") +
                           (only < 0 ? "fully supported" : "supported") +
                           ", or the reference node of a distributing coupling (couple its face "
                           "rigidly, or give the coupling independent_reference: true, to make "
                           "it a boundary node)");
  }
  return boundary;
}

Status CraigBamptonOptions::Validate() const {
  using solvers::CheckOption;
  for (const Status& status :
       {CheckOption(fixed_interface_modes >= 0, "craig_bampton.fixed_interface_modes",
                    fixed_interface_modes, "must be >= 0"),
        CheckOption(eigen_tolerance > 0.0 && eigen_tolerance < 1.0, "craig_bampton.eigen_tolerance",
                    eigen_tolerance, "must be in (0, 1)"),
        CheckOption(eigen_subspace == 0 || eigen_subspace > fixed_interface_modes,
                    "craig_bampton.eigen_subspace", eigen_subspace,
                    "must be 0 (automatic) or > fixed_interface_modes"),
        CheckOption(eigen_max_iterations >= 1, "craig_bampton.eigen_max_iterations",
                    eigen_max_iterations, "must be >= 1")}) {
    if (!status) return status;
  }
  return Status::Ok();
}

CraigBamptonResult CraigBampton(const SparseMatrix& stiffness, const SparseMatrix& mass,
                                const std::vector<BoundaryDof>& boundary,
                                const CraigBamptonOptions& options) {
  CraigBamptonResult result;
  if (result.status = options.Validate(); !result.status) return result;
  const int n = static_cast<int>(stiffness.rows());
  JD_CHECK(stiffness.cols() == n && mass.rows() == n && mass.cols() == n,
           "CraigBampton: K and M must be square and of the same size");
  const int b = static_cast<int>(boundary.size());
  const int v = options.fixed_interface_modes;
  result.num_dofs = n;
  result.num_boundary = b;
  result.num_interior = n - b;
  result.num_fixed_interface_modes = v;

  // Interior numbering: new_row[r] = interior index of row r, -1 on the boundary.
  auto start = Clock::now();
  std::vector<int> new_row(n, 0), interior, boundary_rows(b);
  for (int k = 0; k < b; ++k) {
    const int dof = boundary[k].dof;
    JD_CHECK(dof >= 0 && dof < n && new_row[dof] == 0,
             "CraigBampton: boundary DOF out of range or repeated: " + boundary[k].name);
    new_row[dof] = -1;
    boundary_rows[k] = dof;
  }
  for (int r = 0; r < n; ++r) {
    if (new_row[r] < 0) continue;
    new_row[r] = static_cast<int>(interior.size());
    interior.push_back(r);
  }
  const int ni = static_cast<int>(interior.size());
  if (v + b == 0) {
    result.status = Status::Failure(
        "Craig-Bampton: no boundary DOF and no fixed-interface mode: the basis would be empty");
    return result;
  }
  if (ni == 0 || v >= ni) {
    result.status = Status::Failure(
        "Craig-Bampton: " + std::to_string(ni) + " interior DOFs (" + std::to_string(n) +
        " DOFs, " + std::to_string(b) + " on the boundary) for " + std::to_string(v) +
        " fixed-interface modes: there must be more interior DOFs than modes");
    return result;
  }
  SparseMatrix k_ii = SelectBlock(stiffness, new_row, ni, interior);
  const SparseMatrix m_ii = SelectBlock(mass, new_row, ni, interior);
  const SparseMatrix k_ib = SelectBlock(stiffness, new_row, ni, boundary_rows);
  result.partition_seconds = Seconds(start);

  start = Clock::now();
  auto factor_owner = std::make_shared<solvers::SparseCholesky>();
  solvers::SparseCholesky& factor = *factor_owner;
  if (Status status = factor.Factor(k_ii); !status) {
    result.status = Status::Failure(
        "Craig-Bampton: the interior stiffness K_ii (boundary DOFs held) cannot be factored: " +
        status.message + "; the boundary DOFs must hold the structure");
    return result;
  }
  k_ii.resize(0, 0);  // the factor holds what the solves need
  result.factor_seconds = Seconds(start);
  result.factor_nonzeros = factor.factor_nonzeros();

  MatX phi = MatX::Zero(n, v);
  if (v > 0) {
    start = Clock::now();
    const solvers::EigenResult eigen =
        solvers::SolveGeneralizedEigen(factor, m_ii,
                                       {.count = v,
                                        .shift = 0.0,
                                        .subspace = options.eigen_subspace,
                                        .tolerance = options.eigen_tolerance,
                                        .max_iterations = options.eigen_max_iterations});
    result.eigen_seconds = Seconds(start);
    result.eigen_operator_applications = eigen.operator_applications;
    if (!eigen.status) {
      result.status =
          Status::Failure("Craig-Bampton fixed-interface modes: " + eigen.status.message);
      return result;
    }
    if (eigen.values(0) <= 0.0) {  // K_ii factored, so only by a breakdown of the iteration
      result.status = Status::Failure("Craig-Bampton fixed-interface modes: eigenvalue " +
                                      FormatValue(eigen.values(0)) + " <= 0 of K_ii");
      return result;
    }
    for (int i = 0; i < ni; ++i) phi.row(interior[i]) = eigen.vectors.row(i);
    result.fixed_interface_frequencies = eigen.values.cwiseSqrt() / (2.0 * std::numbers::pi);
  }

  start = Clock::now();
  MatX psi = MatX::Zero(n, b);
  if (b > 0) {
    const MatX rhs = -MatX(k_ib);
    MatX interior_response;
    factor.Solve(rhs, interior_response);
    for (int i = 0; i < ni; ++i) psi.row(interior[i]) = interior_response.row(i);
    for (int k = 0; k < b; ++k) psi(boundary_rows[k], k) = 1.0;
  }
  result.constraint_seconds = Seconds(start);

  std::vector<std::string> names(v);
  for (int j = 0; j < v; ++j) names[j] = "fixed_interface_" + std::to_string(j + 1);
  result.basis.Append(phi, VectorKind::kFixedInterfaceMode, names);
  names.resize(b);
  for (int k = 0; k < b; ++k) names[k] = "constraint_" + boundary[k].name;
  result.basis.Append(psi, VectorKind::kConstraintMode, names);

  result.interior_factor = std::move(factor_owner);
  result.interior_dofs = std::move(interior);

  start = Clock::now();
  result.stiffness = Project(result.basis.vectors, stiffness);
  result.mass = Project(result.basis.vectors, mass);
  result.projection_seconds = Seconds(start);
  return result;
}

std::string Summary(const CraigBamptonResult& result) {
  std::string text = "Craig-Bampton: " + std::to_string(result.num_dofs) +
                     " DOFs = " + std::to_string(result.num_boundary) + " boundary + " +
                     std::to_string(result.num_interior) + " interior\n";
  text += "  basis: " + Describe(result.basis) + "\n";
  text += "  fixed-interface frequencies [Hz]:";
  for (Eigen::Index j = 0; j < result.fixed_interface_frequencies.size(); ++j)
    text.append(" ").append(Hz(result.fixed_interface_frequencies(j)));
  if (result.fixed_interface_frequencies.size() == 0) text += " (none)";
  text += "\n  time [s]: partition " + Hz(result.partition_seconds) + ", factor " +
          Hz(result.factor_seconds) + ", eigen " + Hz(result.eigen_seconds) + " (" +
          std::to_string(result.eigen_operator_applications) + " solves), constraint modes " +
          Hz(result.constraint_seconds) + ", projection " + Hz(result.projection_seconds) + "\n";
  return text;
}

}  // namespace jointdyn::reduction
