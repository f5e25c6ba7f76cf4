#include "mbs/consistent_state.h"

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <memory>
#include <string>

#include "core/error.h"

namespace jointdyn::mbs {

Status ConsistentState(time::SecondOrderSystem& system, double t,
                       const std::function<VecX(const VecX& q)>& c_t, double tolerance, VecX& q,
                       VecX& v, double& correction, const VecX& weights) {
  correction = 0.0;
  const int n = system.size(), rows = system.constraint_count();
  if (rows == 0) return Status::Ok();
  time::Matrix mass = system.mass();
  if (system.mass_varies()) {  // M(q) at the given positions
    mass.SetZeroLike(system.mass());
    VecX force(n);
    system.Inertia(q, VecX::Zero(n), VecX::Zero(n), force, &mass, nullptr, nullptr);
  }
  // W X = D M^-1 D X, by the factor of the mass's storage.
  const VecX d = weights.size() == n ? weights : VecX::Ones(n);
  std::function<MatX(const MatX&)> solve;
  if (mass.is_dense()) {
    auto factor = std::make_shared<Eigen::LLT<MatX>>(mass.dense());
    solve = [factor, d](const MatX& x) {
      return MatX(d.asDiagonal() * factor->solve(d.asDiagonal() * x));
    };
  } else {
    auto factor = std::make_shared<Eigen::SimplicialLDLT<time::SparseMatrix>>(mass.sparse());
    solve = [factor, d](const MatX& x) {
      return MatX(d.asDiagonal() * factor->solve(d.asDiagonal() * x));
    };
  }
  VecX c(rows);
  time::SparseMatrix cq;
  // The weighted projection x - W C_q' (C_q W C_q')^-1 r.
  const auto project = [&](const VecX& residual, VecX& x) -> Status {
    const MatX dense = MatX(cq);
    const MatX m_inverse_ct = solve(MatX(dense.transpose()));  // M^-1 C_q'
    const MatX gram = dense * m_inverse_ct;
    Eigen::FullPivLU<MatX> lu(gram);
    if (lu.rank() < rows)
      return Status::Failure(
          "the joints' constraints are redundant or singular at t = " + FormatValue(t) +
          " s (rank " + std::to_string(lu.rank()) + " of " + std::to_string(rows) +
          " rows): remove joints that fix what others fix");
    x -= m_inverse_ct * lu.solve(residual);
    return Status::Ok();
  };
  const VecX q_start = q;
  for (int iteration = 0;; ++iteration) {
    system.Constraints(t, q, c, &cq);
    if (c.lpNorm<Eigen::Infinity>() <= tolerance) break;
    if (iteration == 50)
      return Status::Failure("the initial positions cannot be made to satisfy the joints: |c| = " +
                             FormatValue(c.lpNorm<Eigen::Infinity>()) + " after 50 iterations");
    if (Status status = project(c, q); !status) return status;
  }
  correction = (q - q_start).lpNorm<Eigen::Infinity>();
  return project(VecX(cq * v + c_t(q)), v);
}

}  // namespace jointdyn::mbs
