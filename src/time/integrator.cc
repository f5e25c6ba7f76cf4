#include "time/integrator.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/stop.h"
#include "solvers/linear_solver.h"
#include "solvers/option_check.h"

namespace jointdyn::time {
namespace {

using solvers::CheckOption;

double MaxAbs(const VecX& v) { return v.size() == 0 ? 0.0 : v.lpNorm<Eigen::Infinity>(); }

// A scale kept > 0 (a system at rest without forces has zero force magnitudes; its
// residuals are then exactly zero).
double Positive(double scale) { return std::max(scale, std::numeric_limits<double>::min()); }

// Said with a failed step whose residual was measured against no force at all (a run from
// rest whose loads and motions start from zero).
std::string ForceScaleHint(double force_scale) {
  return force_scale > std::numeric_limits<double>::min()
             ? ""
             : " (no force acted yet, so the residual was measured against a force scale of "
               "0 N: give integrator.force_scale, e.g. the load level [N])";
}

// Weights of the new and the old state in the averaged equation of motion and the
// Newmark parameters (see integrator.h).
struct Weights {
  double mass_new = 1.0, mass_old = 0.0;          // 1 - alpha_m, alpha_m
  double force_new = 1.0, force_old = 0.0;        // 1 - alpha_f, alpha_f (C v, f_ext, C_q' lambda)
  double internal_new = 1.0, internal_old = 0.0;  // f_int: as forces; energy-conserving 1, 0
  double beta = 0.25, gamma = 0.5;
};

Weights SchemeWeights(const IntegratorOptions& options) {
  double alpha_m = 0.0, alpha_f = 0.0;
  double beta = options.beta, gamma = options.gamma;
  switch (options.scheme) {
    case Scheme::kNewmark:
      if (options.energy_conserving) alpha_m = alpha_f = 0.5;
      break;
    case Scheme::kHht:  // seed 003 eq. 2.57-2.58, Hilber's sign
      alpha_f = -options.alpha;
      gamma = 0.5 - options.alpha;
      beta = 0.25 * (1.0 - options.alpha) * (1.0 - options.alpha);
      break;
    case Scheme::kGeneralizedAlpha: {  // Chung and Hulbert (1993)
      const double rho = options.rho_inf;
      alpha_m = (2.0 * rho - 1.0) / (rho + 1.0);
      alpha_f = rho / (rho + 1.0);
      gamma = 0.5 - alpha_m + alpha_f;
      beta = 0.25 * (1.0 - alpha_m + alpha_f) * (1.0 - alpha_m + alpha_f);
      break;
    }
  }
  Weights w;
  w.mass_new = 1.0 - alpha_m;
  w.mass_old = alpha_m;
  w.force_new = 1.0 - alpha_f;
  w.force_old = alpha_f;
  w.internal_new = options.energy_conserving ? 1.0 : 1.0 - alpha_f;
  w.internal_old = options.energy_conserving ? 0.0 : alpha_f;
  w.beta = beta;
  w.gamma = gamma;
  return w;
}

// An accepted state and the forces at it.
struct State {
  double t = 0.0;
  VecX q, v, a, lambda;
  VecX internal;    // f_int as applied by the scheme (end-point force or discrete gradient)
  VecX viscous;     // C v
  VecX external;    // f_ext(t)
  VecX constraint;  // C_q' lambda
  // M a; with a varying mass M(q) a_m - Q_v(q, v) at the scheme's averaged acceleration a_m
  // (StepModel).
  VecX inertia;
  VecX velocity_inertia;  // -Q_v(q, v) (zero with a constant mass)
  VecX momentum;          // M(q) v
  // Per constraint row the largest |C_q(i, j)| / u_j: its change per metre of any
  // coordinate (for the scales of its residual and multiplier; 1 for an empty row).
  VecX cq_rows;
};

// The system's coordinate units u (SecondOrderSystem::CoordinateUnits()): positions u_i q_i
// in metres, forces f_i / u_i in newtons. Empty: physical coordinates (u = 1).
struct Units {
  VecX u;
  double Position(const VecX& q) const {
    return u.size() == 0 ? MaxAbs(q) : MaxAbs(VecX(q.cwiseProduct(u)));
  }
  double Force(const VecX& f) const {
    return u.size() == 0 ? MaxAbs(f) : MaxAbs(VecX(f.cwiseQuotient(u)));
  }
  VecX Scaled(int n, double physical, bool force) const {  // per coordinate
    if (u.size() == 0) return VecX::Constant(n, physical);
    return force ? VecX(physical * u) : VecX(physical * u.cwiseInverse());
  }
};

// The inertia force at (q, v, a): M a with a constant mass, else the system's M(q) a -
// Q_v(q, v) with M(q) and the tangents when asked for.
Status InertiaForce(SecondOrderSystem& system, const VecX& q, const VecX& v, const VecX& a, VecX& f,
                    Matrix* mass, Matrix* d_dq, Matrix* d_dv) {
  if (!system.mass_varies()) {
    f = system.mass() * a;
    if (mass) *mass = system.mass();
    return Status::Ok();
  }
  f.setZero(system.size());
  for (Matrix* m : {mass, d_dq, d_dv})
    if (m) m->SetZeroLike(system.mass());
  return system.Inertia(q, v, a, f, mass, d_dq, d_dv);
}

// M(q) v (the inertia force at velocity 0 and acceleration v).
Status Momentum(SecondOrderSystem& system, const VecX& q, const VecX& v, VecX& p) {
  return InertiaForce(system, q, VecX::Zero(v.size()), v, p, nullptr, nullptr, nullptr);
}

// State::cq_rows of C_q (m x n) with the coordinate units.
VecX ConstraintRowScales(const SparseMatrix& cq, const Units& units) {
  VecX rows = VecX::Zero(cq.rows());
  for (int k = 0; k < cq.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(cq, k); it; ++it) {
      const double per_metre =
          std::abs(it.value()) / (units.u.size() == 0 ? 1.0 : units.u(it.col()));
      rows(it.row()) = std::max(rows(it.row()), per_metre);
    }
  for (double& r : rows)
    if (r == 0.0) r = 1.0;
  return rows;
}

// Running magnitudes of the accepted states, for the scales (see integrator.h).
struct Magnitudes {
  double position = 0.0;     // largest |q_i| [m]
  double momentum = 0.0;     // max|M_ij| times the largest |v_i| (generalized: largest |M v|)
  double force = 0.0;        // largest |f_ext|, |C v + f_int| or |M a| entry [N]
  double mass_entry = -1.0;  // max|M_ij| of a constant mass, once (-1: not yet)

