// The joint operator (seed 003 sections 3.1, 3.3.2, appendix D.2): the contact pairs of one
// joint with one normal law and one friction law, their history, and the evaluation of
// the joint's forces and tangents for a state x of the full or reduced model.
//
// Per pair i (the one loop over pairs: the third assembly level of ARCHITECTURE.md):
//   kinematics  z_i = R_i x                      (pair_projection.h, contact_kinematics.h)
//               g_i = g0_i + z_i(2),  s_i = z_i(0:1) - s*_i   (eq. 3.80; s*_i the tangential
//               offset at contact closure)
//   laws        p_i = p(g_i, g_dot_i) >= 0, tau_i = tau(s_i, p_i; history)
//   stress      t_i = [tau_1, tau_2, -p]_i [Pa]  and its tangent D_i = d t_i / d[s1, s2, g]_i
//               (kinematics, laws and stress: the pair kernel laws::ContactPair, which
//               harmonic balance marches through a period as well)
//   forces      f = sum_i R_i^T A_i t_i = R^T (A t)          [N]
//   Jacobian    df/dx = R^T blockdiag(A_i D_i) R
// f is the joint's internal force in the equation K x + f(x) = f_ext: a pressure pushes
// the slave away from the master (-p on the gap row), friction resists the slip. For a
// reduced model R = R_full V (dense): f = V^T R_full^T (A t) is the modal force Theta v of
// eq. 3.87 / D.31 with Theta = -(R V)^T A (seed sign: Q_nl = -f, v = [tau1, tau2, p]) and
// the Jacobian (R V)^T A D (R V) is Theta D Phi^MS; full and reduced run the same code.
//
// Open pairs (p = 0) carry no traction, their offset follows and their friction history is
// reset (eq. 3.80); a pair within touch_band above the onset gets the closed side's normal
// tangent (otherwise a body held only by contact has a singular tangent at the start):
// laws/contact_pair.h.
//
// History follows the TangentialLaw protocol: Evaluate() reads the committed history and
// writes the trial one; Commit() accepts it. Rolling back is not committing: the next
// Evaluate() starts again from the committed history.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "core/status.h"
#include "core/types.h"
#include "joint/pair_projection.h"
#include "laws/contact_pair.h"
#include "laws/normal_law.h"
#include "laws/tangential_law.h"

namespace jointdyn::joint {

struct JointLaws {
  std::shared_ptr<const laws::NormalLaw> normal;          // pressure law p(g) [Pa], required
  std::shared_ptr<const laws::TangentialLaw> tangential;  // friction law [Pa]; null: frictionless
};

struct JointOptions {
  // [m] >= 0: pairs with g in [onset, onset + touch_band] take the closed-side normal
  // tangent (see above). The default covers the rounding of the pairing's gaps on touching
  // surfaces (|g0| ~ 1e-18 m on metre-sized meshes) and is far below any mechanical gap.
  double touch_band = 1e-12;
  void Validate() const;  // throws InputError ("joint.touch_band = -1: must be >= 0")
};

enum class Derivative {
  kDisplacement,  // df/dx
  kVelocity,      // df/dx_dot through the gap rate (rate-dependent normal laws)
};

// One pair's state after Evaluate() (the contact field of seed 003 section 3.3.3).
struct PairOutput {
  double gap = 0.0;               // g [m], > 0 open
  double pressure = 0.0;          // p [Pa], >= 0
  double s1 = 0.0, s2 = 0.0;      // tangential displacement since contact closure [m]
  double tau1 = 0.0, tau2 = 0.0;  // friction stress components along t1, t2 [Pa]
  laws::ContactState state = laws::ContactState::kOpen;  // frictionless closed pairs: kSlip
  int openings = 0;                // JointOperator::openings() of this pair so far
  double opening_energy = 0.0;     // JointOperator::opening_energy() of this pair so far [J]
  double friction_stress() const;  // |tau| [Pa]
};

class JointOperator {
 public:
  // `relative`: R, 3 rows per pair, on the state the joint is evaluated for; initial_gap
  // g0 [m] and area A [m^2] one per pair; both laws per area (pressure laws). Throws
  // InputError for a missing normal law, a negative area weight (a penalty with negative
  // stiffness) and options out of range.
  JointOperator(PairProjection relative, VecX initial_gap, VecX area, JointLaws laws,
                const JointOptions& options = {});

  int size() const { return relative_.cols(); }  // state size
  int num_pairs() const { return relative_.num_pairs(); }
  bool frictionless() const { return pair_.point() == nullptr; }
  // True when every pair tangent D_i is symmetric for every state (frictionless joints).
  bool symmetric_tangent() const { return frictionless(); }
  const PairProjection& relative() const { return relative_; }
  const VecX& initial_gap() const { return initial_gap_; }
  const VecX& area() const { return area_; }
  const JointLaws& laws() const { return laws_; }
  const JointOptions& options() const { return options_; }
  // The pair kernel every pair runs (laws/contact_pair.h) and a pair's committed history
  // (pair().state_size() doubles: the friction state, then the offset s*).
  const laws::ContactPair& pair() const { return pair_; }
  std::span<const double> CommittedHistory(int pair) const;

