// Frequency-response curves by continuation against closed forms: SDOF with a Jenkins
// element, with three-parameter Coulomb friction and with rigid Coulomb friction (H = 1,
// N = 1024) against their describing functions (rigid Coulomb with Hill stability), the
// stiff Jenkins element tending to rigid Coulomb, the Duffing oscillator against the
// first-order backbone and across its folds (with Hill stability), continuation in the
// excitation level, and Newton's convergence with and without the history sensitivity.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <memory>
#include <numbers>
#include <string>

#include "harmonic/continuation.h"
#include "harmonic/dry_friction.h"
#include "harmonic/test/dense_system.h"
#include "harmonic/test/describing_functions.h"
#include "laws/coulomb.h"
#include "laws/dahl_valanis.h"
#include "laws/viscoelastic.h"

namespace jointdyn::harmonic {
namespace {

using Complex = std::complex<double>;

// m x'' + c x' + k x + f_nl(x) = P cos(omega t), f_nl between the mass and ground.
struct Sdof {
  double m = 1.0;  // kg
  double c = 2.0;  // N s/m
  double k = 1e4;  // N/m: omega0 = 100 rad/s
  double p = 2.0;  // N
};

HarmonicSystem SdofSystem(const Sdof& s, std::unique_ptr<NonlinearForce> force) {
  HarmonicSystem system =
      DenseSystem(MatX::Constant(1, 1, s.m), MatX::Constant(1, 1, s.c), MatX::Constant(1, 1, s.k));
  system.excitation = {{.dof = 0, .harmonic = 1, .cos_amplitude = s.p}};
  system.elements.push_back(Between(std::move(force), {0}, {-1}));
  return system;
}

Complex FirstHarmonic(const SolutionPoint& point, int dof = 0) {
  return {point.coefficients(dof, 1), -point.coefficients(dof, 2)};
}

// The describing-function equation (k - m w^2 + i c w + nu(|X|)) X = P at one point:
// the closed-form X at the HB point's frequency, by Newton on the complex equation from
// the HB amplitude (nu is smooth along the branch), and the relative error of the HB X.
double DescribingFunctionError(const Sdof& s, double omega, Complex x,
                               const std::function<Complex(double)>& nu) {
  Complex reference = x;
  for (int iteration = 0; iteration < 50; ++iteration) {
    auto g = [&](Complex z) {
      return (s.k - s.m * omega * omega + Complex(0, s.c * omega) + nu(std::abs(z))) * z - s.p;
    };
    // Newton on the real 2-vector (Re z, Im z) with a central-difference Jacobian.
    const double h = 1e-7 * std::abs(reference);
    const Complex g0 = g(reference);
    const Complex gx = (g(reference + h) - g(reference - h)) / (2 * h);
    const Complex gy = (g(reference + Complex(0, h)) - g(reference - Complex(0, h))) / (2 * h);
    const double det = gx.real() * gy.imag() - gy.real() * gx.imag();
    const double dx = -(gy.imag() * g0.real() - gy.real() * g0.imag()) / det;
    const double dy = -(-gx.imag() * g0.real() + gx.real() * g0.imag()) / det;
    reference += Complex(dx, dy);
    if (std::hypot(dx, dy) < 1e-15 * std::abs(reference)) break;
  }
  return std::abs(x - reference) / std::abs(reference);
}

ContinuationOptions Sweep(double start, double end) {
  ContinuationOptions options;
  options.start = start;
  options.end = end;
  options.fixed = 1.0;
  options.initial_step = 0.02;
  options.max_step = 0.1;
  options.solve.newton.residual_tolerance = 1e-12;
  options.solve.newton.increment_tolerance = 1e-10;
  return options;
}

void PrintSummary(const char* name, const ContinuationResult& r, double worst) {
  std::printf(
      "%s: %zu points, %d steps (%d rejected), %d turning points, %d Newton iterations "
      "(%.2f per point), %.3f s (%.2f ms per point); worst relative error %.2e\n",
      name, r.points.size(), r.steps, r.rejected_steps, r.turning_points, r.newton_iterations,
      static_cast<double>(r.newton_iterations) / r.points.size(), r.seconds,
      1e3 * r.seconds / r.points.size(), worst);
}

// The check: SDOF with a Jenkins element, H = 1, N = 1024, every point within
// 1e-4 of the closed-form describing function. omega0 = 100 rad/s free, 122 rad/s stuck;
// k_t A / F_s stays below 25, where the sampling error of the march is about 1e-5
// (marched_force_test).
TEST(FrequencyResponse, JenkinsSdofMatchesTheDescribingFunction) {
  const Sdof s;
  const double k_t = 5e3, f_s = 1.0;
  HarmonicBalance hb(SdofSystem(s, CoulombForce(k_t, 0.0, f_s)),
                     {.basis = {.harmonics = 1}, .samples = 1024});
  const ContinuationResult result = Continue(hb, Sweep(60.0, 160.0));
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_EQ(result.stop_reason, "reached the end");
  EXPECT_NEAR(result.points.back().omega, 160.0, 1e-12);
  double worst = 0.0, largest = 0.0;
  for (const SolutionPoint& point : result.points) {
    const double error = DescribingFunctionError(
        s, point.omega, FirstHarmonic(point),
        [&](double a) { return testing::JenkinsDescribingFunction(k_t, f_s, a); });
    worst = std::max(worst, error);
    largest = std::max(largest, std::abs(FirstHarmonic(point)));
    EXPECT_LT(error, 1e-4) << "omega = " << point.omega;
  }
  PrintSummary("Jenkins SDOF, H = 1, N = 1024", result, worst);
  EXPECT_GT(largest * k_t / f_s, 10.0);  // the peak is in gross slip
  EXPECT_GT(result.points.size(), 20u);
}

// Three-parameter Coulomb friction (slider branch c1, F_s in parallel with a spring c2):
// the describing function is the Jenkins one plus c2.
TEST(FrequencyResponse, CoulombSdofMatchesTheDescribingFunction) {
  const Sdof s{.c = 1.0, .p = 3.0};
  const double c1 = 2e4, c2 = 2e3, f_s = 1.5;
  HarmonicBalance hb(SdofSystem(s, CoulombForce(c1, c2, f_s)),
                     {.basis = {.harmonics = 1}, .samples = 1024});
  const ContinuationResult result = Continue(hb, Sweep(150.0, 50.0));  // downwards
  ASSERT_TRUE(result.status) << result.status.message;
  double worst = 0.0;
  for (const SolutionPoint& point : result.points) {
    const double error = DescribingFunctionError(
        s, point.omega, FirstHarmonic(point),
        [&](double a) { return testing::JenkinsDescribingFunction(c1, f_s, a) + c2; });
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-4) << "omega = " << point.omega;
  }
  PrintSummary("Coulomb SDOF, H = 1, N = 1024", result, worst);
}

// Rigid (pure) Coulomb friction F_s sgn(x'): its describing function i 4 F_s / (pi A) gives
// the closed-form amplitude ((k - m w^2) A)^2 + (c w A + 4 F_s / pi)^2 = P^2 (Den Hartog's
// first-harmonic solution), and X = P / (k - m w^2 + i (c w + 4 F_s / (pi A))).
Complex RigidCoulombResponse(const Sdof& s, double f_s, double w) {
  const double d = s.k - s.m * w * w, g = 4.0 * f_s / std::numbers::pi;
  // ((d^2 + (c w)^2) A^2 + 2 c w g A + g^2 - P^2 = 0, the positive root.
  const double qa = d * d + s.c * s.c * w * w, qb = 2.0 * s.c * w * g, qc = g * g - s.p * s.p;
  const double a = (-qb + std::sqrt(qb * qb - 4.0 * qa * qc)) / (2.0 * qa);
  return s.p / Complex(d, s.c * w + g / a);
}

// The check for Coulomb friction: the exact rigid element (DryFrictionForce, its
// coefficients in closed form from the velocity's sign changes) with H = 1 and N = 1024
// solves the describing-function equation at every point of the curve to the Newton
// tolerance (the samples only bracket the crossings). Hill's method with the element's
// rate Jacobian marks every point stable: the linearized friction force is a positive
// weighting of the velocity perturbation at the two crossings (extra damping), so all
// exponents have real parts below -c / (2 m).
TEST(FrequencyResponse, RigidCoulombSdofMatchesTheDescribingFunction) {
  const Sdof s;
  const double f_s = 1.0;
  HarmonicBalance hb(SdofSystem(s, std::make_unique<DryFrictionForce>(f_s)),
                     {.basis = {.harmonics = 1}, .samples = 1024});
  ContinuationOptions options = Sweep(60.0, 160.0);
  options.solve.stability = true;
  const ContinuationResult result = Continue(hb, options);
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_EQ(result.stop_reason, "reached the end");
  double worst = 0.0, least_damped = -1e300;
  for (const SolutionPoint& point : result.points) {
    const Complex x = RigidCoulombResponse(s, f_s, point.omega);
    const double error = std::abs(FirstHarmonic(point) - x) / std::abs(x);
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-4) << "omega = " << point.omega;
    EXPECT_EQ(point.stability, Stability::kStable) << "omega = " << point.omega;
    least_damped = std::max(least_damped, point.floquet_max_real);
  }
  PrintSummary("Rigid Coulomb SDOF (exact), H = 1, N = 1024", result, worst);
  std::printf("  Hill: largest real part of the exponents %.4f 1/s (-c / 2m = %.1f 1/s)\n",
              least_damped, -s.c / (2.0 * s.m));
  EXPECT_LT(worst, 1e-10);
  EXPECT_LT(least_damped, -s.c / (2.0 * s.m) + 1e-9);
  EXPECT_GT(result.points.size(), 20u);
}