  void Add(const State& s, const Matrix& mass, bool mass_varies, const Units& units) {
    position = std::max(position, units.Position(s.q));
    if (units.u.size() == 0 && !mass_varies) {
      if (mass_entry < 0.0) mass_entry = mass.MaxAbsEntry();
      momentum = std::max(momentum, mass_entry * MaxAbs(s.v));
    } else {
      momentum = std::max(momentum, units.Force(s.momentum));
    }
    force = std::max({force, units.Force(s.external), units.Force(VecX(s.viscous + s.internal)),
                      units.Force(s.inertia)});
  }
};

// [[upper_left, w C_q'], [C_q, 0]]: the Jacobian of a step (unknowns [q+; beta h^2
// lambda+]) and the matrix of the initial accelerations and multipliers, stored as
// upper_left is.
Matrix Bordered(const Matrix& upper_left, const SparseMatrix& cq, double weight) {
  const int n = static_cast<int>(upper_left.rows());
  const int m = static_cast<int>(cq.rows());
  if (upper_left.is_dense()) {
    MatX bordered = MatX::Zero(n + m, n + m);
    bordered.topLeftCorner(n, n) = upper_left.dense();
    bordered.bottomLeftCorner(m, n) = cq;
    bordered.topRightCorner(n, m) = weight * cq.transpose();
    return bordered;
  }
  // Column by column (linear in the entries, no sort): upper_left's and C_q's columns, then
  // the columns of w C_q'.
  const SparseMatrix& a = upper_left.sparse();
  const SparseMatrix cq_t = weight * SparseMatrix(cq.transpose());
  SparseMatrix bordered(n + m, n + m);
  bordered.reserve(a.nonZeros() + 2 * cq.nonZeros());
  for (int j = 0; j < n; ++j) {
    bordered.startVec(j);
    for (SparseMatrix::InnerIterator it(a, j); it; ++it)
      bordered.insertBack(it.row(), j) = it.value();
    for (SparseMatrix::InnerIterator it(cq, j); it; ++it)
      bordered.insertBack(n + it.row(), j) = it.value();
  }
  for (int i = 0; i < m; ++i) {
    bordered.startVec(n + i);
    for (SparseMatrix::InnerIterator it(cq_t, i); it; ++it)
      bordered.insertBack(it.row(), n + i) = it.value();
  }
  bordered.finalize();
  return bordered;
}

// The nonlinear equations of one step. Unknowns x = [q+; beta h^2 lambda+]: positions
// rather than accelerations, because q+ = q + h v + h^2 (...) + beta h^2 a+ loses the
// digits of q+ when h omega >> 1 (stiff modes), which would keep the increment test on
// positions from converging. The equation of motion is multiplied by beta h^2, so the
// Jacobian is that of the acceleration form (seed 003 eq. 2.60-2.61):
//   [[(1 - a_m) M + (1 - a_f) (gamma h (C + D) + beta h^2 (K + (C_q' lambda)_q)),
//     (1 - a_f) C_q'], [C_q, 0]].
// `m` without its explicitly stored zeros (a dense matrix as it is).
Matrix Compact(const Matrix& m) {
  if (m.is_dense()) return m;
  return Matrix(SparseMatrix(m.sparse().pruned(0.0, 0.0)));
}

class StepModel final : public solvers::ResidualModel {
 public:
  StepModel(SecondOrderSystem& system, const Weights& weights, bool discrete_gradient,
            const Units& units)
      : system_(system),
        w_(weights),
        discrete_gradient_(discrete_gradient),
        units_(units),
        n_(system.size()),
        m_(system.constraint_count()),
        mass_product_(Compact(system.mass())),
        damping_product_(Compact(system.damping())) {}