  // Evaluates every pair at state x (velocity: for the gap rates, null = 0) at the end of
  // an increment of dt [s] from the committed history. Fails (Status naming the pair) when
  // a law fails; then the trial results are incomplete and must not be committed.
  Status Evaluate(const VecX& x, const VecX* velocity = nullptr, double dt = 0.0);
  // After Evaluate(): f = R^T (A t) [N] (resized to size()).
  void Forces(VecX& f);
  // After Evaluate(): the Jacobian R^T blockdiag(A_i D_i) R, sparse for a sparse R, dense
  // for a dense one (no allocation per call for the dense form once j has its size).
  void Jacobian(solvers::SparseMatrix& j, Derivative derivative = Derivative::kDisplacement);
  void Jacobian(MatX& j, Derivative derivative = Derivative::kDisplacement);
  // Makes the trial history (friction states and tangential offsets) the committed one,
  // and counts the pairs that opened since the last Commit().
  void Commit();
  // Pairs that opened (closed at one commit, open at the next) since ResetHistory(), and
  // the tangential law energy they held at their last closed commit [J], which the opening
  // drops (the traction vanishes with the pressure, the slip does not go back): e.g. the
  // stick spring and the parallel spring c2 |s|^2 / 2 of a three-parameter Coulomb law,
  // whose offset restarts at the next closure (eq. 3.80). Part of the law dissipation; when
  // it is most of it, the damping comes from pairs opening at the contact boundary rather
  // than from sliding, and depends on how finely the mesh resolves that boundary. (The
  // penalty energy is not counted: the pressure returns it as the gap closes to zero.)
  // Per pair in Output() (the contact fields show where it happens).
  int openings() const;
  double opening_energy() const;
  // Back to the virgin state: no slip, zero offsets, no openings counted.
  void ResetHistory();
  // Every pair sticking at state x: the virgin friction state with the offset at x's
  // tangential displacement (zero slip), so that Evaluate(x) gives the sticking tangent
  // (the joint's linearization for small motions about x with its friction stuck).
  void StickAt(const VecX& x);
  // The committed history of a periodic motion through the states x_j (columns of
  // `samples`, size() x n, one period): each pair's laws::ContactPair::PeriodicStart from
  // its committed history, as harmonic balance's period march starts (harmonic::PairKernel).
  void StartPeriod(const MatX& samples);
  // Takes the committed history of `other` (friction states, tangential offsets, stored
  // energies, which pairs are closed), an operator on the same pairs and friction law, e.g.
  // the full joint of a reduced one: the copy goes on from where `other` is (a transient
  // from a preloaded state). Openings are counted from zero.
  void CopyHistory(const JointOperator& other);
  // This joint on the coordinates of a basis V (x = V q: relative R V, dense), with its
  // committed history: the joint of a reduced model.
  JointOperator Reduced(const MatX& basis) const;
  // ... of a sparse basis T (x = T y: relative R T, sparse; from a sparse R only), e.g. a
  // selection of the DOFs.
  JointOperator Reduced(const solvers::SparseMatrix& basis) const;

  // Results of the last Evaluate().
  PairOutput Output(int pair) const;
  std::span<const Mat3> tangents() const { return tangents_; }  // D_i [Pa/m]
  const VecX& stresses() const { return stresses_; }            // t_i = [tau1, tau2, -p] [Pa]
  const VecX& kinematics() const { return kinematics_; }        // [s1, s2, g] per pair [m]
  int CountInContact() const;  // closed pairs: p > 0, or every pair of a bonded law
  // sum_i A_i (normal + tangential recoverable energy of the laws) [J]: the penalty and
  // stick-spring energy of the trial state.
  double StoredEnergy() const { return stored_energy_; }
  // True when some pair tangent d t_i / d g_dot is not zero (rate-dependent normal law
  // in contact): only then is Jacobian(..., Derivative::kVelocity) not zero.
  bool rate_dependent() const { return rate_dependent_; }
  double GapNorm() const;      // ||g||_2 over all pairs [m] (seed 003 section 4.1.1)
  double NormalForce() const;  // sum_i A_i p_i [N]

 private:
  PairProjection relative_;
  PairProjection scaled_;  // workspace blockdiag(A_i B_i) R
  VecX initial_gap_, area_;
  JointLaws laws_;
  JointOptions options_;
  laws::ContactPair pair_;
  // Per pair, contiguous.
  std::vector<double> committed_, trial_;  // pair history: friction state, offset s*_i [m]
  VecX committed_energy_, trial_energy_;   // A_i times the tangential stored energy [J]
  std::vector<bool> committed_closed_;
  std::vector<int> openings_;  // per pair
  VecX opening_energy_;        // per pair [J]
  VecX z_, z_rate_, kinematics_, stresses_, weighted_;
  std::vector<Mat3> tangents_, rate_tangents_;
  std::vector<laws::ContactState> states_;
  double stored_energy_ = 0.0;
  bool rate_dependent_ = false;
};

}  // namespace jointdyn::joint
