#include "joint/static_solver.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "core/clock.h"
#include "core/error.h"
#include "core/stop.h"
#include "solvers/line_search.h"
#include "solvers/linear_solver.h"
#include "solvers/option_check.h"
#include "solvers/sparse_cholesky.h"

namespace jointdyn::joint {
namespace {

// The factorization of the tangent, the one part that differs between the full model
// (sparse, CHOLMOD: symbolic analysis once per pattern, numeric refactorization after) and
// a reduced one (dense, Eigen LLT).
class SparseFactorization {
 public:
  using Matrix = solvers::SparseMatrix;
  static constexpr bool kSparseJoints = true;

  Status Factor(Matrix& tangent, StaticResult& result) {
    tangent.makeCompressed();
    const bool same_pattern = cholesky_.factored() &&
                              std::equal(outer_.begin(), outer_.end(), tangent.outerIndexPtr(),
                                         tangent.outerIndexPtr() + tangent.outerSize() + 1) &&
                              std::equal(inner_.begin(), inner_.end(), tangent.innerIndexPtr(),
                                         tangent.innerIndexPtr() + tangent.nonZeros());
    if (same_pattern) return cholesky_.Refactor(tangent);
    ++result.symbolic_analyses;
    outer_.assign(tangent.outerIndexPtr(), tangent.outerIndexPtr() + tangent.outerSize() + 1);
    inner_.assign(tangent.innerIndexPtr(), tangent.innerIndexPtr() + tangent.nonZeros());
    return cholesky_.Factor(tangent);
  }
  VecX Solve(const VecX& r) const { return cholesky_.Solve(r); }

 private:
  solvers::SparseCholesky cholesky_;
  std::vector<int> outer_, inner_;  // pattern of the factored tangent
};

class DenseFactorization {
 public:
  using Matrix = MatX;
  static constexpr bool kSparseJoints = false;

  Status Factor(Matrix& tangent, StaticResult& /*result*/) {
    llt_.compute(tangent);
    if (llt_.info() != Eigen::Success)
      return Status::Failure("tangent not positive definite (dense Cholesky)");
    return Status::Ok();
  }
  VecX Solve(const VecX& r) const { return llt_.solve(r); }

 private:
  Eigen::LLT<MatX> llt_;
};

// Replaces the rows and columns of the held entries of a tangent by `diagonal` on the
// diagonal (sparse: explicit zeros keep the pattern; a missing diagonal is inserted, the
// same one every time).
void Eliminate(solvers::SparseMatrix& tangent, const std::vector<int>& held,
               const std::vector<char>& is_held, double diagonal) {
  if (held.empty()) return;
  for (int col = 0; col < tangent.outerSize(); ++col)
    for (solvers::SparseMatrix::InnerIterator it(tangent, col); it; ++it)
      if (is_held[it.row()] || is_held[col]) it.valueRef() = 0.0;
  for (int k : held) tangent.coeffRef(k, k) = diagonal;
}

void Eliminate(MatX& tangent, const std::vector<int>& held, const std::vector<char>& /*is_held*/,
               double diagonal) {
  for (int k : held) {
    tangent.row(k).setZero();
    tangent.col(k).setZero();
    tangent(k, k) = diagonal;
  }
}

// The Newton machinery shared by all load steps and by the full and reduced models:
// residual, tangent, factorization kept with the pair tangents it was made from.
template <class Factorization>
class Newton {
 public:
  using Matrix = typename Factorization::Matrix;

  // `held`: entries of the state eliminated (ascending).
  // `exact`: the unsymmetric tangent factored by LU (StaticOptions::exact_tangent).
  Newton(const Matrix& stiffness, std::span<JointOperator> joints, const std::vector<int>& held,
         bool exact, StaticResult& result)
      : exact_(exact),
        stiffness_(stiffness),
        magnitude_(stiffness.cwiseAbs()),
        joints_(joints),
        held_(held),
        is_held_(stiffness.rows(), 0),
        held_diagonal_(std::max(1.0, stiffness.diagonal().cwiseAbs().maxCoeff())),
        reactions_(VecX::Zero(static_cast<int>(held.size()))),
        result_(result) {
    for (int k : held_) is_held_[k] = 1;
    if (exact_)
      lu_ = solvers::MakeLinearSolver(solvers::LinearSolverKind::kAuto,
                                      static_cast<int>(stiffness.rows()));
  }