  int size() const override { return n_ + m_; }

  // Prepares the step from `start` to t_next with the scales of integrator.h.
  void Begin(const State& start, double t_next, const Magnitudes& magnitudes, double position_floor,
             double force_floor) {
    start_ = &start;
    const double h = t_next - start.t;
    h_ = h;
    t_ = t_next;
    beta_h2_ = w_.beta * h * h;
    gamma_h_ = w_.gamma * h;
    q_base_ = start.q + h * start.v + (0.5 - w_.beta) * h * h * start.a;
    v_base_ = start.v + (1.0 - w_.gamma) * h * start.a;
    external_.setZero(n_);
    system_.ExternalForce(t_, external_);
    fixed_ = w_.force_old * (start.viscous + start.constraint - start.external) +
             w_.internal_old * start.internal - w_.force_new * external_;
    if (!system_.mass_varies()) fixed_ += w_.mass_old * start.inertia;
    start_mass_ready_ = false;
    force_scale_ = Positive(std::max(
        {force_floor, magnitudes.force, magnitudes.momentum / h, units_.Force(external_)}));
    position_scale_ = std::max(position_floor, magnitudes.position);
    cq_rows_ = &start.cq_rows;
  }

  double position_scale() const { return position_scale_; }
  double force_scale() const { return force_scale_; }

  // The starting point of Newton: the end of the step with a+ = a, lambda+ = lambda.
  VecX Predictor() const {
    VecX x(n_ + m_);
    x << q_base_ + beta_h2_ * start_->a, beta_h2_ * start_->lambda;
    return x;
  }

  Status Evaluate(const VecX& x, VecX& residual, Matrix* jacobian) override {
    q_ = x.head(n_);
    a_ = (q_ - q_base_) / beta_h2_;
    v_ = v_base_ + gamma_h_ * a_;
    internal_.setZero(n_);
    if (jacobian) {  // zero, stored as M is (SecondOrderSystem::InternalForce)
      stiffness_.SetZeroLike(system_.mass());
      damping_tangent_.SetZeroLike(system_.mass());
    }
    if (Status status = system_.InternalForce(Point(), internal_, jacobian ? &stiffness_ : nullptr,
                                              jacobian ? &damping_tangent_ : nullptr);
        !status) {
      return status;
    }
    JD_CHECK(internal_.size() == n_, "SecondOrderSystem::InternalForce: f must have size()");
    viscous_ = damping_product_ * v_;
    if (Status status = EvaluateConfigurationLoad(jacobian != nullptr); !status) return status;
    if (Status status = EvaluateInertia(jacobian != nullptr); !status) return status;
    residual.resize(n_ + m_);
    residual.head(n_) = fixed_ + inertia_term_ + w_.force_new * viscous_ +
                        w_.internal_new * internal_ - w_.force_new * configuration_load_;
    if (m_ > 0) {
      lambda_ = x.tail(m_) / beta_h2_;
      if (Status status = EvaluateConstraints(); !status) return status;
      residual.head(n_) += w_.force_new * constraint_;
      residual.tail(m_) = c_;
    }
    residual.head(n_) *= beta_h2_;
    if (jacobian) return Jacobian(*jacobian);
    return Status::Ok();
  }