// The Jenkins element tends to rigid Coulomb friction as k_t -> infinity. Its extra
// stiffness over the rigid law is about (16 / (3 pi)) F_s sqrt(F_s / (k_t A)) / A
// (expanding its describing function for small F_s / (k_t A)), so the amplitude error
// against the exact rigid result falls as k_t^(-1/2): 1e-2 at k_t A / F_s ~ 1e5. At that
// stiffness the stick phase after a reversal is shorter than a sample, so N = 1024 samples
// resolve the reversal only to h / 2: a sampled stiff Jenkins element cannot reach 1e-4 at
// N = 1024 (hence DryFrictionForce), and stiffer still the discrete force becomes
// piecewise constant in the coefficients and Newton stalls (k_t = 1e9 here).
TEST(FrequencyResponse, StiffJenkinsTendsToRigidCoulomb) {
  const Sdof s;
  const double f_s = 1.0;
  double errors[2];
  for (int i = 0; i < 2; ++i) {
    const double k_t = i == 0 ? 1e6 : 1e8;
    HarmonicBalance hb(SdofSystem(s, CoulombForce(k_t, 0.0, f_s)),
                       {.basis = {.harmonics = 1}, .samples = 1024});
    const ContinuationResult result = Continue(hb, Sweep(60.0, 160.0));
    ASSERT_TRUE(result.status) << result.status.message;
    errors[i] = 0.0;
    for (const SolutionPoint& point : result.points) {
      const double a = std::abs(RigidCoulombResponse(s, f_s, point.omega));
      errors[i] = std::max(errors[i], std::abs(std::abs(FirstHarmonic(point)) - a) / a);
    }
    std::printf(
        "Jenkins k_t = %.0e N/m against rigid Coulomb: worst amplitude error %.2e "
        "(%zu points, %.3f s)\n",
        k_t, errors[i], result.points.size(), result.seconds);
  }
  EXPECT_LT(errors[1], 1.5e-2);
  EXPECT_NEAR(errors[0] / errors[1], 10.0, 3.0);  // k_t^(-1/2)
}

