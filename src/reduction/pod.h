// Proper orthogonal decomposition (seed 003 sec. 2.2.5, eq. 2.99-2.104) of a snapshot matrix
// Y = [y_1 .. y_p] (n x p), optionally in the inner product of a symmetric positive
// semidefinite weight W (n x n, sparse), as the joint-mode stage uses it (sec. 3.2.2,
// algorithms 3.2-3.3): wPOD of trial vector derivatives with W = K, POD of trial vector
// derivatives or of fictive forces with W = I.
//
//   G = Ybar^T W Ybar,  G u_i = lambda_i u_i (descending),  phi_i = Ybar u_i / sqrt(lambda_i)
//
// with Ybar = Y when columns are not normalized, or every column scaled to unit W-norm
// first (eq. 3.47 / 3.52: y_j / sqrt(y_j^T W y_j), so that only the directions of the
// snapshots count, not their sizes). The modes are W-orthonormal (phi_i^T W phi_j =
// delta_ij; Euclidean-orthonormal for W = I); the proper orthogonal values (POVs)
// lambda_i are the squared singular values of W^(1/2) Ybar, and the POV ratio (eq. 3.61)
//
//   w(g) = (lambda_1 + .. + lambda_g) / (lambda_1 + .. + lambda_p)
//
// is the fraction of the snapshots' (W-)energy that g modes capture.
//
// Method, by shape. The snapshot sets of the joint-mode stage are tall (p = 2 m^2, a few
// hundred, against n = 10^5 - 10^6 DOFs): the p x p Gram matrix G costs one product of n p^2
// (BLAS-3 speed) and a p x p eigenproblem, several times less than a thin SVD of the n x p
// matrix (bidiagonalization of the tall matrix and forming its n x p U), and it is the only
// form that works for a singular weight (K of a free structure: W^(1/2) is never formed,
// only W Y). Squaring the singular values costs accuracy only in the POVs below about
// eps * lambda_1, which rank_tolerance cuts anyway, and the W-orthogonality of the modes of
// small POVs, which one Cholesky re-orthonormalization of the g modes restores. Unweighted wide
// sets (p > n) are decomposed by a thin SVD (Eigen's BDCSVD) of Y instead: there the Gram matrix
// would be larger than Y Y^T, and the SVD's cost p n^2 is the smaller one.
//
// The Gram matrix needs W Y, not W: when the snapshots come from static solves K Y = F
// (trial vector derivatives and their fictive forces), W Y = F is known and no product with
// W is formed. The Gram matrix then reads only the rows where W Y is nonzero (fictive forces
// act on the contact DOFs only: 8748 of the friction bar's 123 690 rows at 2 mm), and
// an unweighted POD of such snapshots (the POD of forces) only their nonzero rows. With
// fewer such rows r than snapshots p, G has rank <= r and its eigenproblem is solved on its
// range (r x r, after a QR of the p x r rows) instead of p x p.
//
// For a singular W, the part of the snapshots in its null space (rigid-body motion for
// W = K of a free structure) does not count in G, and the modes carry it along as it comes
// in Ybar; zero-W-norm columns are set to zero when normalizing.
#pragma once

#include "core/status.h"
#include "core/types.h"
#include "solvers/residual_model.h"

namespace jointdyn::reduction {

struct PodOptions {
  // g, the modes returned: > 0 exactly g (a failure above the rank); 0: the smallest g with
  // w(g) >= target_ratio (1: every mode above rank_tolerance), at most max_modes when > 0.
  int modes = 0;
  double target_ratio = 1.0;      // in (0, 1]
  int max_modes = 0;              // >= 0
  bool normalize_columns = true;  // eq. 3.47 / 3.52 in the same inner product as the POD
  // POVs at or below rank_tolerance * lambda_1 are rounding noise (the Gram matrix carries
  // errors up to about n * eps * lambda_1): they are returned as 0 and give no mode. In
  // (0, 1) [-].
  double rank_tolerance = 1e-10;
  Status Validate() const;
};

struct PodResult {
  Status status;          // failure: options, all snapshots zero, more modes asked than the rank,
                          // weight not positive semidefinite on the snapshots
  MatX modes;             // phi_1 .. phi_g, n x g, W-orthonormal
  VecX values;            // all p POVs lambda_i, descending, >= 0 (those below tolerance: 0)
  VecX ratio;             // w(g) for g = 1 .. p (eq. 3.61), non-decreasing to 1
  int rank = 0;           // POVs above rank_tolerance * lambda_1
  int zero_columns = 0;   // snapshots of zero (W-)norm, when normalizing
  bool used_svd = false;  // true: thin SVD of Y (wide, unweighted); false: Gram matrix
  double gram_seconds = 0.0;   // Ybar^T W Ybar from W Y (or the SVD) [s]
  double eigen_seconds = 0.0;  // p x p eigenproblem [s]
  double modes_seconds = 0.0;  // Ybar u_i / sqrt(lambda_i) [s]
};

// Unweighted POD (W = I).
PodResult Pod(const MatX& snapshots, const PodOptions& options = {});
// POD in the inner product of `weight` (n x n, symmetric positive semidefinite, both
// triangles stored).
PodResult WeightedPod(const MatX& snapshots, const solvers::SparseMatrix& weight,
                      const PodOptions& options = {});
// POD in the inner product of a weight W given by the weighted snapshots W Y (n x p, e.g.
// the right-hand sides F of K Y = F: the wPOD of TVDs with W = K_c); W itself is not needed.
PodResult WeightedPod(const MatX& snapshots, const MatX& weighted_snapshots,
                      const PodOptions& options = {});

// w(g) of eq. 3.61 for g = 1 .. size of `values` (POVs, descending, >= 0, not all zero).
VecX PovRatio(const VecX& values);
// The smallest g with w(g) >= target (in (0, 1]); the size of `ratio` when none reaches it.
int ModesForRatio(const VecX& ratio, double target);

}  // namespace jointdyn::reduction
