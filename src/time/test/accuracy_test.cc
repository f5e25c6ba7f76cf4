// Accuracy of the generalized-alpha family on linear systems against exact solutions:
// convergence order, spectral radius at large h omega, adaptive steps.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <vector>

#include "time/integrator.h"
#include "time/test/test_systems.h"

namespace jointdyn::time {
namespace {

using testing::ForcedSdof;
using testing::LinearSystem;

constexpr double kPi = 3.14159265358979323846;

struct NamedScheme {
  const char* name;
  IntegratorOptions options;
};

std::vector<NamedScheme> SecondOrderSchemes() {
  IntegratorOptions newmark;
  newmark.scheme = Scheme::kNewmark;  // average acceleration (beta 1/4, gamma 1/2)
  IntegratorOptions hht;
  hht.scheme = Scheme::kHht;
  hht.alpha = -0.1;
  IntegratorOptions generalized;
  generalized.scheme = Scheme::kGeneralizedAlpha;
  generalized.rho_inf = 0.8;
  return {{"Newmark average acceleration", newmark},
          {"HHT alpha = -0.1", hht},
          {"generalized-alpha rho_inf = 0.8", generalized}};
}

// Largest |q - q_exact| over the accepted steps of a fixed-step run.
double MaxError(SecondOrderSystem& system, IntegratorOptions options, const VecX& q0,
                const VecX& v0, const std::function<VecX(double)>& exact, int* steps = nullptr) {
  double error = 0.0;
  const TransientResult result = Integrate(system, options, q0, v0, [&](const StepRecord& record) {
    error = std::max(error, (*record.q - exact(record.t)).lpNorm<Eigen::Infinity>());
  });
  EXPECT_TRUE(result.status) << result.status.message;
  EXPECT_EQ(result.t_reached, options.t_end);
  if (steps) *steps = result.accepted_steps;
  return error;
}

// Damped SDOF under harmonic force, m x'' + c x' + k x = f0 sin(w t): period 1 s.
TEST(Accuracy, SdofSecondOrder) {
  const ForcedSdof exact{1.0, 0.3, 4.0 * kPi * kPi, 2.0, 3.0, 0.05, -0.2};
  LinearSystem system(
      MatX::Constant(1, 1, exact.m), MatX::Constant(1, 1, exact.c), MatX::Constant(1, 1, exact.k),
      [&exact](double t) { return VecX::Constant(1, exact.f0 * std::sin(exact.w * t)); });
  auto exact_q = [&exact](double t) { return VecX::Constant(1, exact.Displacement(t)); };
  // The control: Newmark is second order only for gamma = 1/2; gamma = 0.6 is first order.
  IntegratorOptions first_order;
  first_order.scheme = Scheme::kNewmark;
  first_order.gamma = 0.6;
  first_order.beta = 0.3025;  // (gamma + 1/2)^2 / 4: unconditionally stable
  std::vector<NamedScheme> schemes = SecondOrderSchemes();
  schemes.push_back({"Newmark gamma = 0.6 (first order)", first_order});
  for (const NamedScheme& scheme : schemes) {
    const double expected_order = scheme.options.gamma == 0.6 ? 1.0 : 2.0;
    IntegratorOptions options = scheme.options;
    options.t_end = 2.0;
    std::vector<double> errors;
    for (double dt : {0.01, 0.005, 0.0025}) {
      options.dt = options.dt_min = dt;
      errors.push_back(MaxError(system, options, VecX::Constant(1, exact.x0),
                                VecX::Constant(1, exact.v0), exact_q));
    }
    for (std::size_t i = 0; i + 1 < errors.size(); ++i) {
      const double order = std::log2(errors[i] / errors[i + 1]);
      std::printf("SDOF %s: error %.3e -> %.3e, order %.3f\n", scheme.name, errors[i],
                  errors[i + 1], order);
      EXPECT_NEAR(order, expected_order, 0.1) << scheme.name;
    }
  }
}

// Three masses in a chain with Rayleigh damping, free vibration: exact modal solution.
TEST(Accuracy, MdofModalSecondOrder) {
  MatX m = Eigen::Vector3d(1.0, 2.0, 1.5).asDiagonal();
  MatX k(3, 3);
  k << 300.0, -100.0, 0.0, -100.0, 250.0, -150.0, 0.0, -150.0, 150.0;
  const double rayleigh_m = 0.2, rayleigh_k = 1e-3;
  const MatX c = rayleigh_m * m + rayleigh_k * k;
  LinearSystem system(m, c, k);
  const Eigen::Vector3d q0(0.01, -0.02, 0.03), v0(0.1, 0.0, -0.2);

  // Modes: K phi = w^2 M phi, mass-normalized; each mode a damped free oscillator.
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX> modes(k, m);
  const MatX phi = modes.eigenvectors();
  const VecX eta0 = phi.transpose() * m * q0;
  const VecX eta_rate0 = phi.transpose() * m * v0;
  auto exact = [&](double t) {
    VecX eta(3);
    for (int j = 0; j < 3; ++j) {
      const double wn = std::sqrt(modes.eigenvalues()(j));
      const double zeta = 0.5 * (rayleigh_m / wn + rayleigh_k * wn);
      const double wd = wn * std::sqrt(1.0 - zeta * zeta);
      const double b = (eta_rate0(j) + zeta * wn * eta0(j)) / wd;
      eta(j) = std::exp(-zeta * wn * t) * (eta0(j) * std::cos(wd * t) + b * std::sin(wd * t));
    }
    return VecX(phi * eta);
  };
  std::printf("MDOF natural frequencies [rad/s]: %.3f %.3f %.3f\n",
              std::sqrt(modes.eigenvalues()(0)), std::sqrt(modes.eigenvalues()(1)),
              std::sqrt(modes.eigenvalues()(2)));
  for (const NamedScheme& scheme : SecondOrderSchemes()) {
    IntegratorOptions options = scheme.options;
    options.t_end = 1.0;
    std::vector<double> errors;
    for (double dt : {0.002, 0.001, 0.0005}) {
      options.dt = options.dt_min = dt;
      errors.push_back(MaxError(system, options, q0, v0, exact));
    }
    for (std::size_t i = 0; i + 1 < errors.size(); ++i) {
      const double order = std::log2(errors[i] / errors[i + 1]);
      std::printf("MDOF %s: error %.3e -> %.3e, order %.3f\n", scheme.name, errors[i],
                  errors[i + 1], order);
      EXPECT_NEAR(order, 2.0, 0.1) << scheme.name;
    }
  }
}

}  // namespace
}  // namespace jointdyn::time