// Duffing m x'' + c x' + k x + k3 x^3 = P cos(omega t) (m = k = 1) with H = 1: the cubic's
// first harmonic is exact through AFT, so every point satisfies the closed-form relation
// (k - m w^2 + (3/4) k3 A^2 + i c w) X = P to rounding. With P = 0.1 the hardening curve
// folds twice; continuation passes both turning points, and Hill's method marks the
// middle branch unstable and the others stable.
TEST(FrequencyResponse, DuffingPassesItsFoldsWithHillStability) {
  const Sdof s{.m = 1.0, .c = 0.02, .k = 1.0, .p = 0.1};
  const double k3 = 1.0;
  HarmonicBalance hb(SdofSystem(s, CubicForce(k3)), {.basis = {.harmonics = 1}, .samples = 16});
  ContinuationOptions options = Sweep(0.5, 3.0);
  options.solve.stability = true;
  options.max_step = 0.05;
  const ContinuationResult result = Continue(hb, options);
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_EQ(result.turning_points, 2);
  double worst = 0.0, peak = 0.0;
  int branch = 0, unstable = 0, misclassified = 0;
  for (const SolutionPoint& point : result.points) {
    const double error =
        DescribingFunctionError(s, point.omega, FirstHarmonic(point),
                                [&](double a) { return testing::CubicDescribingFunction(k3, a); });
    worst = std::max(worst, error);
    peak = std::max(peak, std::abs(FirstHarmonic(point)));
    if (point.turning_point) ++branch;
    // Exactly at a fold one exponent crosses zero: the first point past a turning point
    // may fall on either side and is not counted.
    const bool expect_unstable = branch == 1;
    const bool unstable_here = point.stability == Stability::kUnstable;
    unstable += unstable_here ? 1 : 0;
    if (unstable_here != expect_unstable && !point.turning_point) ++misclassified;
    EXPECT_NE(point.stability, Stability::kNotComputed);
  }
  PrintSummary("Duffing, H = 1, with folds", result, worst);
  EXPECT_LT(worst, 1e-10);
  // Peak on the backbone where c w A = P, w^2 = 1 + (3/4) k3 A^2: A = 4.90 (closed form
  // below); the discrete curve reaches it within its step.
  double a_peak = 1.0;
  for (int i = 0; i < 100; ++i) {
    a_peak = s.p / (s.c * std::sqrt(1.0 + 0.75 * k3 * a_peak * a_peak));
  }
  EXPECT_NEAR(peak, a_peak, 1e-2 * a_peak);
  std::printf("Hill: %d unstable points, %d classified against their branch\n", unstable,
              misclassified);
  EXPECT_GT(unstable, 3);
  EXPECT_EQ(misclassified, 0);
}

