// Small SecondOrderSystem implementations for the integrator tests.
#pragma once

#include <cmath>
#include <complex>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "time/integrator.h"

namespace jointdyn::time::testing {

// One classical Runge-Kutta step of y'' = f(y) from (y, z = y') over dt: the reference
// solutions of the pendulum tests.
template <class F>
void Rk4Step(const F& f, double dt, double& y, double& z) {
  const double k1y = z, k1z = f(y);
  const double k2y = z + 0.5 * dt * k1z, k2z = f(y + 0.5 * dt * k1y);
  const double k3y = z + 0.5 * dt * k2z, k3z = f(y + 0.5 * dt * k2y);
  const double k4y = z + dt * k3z, k4z = f(y + dt * k3y);
  y += dt / 6.0 * (k1y + 2.0 * k2y + 2.0 * k3y + k4y);
  z += dt / 6.0 * (k1z + 2.0 * k2z + 2.0 * k3z + k4z);
}

// One DOF of unit mass without linear damping: the base of the single-DOF test systems.
class UnitMassSdof : public SecondOrderSystem {
 public:
  UnitMassSdof() : m_(MatX::Ones(1, 1).sparseView()), c_(SparseMatrix(1, 1)) {}
  int size() const override { return 1; }
  const Matrix& mass() const override { return m_; }
  const Matrix& damping() const override { return c_; }

 private:
  Matrix m_, c_;
};

// M q'' + C q' + K q = f(t) with constant matrices. `fail` (optional) makes InternalForce
// fail at chosen points, for the step-cut tests.
class LinearSystem : public SecondOrderSystem {
 public:
  LinearSystem(const MatX& m, const MatX& c, const MatX& k,
               std::function<VecX(double)> force = nullptr)
      : m_(m.sparseView()), c_(c.sparseView()), k_(k.sparseView()), force_(std::move(force)) {}

  std::function<Status(const StepPoint&)> fail;
  int commits = 0;

  int size() const override { return static_cast<int>(m_.rows()); }
  const Matrix& mass() const override { return m_; }
  const Matrix& damping() const override { return c_; }
  Status InternalForce(const StepPoint& point, VecX& f, Matrix* stiffness, Matrix*) override {
    if (fail) {
      if (Status status = fail(point); !status) return status;
    }
    q_ = *point.q;
    // Discrete gradient of V = q'Kq/2: K (q + q_start) / 2 (exact for a quadratic V).
    const double weight = point.discrete_gradient ? 0.5 : 1.0;
    const VecX q_eval = point.discrete_gradient ? VecX(*point.q + *point.q_start) : *point.q;
    f = weight * (k_ * q_eval);
    if (stiffness) *stiffness = weight * k_;
    return Status::Ok();
  }
  void ExternalForce(double t, VecX& f) const override {
    if (force_) f = force_(t);
  }
  void Commit() override { ++commits; }
  double StoredEnergy() const override { return 0.5 * q_.dot(k_ * q_); }

 private:
  Matrix m_, c_;
  SparseMatrix k_;
  std::function<VecX(double)> force_;
  VecX q_;
};

// A chain of unit masses: mass 0 tied to the ground and mass i to mass i - 1 by
// conservative springs with potential V(d) = k d^2 / 2 + k3 d^4 / 4 (d the elongation),
// no damping, external force f(t). Provides the discrete gradient of each spring.
class QuarticChain : public SecondOrderSystem {
 public:
  QuarticChain(int n, double k, double k3, std::function<VecX(double)> force = nullptr)
      : n_(n), k_(k), k3_(k3), force_(std::move(force)) {
    m_ = MatX::Identity(n, n).sparseView();
    c_ = SparseMatrix(n, n);
  }

  int size() const override { return n_; }
  const Matrix& mass() const override { return m_; }
  const Matrix& damping() const override { return c_; }
  Status InternalForce(const StepPoint& point, VecX& f, Matrix* stiffness, Matrix*) override {
    const VecX& q = *point.q;
    const VecX& q0 = *point.q_start;
    std::vector<Eigen::Triplet<double>> entries;
    stored_ = 0.0;
    for (int i = 0; i < n_; ++i) {
      const double d1 = q(i) - (i > 0 ? q(i - 1) : 0.0);
      const double d0 = q0(i) - (i > 0 ? q0(i - 1) : 0.0);
      stored_ += 0.5 * k_ * d1 * d1 + 0.25 * k3_ * std::pow(d1, 4);
      double force, tangent;
      if (point.discrete_gradient) {  // (V(d1) - V(d0)) / (d1 - d0), expanded
        force = 0.5 * k_ * (d0 + d1) +
                0.25 * k3_ * (d0 * d0 * d0 + d0 * d0 * d1 + d0 * d1 * d1 + d1 * d1 * d1);
        tangent = 0.5 * k_ + 0.25 * k3_ * (d0 * d0 + 2.0 * d0 * d1 + 3.0 * d1 * d1);
      } else {
        force = k_ * d1 + k3_ * d1 * d1 * d1;
        tangent = k_ + 3.0 * k3_ * d1 * d1;
      }
      f(i) += force;
      entries.emplace_back(i, i, tangent);
      if (i > 0) {
        f(i - 1) -= force;
        entries.emplace_back(i - 1, i - 1, tangent);
        entries.emplace_back(i, i - 1, -tangent);
        entries.emplace_back(i - 1, i, -tangent);
      }
    }
    if (stiffness) stiffness->sparse().setFromTriplets(entries.begin(), entries.end());
    return Status::Ok();
  }
  void ExternalForce(double t, VecX& f) const override {
    if (force_) f = force_(t);
  }
  void Commit() override {}
  double StoredEnergy() const override { return stored_; }