namespace jointdyn::time {
namespace {

// States X = (q, h v, h^2 a) of the first `steps` steps of an undamped unit oscillator.
constexpr double kStep = 1e8;

std::vector<Eigen::Vector3d> FreeStates(const IntegratorOptions& options, double q0, double v0) {
  LinearSystem system(MatX::Ones(1, 1), MatX::Zero(1, 1), MatX::Ones(1, 1));
  std::vector<Eigen::Vector3d> states;
  const double h = options.dt;
  const TransientResult result = Integrate(
      system, options, VecX::Constant(1, q0), VecX::Constant(1, v0), [&](const StepRecord& r) {
        states.emplace_back((*r.q)(0), h * (*r.v)(0), h * h * (*r.a)(0));
      });
  EXPECT_TRUE(result.status) << result.status.message;
  return states;
}

TEST(Accuracy, SpectralRadiusAtLargeStep) {
  // h omega = kStep. The one-step map X_n -> X_n+1 is linear; two runs from (q, v) = (1, 0)
  // and (0, 1) give three independent states and their images, hence the map. At finite
  // h omega the double eigenvalue -rho_inf splits by O((h omega)^(-1/2)) (1.7e-3 at 1e4),
  // hence the very large step.
  struct Case {
    const char* name;
    double parameter;
    IntegratorOptions options;
    double rho_inf;  // theory: HHT (1 + alpha) / (1 - alpha) (Hilber 1977), gen-alpha rho_inf
  };
  std::vector<Case> cases;
  for (double alpha : {-1.0 / 3.0, -0.1, -0.05}) {
    IntegratorOptions options;
    options.scheme = Scheme::kHht;
    options.alpha = alpha;
    cases.push_back({"HHT alpha =", alpha, options, (1.0 + alpha) / (1.0 - alpha)});
  }
  for (double rho : {0.0, 0.5, 0.8}) {
    IntegratorOptions options;
    options.scheme = Scheme::kGeneralizedAlpha;
    options.rho_inf = rho;
    cases.push_back({"generalized-alpha rho_inf =", rho, options, rho});
  }
  for (Case& c : cases) {
    c.options.dt = c.options.dt_max = kStep;
    c.options.t_end = 2.0 * kStep;
    const auto run1 = FreeStates(c.options, 1.0, 0.0);
    const auto run2 = FreeStates(c.options, 0.0, 1.0);
    Eigen::Matrix3d from, to;
    from << run1[0], run2[0], run1[1];
    to << run1[1], run2[1], run1[2];
    const Eigen::Matrix3d amplification = to * from.inverse();
    const double radius = amplification.eigenvalues().cwiseAbs().maxCoeff();
    std::printf(
        "%s %.4f: spectral radius at h omega = %.0e: %.6f "
        "(theory %.6f)\n",
        c.name, c.parameter, kStep, radius, c.rho_inf);
    EXPECT_NEAR(radius, c.rho_inf, 1e-3) << c.name;
  }
}

}  // namespace
}  // namespace jointdyn::time