  VecX ResidualScale() const override {
    VecX scale(n_ + m_);
    scale << units_.Scaled(n_, Positive(beta_h2_ * force_scale_), true),
        (position_scale_ * *cq_rows_).cwiseMax(std::numeric_limits<double>::min());
    return scale;
  }
  VecX UnknownScale() const override {
    VecX scale(n_ + m_);
    scale << units_.Scaled(n_, position_scale_, false),
        (beta_h2_ * force_scale_ * cq_rows_->cwiseInverse())
            .cwiseMax(std::numeric_limits<double>::min());
    return scale;
  }

  // The point of the last evaluation (after Newton: the converged end of the step).
  StepPoint Point() const { return {t_, h_, &q_, &v_, &start_->q, discrete_gradient_}; }

  // The end state of the step from the last evaluation (after Newton: at the solution).
  Status EndState(State& end) const {
    end.t = t_;
    end.q = q_;
    end.v = v_;
    end.a = a_;
    end.lambda = m_ > 0 ? lambda_ : VecX();
    end.internal = internal_;
    end.viscous = viscous_;
    end.external = external_ + configuration_load_;
    end.constraint = m_ > 0 ? constraint_ : VecX::Zero(n_);
    end.cq_rows = ConstraintRowScales(cq_, units_);
    end.inertia = inertia_;
    end.velocity_inertia.setZero(n_);
    if (system_.mass_varies())
      if (Status status = InertiaForce(system_, q_, v_, VecX::Zero(n_), end.velocity_inertia,
                                       nullptr, nullptr, nullptr);
          !status) {
        return status;
      }
    return Momentum(system_, q_, v_, end.momentum);
  }

 private:
  // The inertia term of the averaged equation of motion, inertia_term_. Constant mass:
  // (1 - a_m) M a+ + a_m M a (the a_m part in fixed_). Varying mass, with the averaged
  // acceleration a_m = (1 - a_m) a+ + a_m a: the mass taken at the configuration the forces
  // are averaged at, and the quadratic velocity vector averaged as the forces are,
  //   (1 - a_f) [M(q+) a_m - Q_v(q+, v+)] + a_f [M(q) a_m - Q_v(q, v)].
  // Weighting M(q+) a+ alone as the mass would evaluate the inertia of a rotating body at
  // another time than its forces and lose the schemes' second order (HHT and
  // generalized-alpha alike); with a constant mass both forms agree.
  Status EvaluateInertia(bool tangents) {
    if (!system_.mass_varies()) {
      inertia_ = mass_product_ * a_;
      inertia_term_ = w_.mass_new * inertia_;
      return Status::Ok();
    }
    const VecX a_m = w_.mass_new * a_ + w_.mass_old * start_->a;
    if (Status status =
            InertiaForce(system_, q_, v_, a_m, inertia_, tangents ? &mass_at_ : nullptr,
                         tangents ? &inertia_q_ : nullptr, tangents ? &inertia_v_ : nullptr);
        !status) {
      return status;
    }
    inertia_term_ = w_.force_new * inertia_;
    if (w_.force_old == 0.0) return Status::Ok();
    if (!start_mass_ready_) {
      VecX unused;
      if (Status status = InertiaForce(system_, start_->q, VecX::Zero(n_), VecX::Zero(n_), unused,
                                       &start_mass_, nullptr, nullptr);
          !status) {
        return status;
      }
      start_mass_ready_ = true;
    }
    inertia_term_ += w_.force_old * (start_mass_ * a_m + start_->velocity_inertia);
    return Status::Ok();
  }

  // SecondOrderSystem::ConfigurationLoad() at the evaluated point (zero without).
  Status EvaluateConfigurationLoad(bool tangent) {
    configuration_load_.setZero(n_);
    if (!system_.has_configuration_loads()) return Status::Ok();
    if (tangent) load_tangent_.SetZeroLike(system_.mass());
    return system_.ConfigurationLoad(t_, q_, configuration_load_,
                                     tangent ? &load_tangent_ : nullptr);
  }

  Status EvaluateConstraints() {
    c_.setZero(m_);
    if (Status status = system_.Constraints(t_, q_, c_, &cq_); !status) return status;
    JD_CHECK(c_.size() == m_ && cq_.rows() == m_ && cq_.cols() == n_,
             "SecondOrderSystem::Constraints: c and C_q must have constraint_count() rows");
    constraint_ = cq_.transpose() * lambda_;
    return Status::Ok();
  }

