// The period march of nonlinear elements: force coefficients against closed forms
// (cubic spring, Jenkins describing function, 2D Jenkins on a circular orbit), loop
// closure (Dahl needs more than two periods), the node-to-node contact element with
// normal load variation and separation, and the AFT Jacobian against central differences
// with and without the sensitivity through the history.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <numbers>

#include "harmonic/nonlinear_force.h"
#include "harmonic/test/describing_functions.h"
#include "laws/contact_pair.h"
#include "laws/coulomb.h"
#include "laws/dahl_valanis.h"
#include "laws/normal_laws.h"

namespace jointdyn::harmonic {
namespace {

constexpr double kPi = std::numbers::pi;

std::unique_ptr<MarchedForce> Jenkins(double k_t, double f_s, int dim = 1,
                                      const MarchOptions& options = {}) {
  auto law = std::make_shared<laws::CoulombLaw>(laws::CoulombParams{k_t, 0.0, f_s}, dim);
  return std::make_unique<MarchedForce>(std::make_unique<TangentialKernel>(law, 1.0), options);
}

// Coefficients of r = Re(X e^{i theta}) in the basis's first pair.
MatX FirstHarmonic(const HarmonicBasis& basis, std::complex<double> x) {
  MatX c = MatX::Zero(basis.size(), 1);
  c(basis.CosIndex(0), 0) = x.real();
  c(basis.CosIndex(0) + 1, 0) = -x.imag();
  return c;
}

std::complex<double> FirstHarmonicOf(const HarmonicBasis& basis, const MatX& f, int col = 0) {
  return {f(basis.CosIndex(0), col), -f(basis.CosIndex(0) + 1, col)};
}

// Central differences of the coefficient map, column by column.
MatX CentralDifferenceJacobian(NonlinearForce& force, Aft& aft, double omega, const MatX& x,
                               double step) {
  const int m = static_cast<int>(x.size());
  MatX jacobian(m, m);
  MatX plus, minus;
  for (int col = 0; col < m; ++col) {
    MatX xp = x, xm = x;
    xp.data()[col] += step;
    xm.data()[col] -= step;
    EXPECT_TRUE(force.Evaluate(aft, omega, xp, plus, nullptr, nullptr).ok);
    EXPECT_TRUE(force.Evaluate(aft, omega, xm, minus, nullptr, nullptr).ok);
    const MatX difference = (plus - minus) / (2.0 * step);
    jacobian.col(col) = Eigen::Map<const VecX>(difference.data(), m);
  }
  return jacobian;
}

// The largest differences of a pair's Jacobian from a reference in the tangential inputs'
// columns (the first 2 nc) and in the normal input's, relative to the reference's largest
// entry. A one-sample opening's proportional reset (harmonic::PairKernel) depends on the
// gaps only, and its derivative is left out: the normal columns differ there.
Vec2 ColumnErrors(const MatX& jacobian, const MatX& reference, int nc) {
  const MatX difference = (jacobian - reference).cwiseAbs() / reference.cwiseAbs().maxCoeff();
  return {difference.leftCols(2 * nc).maxCoeff(), difference.rightCols(nc).maxCoeff()};
}

// k3 r^3 with r = A cos(theta + p): (3/4) k3 A^3 cos(theta + p) + (1/4) k3 A^3 cos(3 theta + 3 p),
// exact with N = 16 > 2 * 3 (the cube has degree 3); memoryless, so one period.
TEST(MarchedForce, CubicSpringIsExact) {
  const HarmonicBasis basis{.harmonics = 3};
  Aft aft(basis, 16);
  MarchedForce cubic(std::make_unique<PolynomialKernel>(std::vector<double>{0, 0, 0, 2.0}), {});
  const double a = 0.7, p = 0.4;
  MatX f;
  ASSERT_TRUE(
      cubic.Evaluate(aft, 3.0, FirstHarmonic(basis, std::polar(a, p)), f, nullptr, nullptr).ok);
  const double c = 2.0 * a * a * a;
  EXPECT_NEAR(f(0, 0), 0.0, 1e-15);
  EXPECT_NEAR(f(1, 0), 0.75 * c * std::cos(p), 1e-15);
  EXPECT_NEAR(f(2, 0), -0.75 * c * std::sin(p), 1e-15);
  EXPECT_NEAR(f(5, 0), 0.25 * c * std::cos(3 * p), 1e-15);
  EXPECT_NEAR(f(6, 0), -0.25 * c * std::sin(3 * p), 1e-15);
  EXPECT_EQ(cubic.last_periods(), 1);
  // The Jacobian of a memoryless force is exact through AFT: central differences agree to
  // their truncation error (step^2 times the third derivative, 6 k3 = 12).
  MatX x(basis.size(), 1);
  x << 0.1, 0.7, -0.2, 0.05, 0.3, -0.1, 0.02;
  MatX jacobian;
  ASSERT_TRUE(cubic.Evaluate(aft, 3.0, x, f, &jacobian, nullptr).ok);
  EXPECT_LT((jacobian - CentralDifferenceJacobian(cubic, aft, 3.0, x, 1e-5)).cwiseAbs().maxCoeff(),
            1e-9);
}

// The Jenkins element at N = 1024 against its closed-form describing function, from stuck
// to deep slip. The march samples the reversal up to half a sample early, and the force
// has kinks between samples: both are O(h^2), h = 2 pi / N, relative to k_t A.
TEST(MarchedForce, JenkinsMatchesTheDescribingFunction) {
  const HarmonicBasis basis{.harmonics = 1};
  Aft aft(basis, 1024);
  const double k_t = 2.0e5, f_s = 10.0;  // N/m, N: F_s / k_t = 50 um
  auto jenkins = Jenkins(k_t, f_s);
  double worst = 0.0;  // largest error relative to |nu X|
  for (double amplitude : {2e-5, 5e-5, 6e-5, 1e-4, 3e-4, 1e-3, 1e-2}) {
    for (double phase : {0.0, 0.123, 2.0}) {
      const std::complex<double> x = std::polar(amplitude, phase);
      MatX f;
      ASSERT_TRUE(jenkins->Evaluate(aft, 10.0, FirstHarmonic(basis, x), f, nullptr, nullptr).ok);
      const std::complex<double> expected =
          testing::JenkinsDescribingFunction(k_t, f_s, amplitude) * x;
      const double error = std::abs(FirstHarmonicOf(basis, f) - expected);
      worst = std::max(worst, error / std::abs(expected));
      const double h = 2 * kPi / 1024;
      EXPECT_LT(error, 0.5 * h * h * k_t * amplitude + 1e-12 * f_s)
          << "A = " << amplitude << ", phase = " << phase;
      // The first period starts from the virgin slider at r(0) and follows the steady loop
      // from its first slip on, so the second period is the loop and the third at the
      // latest confirms it.
      EXPECT_LE(jenkins->last_periods(), 3);
    }
  }
  std::printf("Jenkins AFT (N = 1024) against the describing function: %.2e relative\n", worst);
}

// 2D Jenkins on a circular orbit s = R (cos theta, sin theta), k_t R > F_s: in the steady
// state the slider runs on a circle of radius R cos(delta) behind the orbit, with
// sin(delta) = F_s / (k_t R), and the force is F_s times the unit vector perpendicular to
// the slider's position, f = F_s (-sin(theta - delta), cos(theta - delta)). The march's
// return mapping cuts the arc between samples into a chord, an O(h) error (first order:
// doubling N halves it).
TEST(MarchedForce, TwoDimensionalJenkinsOnACircle) {
  const HarmonicBasis basis{.harmonics = 1};
  const double k_t = 1e5, f_s = 3.0, radius = 1e-4;
  const double delta = std::asin(f_s / (k_t * radius));
  double previous_error = 0.0;
  for (int n : {256, 512, 1024, 2048}) {
    Aft aft(basis, n);
    auto jenkins = Jenkins(k_t, f_s, 2);
    MatX x = MatX::Zero(basis.size(), 2);
    x(1, 0) = radius;  // cos in x
    x(2, 1) = radius;  // sin in y
    MatX f;
    ASSERT_TRUE(jenkins->Evaluate(aft, 1.0, x, f, nullptr, nullptr).ok);
    // -F_s sin(theta - delta) = -F_s cos(delta) sin(theta) + F_s sin(delta) cos(theta).
    const double error = std::max(
        {std::abs(f(1, 0) - f_s * std::sin(delta)), std::abs(f(2, 0) + f_s * std::cos(delta)),
         std::abs(f(1, 1) - f_s * std::cos(delta)), std::abs(f(2, 1) - f_s * std::sin(delta))});
    std::printf("2D Jenkins on a circle, N = %4d: error %.3e N (%.2e of F_s), %d periods\n", n,
                error, error / f_s, jenkins->last_periods());
    EXPECT_LT(error, 2.0 * kPi / n * f_s);
    if (previous_error > 0.0) {
      EXPECT_NEAR(previous_error / error, 2.0, 0.2);  // first order
    }
    previous_error = error;
  }
}

// Dahl's slider approaches its loop geometrically: the march needs many periods, reports
// them, and fails with a message when max_periods is too small.
TEST(MarchedForce, DahlLoopNeedsMoreThanTwoPeriods) {
  const HarmonicBasis basis{.harmonics = 3};
  Aft aft(basis, 256);
  auto law =
      std::make_shared<laws::DahlValanisLaw>(laws::DahlParams{.c1 = 1e5, .c2 = 0.0, .mu = 1.0}, 1);
  MarchedForce dahl(std::make_unique<TangentialKernel>(law, 5.0), {});
  MatX x = MatX::Zero(basis.size(), 1);
  x(0, 0) = 2e-5;  // a static offset: the virgin start is far from the loop's centre
  x(1, 0) = 3e-5;
  MatX f;
  ASSERT_TRUE(dahl.Evaluate(aft, 1.0, x, f, nullptr, nullptr).ok);
  std::printf("Dahl: loop closed after %d periods\n", dahl.last_periods());
  EXPECT_GT(dahl.last_periods(), 2);
  // The closed loop is centred: a symmetric drive around the offset gives no static force.
  EXPECT_NEAR(f(0, 0), 0.0, 1e-8 * 5.0);
  MarchedForce impatient(std::make_unique<TangentialKernel>(law, 5.0),
                         {.closure_tolerance = 1e-10, .max_periods = 2});
  const Status status = impatient.Evaluate(aft, 1.0, x, f, nullptr, nullptr);
  EXPECT_FALSE(status.ok);
  EXPECT_NE(status.message.find("did not close within 2 periods"), std::string::npos)
      << status.message;
}

// The node-to-node element (seed 004, eq. 13-14): at a constant normal approach it is the
// Jenkins element with F_s = mu (n0 + k_n v); with a normal motion that opens the contact
// the normal force is max(n0 + k_n v, 0) sample by sample and the friction vanishes while
// open.
TEST(MarchedForce, NodeToNodeContactWithNormalLoadVariation) {
  const HarmonicBasis basis{.harmonics = 3};
  Aft aft(basis, 512);
  const laws::NodeToNodeParams params{.k_t = 1e5, .k_n = 2e5, .mu = 0.5, .n0 = 10.0};
  MarchedForce contact(std::make_unique<ContactKernel>(laws::MakeNodeToNodeElement(params, 1)), {});
  MatX x = MatX::Zero(basis.size(), 2);
  x(1, 0) = 2e-4;  // tangential cos
  x(0, 1) = 1e-5;  // constant approach: normal force 10 + 2 = 12 N
  MatX f;
  ASSERT_TRUE(contact.Evaluate(aft, 2.0, x, f, nullptr, nullptr).ok);
  auto jenkins = Jenkins(params.k_t, params.mu * 12.0);
  MatX f_jenkins;
  ASSERT_TRUE(jenkins->Evaluate(aft, 2.0, x.leftCols(1), f_jenkins, nullptr, nullptr).ok);
  EXPECT_LT((f.col(0) - f_jenkins).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_NEAR(f(0, 1), 12.0, 1e-12);

  // Normal motion v = 1e-4 sin(theta): open while n0 + k_n v < 0, i.e. sin < -0.5.
  x(2, 1) = 1e-4;
  ASSERT_TRUE(contact.Evaluate(aft, 2.0, x, f, nullptr, nullptr).ok);
  const MatX& samples = contact.force_samples();
  for (int j = 0; j < 512; ++j) {
    const double theta = 2 * kPi * j / 512;
    const double v = 1e-5 + 1e-4 * std::sin(theta);
    const double normal = std::max(params.n0 + params.k_n * v, 0.0);
    ASSERT_NEAR(samples(j, 1), normal, 1e-12) << "sample " << j;
    ASSERT_LE(std::abs(samples(j, 0)), params.mu * normal + 1e-12) << "sample " << j;
  }
  EXPECT_EQ(samples.col(1).minCoeff(), 0.0);  // it does separate
}

// The Jacobian with the history sensitivity is the derivative of the discrete march: it
// matches central differences (away from a change of the sample at which a transition
// happens, which moves by less than the step here) to about 1e-7 of its largest entry.
// Without the history term it misses -k_t E_r per stick sample (r: the last slip sample):
// the difference is of the order of the entries themselves.
TEST(MarchedForce, JacobianWithHistorySensitivityMatchesDifferences) {
  const HarmonicBasis basis{.harmonics = 3};
  Aft aft(basis, 512);
  MatX x(basis.size(), 1);
  x << 1e-5, 2e-4, -5e-5, 1e-5, 3e-5, -2e-5, 1e-5;
  for (bool history : {true, false}) {
    auto jenkins =
        Jenkins(1e5, 8.0, 1,
                {.closure_tolerance = 1e-10, .max_periods = 100, .history_sensitivity = history});
    MatX f, jacobian;
    ASSERT_TRUE(jenkins->Evaluate(aft, 1.0, x, f, &jacobian, nullptr).ok);
    const MatX reference = CentralDifferenceJacobian(*jenkins, aft, 1.0, x, 1e-11);
    const double error = (jacobian - reference).cwiseAbs().maxCoeff();
    const double size = reference.cwiseAbs().maxCoeff();
    std::printf("Jenkins AFT Jacobian, history sensitivity %s: max error %.2e of %.2e\n",
                history ? "on " : "off", error, size);
    if (history) {
      EXPECT_LT(error, 1e-6 * size);
    } else {
      EXPECT_GT(error, 0.05 * size);
    }
  }
}

// Dahl has no exact history sensitivity: the march differences the law in its committed
// history (central, relative step 1e-6): measured 7e-10 of the largest entry.
TEST(MarchedForce, DahlJacobianWithDifferencedHistoryMatchesDifferences) {
  const HarmonicBasis basis{.harmonics = 3};
  Aft aft(basis, 512);
  auto law =
      std::make_shared<laws::DahlValanisLaw>(laws::DahlParams{.c1 = 1e5, .c2 = 1e3, .mu = 1.0}, 1);
  MarchedForce dahl(std::make_unique<TangentialKernel>(law, 5.0),
                    {.closure_tolerance = 1e-13, .max_periods = 500});
  MatX x(basis.size(), 1);
  x << 1e-5, 2e-4, -5e-5, 1e-5, 3e-5, -2e-5, 1e-5;
  MatX f, jacobian;
  ASSERT_TRUE(dahl.Evaluate(aft, 1.0, x, f, &jacobian, nullptr).ok);
  const MatX reference = CentralDifferenceJacobian(dahl, aft, 1.0, x, 1e-10);
  const double error = (jacobian - reference).cwiseAbs().maxCoeff();
  const double size = reference.cwiseAbs().maxCoeff();
  std::printf("Dahl AFT Jacobian, differenced history: max error %.2e of %.2e (%d periods)\n",
              error, size, dahl.last_periods());
  EXPECT_LT(error, 1e-8 * size);
}

// The same for the contact element with normal load variation and separation (the
// slider's limit mu p depends on the normal input, and the open phase resets the slider),
// in 2D with a tangential orbit.
TEST(MarchedForce, ContactJacobianWithHistorySensitivityMatchesDifferences) {
  const HarmonicBasis basis{.harmonics = 2};
  Aft aft(basis, 512);
  const laws::NodeToNodeParams params{.k_t = 1e5, .k_n = 2e5, .mu = 0.5, .n0 = 10.0};
  MarchedForce contact(std::make_unique<ContactKernel>(laws::MakeNodeToNodeElement(params, 2)), {});
  MatX x = MatX::Zero(basis.size(), 3);
  x.col(0) << 1e-6, 1e-4, 2e-5, 1e-5, 0.0;
  x.col(1) << 0.0, 3e-5, 6e-5, 0.0, 1e-5;
  x.col(2) << 1e-5, 2e-5, 7e-5, 5e-6, 0.0;
  MatX f, jacobian;
  ASSERT_TRUE(contact.Evaluate(aft, 1.0, x, f, &jacobian, nullptr).ok);
  EXPECT_EQ(contact.force_samples().col(2).minCoeff(), 0.0);  // it separates
  const MatX reference = CentralDifferenceJacobian(contact, aft, 1.0, x, 1e-11);
  const double error = (jacobian - reference).cwiseAbs().maxCoeff();
  const double size = reference.cwiseAbs().maxCoeff();
  std::printf("2D contact AFT Jacobian: max error %.2e of %.2e\n", error, size);
  EXPECT_LT(error, 1e-6 * size);
}

// A contact pair of a joint (PairKernel: the pair kernel of the joint operator) with a
// three-parameter Coulomb law, an initial penetration, a preloaded history (slider and
// offset s*) and a motion that slides and opens part of the period: the exact Jacobian
// (through the offset and the closing between samples as well) against central
// differences; and a stuck motion about the
// preloaded state against the closed form of the stick branch.
TEST(MarchedForce, JointPairJacobianWithOffsetsMatchesDifferences) {
  const HarmonicBasis basis{.harmonics = 2};
  Aft aft(basis, 512);
  const auto pair = std::make_shared<const laws::ContactPair>(
      std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{5e13}),
      std::make_shared<laws::CoulombLaw>(laws::CoulombParams{9.5e12, 5e11, 0.15}, 2), 0.0);
  const double area = 1e-6, g0 = -1e-8;                            // [m^2], [m]: p0 = 5e5 Pa
  const std::vector<double> history{2e-9, -1e-9, 3e-9, 1e-9, g0};  // slider, offset, gap [m]
  MarchedForce element(std::make_unique<PairKernel>(pair, g0, area, history), {});
  MatX x = MatX::Zero(basis.size(), 3);
  x.col(0) << 4e-9, 1e-8, 2e-9, 1e-9, 0.0;
  x.col(1) << 1e-9, 3e-9, 6e-9, 0.0, 1e-9;
  x.col(2) << 0.0, 2e-8, 7e-9, 5e-10, 0.0;
  MatX f, jacobian;
  ASSERT_TRUE(element.Evaluate(aft, 1.0, x, f, &jacobian, nullptr).ok);
  EXPECT_EQ(element.force_samples().col(2).maxCoeff(), 0.0);  // it opens (force -A p)
  const MatX reference = CentralDifferenceJacobian(element, aft, 1.0, x, 1e-17);
  const double error = (jacobian - reference).cwiseAbs().maxCoeff();
  const double size = reference.cwiseAbs().maxCoeff();
  std::printf("joint pair AFT Jacobian: max error %.2e of %.2e\n", error, size);
  EXPECT_LT(error, 1e-6 * size);

  // Stuck about the preloaded state: tau = c1 (s - slider) + c2 s, s = u - s*, p = -eps g.
  MatX small = MatX::Zero(basis.size(), 3);
  small(1, 0) = small(2, 1) = small(1, 2) = 1e-12;
  ASSERT_TRUE(element.Evaluate(aft, 1.0, small, f, nullptr, nullptr).ok);
  EXPECT_NEAR(f(0, 0), area * (9.5e12 * (-3e-9 - 2e-9) + 5e11 * -3e-9), 1e-9);
  EXPECT_NEAR(f(0, 1), area * (9.5e12 * (-1e-9 + 1e-9) + 5e11 * -1e-9), 1e-9);
  EXPECT_NEAR(f(0, 2), -area * 5e13 * 1e-8, 1e-9);
  EXPECT_NEAR(f(1, 0), area * 1e13 * 1e-12, 1e-9);  // stick stiffness c1 + c2
  EXPECT_NEAR(f(2, 1), area * 1e13 * 1e-12, 1e-9);
  EXPECT_NEAR(f(1, 2), area * 5e13 * 1e-12, 1e-9);  // -A p, p = -eps (g0 + un)
}

// One pair of the seed's law (penalty 5e13 Pa/m; Coulomb c1 9.5e12, c2 5e11 Pa/m, mu 0.15)
// of area kSeedPairArea, unpreloaded (virgin history at the contact onset), and its orbit
// u1 = a cos(theta), u2 = (a / 2) sin(theta), un = mean + b cos(theta - 1) with
// a = b = kSeedPairOrbit (the mean x(0, 2) left 0).
constexpr double kSeedPairArea = 1e-6, kSeedPairOrbit = 1e-8;  // [m^2], [m]

MarchedForce UnpreloadedSeedPair() {
  const auto pair = std::make_shared<const laws::ContactPair>(
      std::make_shared<laws::LinearPenaltyLaw>(laws::LinearPenaltyParams{5e13}),
      std::make_shared<laws::CoulombLaw>(laws::CoulombParams{9.5e12, 5e11, 0.15}, 2), 0.0);
  std::vector<double> virgin(pair->state_size());
  pair->InitState(virgin);
  return MarchedForce(std::make_unique<PairKernel>(pair, 0.0, kSeedPairArea, virgin), {});
}

MatX SeedPairOrbit(const HarmonicBasis& basis) {
  MatX x = MatX::Zero(basis.size(), 3);
  x(1, 0) = kSeedPairOrbit;
  x(2, 1) = 0.5 * kSeedPairOrbit;
  x(1, 2) = kSeedPairOrbit * std::cos(1.0);
  x(2, 2) = kSeedPairOrbit * std::sin(1.0);
  return x;
}

// An unpreloaded pair (virgin history at the contact onset) pressed over the whole period
// keeps no offset from the start (PairKernel::PeriodicStart): where its largest gap reaches
// the onset the force coefficients are continuous with the pair that opens at one sample
// (from the start's offset they jumped by about c2 A u(t*)), and the Jacobian, through the
// start's dependence on the samples, matches central differences.
TEST(MarchedForce, UnpressedPairPressedOverThePeriodIsContinuousWhereItStartsToOpen) {
  const HarmonicBasis basis{.harmonics = 2};
  const int n = 256;
  Aft aft(basis, n);
  const double area = kSeedPairArea, a = kSeedPairOrbit, b = kSeedPairOrbit;
  MarchedForce element = UnpreloadedSeedPair();
  MatX x = SeedPairOrbit(basis);
  double top = -1.0;  // the largest sample of cos(theta_j - 1)
  for (int j = 0; j < n; ++j) top = std::max(top, std::cos(2.0 * kPi * j / n - 1.0));
  // The change of the tangential force coefficients between mean normal positions just
  // below and above the one where the largest gap sample reaches the onset (the normal one
  // moves by eps A 2 epsilon, smoothly).
  auto change = [&](double epsilon) {
    MatX pressed, opening;
    x(0, 2) = -b * top - epsilon;
    EXPECT_TRUE(element.Evaluate(aft, 1.0, x, pressed, nullptr, nullptr).ok);
    EXPECT_LT(element.force_samples().col(2).maxCoeff(), 0.0);  // pressed throughout
    x(0, 2) = -b * top + epsilon;
    EXPECT_TRUE(element.Evaluate(aft, 1.0, x, opening, nullptr, nullptr).ok);
    EXPECT_EQ(element.force_samples().col(2).maxCoeff(), 0.0);  // open at one sample
    return (opening - pressed).leftCols(2).cwiseAbs().maxCoeff();
  };
  const double coarse = change(1e-6 * b), fine = change(1e-7 * b);
  const double from_start = 5e11 * area * a * std::cos(1.0);  // c2 A u(t*), offset 0 at rest
  std::printf(
      "pair opening at one sample: tangential force coefficients change by %.2e N "
      "(+-1e-6 b) and %.2e N (+-1e-7 b); from the start's offset: about %.2e N\n",
      coarse, fine, from_start);
  EXPECT_LT(fine, 0.2 * coarse);  // linear in the distance: continuous
  EXPECT_LT(coarse, 1e-3 * from_start);

  // Pressed, the weights spanning several samples about the largest gap; it slips in part.
  x(0, 2) = -b * top - 0.05 * b;
  MatX f, jacobian;
  ASSERT_TRUE(element.Evaluate(aft, 1.0, x, f, &jacobian, nullptr).ok);
  const MatX reference = CentralDifferenceJacobian(element, aft, 1.0, x, 1e-17);
  const double error = (jacobian - reference).cwiseAbs().maxCoeff();
  std::printf("pressed pair AFT Jacobian: max error %.2e of %.2e\n", error,
              reference.cwiseAbs().maxCoeff());
  EXPECT_LT(error, 1e-6 * reference.cwiseAbs().maxCoeff());
}

// A pair open most of the period that closes for a few samples (seed's Coulomb law, c2 > 0):
// where the closed window gains a sample at its closing or at its opening end the tangential
// force coefficients change linearly in the distance (continuous). Without the released
// traction at the first open sample they jumped by about c2 A times the slip over the
// window when it grew at the opening end (1.7e-6 and 3.1e-6 N here, c2 A a = 5e-3 N).
// The Jacobian with a released traction in the march against central differences.
TEST(MarchedForce, PairClosingForAFewSamplesIsContinuousWhereTheWindowGrows) {
  const HarmonicBasis basis{.harmonics = 2};
  const int n = 256;
  Aft aft(basis, n);
  const double b = kSeedPairOrbit;
  MarchedForce element = UnpreloadedSeedPair();
  MatX x = SeedPairOrbit(basis);  // closed where cos(theta - 1) is smallest
  std::vector<double> lowest(n);
  for (int j = 0; j < n; ++j) lowest[j] = std::cos(2.0 * kPi * j / n - 1.0);
  std::sort(lowest.begin(), lowest.end());
  for (int k = 1; k <= 4; ++k) {  // k -> k + 1 closed samples
    auto change = [&](double epsilon) {
      MatX fewer, more;
      x(0, 2) = -b * lowest[k] - epsilon;
      EXPECT_TRUE(element.Evaluate(aft, 1.0, x, fewer, nullptr, nullptr).ok);
      x(0, 2) = -b * lowest[k] + epsilon;
      EXPECT_TRUE(element.Evaluate(aft, 1.0, x, more, nullptr, nullptr).ok);
      return (more - fewer).leftCols(2).cwiseAbs().maxCoeff();
    };
    const double coarse = change(1e-6 * b), fine = change(1e-7 * b);
    std::printf(
        "closed samples %d -> %d: tangential force coefficients change by %.2e N "
        "(+-1e-6 b) and %.2e N (+-1e-7 b)\n",
        k, k + 1, coarse, fine);
    EXPECT_LT(fine, 0.2 * coarse) << k;  // linear in the distance: continuous
  }
  x(0, 2) = -b * lowest[3] + 0.3 * b * (lowest[4] - lowest[3]);  // 4 samples, between
  MatX f, jacobian;
  ASSERT_TRUE(element.Evaluate(aft, 1.0, x, f, &jacobian, nullptr).ok);
  const MatX reference = CentralDifferenceJacobian(element, aft, 1.0, x, 1e-17);
  const double error = (jacobian - reference).cwiseAbs().maxCoeff();
  std::printf("pair closing for 4 samples, AFT Jacobian: max error %.2e of %.2e\n", error,
              reference.cwiseAbs().maxCoeff());
  EXPECT_LT(error, 1e-6 * reference.cwiseAbs().maxCoeff());
}

// A pair that opens once per period (its main window) and whose gap has a second, lower
// peak that grazes the onset at one sample (un = mean + b (cos(theta) + 0.9 cos(2 theta)):
// the second peak at theta = pi, a sample). The seed's law with c2 > 0 carries c2 (u - s*)
// at vanishing pressure, and a full reset of the offset at any opening made the tangential
// force coefficients jump by 3.4e-3 N (c2 A (u(pi) - s*)) as the second peak crossed the
// onset (the g = 60 friction bar's stop at 41.23 Hz). The march resets in proportion to how long
// the pair was open (PairKernel: rho = the open time in sample intervals, at most 1), so the force
// coefficients change linearly in the distance; and the Jacobian of a one-sample opening
// matches central differences in the tangential coefficients' columns (rho's derivative,
// through the gaps, is left out: ColumnErrors).
TEST(MarchedForce, PairGrazingTheOnsetAtOneSampleIsContinuous) {
  const HarmonicBasis basis{.harmonics = 2};
  const int n = 256;
  Aft aft(basis, n);
  const double b = kSeedPairOrbit;
  MarchedForce element = UnpreloadedSeedPair();
  MatX x = SeedPairOrbit(basis);
  x(1, 2) = b;
  x(2, 2) = 0.0;
  x(3, 2) = 0.9 * b;                        // cos(2 theta)
  const double second_peak = -b + 0.9 * b;  // sample n / 2
  auto change = [&](double epsilon) {
    MatX closed, open;
    x(0, 2) = -second_peak - epsilon;
    EXPECT_TRUE(element.Evaluate(aft, 1.0, x, closed, nullptr, nullptr).ok);
    EXPECT_LT(element.force_samples()(n / 2, 2), 0.0);
    x(0, 2) = -second_peak + epsilon;
    EXPECT_TRUE(element.Evaluate(aft, 1.0, x, open, nullptr, nullptr).ok);
    EXPECT_EQ(element.force_samples()(n / 2, 2), 0.0);
    return (open - closed).leftCols(2).cwiseAbs().maxCoeff();
  };
  const double coarse = change(1e-6 * b), fine = change(1e-7 * b);
  const double full_reset = 5e11 * kSeedPairArea * kSeedPairOrbit;  // c2 A a
  std::printf(
      "second gap peak grazing the onset: tangential force coefficients change by %.2e N "
      "(+-1e-6 b) and %.2e N (+-1e-7 b); c2 A a = %.2e N\n",
      coarse, fine, full_reset);
  // Linear in the distance: continuous (with a full reset 3.4e-3 N at both distances). Steep:
  // the open fraction grows from 0 to 1 over the gap's drop to the neighbouring samples
  // (1.3 (2 pi / n)^2 b = 7.8e-12 m), of which 1e-6 b is 1.3e-3.
  EXPECT_LT(fine, 0.2 * coarse);
  EXPECT_LT(coarse, 1e-2 * full_reset);

  x(0, 2) = -second_peak + 0.3 * b * (1.0 - std::cos(2.0 * kPi / n));  // open at one sample
  MatX f, jacobian;
  ASSERT_TRUE(element.Evaluate(aft, 1.0, x, f, &jacobian, nullptr).ok);
  EXPECT_EQ(element.force_samples()(n / 2, 2), 0.0);
  EXPECT_LT(element.force_samples()(n / 2 + 1, 2), 0.0);
  const MatX reference = CentralDifferenceJacobian(element, aft, 1.0, x, 1e-17);
  const Vec2 error = ColumnErrors(jacobian, reference, basis.size());
  std::printf(
      "pair open at one sample, AFT Jacobian: relative error %.2e in the tangential columns, "
      "%.2e in the normal ones (rho's derivative left out)\n",
      error(0), error(1));
  EXPECT_LT(error(0), 1e-6);
}

// The unpreloaded seed pair's AFT Jacobian against central differences on orbits with
// three harmonics whose gaps cross the onset several times a period at various depths:
// closings, one-sample openings (the proportional reset) and longer ones mixed. Exact in
// the tangential coefficients' columns; in the normal ones it lacks rho's derivative.
TEST(MarchedForce, JointPairJacobianMatchesDifferencesOnOrbitsWithManyWindows) {
  const HarmonicBasis basis{.harmonics = 3};
  const int n = 64;
  Aft aft(basis, n);
  MarchedForce element = UnpreloadedSeedPair();
  std::srand(7);
  Vec2 worst = Vec2::Zero();
  int single = 0;  // samples open alone between two closed ones
  for (int trial = 0; trial < 40; ++trial) {
    MatX x = 1e-8 * MatX::Random(basis.size(), 3);
    // The mean normal position: a random local peak of the gap a random fraction of its drop
    // to the higher neighbouring sample above the onset (open there for one sample).
    x(0, 2) = 0.0;
    VecX gap(n);
    aft.ToTime(x.col(2), gap);
    std::vector<int> peaks;
    for (int j = 0; j < n; ++j)
      if (gap(j) > gap((j + n - 1) % n) && gap(j) > gap((j + 1) % n)) peaks.push_back(j);
    const int top = peaks[std::rand() % peaks.size()];
    const double drop = gap(top) - std::max(gap((top + n - 1) % n), gap((top + 1) % n));
    x(0, 2) = -gap(top) + drop * (0.05 + 0.9 * std::rand() / RAND_MAX);
    MatX f, jacobian;
    ASSERT_TRUE(element.Evaluate(aft, 1.0, x, f, &jacobian, nullptr).ok);
    const VecX normal = element.force_samples().col(2);
    for (int j = 0; j < n; ++j)
      single += normal(j) == 0.0 && normal((j + n - 1) % n) < 0.0 && normal((j + 1) % n) < 0.0;
    const MatX reference = CentralDifferenceJacobian(element, aft, 1.0, x, 1e-17);
    worst = worst.cwiseMax(ColumnErrors(jacobian, reference, basis.size()));
  }
  std::printf(
      "pair on 40 orbits (%d one-sample openings), AFT Jacobian: worst relative error %.2e in "
      "the tangential columns, %.2e in the normal ones (rho's derivative left out)\n",
      single, worst(0), worst(1));
  EXPECT_GT(single, 5);
  EXPECT_LT(worst(0), 1e-6);
}

// d f / d omega of a normal law with a gap-rate term (the velocity inputs, omega-scaled)
// against central differences in omega.
TEST(MarchedForce, FrequencyDerivativeOfVelocityTerms) {
  const HarmonicBasis basis{.harmonics = 2};
  Aft aft(basis, 256);
  auto normal = std::make_shared<laws::LankaraniNikraveshLaw>(
      laws::LankaraniNikraveshParams{.k_c = 1e6, .n = 1.5, .d_c = 50.0, .chi = 0.0});
  auto tangential = std::make_shared<laws::CoulombLaw>(laws::CoulombParams{1e5, 0.0, 0.3}, 1);
  MarchedForce contact(std::make_unique<ContactKernel>(laws::ContactPoint(normal, tangential)), {});
  MatX x = MatX::Zero(basis.size(), 2);
  x.col(0) << 0.0, 1e-4, 0.0, 0.0, 1e-5;
  x.col(1) << 2e-5, 1e-5, 1e-5, 0.0, 0.0;
  MatX f, d_omega, plus, minus;
  const double omega = 50.0, step = 1e-4;
  ASSERT_TRUE(contact.Evaluate(aft, omega, x, f, nullptr, &d_omega).ok);
  ASSERT_TRUE(contact.Evaluate(aft, omega + step, x, plus, nullptr, nullptr).ok);
  ASSERT_TRUE(contact.Evaluate(aft, omega - step, x, minus, nullptr, nullptr).ok);
  const MatX reference = (plus - minus) / (2 * step);
  // The damping term d_c v_dot = d_c omega E' X does depend on omega: d f / d omega is
  // about d_c |X| = 5e-4 N s.
  EXPECT_GT(reference.cwiseAbs().maxCoeff(), 2e-4);
  EXPECT_LT((d_omega - reference).cwiseAbs().maxCoeff(), 1e-6 * reference.cwiseAbs().maxCoeff());
}

}  // namespace
}  // namespace jointdyn::harmonic
