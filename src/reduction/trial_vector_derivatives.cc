#include "reduction/trial_vector_derivatives.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>

#include "core/clock.h"
#include "core/error.h"
#include "solvers/option_check.h"

namespace jointdyn::reduction {
namespace {

using solvers::SparseMatrix;

// |(N phi_j)_p| at or below this fraction of max |phi_j| is rounding, no motion (header).
constexpr double kNoMotion = 1e-10;

// Checks the sizes of the inputs against each other (Status naming the mismatch).
Status CheckInputs(const MatX& basis, const NormalRows& normals, const VecX& initial_gap,
                   const solvers::SparseCholesky& factor, const std::vector<int>& free_rows,
                   const std::vector<int>& focus) {
  const Eigen::Index n = basis.rows(), m = basis.cols();
  if (m == 0 || n == 0) return Status::Failure("TVDs: the basis is empty");
  if (normals.cols() != n)
    return Status::Failure("TVDs: the normal rows have " + std::to_string(normals.cols()) +
                           " columns for a basis of " + std::to_string(n) + " rows");
  if (initial_gap.size() != normals.rows())
    return Status::Failure("TVDs: " + std::to_string(initial_gap.size()) + " initial gaps for " +
                           std::to_string(normals.rows()) + " pairs");
  if (!factor.factored() || factor.size() != static_cast<int>(free_rows.size()))
    return Status::Failure("TVDs: the factor of K_c (size " + std::to_string(factor.size()) +
                           ") must be made and match the " + std::to_string(free_rows.size()) +
                           " free rows");
  for (std::size_t r = 0; r < free_rows.size(); ++r) {
    if (free_rows[r] < 0 || free_rows[r] >= n || (r > 0 && free_rows[r] <= free_rows[r - 1]))
      return Status::Failure("TVDs: free row " + std::to_string(free_rows[r]) +
                             " is out of range or not ascending");
  }
  std::vector<bool> seen(m, false);
  for (int j : focus) {
    if (j < 0 || j >= m || seen[j])
      return Status::Failure("TVDs: focus column " + std::to_string(j) + " is out of range (0 .. " +
                             std::to_string(m - 1) + ") or repeated");
    seen[j] = true;
  }
  if (!basis.allFinite() || !initial_gap.allFinite())
    return Status::Failure("TVDs: the basis or the initial gaps have non-finite entries");
  return Status::Ok();
}

// The tangent rows and stiffness against the pairs and DOFs of the normal rows.
Status CheckTangential(const TangentialStiffness& tangential, const NormalRows& normals) {
  if (tangential.empty()) return Status::Ok();
  if (tangential.stiffness.size() != normals.rows() ||
      tangential.tangents.rows() != 2 * normals.rows() ||
      tangential.tangents.cols() != normals.cols())
    return Status::Failure("TVDs: the tangential stiffness has " +
                           std::to_string(tangential.stiffness.size()) + " entries and " +
                           std::to_string(tangential.tangents.rows()) + " x " +
                           std::to_string(tangential.tangents.cols()) + " tangent rows for " +
                           std::to_string(normals.rows()) + " pairs on " +
                           std::to_string(normals.cols()) + " DOFs (2 rows per pair)");
  for (Eigen::Index p = 0; p < tangential.stiffness.size(); ++p) {
    const double e = tangential.stiffness(p);
    if (!(e >= 0.0) || !std::isfinite(e))
      return Status::Failure("TVDs: tangential stiffness " + FormatValue(e) + " of pair " +
                             std::to_string(p) + ": must be finite and >= 0");
  }
  return Status::Ok();
}

}  // namespace

Status TvdOptions::Validate() const {
  using solvers::CheckOption;
  for (const Status& status :
       {CheckOption(deflection > 0.0 && std::isfinite(deflection), "tvd.deflection", deflection,
                    "must be > 0 [m]"),
        CheckOption(block_size >= 1, "tvd.block_size", block_size, "must be >= 1")}) {
    if (!status) return status;
  }
  return Status::Ok();
}

double TvdResult::solves_per_second() const {
  return solve_seconds > 0.0 ? solves / solve_seconds : 0.0;
}

namespace {

// The rows 3 p + o for every pair p and each offset o (in the order given).
NormalRows SelectPairRows(const NormalRows& relative, std::initializer_list<int> offsets) {
  JD_CHECK(relative.rows() % 3 == 0, "SelectPairRows: three rows per pair");
  const Eigen::Index pairs = relative.rows() / 3;
  const auto per_pair = static_cast<Eigen::Index>(offsets.size());
  NormalRows rows(pairs * per_pair, relative.cols());
  Eigen::Index nonzeros = 0;
  for (Eigen::Index p = 0; p < pairs; ++p) {
    for (int o : offsets) {
      for (NormalRows::InnerIterator it(relative, 3 * p + o); it; ++it) ++nonzeros;
    }
  }
  rows.reserve(nonzeros);
  Eigen::Index row = 0;
  for (Eigen::Index p = 0; p < pairs; ++p) {
    for (int o : offsets) {
      rows.startVec(row);
      for (NormalRows::InnerIterator it(relative, 3 * p + o); it; ++it)
        rows.insertBack(row, it.col()) = it.value();
      ++row;
    }
  }
  rows.finalize();
  return rows;
}

}  // namespace

NormalRows SelectNormalRows(const NormalRows& relative) { return SelectPairRows(relative, {2}); }

NormalRows SelectTangentRows(const NormalRows& relative) {
  return SelectPairRows(relative, {0, 1});
}

TvdResult ComputeTrialVectorDerivatives(const MatX& basis, const NormalRows& normals,
                                        const VecX& initial_gap,
                                        const PairContactStiffness& stiffness,
                                        const solvers::SparseCholesky& factor,
                                        const std::vector<int>& free_rows,
                                        const std::vector<int>& focus, const TvdOptions& options,
                                        const TangentialStiffness& tangential) {
  TvdResult result;
  if (result.status = options.Validate(); !result.status) return result;
  if (result.status = CheckInputs(basis, normals, initial_gap, factor, free_rows, focus);
      !result.status)
    return result;
  if (result.status = CheckTangential(tangential, normals); !result.status) return result;
  const int n = static_cast<int>(basis.rows()), m = static_cast<int>(basis.cols());
  const int pairs = static_cast<int>(normals.rows());

  // The differentiated vectors i of each deflected vector j: all for j in focus (or no
  // focus), else the focus columns (header: the pairs (i, j) with i or j in focus).
  std::vector<bool> in_focus(m, focus.empty());
  for (int j : focus) in_focus[j] = true;
  std::vector<int> focus_sorted = focus;
  std::sort(focus_sorted.begin(), focus_sorted.end());
  std::vector<int> all(m);
  for (int i = 0; i < m; ++i) all[i] = i;
  int columns = 0;
  for (int j = 0; j < m; ++j)
    columns += 2 * static_cast<int>((in_focus[j] ? all : focus_sorted).size());

  auto start = Clock::now();
  std::vector<bool> held(n, true);
  for (int r : free_rows) held[r] = false;
  MatX normal_motion = normals * basis;  // (N phi_j)_p: pairs x m [m per unit zeta]
  for (int j = 0; j < m; ++j) {
    const double cut = kNoMotion * basis.col(j).cwiseAbs().maxCoeff();
    for (int p = 0; p < pairs; ++p) {
      if (std::abs(normal_motion(p, j)) <= cut) normal_motion(p, j) = 0.0;
    }
  }
  const SparseMatrix normals_t = normals.transpose();
  const bool with_tangents = !tangential.empty();
  MatX tangent_motion;  // (T phi_i): 2 pairs x m
  SparseMatrix tangents_t;
  if (with_tangents) {
    tangent_motion = tangential.tangents * basis;
    tangents_t = tangential.tangents.transpose();
  }
  VecX tangent_contact(with_tangents ? 2 * pairs : 0);
  result.forces = MatX::Zero(n, columns);
  result.columns.reserve(columns);
  result.contact_pairs.reserve(2 * m);
  VecX contact(pairs);
  int column = 0;
  for (int j = 0; j < m; ++j) {
    const double largest = normal_motion.col(j).cwiseAbs().maxCoeff();
    const double amplitude = largest > 0.0 ? options.deflection / largest : 0.0;  // a_j
    const std::vector<int>& differentiated = in_focus[j] ? all : focus_sorted;
    const int count = static_cast<int>(differentiated.size());
    for (int k = -1; k <= 1; k += 2) {
      int active = 0;
      for (int p = 0; p < pairs; ++p) {
        const double gap = initial_gap(p) + k * amplitude * normal_motion(p, j);
        contact(p) = stiffness(p, gap);
        if (!(contact(p) >= 0.0) || !std::isfinite(contact(p))) {
          result.status = Status::Failure("TVDs: contact stiffness " + FormatValue(contact(p)) +
                                          " of pair " + std::to_string(p) + " at gap " +
                                          FormatValue(gap) + " m: must be finite and >= 0");
          return result;
        }
        active += contact(p) > 0.0;
      }
      result.contact_pairs.push_back(active);
      result.zero_deflections += active == 0;
      for (int i : differentiated) result.columns.push_back({i, j, k});
      if (active > 0) {
        // f_(i,k,j) = -N^T diag(c) N phi_i for the differentiated i (eq. 3.41).
        MatX weighted(pairs, count);
        for (int c = 0; c < count; ++c)
          weighted.col(c) = contact.cwiseProduct(normal_motion.col(differentiated[c]));
        result.forces.middleCols(column, count).noalias() = -(normals_t * weighted);
        if (with_tangents) {
          // -T^T diag(e) T phi_i: the tangential stiffness of the pairs closed here.
          for (int p = 0; p < pairs; ++p)
            tangent_contact.segment<2>(2 * p).setConstant(contact(p) > 0.0 ? tangential.stiffness(p)
                                                                           : 0.0);
          MatX tangent_weighted(2 * pairs, count);
          for (int c = 0; c < count; ++c)
            tangent_weighted.col(c) =
                tangent_contact.cwiseProduct(tangent_motion.col(differentiated[c]));
          result.forces.middleCols(column, count).noalias() -= tangents_t * tangent_weighted;
        }
      }
      column += count;
    }
  }
  for (int r = 0; r < n; ++r) {
    if (held[r]) result.forces.row(r).setZero();  // reactions on held DOFs
  }
  result.force_seconds = Seconds(start);

  // K_c Phi_T = F on the free rows, block_size right-hand sides per solve.
  start = Clock::now();
  result.derivatives = MatX::Zero(n, columns);
  const int ni = static_cast<int>(free_rows.size());
  MatX rhs, solution;
  for (int first = 0; first < columns; first += options.block_size) {
    const int width = std::min(options.block_size, columns - first);
    rhs.resize(ni, width);
    for (int c = 0; c < width; ++c) {
      for (int r = 0; r < ni; ++r) rhs(r, c) = result.forces(free_rows[r], first + c);
    }
    factor.Solve(rhs, solution);
    for (int c = 0; c < width; ++c) {
      for (int r = 0; r < ni; ++r) result.derivatives(free_rows[r], first + c) = solution(r, c);
    }
  }
  result.solve_seconds = Seconds(start);
  result.solves = columns;
  if (!result.derivatives.allFinite()) {
    result.status = Status::Failure("TVDs: the solves with K_c gave non-finite values");
    result.derivatives.resize(n, 0);
  }
  return result;
}

}  // namespace jointdyn::reduction