  Status Jacobian(Matrix& jacobian) {
    JD_CHECK(stiffness_.rows() == n_ && stiffness_.cols() == n_ && damping_tangent_.rows() == n_ &&
                 damping_tangent_.cols() == n_,
             "SecondOrderSystem::InternalForce: K and D must be size() x size()");
    Matrix& upper_left = m_ == 0 ? jacobian : upper_left_;
    upper_left.SetZeroLike(system_.mass());
    if (system_.mass_varies()) {  // EvaluateInertia's term by a+
      upper_left.AddScaled(w_.force_new * w_.mass_new, mass_at_);
      upper_left.AddScaled(w_.force_new * beta_h2_, inertia_q_);
      upper_left.AddScaled(w_.force_new * gamma_h_, inertia_v_);
      if (w_.force_old != 0.0) upper_left.AddScaled(w_.force_old * w_.mass_new, start_mass_);
    } else {
      upper_left.AddScaled(w_.mass_new, system_.mass());
    }
    upper_left.AddScaled(w_.force_new * gamma_h_, system_.damping());
    upper_left.AddScaled(w_.internal_new * gamma_h_, damping_tangent_);
    upper_left.AddScaled(w_.internal_new * beta_h2_, stiffness_);
    if (system_.has_configuration_loads())
      upper_left.AddScaled(-w_.force_new * beta_h2_, load_tangent_);
    if (m_ == 0) return Status::Ok();
    constraint_tangent_.resize(n_, n_);
    constraint_tangent_.setZero();
    if (Status status = system_.ConstraintForceTangent(t_, q_, lambda_, constraint_tangent_);
        !status) {
      return status;
    }
    upper_left.AddScaled(w_.force_new * beta_h2_, constraint_tangent_);
    jacobian = Bordered(upper_left, cq_, w_.force_new);
    return Status::Ok();
  }

  SecondOrderSystem& system_;
  const Weights w_;
  const bool discrete_gradient_;
  const Units& units_;
  const int n_, m_;
  // M and C without the explicit zeros of their pattern (a cable's contact couplings), for
  // the products of every evaluation.
  const Matrix mass_product_, damping_product_;

  const State* start_ = nullptr;
  double h_ = 0.0, t_ = 0.0, beta_h2_ = 0.0, gamma_h_ = 0.0;
  double force_scale_ = 1.0, position_scale_ = 1.0;
  const VecX* cq_rows_ = nullptr;  // State::cq_rows of the step's start
  VecX q_base_, v_base_, external_, fixed_;