// Small nonlinearity: with H = 5 the point where the response is in quadrature with the
// force (a1 = 0) lies on the backbone, and to first order (Lindstedt) the backbone is
// w = w0 (1 + (3/8) eps), eps = k3 A^2 / k; the next term is -(21/256) eps^2 w0. The
// quadrature point is interpolated between neighbouring points of the curve.
TEST(FrequencyResponse, DuffingBackboneMatchesTheFirstOrderResult) {
  const Sdof s{.m = 1.0, .c = 0.01, .k = 1.0, .p = 0.002};
  const double k3 = 0.1;
  HarmonicBalance hb(SdofSystem(s, CubicForce(k3)), {.basis = {.harmonics = 5}, .samples = 64});
  ContinuationOptions options = Sweep(0.9, 1.1);
  options.initial_step = 0.005;
  options.max_step = 0.01;
  const ContinuationResult result = Continue(hb, options);
  ASSERT_TRUE(result.status) << result.status.message;
  EXPECT_EQ(result.turning_points, 0);  // below the fold threshold
  int crossings = 0;
  for (std::size_t i = 1; i < result.points.size(); ++i) {
    const SolutionPoint& a = result.points[i - 1];
    const SolutionPoint& b = result.points[i];
    const double a1 = a.coefficients(0, 1), b1 = b.coefficients(0, 1);
    if (a1 * b1 > 0.0) continue;
    ++crossings;
    const double t = a1 / (a1 - b1);
    const double omega = a.omega + t * (b.omega - a.omega);
    const double amplitude =
        std::abs(FirstHarmonic(a)) + t * (std::abs(FirstHarmonic(b)) - std::abs(FirstHarmonic(a)));
    const double eps = k3 * amplitude * amplitude / s.k;
    const double first_order = 1.0 + 0.375 * eps;
    std::printf(
        "Duffing quadrature point: omega %.8f, A %.6f, eps %.4f; first order %.8f, "
        "difference %.2e (eps^2 %.2e)\n",
        omega, amplitude, eps, first_order, omega - first_order, eps * eps);
    EXPECT_LT(std::abs(omega - first_order), 0.1 * eps * eps + 1e-6);
    // At quadrature c w A = P to first order.
    EXPECT_NEAR(s.c * omega * amplitude / s.p, 1.0, 2.0 * eps * eps + 1e-3);
  }
  EXPECT_EQ(crossings, 1);
}

