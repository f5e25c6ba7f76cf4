// Nonlinear static solution with penalty contact on the unreduced FE model (the reference
// of issue 6): find q with
//   r(q) = K q + sum_j f_j(q) - lambda f_ext = 0,   lambda: 0 -> 1 in load steps,
// on the independent DOFs q of a DofMap (u = T q; K = T^T K_mesh T, f_ext = T^T f, and each
// joint evaluated with R T, contact_kinematics.h: OnIndependentDofs).
//
// Newton with the consistent tangent K + sum_j R^T A D R factored by CHOLMOD (supernodal
// Cholesky) and a line search along the Newton direction to where the residual is nearly
// orthogonal to it (for frictionless contact: the minimum of the convex potential along
// the direction; without it Newton cycles between contact sets on stiff penalties). The joints'
// Jacobians keep every pair in their pattern (open pairs as zeros), so the pattern of the tangent
// is fixed: the symbolic analysis runs once per solve and each new tangent is a numeric
// refactorization. The factorization is reused (no approximation) when no pair tangent D_i changed
// since it was made: with piecewise-linear penalty laws that is every iteration after the contact
// set has settled, and across load steps. With friction the pair tangents are unsymmetric (d tau /
// d p in slip) and the Cholesky factor is made from the symmetric part (K + (J + J^T) / 2):
// modified Newton, linear convergence, same solution. Friction makes the solution path dependent:
// the history is committed at the end of each load step, so the result belongs to the proportional
// load path lambda f_ext with the steps taken (the number of steps matters in slip).
//
// Held entries (supports, prescribed displacements) are eliminated exactly: their residual
// rows are the reactions, and the tangent is factored with their rows and columns replaced
// by the diagonal, so the Newton increment leaves them where the load path puts them.
//
// A stop request (core/stop.h: SIGINT, SIGTERM) ends the solve before its next load step
// with a failure naming the load factor reached.
//
// A load step that fails (a law fails, the tangent is not positive definite, non-finite
// values, or no convergence within max_iterations) is retried with half the increment, up
// to max_cutbacks times in a row; after a converged step the increment doubles again up to
// the initial one.
#pragma once

#include <span>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "joint/joint_operator.h"
#include "solvers/residual_model.h"

namespace jointdyn::joint {

struct StaticOptions {
  int load_steps = 1;                 // initial number of equal load increments, >= 1
  int max_cutbacks = 8;               // successive halvings of a failed increment, >= 0
  int max_iterations = 100;           // Newton iterations per load step, >= 1 (stiff
                                      // penalties move the contact boundary by a few
                                      // node rows per iteration: measured 32 on the
                                      // friction bar with 5e4 N/mm^3 from touching sheets)
  double residual_tolerance = 1e-10;  // ||r||_inf <= this * max(||lambda f_ext||_inf,
                                      // || |K| |q| ||_inf, ||f_j||_inf) [-], > 0
  double increment_tolerance = 1e-8;  // ... and ||dq||_inf <= this * ||q||_inf [-], > 0
  // Newton on the exact (unsymmetric, with friction) tangent factored by LU (solvers kAuto:
  // dense LU reduced, UMFPACK full) instead of the Cholesky factor of its symmetric part:
  // quadratic convergence in slip. The quasi-static modal cycles (analysis/backbone.h) need
  // it: there the symmetric part stalled at stick-slip switching (lap joint: 3.7e-5 scaled
  // residual after 100 iterations at 8 cutbacks; exact: converged, half the iterations).
  bool exact_tangent = false;
  Status Validate() const;  // names the option, value and rule
};

// The loading of one solve along the load factor lambda: 0 -> 1 (linear in lambda): the
// external force (1 - lambda) start_load + lambda end_load and the held entries of the
// state (1 - lambda) start(held) + lambda end_values. A sequence of solves, each starting
// where the last ended, follows a piecewise-linear load history (a preload, then a push).
struct StaticLoadPath {
  VecX start;             // the state at lambda = 0 (empty: zero)
  VecX start_load;        // [N] (empty: zero)
  VecX end_load;          // [N], one per state entry
  std::vector<int> held;  // entries of the state held at given values, ascending
  VecX end_values;        // their values at lambda = 1 (empty: zero) [m, rad]
};

struct StaticResult {
  Status status;             // failure: what, load step, load factor and iteration
  VecX q;                    // independent DOFs at the last converged load factor
  VecX reactions;            // at q, per held entry: r = (K q + sum f_j - f_ext)_held, the
                             // force the support applies [N, N m]
  double load_factor = 0.0;  // reached (1 on success)
  int load_steps = 0;        // converged load steps
  int cutbacks = 0;          // halved increments
  int iterations = 0;        // Newton updates (linear solves), all steps
  int symbolic_analyses = 0;
  int factorizations = 0;                // numeric factorizations
  int reused_factorizations = 0;         // updates with an unchanged tangent
  int line_search_evaluations = 0;       // residuals evaluated inside line searches (alpha < 1)
  std::vector<int> step_iterations;      // Newton updates of each converged step
  double residual_norm = 0.0;            // final scaled residual norm [-]
  std::vector<double> residual_history;  // scaled residual norms of the last step tried
  double seconds = 0.0;                  // wall time of the solve [s]
  double joint_seconds = 0.0;            // joint evaluation, forces and Jacobians [s]
  double factor_seconds = 0.0;           // symbolic and numeric factorization [s]
  double solve_seconds = 0.0;            // triangular solves [s]
};

// `stiffness` K (symmetric, both triangles), `load` f_ext (K.rows()), joints evaluated on
// the same state (size() == K.rows(), sparse R) with their committed history as the start
// (virgin for a fresh operator); the joints are committed at every converged load step.
// Starts from q = 0.
StaticResult SolveStatic(const solvers::SparseMatrix& stiffness, std::span<JointOperator> joints,
                         const VecX& load, const StaticOptions& options = {});
// The same along a load path with held entries.
StaticResult SolveStatic(const solvers::SparseMatrix& stiffness, std::span<JointOperator> joints,
                         const StaticLoadPath& path, const StaticOptions& options = {});

// The same Newton iteration (one implementation) for a reduced model: `stiffness` V^T K V
// (dense, symmetric), joints on the modal coordinates (dense R V, joint_operator.h) and
// `load` V^T f_ext; the tangent is factored by a dense Cholesky (Eigen LLT) of its
// symmetric part. symbolic_analyses stays 0; factor_nonzeros are not counted.
StaticResult SolveStatic(const MatX& stiffness, std::span<JointOperator> joints, const VecX& load,
                         const StaticOptions& options = {});
StaticResult SolveStatic(const MatX& stiffness, std::span<JointOperator> joints,
                         const StaticLoadPath& path, const StaticOptions& options = {});

}  // namespace jointdyn::joint