 private:
  int n_;
  double k_, k3_;
  std::function<VecX(double)> force_;
  Matrix m_, c_;
  double stored_ = 0.0;
};

// Planar pendulum in Cartesian coordinates (x, y): mass m, gravity g along -y, length
// constraint c = (x^2 + y^2 - L^2) / 2 = 0 with C_q = [x, y], (C_q' lambda)_q = lambda I
// and Q_c = -(vx^2 + vy^2). lambda L is the rod tension [N].
class Pendulum : public SecondOrderSystem {
 public:
  Pendulum(double m, double g, double length) : g_(g), length_(length), mass_value_(m) {
    m_ = (m * MatX::Identity(2, 2)).sparseView();
    c_ = SparseMatrix(2, 2);
  }

  int size() const override { return 2; }
  const Matrix& mass() const override { return m_; }
  const Matrix& damping() const override { return c_; }
  Status InternalForce(const StepPoint&, VecX&, Matrix*, Matrix*) override { return Status::Ok(); }
  void ExternalForce(double, VecX& f) const override { f(1) = -mass_value_ * g_; }
  void Commit() override {}
  double StoredEnergy() const override { return 0.0; }

  int constraint_count() const override { return 1; }
  Status Constraints(double, const VecX& q, VecX& c, SparseMatrix* jacobian) override {
    c(0) = 0.5 * (q.squaredNorm() - length_ * length_);
    if (jacobian) *jacobian = MatX(q.transpose()).sparseView();
    return Status::Ok();
  }
  Status ConstraintForceTangent(double, const VecX&, const VecX& lambda,
                                SparseMatrix& tangent) override {
    tangent = (lambda(0) * MatX::Identity(2, 2)).sparseView();
    return Status::Ok();
  }
  Status ConstraintAccelerationTerm(double, const VecX&, const VecX& v, VecX& q_c) override {
    q_c(0) = -v.squaredNorm();
    return Status::Ok();
  }

 private:
  Matrix m_, c_;
  double g_, length_, mass_value_;
};

// `system` with M, C, K and D stored dense (as a reduced model holds them), everything else
// passed on: the same equations, for the tests that the storage does not change results.
class DenseStorage final : public SecondOrderSystem {
 public:
  explicit DenseStorage(SecondOrderSystem& system)
      : system_(system), m_(system.mass().ToDense()), c_(system.damping().ToDense()) {}

  int size() const override { return system_.size(); }
  const Matrix& mass() const override { return m_; }
  const Matrix& damping() const override { return c_; }
  Status InternalForce(const StepPoint& point, VecX& f, Matrix* stiffness,
                       Matrix* damping_tangent) override {
    k_.SetZeroLike(system_.mass());  // zero in the wrapped system's storage
    d_.SetZeroLike(system_.mass());
    const Status status =
        system_.InternalForce(point, f, stiffness ? &k_ : nullptr, damping_tangent ? &d_ : nullptr);
    if (stiffness) *stiffness = k_.ToDense();
    if (damping_tangent) *damping_tangent = d_.ToDense();
    return status;
  }
  void ExternalForce(double t, VecX& f) const override { system_.ExternalForce(t, f); }
  void Commit() override { system_.Commit(); }
  double PostNewtonUpdate(const StepPoint& point) override {
    return system_.PostNewtonUpdate(point);
  }
  void Rollback() override { system_.Rollback(); }
  double StoredEnergy() const override { return system_.StoredEnergy(); }
  VecX CoordinateUnits() const override { return system_.CoordinateUnits(); }
  int constraint_count() const override { return system_.constraint_count(); }
  Status Constraints(double t, const VecX& q, VecX& c, SparseMatrix* jacobian) override {
    return system_.Constraints(t, q, c, jacobian);
  }
  Status ConstraintForceTangent(double t, const VecX& q, const VecX& lambda,
                                SparseMatrix& tangent) override {
    return system_.ConstraintForceTangent(t, q, lambda, tangent);
  }
  Status ConstraintAccelerationTerm(double t, const VecX& q, const VecX& v, VecX& q_c) override {
    return system_.ConstraintAccelerationTerm(t, q, v, q_c);
  }

 private:
  SecondOrderSystem& system_;
  Matrix m_, c_, k_, d_;
};

// Exact response of m x'' + c x' + k x = f0 sin(w t), x(0) = x0, x'(0) = v0 (underdamped).
struct ForcedSdof {
  double m, c, k, f0, w, x0, v0;

  double Displacement(double t) const {
    const std::complex<double> amplitude = f0 / std::complex<double>(k - m * w * w, c * w);
    auto particular = [&](double s) {
      return (amplitude * std::exp(std::complex<double>(0.0, w * s))).imag();
    };
    auto particular_rate = [&](double s) {
      return (amplitude * std::complex<double>(0.0, w) * std::exp(std::complex<double>(0.0, w * s)))
          .imag();
    };
    const double wn = std::sqrt(k / m);
    const double zeta = c / (2.0 * std::sqrt(k * m));
    const double wd = wn * std::sqrt(1.0 - zeta * zeta);
    const double a = x0 - particular(0.0);
    const double b = (v0 - particular_rate(0.0) + zeta * wn * a) / wd;
    return std::exp(-zeta * wn * t) * (a * std::cos(wd * t) + b * std::sin(wd * t)) + particular(t);
  }
};

}  // namespace jointdyn::time::testing