  // The residual rows of the held entries at the last Residual() state.
  const VecX& reactions() const { return reactions_; }

  // r = K q + sum f_j(q) - lambda f_ext, and the size of the terms it sums (inf norms):
  // scale = max(||lambda f_ext||, || |K| |q| ||, ||f_j||), so that the rounding of the
  // stiffness forces (large terms that cancel) stays far below the tolerance. The rows of
  // the held entries go to reactions() and are zero in r.
  Status Residual(const VecX& q, const VecX& external, VecX& r, double& scale) {
    r.noalias() = magnitude_ * q.cwiseAbs();
    scale = std::max(external.lpNorm<Eigen::Infinity>(), r.lpNorm<Eigen::Infinity>());
    r.noalias() = stiffness_ * q;
    r -= external;
    const Clock::time_point start = Clock::now();
    for (JointOperator& joint : joints_) {
      if (Status status = joint.Evaluate(q); !status) return status;
      joint.Forces(force_);
      scale = std::max(scale, force_.lpNorm<Eigen::Infinity>());
      r += force_;
    }
    result_.joint_seconds += Seconds(start);
    if (!r.allFinite()) return Status::Failure("non-finite residual");
    for (size_t k = 0; k < held_.size(); ++k) {
      reactions_(static_cast<int>(k)) = r(held_[k]);
      r(held_[k]) = 0.0;
    }
    return Status::Ok();
  }

  // Moves q along the Newton direction dq by the directional (energy) line search
  // (solvers/line_search.h): for frictionless penalty contact s(alpha) = r . dq is the
  // derivative of the convex potential along dq, and the search stops Newton from cycling
  // between contact sets. Leaves r and scale at the new q; increment_norm = ||alpha dq||_inf.
  Status LineSearch(const VecX& external, const VecX& dq, VecX& q, VecX& r, double& scale,
                    double& increment_norm) {
    const VecX start = q;
    const solvers::DirectionalSearchResult search = solvers::DirectionalLineSearch(
        r.dot(dq), dq,
        [&](double alpha, VecX& residual) {
          q = start + alpha * dq;
          return Residual(q, external, residual, scale);
        },
        r);
    result_.line_search_evaluations += search.evaluations - 1;
    increment_norm = search.alpha * dq.lpNorm<Eigen::Infinity>();
    return search.status;
  }

  // dq = -A^-1 r with A the tangent at the last Residual() state.
  Status Update(const VecX& r, VecX& dq) {
    if (factored_ && TangentsUnchanged()) {
      ++result_.reused_factorizations;
    } else if (Status status = Factor(); !status) {
      return status;
    }
    const Clock::time_point start = Clock::now();
    if (exact_) {
      if (Status status = lu_->Solve(-r, dq); !status) return status;
    } else {
      dq = -factorization_.Solve(r);
    }
    result_.solve_seconds += Seconds(start);
    if (!dq.allFinite()) return Status::Failure("non-finite Newton increment");
    return Status::Ok();
  }

 private:
  bool TangentsUnchanged() const {
    std::size_t k = 0;
    for (const JointOperator& joint : joints_) {
      for (const Mat3& d : joint.tangents()) {
        if (d != factored_tangents_[k++]) return false;
      }
    }
    return true;
  }

