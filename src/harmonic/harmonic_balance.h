// The harmonic-balance equations of M q'' + C q' + K q + f_nl(q, q') = f_ext(t) (seed 004,
// eq. 12, 15-24) for periodic motions of angular frequency omega with the harmonics of a
// HarmonicBasis, the nonlinear forces by AFT (nonlinear_force.h).
//
// Per harmonic k the linear part is the dynamic stiffness D_k = K - k^2 omega^2 M +
// i k omega C acting on the complex amplitudes Q_k = a_k - i b_k; in the real arrangement
// (eq. 22-24) a DOF pair (a, b) sees [[Re D, Im D], [-Im D, Re D]]. The unknowns are ordered
// harmonic-major as in eq. 22: the static terms of all DOFs, then for each harmonic the
// (cos, sin) coefficients DOF by DOF (CoefficientLayout).
//
// Condensation (eq. 15-18): the DOFs that no nonlinear element touches are eliminated per
// harmonic, D_bar = D_NN - D_NL D_LL^-1 D_LN, F_bar = F_N - D_NL D_LL^-1 F_L, so the
// unknowns are the nonlinear DOFs' coefficients only; the linear DOFs are recovered with
// Q_L = D_LL^-1 (F_L - D_LN Q_N). Without condensation the unknowns are all DOFs'.
//
// Sizes. M, C and K are sparse; the condensation factors the complex D_LL of each harmonic
// with a sparse LU (the pattern analysed once, the factors per omega, which changes at
// every corrector iteration) and solves for D_LL^-1 D_LN and D_LL^-1 F_L with multiple
// right-hand sides (also D_LL^-T D_NL^T when the matrices are not symmetric, for the omega
// derivative), so its cost grows about linearly with the linear DOFs of a banded
// structure. The condensed blocks, the Newton Jacobian and the uncondensed path are dense:
// meant for up to a few hundred nonlinear DOFs times coefficients (kMaxDenseUnknowns).
//
// The residual R = A(omega) q + f_nl(q) - b(omega, level) [N] (b linear in the level for
// the harmonics, constant for the static term) and its derivatives with
// respect to the unknowns (the AFT Jacobian of each element mapped from relative to
// absolute coordinates, eq. 26-27), to omega and to the excitation level.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "harmonic/fourier.h"
#include "harmonic/nonlinear_force.h"
#include "solvers/residual_model.h"