// Continuation in the excitation level at a fixed frequency: the Jenkins SDOF from a
// stuck to a slipping response, each point against the describing function.
TEST(FrequencyResponse, LevelContinuationMatchesTheDescribingFunction) {
  const Sdof s;
  const double k_t = 5e3, f_s = 1.0, omega = 95.0;
  HarmonicBalance hb(SdofSystem(s, CoulombForce(k_t, 0.0, f_s)),
                     {.basis = {.harmonics = 1}, .samples = 1024});
  ContinuationOptions options = Sweep(0.05, 2.0);
  options.parameter = ContinuationParameter::kLevel;
  options.fixed = omega;
  const ContinuationResult result = Continue(hb, options);
  ASSERT_TRUE(result.status) << result.status.message;
  double worst = 0.0;
  for (const SolutionPoint& point : result.points) {
    Sdof at_level = s;
    at_level.p = s.p * point.level;
    const double error = DescribingFunctionError(
        at_level, omega, FirstHarmonic(point),
        [&](double a) { return testing::JenkinsDescribingFunction(k_t, f_s, a); });
    worst = std::max(worst, error);
    EXPECT_LT(error, 1e-4) << "level = " << point.level;
  }
  PrintSummary("Jenkins SDOF, level continuation", result, worst);
  EXPECT_NEAR(result.points.back().level, 2.0, 1e-12);
}

// A rate-dependent law: a Maxwell element (spring k_m in series with a damper c_m) to
// ground, evaluated by the march with dt = T / N (the law's backward Euler). The discrete
// march is linear, so harmonic balance reproduces its discrete transfer function exactly:
// with z = e^{-i h}, h = 2 pi / N, the branch stress follows
// sigma_j (1 / k_m + dt / c_m) = sigma_{j-1} / k_m + s_j - s_{j-1}, i.e. per first harmonic
// G_h = (1 - z) / ((1 - z) / k_m + dt / c_m), against G = i w c_m k_m / (k_m + i w c_m) in
// continuous time (difference O(h)). The history sensitivity is differenced (exact to
// rounding for a linear law), so at a fixed frequency one Newton update from rest solves it
// (the march's Jacobian rows must have closed too, not only its forces, which at rest are
// zero from the start); the omega derivative (the dt dependence) is a forward difference.
// The loop closes as e^{-T k_m / c_m} per period.
TEST(FrequencyResponse, MaxwellElementMatchesItsDiscreteTransferFunction) {
  const Sdof s{.c = 0.0, .p = 1.0};
  const double k_m = 5e3, c_m = 50.0;
  const int n = 256;
  auto law = std::make_shared<laws::ViscoelasticLaw>(laws::MaxwellParams{.k = k_m, .c = c_m}, 1);
  HarmonicBalance hb(
      SdofSystem(s, std::make_unique<MarchedForce>(std::make_unique<TangentialKernel>(law, 1.0),
                                                   MarchOptions{.closure_tolerance = 1e-13})),
      {.basis = {.harmonics = 1}, .samples = n});
  ContinuationOptions options = Sweep(60.0, 160.0);
  const ContinuationResult result = Continue(hb, options);
  ASSERT_TRUE(result.status) << result.status.message;
  double worst = 0.0, continuous = 0.0;
  for (const SolutionPoint& point : result.points) {
    const double w = point.omega, dt = 2.0 * std::numbers::pi / (w * n);
    const Complex z = std::polar(1.0, -2.0 * std::numbers::pi / n);
    const Complex g_h = (1.0 - z) / ((1.0 - z) / k_m + dt / c_m);
    const Complex g = Complex(0.0, w * c_m * k_m) / Complex(k_m, w * c_m);
    const Complex x_h = s.p / (s.k - s.m * w * w + g_h);
    worst = std::max(worst, std::abs(FirstHarmonic(point) - x_h) / std::abs(x_h));
    continuous = std::max(
        continuous, std::abs(FirstHarmonic(point) - s.p / (s.k - s.m * w * w + g)) / std::abs(x_h));
  }
  PrintSummary("Maxwell SDOF, H = 1, N = 256", result, worst);
  std::printf("  against continuous time: %.2e (O(h), h = %.3f); periods per point %d\n",
              continuous, 2.0 * std::numbers::pi / n, result.points.front().periods);
  EXPECT_LT(worst, 1e-10);
  EXPECT_LT(continuous, 2.0 * std::numbers::pi / n);
  EXPECT_GT(result.points.front().periods, 3);
  const VecX rest = VecX::Zero(hb.num_unknowns());
  const PeriodicResult from_rest = SolvePeriodic(hb, 110.0, 1.0, PeriodicOptions{}, &rest);
  ASSERT_TRUE(from_rest.status) << from_rest.status.message;
  // One update solves it (to rounding); the second only confirms the increment test.
  EXPECT_LT(from_rest.newton.residual_history.at(1), 1e-13);
  EXPECT_EQ(from_rest.newton.iterations, 2);
}