  // Factors K + sum_j (J_j + J_j^T) / 2 (exact: K + sum_j J_j) with the held entries
  // eliminated.
  Status Factor() {
    Clock::time_point start = Clock::now();
    factored_tangents_.clear();
    tangent_ = stiffness_;
    for (JointOperator& joint : joints_) {
      joint.Jacobian(jacobian_);
      if (joint.symmetric_tangent() || exact_) {
        tangent_ += jacobian_;
      } else {
        const Matrix transposed = jacobian_.transpose();
        tangent_ += 0.5 * (jacobian_ + transposed);
      }
      factored_tangents_.insert(factored_tangents_.end(), joint.tangents().begin(),
                                joint.tangents().end());
    }
    Eliminate(tangent_, held_, is_held_, held_diagonal_);
    result_.joint_seconds += Seconds(start);
    start = Clock::now();
    const Status status = exact_ ? lu_->Factor(tangent_) : factorization_.Factor(tangent_, result_);
    result_.factor_seconds += Seconds(start);
    ++result_.factorizations;
    factored_ = status.ok;
    return status;
  }

  const bool exact_;
  const Matrix& stiffness_;
  const Matrix magnitude_;  // |K| entrywise
  std::span<JointOperator> joints_;
  const std::vector<int>& held_;
  std::vector<char> is_held_;
  const double held_diagonal_;  // of the eliminated rows: the largest |K_ii| (or 1)
  VecX reactions_;
  StaticResult& result_;
  Factorization factorization_;
  std::unique_ptr<solvers::LinearSolver> lu_;  // exact_
  bool factored_ = false;
  std::vector<Mat3> factored_tangents_;
  VecX force_;
  Matrix jacobian_, tangent_;
};

// Load stepping with cutbacks around Newton (the one implementation for both overloads).
template <class Factorization>
StaticResult Solve(const typename Factorization::Matrix& stiffness, std::span<JointOperator> joints,
                   const StaticLoadPath& path, const StaticOptions& options) {
  const Clock::time_point start = Clock::now();
  StaticResult result;
  const int n = static_cast<int>(stiffness.rows());
  const int held = static_cast<int>(path.held.size());
  result.q = path.start.size() == 0 ? VecX::Zero(n) : path.start;
  result.reactions = VecX::Zero(held);
  result.status = options.Validate();
  if (!result.status) return result;
  JD_CHECK(stiffness.cols() == n && path.end_load.size() == n && result.q.size() == n &&
               (path.start_load.size() == 0 || path.start_load.size() == n),
           "SolveStatic: K square, one load and one start value per row");
  JD_CHECK(std::is_sorted(path.held.begin(), path.held.end()) &&
               std::adjacent_find(path.held.begin(), path.held.end()) == path.held.end() &&
               (held == 0 || (path.held.front() >= 0 && path.held.back() < n)) &&
               (path.end_values.size() == 0 || path.end_values.size() == held),
           "SolveStatic: held entries ascending, distinct, in range, one end value each");
  const VecX start_load = path.start_load.size() == 0 ? VecX::Zero(n) : path.start_load;
  const VecX start_values = result.q(path.held);
  const VecX end_values = path.end_values.size() == 0 ? VecX::Zero(held) : path.end_values;
  for (const JointOperator& joint : joints)
    JD_CHECK(joint.size() == n && joint.relative().is_sparse() == Factorization::kSparseJoints,
             "SolveStatic: joints on the state of K, R sparse with a sparse K and dense with a "
             "dense one");

  Newton<Factorization> newton(stiffness, joints, path.held, options.exact_tangent, result);
  const double initial_increment = 1.0 / options.load_steps;
  double increment = initial_increment;
  int cutbacks_in_row = 0;
  VecX q, r, dq, external;
  while (result.load_factor < 1.0) {
    if (StopRequested()) {  // SIGINT, SIGTERM: the last converged state stays the result
      result.status =
          Status::Failure(StopReason() + " at load factor " + FormatValue(result.load_factor));
      break;
    }
    double target = std::min(1.0, result.load_factor + increment);
    if (1.0 - target < 1e-12) target = 1.0;
    external = (1.0 - target) * start_load + target * path.end_load;
    q = result.q;
    q(path.held) = (1.0 - target) * start_values + target * end_values;
    Status outcome;  // ok: the step converged
    int iteration = 0;
    double increment_norm = 0.0;
    double scale = 0.0;
    result.residual_history.clear();
    outcome = newton.Residual(q, external, r, scale);
    for (; outcome; ++iteration) {
      result.residual_norm = scale > 0.0 ? r.lpNorm<Eigen::Infinity>() / scale : 0.0;
      result.residual_history.push_back(result.residual_norm);
      if (iteration > 0 && result.residual_norm <= options.residual_tolerance &&
          increment_norm <= options.increment_tolerance * q.lpNorm<Eigen::Infinity>())
        break;
      if (iteration == options.max_iterations) {
        outcome = Status::Failure("no convergence in " + std::to_string(iteration) +
                                  " iterations (scaled residual " +
                                  FormatValue(result.residual_norm) + ")");
        break;
      }
      if (outcome = newton.Update(r, dq); !outcome) break;
      ++result.iterations;
      if (outcome = newton.LineSearch(external, dq, q, r, scale, increment_norm); !outcome) break;
    }
    if (outcome) {
      result.q = q;
      result.reactions = newton.reactions();
      for (JointOperator& joint : joints) joint.Commit();
      result.load_factor = target;
      ++result.load_steps;
      result.step_iterations.push_back(iteration);
      cutbacks_in_row = 0;
      increment = std::min(2.0 * increment, initial_increment);
      continue;
    }
    const std::string where = "load step " + std::to_string(result.load_steps + 1) +
                              " (load factor " + FormatValue(result.load_factor) + " -> " +
                              FormatValue(target) + "), iteration " + std::to_string(iteration);
    if (cutbacks_in_row == options.max_cutbacks) {
      result.status =
          Status::Failure("static solution failed at " + where + ": " + outcome.message +
                          " (after " + std::to_string(cutbacks_in_row) + " cutbacks)");
      break;
    }
    increment *= 0.5;
    ++cutbacks_in_row;
    ++result.cutbacks;
  }
  result.seconds = Seconds(start);
  return result;
}

}  // namespace

Status StaticOptions::Validate() const {
  using solvers::CheckOption;
  for (const Status& status : {
           CheckOption(load_steps >= 1, "static.load_steps", load_steps, "must be >= 1"),
           CheckOption(max_cutbacks >= 0, "static.max_cutbacks", max_cutbacks, "must be >= 0"),
           CheckOption(max_iterations >= 1, "static.max_iterations", max_iterations,
                       "must be >= 1"),
           CheckOption(residual_tolerance > 0.0 && std::isfinite(residual_tolerance),
                       "static.residual_tolerance", residual_tolerance, "must be > 0"),
           CheckOption(increment_tolerance > 0.0 && std::isfinite(increment_tolerance),
                       "static.increment_tolerance", increment_tolerance, "must be > 0"),
       }) {
    if (!status) return status;
  }
  return Status::Ok();
}

StaticResult SolveStatic(const solvers::SparseMatrix& stiffness, std::span<JointOperator> joints,
                         const StaticLoadPath& path, const StaticOptions& options) {
  return Solve<SparseFactorization>(stiffness, joints, path, options);
}

StaticResult SolveStatic(const MatX& stiffness, std::span<JointOperator> joints,
                         const StaticLoadPath& path, const StaticOptions& options) {
  return Solve<DenseFactorization>(stiffness, joints, path, options);
}

StaticResult SolveStatic(const solvers::SparseMatrix& stiffness, std::span<JointOperator> joints,
                         const VecX& load, const StaticOptions& options) {
  return SolveStatic(stiffness, joints, StaticLoadPath{.end_load = load}, options);
}

StaticResult SolveStatic(const MatX& stiffness, std::span<JointOperator> joints, const VecX& load,
                         const StaticOptions& options) {
  return SolveStatic(stiffness, joints, StaticLoadPath{.end_load = load}, options);
}

}  // namespace jointdyn::joint