namespace jointdyn::harmonic {

using MatXc = Eigen::MatrixXcd;
using VecXc = Eigen::VectorXcd;

// Excitation term on one DOF: f = level (cos_amplitude cos(k omega t) + sin_amplitude
// sin(k omega t)), or for k = 0 the static force cos_amplitude, which the excitation level
// does not scale (a preload stays while the vibration level changes).
struct ExcitationTerm {
  int dof = 0;
  int harmonic = 1;            // k [-], in the basis
  double cos_amplitude = 0.0;  // [N]
  double sin_amplitude = 0.0;  // [N]
};

// One DOF of a linear combination, with its weight [-].
struct DofWeight {
  int dof = 0;
  double weight = 0.0;
};

// A nonlinear force on linear combinations of the DOFs: component i acts on
// r_i = sum_t weight_t q[dof_t] over terms[i], and its force f_i on each of those DOFs
// with the same weight (the virtual work f_i r_i). The relative displacement q_a - q_b of
// a lumped element is {{a, 1}, {b, -1}} (Between below); a contact pair of a joint has the
// three rows of its pair projection (the local relative displacement), over the
// interface DOFs of a full model or every coordinate of a reduced one.
struct NonlinearElement {
  std::unique_ptr<NonlinearForce> force;
  std::vector<std::vector<DofWeight>> terms;  // per component, distinct DOFs
};

// The element whose component i acts on q[dof_a[i]] - q[dof_b[i]] (-1: ground).
NonlinearElement Between(std::unique_ptr<NonlinearForce> force, const std::vector<int>& dof_a,
                         const std::vector<int>& dof_b);

struct HarmonicSystem {
  solvers::SparseMatrix mass;              // M, n x n [kg]
  solvers::SparseMatrix damping;           // C, n x n [N s/m]
  solvers::SparseMatrix stiffness;         // K, n x n [N/m]
  std::vector<ExcitationTerm> excitation;  // f_ext (harmonic terms at level 1)
  std::vector<NonlinearElement> elements;
  // The static displacement the structure rests at without excitation (n, e.g. a preloaded
  // state: the linearized solution expands about it; empty: zero) [m].
  VecX rest;
};

struct HarmonicOptions {
  HarmonicBasis basis;   // harmonics H and odd_only
  int samples = 1024;    // AFT samples per period N [-], >= 2 H + 1
  bool condense = true;  // Newton on the nonlinear DOFs only (eq. 15-18)
  Status Validate() const;
};

// The dense paths (the Newton Jacobian over the unknowns, the uncondensed equations, and
// FullJacobian for Hill's method, whose companion matrix is twice as large again) hold
// (dofs x coefficients)^2 doubles and take O(size^3) work: at 3000 unknowns a matrix is
// 72 MB and a dense LU about a second.
constexpr int kMaxDenseUnknowns = 3000;
// Fails, naming `purpose`, when dofs x basis.size() exceeds kMaxDenseUnknowns.
Status CheckDenseSize(int dofs, const HarmonicBasis& basis, const std::string& purpose);

// Index of coefficient c of DOF d among `dofs` DOFs in the harmonic-major arrangement.
struct CoefficientLayout {
  HarmonicBasis basis;
  int dofs = 0;
  int size() const { return dofs * basis.size(); }
  int Index(int dof, int c) const;
};

class HarmonicBalance {
 public:
  // Throws InputError (key, value, rule) for an inconsistent system: matrix shapes, DOF
  // indices, element components, harmonics outside the basis, more unknowns than
  // kMaxDenseUnknowns. options.Validate() must pass (checked).
  HarmonicBalance(HarmonicSystem system, const HarmonicOptions& options);
  ~HarmonicBalance();

  const HarmonicSystem& system() const { return system_; }
  const HarmonicBasis& basis() const { return options_.basis; }
  int num_dofs() const { return static_cast<int>(system_.mass.rows()); }
  int num_unknowns() const { return layout_.size(); }
  const CoefficientLayout& layout() const { return layout_; }
  // The DOFs of the unknowns, ascending (the nonlinear DOFs when condensed).
  const std::vector<int>& unknown_dofs() const { return unknown_dofs_; }

  // Residual at the unknowns q [m] (num_unknowns()), omega [rad/s] > 0 and level [-];
  // with non-null outputs also dR/dq [N/m], dR/domega [N s/rad] and dR/dlevel [N]. Fails
  // (Status) when an element fails or D_LL is singular (a resonance of the condensed part).
  Status Evaluate(const VecX& q, double omega, double level, VecX& residual, MatX* d_q,
                  VecX* d_omega, VecX* d_level);
  // All DOFs' coefficients (num_dofs() x nc, row d: [c0, a1, b1, ...] of DOF d) [m].
  Status Recover(const VecX& q, double omega, double level, MatX& coefficients);
  // The unknowns of `coefficients` (num_dofs() x nc).
  VecX Restrict(const MatX& coefficients) const;
  // One Newton step from rest: the solution with every element replaced by its tangent at
  // the rest state (system().rest as the static coefficients, zero harmonics; the linear
  // system when the elements are stuck or soft): the usual first guess.
  Status LinearizedSolution(double omega, double level, VecX& q);
  // The unknowns at rest: system().rest as the static coefficients, zero harmonics.
  VecX RestUnknowns() const;
  // Jacobian of the uncondensed residual over all DOFs (CoefficientLayout of num_dofs())
  // at `coefficients` (num_dofs() x nc), for the stability analysis. Fails without
  // computing when num_dofs() x nc exceeds kMaxDenseUnknowns.
  Status FullJacobian(const MatX& coefficients, double omega, MatX& jacobian);
  // The velocity-dependent elements' rate Jacobians (NonlinearForce::RateJacobian) mapped
  // to all DOFs like FullJacobian: d f_nl / d (coefficients of a velocity perturbation)
  // [N s/m], zero without such elements; Hill's method adds it to Delta_1.
  Status FullRateJacobian(const MatX& coefficients, double omega, MatX& rate_jacobian);

