#include "reduction/joint_modes.h"

#include <Eigen/Eigenvalues>
#include <cmath>

#include "core/clock.h"
#include "core/error.h"
#include "solvers/option_check.h"

namespace jointdyn::reduction {
namespace {

using solvers::SparseMatrix;

// Eigenvalues of the K-Gram matrix of the K-normalized basis columns at or below this are
// its null space (rigid-body motion: rounding, about m eps) and are not projected out.
constexpr double kNullEigenvalue = 1e-10;

}  // namespace

const char* Name(JointModeMethod method) {
  switch (method) {
    case JointModeMethod::kWeightedPodOfTvds:
      return "wPOD of TVDs";
    case JointModeMethod::kPodOfTvds:
      return "POD of TVDs";
    case JointModeMethod::kPodOfForces:
      return "POD of forces";
  }
  return "?";
}

Status JointModeOptions::Validate() const {
  using solvers::CheckOption;
  for (const Status& status :
       {CheckOption(modes >= 0, "joint_modes.modes", modes, "must be >= 0 (0: from target_ratio)"),
        CheckOption(max_modes >= 0, "joint_modes.max_modes", max_modes, "must be >= 0"),
        CheckOption(target_ratio > 0.0 && target_ratio <= 1.0, "joint_modes.target_ratio",
                    target_ratio, "must be in (0, 1]"),
        CheckOption(rank_tolerance > 0.0 && rank_tolerance < 1.0, "joint_modes.rank_tolerance",
                    rank_tolerance, "must be in (0, 1)")}) {
    if (!status) return status;
  }
  return Status::Ok();
}

JointModeResult ComputeJointModes(const TvdResult& tvd, const solvers::SparseCholesky& factor,
                                  const std::vector<int>& free_rows,
                                  const JointModeOptions& options) {
  JointModeResult result;
  if (result.status = options.Validate(); !result.status) return result;
  const std::string what = std::string("joint modes (") + Name(options.method) + "): ";
  if (!tvd.status) {
    result.status = Status::Failure(what + "the TVD stage failed: " + tvd.status.message);
    return result;
  }
  const bool forces = options.method == JointModeMethod::kPodOfForces;
  const MatX& source = forces ? tvd.forces : tvd.derivatives;
  if (source.cols() == 0) {
    result.status = Status::Failure(what + "no TVDs");
    return result;
  }
  JD_CHECK(factor.size() == static_cast<int>(free_rows.size()),
           "ComputeJointModes: the K_c factor must have the size of free_rows");

  auto start = Clock::now();
  // The snapshots are zero on the held rows (TvdResult), so the POD runs on all n rows: the
  // held ones add nothing, and the modes are zero there.
  const PodOptions pod_options{.modes = options.modes,
                               .target_ratio = options.target_ratio,
                               .max_modes = options.max_modes,
                               .normalize_columns = true,
                               .rank_tolerance = options.rank_tolerance};
  // The TVDs solve K_c Y = F: their K_c-weighted snapshots are the fictive forces.
  const PodResult pod = options.method == JointModeMethod::kWeightedPodOfTvds
                            ? WeightedPod(tvd.derivatives, tvd.forces, pod_options)
                            : Pod(source, pod_options);
  result.pod_seconds = Seconds(start);
  result.rank = pod.rank;  // also on failure (more modes asked than the rank)
  if (!pod.status) {
    result.status = Status::Failure(what + pod.status.message);
    return result;
  }
  result.values = pod.values;
  result.ratio = pod.ratio;
  result.modes = pod.modes;
  if (forces) {  // phi_J = K_c^-1 f_J (eq. 3.57), one blocked solve on the free rows
    start = Clock::now();
    MatX solved;
    factor.Solve(MatX(result.modes(free_rows, Eigen::all)), solved);
    result.modes.setZero();
    result.modes(free_rows, Eigen::all) = solved;
    result.solve_seconds = Seconds(start);
  }
  return result;
}

namespace {

// The M-orthonormal rigid-body motions of span(V): the combinations V diag(scale) Z of the
// K-Gram matrix's null space (`null` Z) and the columns without K-norm (scale 0), their
// directions with mass (eigenvalues of their M-Gram matrix above 1e-12 of the largest).
MatX RigidMotions(const MatX& v, const VecX& scale, const MatX& null, const SparseMatrix& mass) {
  std::vector<int> unstrained;
  for (Eigen::Index j = 0; j < scale.size(); ++j)
    if (scale(j) == 0.0) unstrained.push_back(static_cast<int>(j));
  MatX r(v.rows(), null.cols() + Eigen::Index(unstrained.size()));
  r << v * (scale.asDiagonal() * null), v(Eigen::all, unstrained);
  if (r.cols() == 0) return r;
  const Eigen::SelfAdjointEigenSolver<MatX> gram(MatX(r.transpose() * (mass * r)));
  const VecX& lambda = gram.eigenvalues();
  std::vector<int> kept;
  for (Eigen::Index k = 0; k < lambda.size(); ++k)
    if (lambda(k) > 1e-12 * lambda.cwiseAbs().maxCoeff()) kept.push_back(static_cast<int>(k));
  return r * (gram.eigenvectors()(Eigen::all, kept) *
              VecX(lambda(kept).cwiseSqrt().cwiseInverse()).asDiagonal());
}

}  // namespace

ExtendResult ExtendBasis(const ReductionBasis& basis, const MatX& modes,
                         const SparseMatrix& stiffness, VectorKind kind,
                         const std::string& name_prefix, double dependency_tolerance,
                         const SparseMatrix* mass) {
  JD_CHECK(dependency_tolerance > 0.0 && dependency_tolerance < 1.0,
           "ExtendBasis: dependency_tolerance must be in (0, 1)");
  const Eigen::Index n = modes.rows();
  JD_CHECK(basis.size() == 0 || basis.num_dofs() == n, "ExtendBasis: row counts differ");
  JD_CHECK(stiffness.rows() == n && stiffness.cols() == n, "ExtendBasis: K must be n x n");
  ExtendResult result;
  result.basis = basis;

  // A K-orthonormal basis B of the elastic part of span(V): the K-normalized columns of V
  // combined by the eigenvectors of their K-Gram matrix (its null space, the rigid-body
  // motion the basis may hold, has no K-norm and is left out).
  MatX b(n, 0), kb(n, 0);
  MatX rigid(n, 0), m_rigid(n, 0);  // M-orthonormal rigid-body motions R of span(V), and M R
  if (basis.size() > 0) {
    const MatX& v = basis.vectors;
    const MatX kv = stiffness * v;
    VecX scale = (v.transpose() * kv).diagonal();
    for (Eigen::Index j = 0; j < scale.size(); ++j)
      scale(j) = scale(j) > 0.0 ? 1.0 / std::sqrt(scale(j)) : 0.0;
    MatX gram = scale.asDiagonal() * (v.transpose() * kv) * scale.asDiagonal();
    gram = 0.5 * (gram + gram.transpose()).eval();
    const Eigen::SelfAdjointEigenSolver<MatX> eigen(gram);
    JD_CHECK(eigen.info() == Eigen::Success, "ExtendBasis: dense eigensolver");
    const double largest = eigen.eigenvalues().cwiseAbs().maxCoeff();
    std::vector<int> kept, null;
    for (Eigen::Index j = 0; j < gram.rows(); ++j)
      (eigen.eigenvalues()(j) > kNullEigenvalue * largest ? kept : null)
          .push_back(static_cast<int>(j));
    if (mass) rigid = RigidMotions(v, scale, eigen.eigenvectors()(Eigen::all, null), *mass);
    m_rigid = mass ? MatX(*mass * rigid) : MatX(n, 0);
    MatX coefficients(v.cols(), kept.size());
    for (std::size_t c = 0; c < kept.size(); ++c)
      coefficients.col(c) = scale.asDiagonal() * eigen.eigenvectors().col(kept[c]) /
                            std::sqrt(eigen.eigenvalues()(kept[c]));
    b = v * coefficients;
    kb = kv * coefficients;
  }

  // Each mode: its remainder after removing the components along B (twice: classical
  // Gram-Schmidt loses orthogonality once, not twice), kept and K-normalized when it holds
  // at least dependency_tolerance of its K-norm; kept modes join B.
  std::vector<std::string> names;
  MatX kept_modes(n, 0);
  for (Eigen::Index c = 0; c < modes.cols(); ++c) {
    VecX a = modes.col(c);
    VecX ka = stiffness * a;
    const double norm = std::sqrt(std::max(0.0, a.dot(ka)));
    for (int pass = 0; pass < 2 && b.cols() > 0; ++pass) {
      const VecX along = b.transpose() * ka;
      a -= b * along;
      ka -= kb * along;
    }
    if (b.cols() > 0) ka = stiffness * a;  // the remainder's K-norm without cancellation
    const double remainder = std::sqrt(std::max(0.0, a.dot(ka)));
    if (!(norm > 0.0) || !(remainder > dependency_tolerance * norm)) {
      ++result.dropped;
      continue;
    }
    a -= rigid * (m_rigid.transpose() * a);  // no K-norm: ka stays
    a /= remainder;
    ka /= remainder;
    b.conservativeResize(n, b.cols() + 1);
    kb.conservativeResize(n, kb.cols() + 1);
    b.col(b.cols() - 1) = a;
    kb.col(kb.cols() - 1) = ka;
    kept_modes.conservativeResize(n, kept_modes.cols() + 1);
    kept_modes.col(kept_modes.cols() - 1) = a;
    names.push_back(name_prefix + "_" + std::to_string(names.size() + 1));
  }
  result.basis.Append(kept_modes, kind, names);
  return result;
}

}  // namespace jointdyn::reduction