namespace jointdyn::time {
namespace {

// Adaptive steps on a free undamped SDOF (period 1 s): the global error follows the
// tolerance (local error per step relative to the amplitude).
TEST(Accuracy, AdaptiveStepsFollowTheTolerance) {
  const double w = 2.0 * kPi;
  LinearSystem system(MatX::Ones(1, 1), MatX::Zero(1, 1), MatX::Constant(1, 1, w * w));
  auto exact = [w](double t) { return VecX::Constant(1, std::cos(w * t)); };
  for (const NamedScheme& scheme : SecondOrderSchemes()) {
    std::vector<double> errors;
    for (double tolerance : {1e-4, 1e-6}) {
      IntegratorOptions options = scheme.options;
      options.adaptive = true;
      options.error_tolerance = tolerance;
      options.t_end = 3.0;
      options.dt = 1e-3;
      int steps = 0;
      const double error = MaxError(system, options, VecX::Ones(1), VecX::Zero(1), exact, &steps);
      std::printf("adaptive %s, tolerance %.0e: %d steps, max error %.3e\n", scheme.name, tolerance,
                  steps, error);
      // The local errors add up: the global error stays below steps x tolerance x
      // amplitude (with a factor 2 for accepted steps near the tolerance).
      EXPECT_LE(error, 2.0 * steps * tolerance) << scheme.name;
      errors.push_back(error);
    }
    // Local error ~ h^3 per step and global ~ h^2: the global error scales with
    // tolerance^(2/3), a factor 21.5 for 100x.
    EXPECT_NEAR(std::log(errors[0] / errors[1]) / std::log(100.0), 2.0 / 3.0, 0.1);
  }
}

// A unit mass flying at 1 m/s onto a stiff spring (k = (20 pi)^2 N/m, contact 50 ms) at
// 1 m and back: slow flight, fast contact. Exact: q = t for t <= 1 s, then
// q = 1 + sin(w (t - 1)) / w while in contact, then q = 1 - (t - 1 - pi / w).
class StopSpring final : public testing::UnitMassSdof {
 public:
  explicit StopSpring(double k) : k_(k) {}
  Status InternalForce(const StepPoint& point, VecX& f, Matrix* stiffness, Matrix*) override {
    penetration_ = std::max((*point.q)(0) - 1.0, 0.0);
    f(0) = k_ * penetration_;
    if (stiffness && penetration_ > 0.0) stiffness->sparse().coeffRef(0, 0) = k_;
    return Status::Ok();
  }
  void ExternalForce(double, VecX&) const override {}
  void Commit() override {}
  double StoredEnergy() const override { return 0.5 * k_ * penetration_ * penetration_; }

 private:
  double k_;
  double penetration_ = 0.0;
};

TEST(Accuracy, AdaptiveStepsBeatFixedStepsOnAnImpact) {
  const double w = 20.0 * kPi;
  StopSpring system(w * w);
  auto exact = [w](double t) {
    if (t <= 1.0) return t;
    if (t <= 1.0 + kPi / w) return 1.0 + std::sin(w * (t - 1.0)) / w;
    return 1.0 - (t - 1.0 - kPi / w);
  };
  auto run = [&](const IntegratorOptions& options, int& steps) {
    double error = 0.0;
    const TransientResult result = Integrate(
        system, options, VecX::Zero(1), VecX::Ones(1),
        [&](const StepRecord& r) { error = std::max(error, std::abs((*r.q)(0) - exact(r.t))); });
    EXPECT_TRUE(result.status) << result.status.message;
    steps = result.accepted_steps;
    return error;
  };
  IntegratorOptions options;
  options.scheme = Scheme::kNewmark;
  options.t_end = 2.0;
  options.adaptive = true;
  options.error_tolerance = 1e-5;
  options.dt = 1e-3;
  int adaptive_steps = 0;
  const double adaptive_error = run(options, adaptive_steps);

  options.adaptive = false;
  options.dt = options.t_end / adaptive_steps;
  int fixed_steps = 0;
  const double same_count_error = run(options, fixed_steps);
  // Fixed steps as accurate as the adaptive run: halve until the error is as small.
  double fixed_error = same_count_error;
  while (fixed_error > adaptive_error && options.dt > 1e-6) {
    options.dt *= 0.5;
    options.dt_min = std::min(options.dt_min, options.dt);
    fixed_error = run(options, fixed_steps);
  }
  std::printf(
      "impact: adaptive %d steps, error %.3e; fixed with as many steps: error %.3e; "
      "fixed as accurate: %d steps (error %.3e)\n",
      adaptive_steps, adaptive_error, same_count_error, fixed_steps, fixed_error);
  EXPECT_GT(same_count_error, 10.0 * adaptive_error);
  EXPECT_GT(fixed_steps, 4 * adaptive_steps);
}

}  // namespace
}  // namespace jointdyn::time