  // Largest number of periods any element marched in the last evaluation.
  int last_periods() const { return last_periods_; }

 private:
  // One harmonic of the linear part over a set of DOFs: complex A and b, db/domega, and
  // for the condensed recovery Q_L = level W - Y Q_N. dA/domega is applied to a vector
  // without forming it (that would be a dense product over the linear DOFs per harmonic):
  //   dA/domega Q = dD_NN Q - dD_NL Y Q - Z^T (dD_LN Q - dD_LL Y Q),
  // Z = D_LL^-T D_NL^T (empty: Z = Y, symmetric matrices), dD the omega derivatives.
  struct Block {
    int harmonic = 0;
    MatXc a;
    VecXc b, d_b;
    MatXc y;
    VecXc w;
    MatXc z, d_nn;
    Eigen::SparseMatrix<std::complex<double>> d_ll, d_ln, d_nl;
    VecXc DerivativeTimes(const VecXc& q) const;  // dA/domega Q [N s/rad]
  };
  class LinearPart;  // K, M, C split into the N and L DOFs, the sparse LU of D_LL
  void ValidateSystem() const;
  VecXc ExcitationOf(int harmonic) const;  // complex amplitudes over all DOFs, level 1
  Status UpdateBlocks(double omega);       // blocks_ for omega (cached)
  // The coefficients (num_dofs() x nc) as unknowns over all DOFs (CoefficientLayout).
  VecX FullUnknowns(const MatX& coefficients) const;
  // Adds the linear part of `blocks` over `layout` at q (real arrangement).
  static void AddLinear(const std::vector<Block>& blocks, const CoefficientLayout& layout,
                        const VecX& q, double level, VecX& residual, MatX* d_q, VecX* d_omega,
                        VecX* d_level);
  // Elements on the same DOFs (e.g. the pairs of a reduced joint: every coordinate), so
  // that their Jacobians map to the DOFs in one product per coefficient (below).
  struct ElementGroup {
    std::vector<int> dofs;      // distinct, ascending
    std::vector<int> elements;  // indices into system_.elements
    std::vector<int> offsets;   // first row of each element in `gather`
    MatX gather;                // sum of num_inputs x dofs.size(): r = gather q(dofs)
  };
  void GroupElements();
  // Adds the group's element matrices (element_matrices_[k]: (nc nin)^2 of its k-th element,
  // d f / d x in the NonlinearForce arrangement) mapped to the layout:
  // target += (G (x) I)^T blockdiag(matrices) (G (x) I), one GEMM per coefficient.
  void AddGroupMatrices(const ElementGroup& group, const CoefficientLayout& layout,
                        const std::vector<int>& index_of, MatX& target);
  // Adds the elements' forces over `layout`, `index_of[dof]` the layout DOF of a DOF.
  Status AddElements(const CoefficientLayout& layout, const std::vector<int>& index_of,
                     const VecX& q, double omega, VecX& residual, MatX* d_q, VecX* d_omega);

  HarmonicSystem system_;
  HarmonicOptions options_;
  std::unique_ptr<Aft> aft_;
  std::vector<ElementGroup> groups_;
  std::vector<int> unknown_dofs_;
  std::vector<int> linear_dofs_;    // the eliminated DOFs (condensed), ascending
  std::vector<int> unknown_index_;  // per DOF: its index among unknown_dofs_, or -1
  CoefficientLayout layout_;
  std::unique_ptr<LinearPart> linear_part_;
  std::vector<Block> blocks_;
  double blocks_omega_ = -1.0;
  bool static_block_ready_ = false;
  int last_periods_ = 0;
  // Element workspace.
  MatX x_, f_, element_d_omega_, relative_, forces_, product_, mapped_, sub_;
  std::vector<MatX> element_matrices_;
};

}  // namespace jointdyn::harmonic