// Newton's convergence with the AFT Jacobian, H = 5, N = 1024, printed for the report.
// Jenkins: with the history sensitivity the Jacobian is the exact derivative of the
// discrete equations (piecewise linear in the coefficients for the Jenkins element), so
// Newton converges quadratically and ends exactly. With local tangents only it misses the
// stick phase's dependence on the last reversal (the stuck slider looks stiff against a
// static offset) and the line search fails, from the linearized guess and from a
// neighbouring solution alike. Dahl's history sensitivity is differenced (relative step
// 1e-7): Newton converges fast; with local tangents it fails too.
void PrintHistory(const char* name, const PeriodicResult& solved) {
  std::printf("%s: %s after %d iterations; scaled residuals:", name,
              solved.status ? "converged" : solved.status.message.c_str(),
              solved.newton.iterations);
  for (double r : solved.newton.residual_history) std::printf(" %.1e", r);
  std::printf("\n");
}

TEST(FrequencyResponse, NewtonConvergenceWithAndWithoutHistorySensitivity) {
  const Sdof s;
  PeriodicOptions options;
  options.newton.residual_tolerance = 1e-10;
  options.newton.increment_tolerance = 1e-8;
  options.newton.max_iterations = 100;
  const HarmonicOptions harmonic{.basis = {.harmonics = 5}, .samples = 1024};
  // A neighbouring solution (at 104 rad/s) as the guess at 105 rad/s.
  HarmonicBalance neighbour_hb(SdofSystem(s, CoulombForce(5e3, 0.0, 1.0)), harmonic);
  const PeriodicResult neighbour = SolvePeriodic(neighbour_hb, 104.0, 1.0, options);
  ASSERT_TRUE(neighbour.status) << neighbour.status.message;
  const VecX guess = neighbour_hb.Restrict(neighbour.point.coefficients);
  int iterations[2][2];  // [history][guess from the neighbour]
  for (bool history : {true, false}) {
    HarmonicBalance hb(SdofSystem(s, CoulombForce(5e3, 0.0, 1.0, history)), harmonic);
    for (bool near : {false, true}) {
      const PeriodicResult solved = SolvePeriodic(hb, 105.0, 1.0, options, near ? &guess : nullptr);
      const std::string name = std::string("Jenkins, history sensitivity ") +
                               (history ? "on, " : "off, ") +
                               (near ? "neighbour guess" : "linearized guess");
      PrintHistory(name.c_str(), solved);
      iterations[history][near] = solved.status ? solved.newton.iterations : 1000;
      if (history) {
        ASSERT_TRUE(solved.status) << solved.status.message;
        // Quadratic: once below 1e-3 each residual is at most the square of the last
        // (times a constant of order one), down to rounding.
        const auto& h = solved.newton.residual_history;
        for (std::size_t i = 1; i < h.size(); ++i) {
          if (h[i - 1] < 1e-3 && h[i] > 1e-12) {
            EXPECT_LT(h[i], 10.0 * h[i - 1] * h[i - 1]);
          }
        }
      }
    }
  }
  EXPECT_LT(iterations[1][0], iterations[0][0]);
  EXPECT_LT(iterations[1][1], iterations[0][1]);

  auto dahl =
      std::make_shared<laws::DahlValanisLaw>(laws::DahlParams{.c1 = 5e3, .c2 = 0.0, .mu = 1.0}, 1);
  int dahl_iterations[2];
  for (bool history : {true, false}) {
    HarmonicBalance hb(
        SdofSystem(s, std::make_unique<MarchedForce>(std::make_unique<TangentialKernel>(dahl, 1.0),
                                                     MarchOptions{.closure_tolerance = 1e-12,
                                                                  .history_sensitivity = history})),
        harmonic);
    const PeriodicResult solved = SolvePeriodic(hb, 105.0, 1.0, options);
    PrintHistory(history ? "Dahl, differenced history sensitivity, linearized guess"
                         : "Dahl, local tangents, linearized guess",
                 solved);
    dahl_iterations[history ? 1 : 0] = solved.status ? solved.newton.iterations : 1000;
    if (history) {
      ASSERT_TRUE(solved.status) << solved.status.message;
      std::printf("Dahl: loop closed after %d periods\n", solved.point.periods);
      EXPECT_GT(solved.point.periods, 2);
    }
  }
  EXPECT_LT(dahl_iterations[1], dahl_iterations[0]);
}

}  // namespace
}  // namespace jointdyn::harmonic
