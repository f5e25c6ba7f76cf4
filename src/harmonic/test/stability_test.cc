// Hill's method (stability.h) with velocity-dependent element forces: their rate Jacobian
// enters Delta_1, so a viscous damper given as an element gives the same exponents as the
// same damper in C, and both the closed form of the linear oscillator.
#include "harmonic/stability.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "harmonic/continuation.h"
#include "harmonic/test/dense_system.h"

namespace jointdyn::harmonic {
namespace {

// Test-only memoryless viscous kernel f = c r_dot [N], c in N s/m.
class ViscousKernel final : public PointKernel {
 public:
  explicit ViscousKernel(double c) : c_(c) {}
  int num_inputs() const override { return 1; }
  int state_size() const override { return 0; }
  bool dt_dependent() const override { return false; }
  bool uses_rates() const override { return true; }
  void InitState(std::span<double>) const override {}
  Status Evaluate(const KernelInput& in, std::span<const double>, std::span<double>,
                  KernelResponse& out) const override {
    out.force.setConstant(1, c_ * in.r_dot(0));
    out.d_force_d_r.setZero(1, 1);
    out.d_force_d_r_dot.setConstant(1, 1, c_);
    return Status::Ok();
  }

 private:
  double c_;
};

struct Exponents {
  Eigen::VectorXcd values;  // sorted by imaginary, then real part
  double max_real = 0.0;
};

// m x'' + c x' + k x = P cos(omega t) with the damping c in C (as_element false) or as a
// ViscousKernel element to ground (C = 0), H = 3: the periodic solution and its Hill
// exponents.
Exponents SdofExponents(bool as_element, double m, double c, double k, double omega) {
  HarmonicSystem system = DenseSystem(
      MatX::Constant(1, 1, m), MatX::Constant(1, 1, as_element ? 0.0 : c), MatX::Constant(1, 1, k));
  system.excitation = {{.dof = 0, .harmonic = 1, .cos_amplitude = 1.0}};
  // A zero element keeps the system nonlinear in form (and the DOF uncondensed) without C.
  system.elements.push_back(
      Between(std::make_unique<MarchedForce>(std::make_unique<ViscousKernel>(as_element ? c : 0.0),
                                             MarchOptions{}),
              {0}, {-1}));
  HarmonicBalance hb(std::move(system), {.basis = {.harmonics = 3}, .samples = 16});
  const PeriodicResult solved = SolvePeriodic(hb, omega, 1.0, PeriodicOptions{});
  EXPECT_TRUE(solved.status) << solved.status.message;
  MatX jacobian, rate_jacobian;
  EXPECT_TRUE(hb.FullJacobian(solved.point.coefficients, omega, jacobian));
  EXPECT_TRUE(hb.FullRateJacobian(solved.point.coefficients, omega, rate_jacobian));
  const HillResult hill = HillExponents(hb.system().mass, hb.system().damping, hb.basis(), omega,
                                        jacobian, rate_jacobian);
  EXPECT_TRUE(hill.status) << hill.status.message;
  Exponents e{hill.exponents, hill.max_real};
  std::sort(e.values.begin(), e.values.end(), [](auto a, auto b) {
    return a.imag() != b.imag() ? a.imag() < b.imag() : a.real() < b.real();
  });
  return e;
}

// The linear oscillator's Floquet exponents are -c / (2 m) +- i sqrt(k / m - (c / 2m)^2)
// (shifted by i k omega in Hill's truncation): the real part is exactly -c / (2 m) = -1.5
// 1/s. Without the rate Jacobian in Delta_1 the element's damping enters J only (as
// omega c nabla, the part through p'), and the element model's exponents come out at
// -1.14 +- 38.12 i 1/s here.
TEST(HillStability, VelocityDependentElementEqualsTheDampingMatrix) {
  const double m = 2.0, c = 6.0, k = 5e4, omega = 120.0;
  const Exponents matrix = SdofExponents(false, m, c, k, omega);
  const Exponents element = SdofExponents(true, m, c, k, omega);
  ASSERT_EQ(matrix.values.size(), 2);
  ASSERT_EQ(element.values.size(), 2);
  const double scale = std::sqrt(k / m);
  for (int i = 0; i < 2; ++i) {
    std::printf("exponent %d: damping matrix %.12f %+.12f i, element %.12f %+.12f i\n", i,
                matrix.values(i).real(), matrix.values(i).imag(), element.values(i).real(),
                element.values(i).imag());
    EXPECT_LT(std::abs(matrix.values(i) - element.values(i)), 1e-8 * scale);
    EXPECT_NEAR(matrix.values(i).real(), -c / (2.0 * m), 1e-8 * scale);
    EXPECT_NEAR(element.values(i).real(), -c / (2.0 * m), 1e-8 * scale);
  }
  // The imaginary parts are the damped frequency modulo omega.
  const double damped = std::sqrt(k / m - c * c / (4.0 * m * m));
  for (int i = 0; i < 2; ++i) {
    const double shifted = std::remainder(element.values(i).imag() - damped, omega);
    const double mirrored = std::remainder(element.values(i).imag() + damped, omega);
    EXPECT_LT(std::min(std::abs(shifted), std::abs(mirrored)), 1e-8 * scale);
  }
}

}  // namespace
}  // namespace jointdyn::harmonic