  // The last evaluation.
  VecX q_, v_, a_, internal_, viscous_, lambda_, c_, constraint_, configuration_load_, inertia_;
  VecX inertia_term_;                       // EvaluateInertia()
  Matrix mass_at_, inertia_q_, inertia_v_;  // M(q) and the inertia tangents (varying mass)
  Matrix start_mass_;                       // M at the step's start (varying mass)
  bool start_mass_ready_ = false;
  Matrix stiffness_, damping_tangent_, upper_left_;  // upper_left_: with constraints
  Matrix load_tangent_;                              // d ConfigurationLoad / dq
  SparseMatrix cq_, constraint_tangent_;
};

// Evaluates the initial forces, solves for consistent accelerations and multipliers, and
// commits the initial history.
Status InitialState(SecondOrderSystem& system, const IntegratorOptions& options, State& s) {
  const int n = system.size();
  const int m = system.constraint_count();
  s.internal.setZero(n);
  const StepPoint point{s.t, options.dt, &s.q, &s.v, &s.q, false};
  if (Status status = system.InternalForce(point, s.internal, nullptr, nullptr); !status) {
    return status;
  }
  s.viscous = system.damping() * s.v;
  s.external.setZero(n);
  system.ExternalForce(s.t, s.external);
  if (system.has_configuration_loads()) {
    VecX load = VecX::Zero(n);
    if (Status status = system.ConfigurationLoad(s.t, s.q, load, nullptr); !status) return status;
    s.external += load;
  }
  // f_in(q0, v0, 0) = -Q_v (zero with a constant mass) and M(q0).
  VecX& velocity_inertia = s.velocity_inertia;
  Matrix matrix;
  if (Status status = InertiaForce(system, s.q, s.v, VecX::Zero(n), velocity_inertia, &matrix,
                                   nullptr, nullptr);
      !status) {
    return status;
  }
  VecX rhs(n + m);
  rhs.head(n) = s.external - s.viscous - s.internal - velocity_inertia;
  SparseMatrix cq;
  if (m > 0) {
    VecX c = VecX::Zero(m);
    if (Status status = system.Constraints(s.t, s.q, c, &cq); !status) return status;
    VecX q_c = VecX::Zero(m);
    if (Status status = system.ConstraintAccelerationTerm(s.t, s.q, s.v, q_c); !status) {
      return status;
    }
    rhs.tail(m) = q_c;
    matrix = Bordered(matrix, cq, 1.0);
  }
  auto solver = solvers::MakeLinearSolver(options.newton.linear_solver, n + m);
  VecX solution;
  if (Status status = solver->Factor(matrix); !status) return status;
  if (Status status = solver->Solve(rhs, solution); !status) return status;
  s.a = solution.head(n);
  s.lambda = solution.tail(m);
  if (Status status = InertiaForce(system, s.q, s.v, s.a, s.inertia, nullptr, nullptr, nullptr);
      !status) {
    return status;
  }
  if (Status status = Momentum(system, s.q, s.v, s.momentum); !status) return status;
  s.constraint = m > 0 ? VecX(cq.transpose() * s.lambda) : VecX::Zero(n);
  s.cq_rows = ConstraintRowScales(cq, Units{system.CoordinateUnits()});
  return Status::Ok();
}

// Adds the step old -> now to the energy balance (see EnergyBalance).
void AddStepEnergy(const State& old, const State& now, double stored, bool energy_conserving,
                   double& internal_work, EnergyBalance& e) {
  const VecX dq = now.q - old.q;
  e.external_work += 0.5 * dq.dot(old.external + now.external);
  e.viscous_dissipation += 0.5 * dq.dot(old.viscous + now.viscous);
  e.constraint_work -= 0.5 * dq.dot(old.constraint + now.constraint);
  internal_work +=
      energy_conserving ? dq.dot(now.internal) : 0.5 * dq.dot(old.internal + now.internal);
  e.kinetic = 0.5 * now.v.dot(now.momentum);
  e.stored = stored;
  e.law_dissipation = internal_work - (e.stored - e.initial_stored);
  e.numerical_dissipation = e.external_work + e.constraint_work - (e.kinetic - e.initial_kinetic) -
                            e.viscous_dissipation - internal_work;
}

// Newton on the step, then post-Newton passes: while the system reports a switch above
// the tolerance, the step is solved again (at most post_newton_max times). Adds the
// counters to `result`.
Status SolveStep(StepModel& model, solvers::NewtonSolver& newton, SecondOrderSystem& system,
                 const IntegratorOptions& options, VecX& x, TransientResult& result) {
  for (int pass = 0;; ++pass) {
    const solvers::NewtonResult solved = newton.Solve(model, x);
    result.newton_iterations += solved.iterations;
    result.residual_evaluations += solved.residual_evaluations;
    result.jacobian_evaluations += solved.jacobian_evaluations;
    result.factorizations += solved.factorizations;
    if (!solved.status || options.post_newton_max == 0) return solved.status;
    const double switching_error = system.PostNewtonUpdate(model.Point());
    if (switching_error <= options.post_newton_tolerance) return Status::Ok();
    if (pass == options.post_newton_max) {
      return Status::Failure("post-Newton switching error " + FormatValue(switching_error) +
                             " N above the tolerance " +
                             FormatValue(options.post_newton_tolerance) + " N after " +
                             std::to_string(pass) + " re-solves");
    }
    ++result.post_newton_passes;
    newton.InvalidateJacobian();  // the switch changed the tangent
  }
}

}  // namespace

Status IntegratorOptions::Validate() const {
  const bool average_acceleration = scheme == Scheme::kNewmark && beta == 0.25 && gamma == 0.5;
  for (const Status& status : {
           CheckOption(beta > 0.0 && beta <= 0.5, "integrator.beta", beta, "must be in (0, 0.5]"),
           CheckOption(gamma >= 0.5 && gamma <= 1.0, "integrator.gamma", gamma,
                       "must be in [0.5, 1]"),
           CheckOption(alpha >= -1.0 / 3.0 && alpha <= 0.0, "integrator.alpha", alpha,
                       "must be in [-1/3, 0]"),
           CheckOption(rho_inf >= 0.0 && rho_inf <= 1.0, "integrator.rho_inf", rho_inf,
                       "must be in [0, 1]"),
           CheckOption(!energy_conserving || average_acceleration, "integrator.energy_conserving",
                       "true", "needs scheme newmark with beta = 0.25 and gamma = 0.5"),
           CheckOption(std::isfinite(t_start), "integrator.t_start", t_start, "must be finite"),
           CheckOption(t_end > t_start && std::isfinite(t_end), "integrator.t_end", t_end,
                       "must be > t_start = " + FormatValue(t_start)),
           CheckOption(dt > 0.0 && std::isfinite(dt), "integrator.dt", dt, "must be > 0"),
           CheckOption(dt_min > 0.0 && dt_min <= dt, "integrator.dt_min", dt_min,
                       "must be in (0, dt = " + FormatValue(dt) + "]"),
           CheckOption(dt_max >= dt && std::isfinite(dt_max), "integrator.dt_max", dt_max,
                       "must be >= dt = " + FormatValue(dt)),
           CheckOption(error_tolerance > 0.0 && std::isfinite(error_tolerance),
                       "integrator.error_tolerance", error_tolerance, "must be > 0"),
           CheckOption(!adaptive || scheme != Scheme::kNewmark || beta != 1.0 / 6.0,
                       "integrator.beta", beta,
                       "adaptive steps need beta != 1/6 (the error estimate is proportional "
                       "to beta - 1/6)"),
           CheckOption(position_scale > 0.0 && std::isfinite(position_scale),
                       "integrator.position_scale", position_scale, "must be > 0"),
           CheckOption(force_scale >= 0.0 && std::isfinite(force_scale), "integrator.force_scale",
                       force_scale, "must be >= 0"),
           CheckOption(max_step_cuts >= 0, "integrator.max_step_cuts", max_step_cuts,
                       "must be >= 0"),
           CheckOption(post_newton_tolerance >= 0.0 && std::isfinite(post_newton_tolerance),
                       "integrator.post_newton_tolerance", post_newton_tolerance, "must be >= 0"),
           CheckOption(post_newton_max >= 0, "integrator.post_newton_max", post_newton_max,
                       "must be >= 0"),
           CheckOption(output_interval >= 0.0 && std::isfinite(output_interval),
                       "integrator.output_interval", output_interval, "must be >= 0"),
           newton.Validate(),
       }) {
    if (!status) return status;
  }
  return Status::Ok();
}

TransientResult Integrate(SecondOrderSystem& system, const IntegratorOptions& options,
                          const VecX& q0, const VecX& v0,
                          const std::function<void(const StepRecord&)>& observer) {
  const std::clock_t clock_start = std::clock();
  TransientResult result;
  result.t_reached = options.t_start;
  auto finish = [&]() {
    result.cpu_seconds = static_cast<double>(std::clock() - clock_start) / CLOCKS_PER_SEC;
    return result;
  };
  if (Status status = options.Validate(); !status) {
    result.status = status;
    return finish();
  }
  const int n = system.size();
  JD_CHECK(n > 0 && q0.size() == n && v0.size() == n,
           "Integrate: q0 and v0 must have system.size() > 0 entries");
  JD_CHECK(system.mass().rows() == n && system.mass().cols() == n && system.damping().rows() == n &&
               system.damping().cols() == n,
           "Integrate: mass() and damping() must be size() x size()");

  State state;
  state.t = options.t_start;
  state.q = q0;
  state.v = v0;
  if (Status status = InitialState(system, options, state); !status) {
    result.status =
        Status::Failure("initial state at t = " + FormatValue(state.t) + " s: " + status.message);
    return finish();
  }
  EnergyBalance& energy = result.energy;
  energy.initial_kinetic = energy.kinetic = 0.5 * state.v.dot(state.momentum);
  energy.initial_stored = energy.stored = system.StoredEnergy();
  system.Commit();
  double internal_work = 0.0;

  double t_observed = -std::numeric_limits<double>::infinity();
  auto observe = [&]() {
    if (!observer || state.t == t_observed) return;
    t_observed = state.t;
    observer(StepRecord{state.t, &state.q, &state.v, &state.a, &state.lambda, &energy});
  };
  observe();

  const Units units{system.CoordinateUnits()};
  JD_CHECK(units.u.size() == 0 || units.u.size() == n,
           "Integrate: CoordinateUnits() must be empty or have size() entries");
  Magnitudes magnitudes;
  magnitudes.Add(state, system.mass(), system.mass_varies(), units);

  const Weights weights = SchemeWeights(options);
  StepModel model(system, weights, options.energy_conserving, units);
  solvers::NewtonSolver newton(options.newton);
  const double error_factor = std::abs(weights.beta - 1.0 / 6.0);
  const double t_end = options.t_end;
  // Fixed steps: the next grid point t_start + k dt after t (t within 1e-9 dt of a grid
  // point counts as on it).
  auto next_grid = [&](double t) {
    const double k = std::floor((t - options.t_start) / options.dt + 1e-9) + 1.0;
    const double grid = options.t_start + k * options.dt;
    return t_end - grid < 1e-9 * options.dt ? t_end : grid;
  };

  State end;
  VecX x;
  double h = options.dt;  // the next step to try
  double h_step = 0.0;    // the step being tried (the last one: Newton's kept Jacobian is for it)
  int cuts = 0;
  while (state.t < t_end) {
    if (StopRequested()) {  // SIGINT/SIGTERM: stop at a step boundary, keeping what was done
      result.status = Status::Failure(StopReason() + " at t = " + FormatValue(state.t) +
                                      " s, step " + std::to_string(result.accepted_steps + 1));
      break;
    }
    // Step length and end time (landing exactly on grid points and on t_end).
    double t_next;
    bool to_grid = false;
    if (options.adaptive) {
      h = std::clamp(h, options.dt_min, options.dt_max);
      const double remaining = t_end - state.t;
      if (remaining <= 1.1 * h) {
        h = remaining;
      } else if (remaining < 2.0 * h) {  // two similar steps rather than a long and a short
        h = std::max(0.5 * remaining, options.dt_min);
      }
      t_next = h == remaining ? t_end : state.t + h;
    } else {
      // To the grid point when h reaches it; when h would leave less than h / 2 before it
      // (after many cut steps, the rounding of t: 1.7e-6 dt measured), two similar steps instead
      // of a sliver, whose Newton matrix (mass / dt^2) is singular to rounding.
      const double grid = next_grid(state.t), remaining = grid - state.t;
      to_grid = h >= remaining * (1.0 - 1e-9);
      t_next = to_grid ? grid : remaining < 1.5 * h ? state.t + 0.5 * remaining : state.t + h;
    }
    // The Jacobian depends on h: a kept factorization is invalid when h changes.
    if (std::abs(t_next - state.t - h_step) > 1e-9 * h_step) newton.InvalidateJacobian();
    h_step = t_next - state.t;

    model.Begin(state, t_next, magnitudes, options.position_scale, options.force_scale);
    x = model.Predictor();
    const Status status = SolveStep(model, newton, system, options, x, result);
    if (!status) {
      ++result.rejected_steps;
      system.Rollback();
      ++cuts;
      if (cuts > options.max_step_cuts || 0.5 * h_step < options.dt_min) {
        result.status = Status::Failure("integration stopped at t = " + FormatValue(state.t) +
                                        " s, step " + std::to_string(result.accepted_steps + 1) +
                                        ": dt = " + FormatValue(h_step) + " s after " +
                                        std::to_string(cuts - 1) + " cuts: " + status.message +
                                        ForceScaleHint(model.force_scale()));
        break;
      }
      h = 0.5 * h_step;
      continue;
    }
    if (Status status = model.EndState(end); !status) {
      result.status = Status::Failure("integration stopped at t = " + FormatValue(t_next) +
                                      " s: " + status.message);
      break;
    }

    // Local error (adaptive steps): reject and shrink, or accept and adapt h.
    double growth = 1.0;
    if (options.adaptive) {
      const double error = error_factor * h_step * h_step * units.Position(VecX(end.a - state.a)) /
                           (options.error_tolerance * model.position_scale());
      growth = error > 0.0 ? std::clamp(0.9 * std::cbrt(1.0 / error), 0.2, 2.0) : 2.0;
      if (error > 1.0 && h_step > options.dt_min) {
        ++result.rejected_steps;
        system.Rollback();
        h = std::max(options.dt_min, h_step * growth);
        continue;
      }
    }

    AddStepEnergy(state, end, system.StoredEnergy(), options.energy_conserving, internal_work,
                  energy);
    system.Commit();
    std::swap(state, end);
    ++result.accepted_steps;
    result.t_reached = state.t;
    cuts = 0;
    magnitudes.Add(state, system.mass(), system.mass_varies(), units);
    if (options.adaptive) {
      h = h_step * growth;
    } else if (to_grid) {
      h = options.dt;  // back on the grid: the nominal step again
    }
    if (state.t - t_observed >= options.output_interval * (1.0 - 1e-9)) observe();
  }
  observe();
  return finish();
}

}  // namespace jointdyn::time
