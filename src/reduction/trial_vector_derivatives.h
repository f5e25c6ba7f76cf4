// Trial vector derivatives (TVDs) for joint contact (seed 003 sec. 3.2.1, eq. 3.39-3.46,
// algorithm 3.1; preload-related TVDs eq. 3.70, algorithm 3.4).
//
// For a reduction basis V = [phi_1 .. phi_m] (n x m, the model's free DOFs, e.g. the
// free-free modes of Craig-Bampton) and the joint's contact pairs, each basis vector phi_j
// is deflected in both directions k = -1, +1; the pairs that penetrate under the deflection
// get their normal contact stiffness, which gives the stiffness change
//
//   dK_(k,j) = N^T diag(c_(k,j)) N,   c_(k,j),p = A_p dp/dg (g_p),
//   g_p = g0_p + k a_j (N phi_j)_p   (the pair's gap under the deflection),
//
// with N the normal rows of the pairs' relative-displacement operator (row p: n_p^T (u_S -
// sum w u_M), so that g = g0 + N u; joint/contact_kinematics.h), A_p the pair's area
// weight and a_j the deflection amplitude (options.deflection / max_p |(N phi_j)_p|: only
// the sign pattern matters for a linear penalty on touching surfaces; with initial gaps
// the amplitude decides which pairs close; entries |(N phi_j)_p| at or below 1e-10
// max |phi_j| are rounding, e.g. of a vector that moves both sides of the joint alike, and
// count as no motion). By default only the normal stiffness enters, as in the seed's
// studies (sec. 3.2.1: the tangential stiffness was found not to improve the TVDs there).
// With a TangentialStiffness the closed pairs also get their tangential (sticking)
// stiffness, as in the seed's definition of dK_c/dzeta_j ("contact stiffness eps_N and
// tangential stiffness eps_T ... on contacting and penetrating pairs"):
//
//   dK_(k,j) += T^T diag(e_(k,j)) T,   e_(k,j),(2p+r) = A_p eps_T if c_(k,j),p > 0, else 0,
//
// with T the two tangent rows per pair (t1, t2) of the relative-displacement operator. The
// fictive forces and the TVDs are
//
//   f_(i,k,j) = -dK_(k,j) phi_i  (eq. 3.41),   K_c dphi_i/dzeta_(k,j) = f_(i,k,j)  (3.40)
//
// for all m^2 pairs (i, j) and both k: 2 m^2 columns, all solved with ONE factorization of
// K_c in blocked multi-right-hand-side solves. K_c is the stiffness with the Craig-Bampton
// boundary DOFs held (K_ii, whose factor Craig-Bampton already made: the TVDs are interior
// corrections like the fixed-interface modes, the constraint modes carry the boundary
// motion). Rows of the forces on held DOFs are reactions and are dropped; the TVDs are
// zero there.
//
// Column order (eq. 3.43 with the direction added): for j = 1..m, for k = -1, +1, for i =
// 1..m: column ((j * 2 + (k + 1) / 2) * m + i) (0-based j, i). With `focus` columns (the
// preload modes, eq. 3.70) only the pairs (i, j) with i or j in focus are computed, in the
// same order with the other pairs skipped: 2 (p^2 + 2 p m') columns for p focus columns
// among m = m' + p.
//
// A deflection under which no pair has contact stiffness gives zero forces and zero TVDs
// for its m columns; they are kept (so the column order stays as above) and counted.
#pragma once

#include <Eigen/Sparse>
#include <functional>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "solvers/sparse_cholesky.h"

namespace jointdyn::reduction {

using NormalRows = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// c = A_p dp/dg at gap g [N/m] for pair p (>= 0; 0 when the pair is open at g). The io layer
// builds it from the joint's normal law (a linear penalty eps: A_p eps for g < 0, else 0).
using PairContactStiffness = std::function<double(int pair, double gap)>;

// The tangential stiffness of the closed pairs in dK (header comment); empty: normal only.
struct TangentialStiffness {
  NormalRows tangents;  // T: rows 2 p, 2 p + 1 = t1, t2 of pair p (SelectTangentRows)
  VecX stiffness;       // A_p eps_T [N/m] per pair, finite and >= 0
  bool empty() const { return stiffness.size() == 0; }
};

struct TvdOptions {
  double deflection = 1e-6;  // [m] largest normal relative displacement of a deflected
                             // basis vector over the pairs, > 0
  int block_size = 256;      // right-hand sides per blocked solve, >= 1 (1: one at a
                             // time; the bench compares the two)
  Status Validate() const;   // names the option, value and rule
};

struct TvdColumn {
  int i = 0;          // the basis vector that is differentiated (0-based)
  int j = 0;          // the deflected basis vector (0-based)
  int direction = 1;  // k = -1 or +1
};

struct TvdResult {
  Status status;                     // failure: options, sizes, non-finite values
  MatX derivatives;                  // Phi_T, n x k (zero rows on held DOFs)
  MatX forces;                       // F, n x k (rows of held DOFs zero)
  std::vector<TvdColumn> columns;    // k entries, the order above
  std::vector<int> contact_pairs;    // pairs with contact stiffness, per deflection (j, k):
                                     // entry 2 j + (k + 1) / 2
  int zero_deflections = 0;          // deflections with no contact stiffness
  int solves = 0;                    // right-hand sides solved (= k)
  double force_seconds = 0.0;        // N phi, deflections, fictive forces [s]
  double solve_seconds = 0.0;        // blocked triangular solves [s]
  double solves_per_second() const;  // solves / solve_seconds (0 when no time was measured)
};

// `basis` V (n x m); `normals` N (num_pairs x n); `initial_gap` g0 [m] per pair;
// `stiffness` c(p, g); `factor` of K_c over the rows `free_rows` of the basis (the
// Craig-Bampton interior DOFs, factor->size() entries, ascending); `focus` columns of V
// (empty: all pairs (i, j)); `tangential` the closed pairs' tangential stiffness (empty:
// none).
TvdResult ComputeTrialVectorDerivatives(
    const MatX& basis, const NormalRows& normals, const VecX& initial_gap,
    const PairContactStiffness& stiffness, const solvers::SparseCholesky& factor,
    const std::vector<int>& free_rows, const std::vector<int>& focus = {},
    const TvdOptions& options = {}, const TangentialStiffness& tangential = {});

// N: the normal rows (3 p + 2) of a relative-displacement operator with three rows per pair
// in the order t1, t2, n (joint/contact_kinematics.h, on the model's free DOFs).
NormalRows SelectNormalRows(const NormalRows& relative);
// T: the tangent rows (3 p, 3 p + 1) of the same operator, two per pair.
NormalRows SelectTangentRows(const NormalRows& relative);

}  // namespace jointdyn::reduction
