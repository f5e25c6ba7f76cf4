// AFT transforms: round trip, Parseval, the derivative matrix, odd-only bases, and
// transforms of signals whose Fourier series is known in closed form.
#include "harmonic/fourier.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

namespace jointdyn::harmonic {
namespace {

constexpr double kPi = std::numbers::pi;

VecX RandomCoefficients(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  VecX c(n);
  for (int i = 0; i < n; ++i) c(i) = uniform(rng);
  return c;
}

// The series evaluated term by term (independent of FFTW).
double Series(const HarmonicBasis& basis, const VecX& c, double theta) {
  double x = basis.has_static() ? c(0) : 0.0;
  for (int pair = 0; pair < basis.num_pairs(); ++pair) {
    const int k = basis.PairHarmonic(pair);
    x += c(basis.CosIndex(pair)) * std::cos(k * theta) +
         c(basis.CosIndex(pair) + 1) * std::sin(k * theta);
  }
  return x;
}

TEST(HarmonicBasis, LayoutOfFullAndOddBases) {
  const HarmonicBasis full{.harmonics = 3};
  EXPECT_EQ(full.size(), 7);  // c0, a1, b1, a2, b2, a3, b3
  EXPECT_EQ(full.CosIndex(2), 5);
  EXPECT_EQ(full.HarmonicOf(0), 0);
  EXPECT_EQ(full.HarmonicOf(4), 2);
  EXPECT_EQ(full.HarmonicOf(6), 3);
  const HarmonicBasis odd{.harmonics = 5, .odd_only = true};
  EXPECT_EQ(odd.size(), 6);  // a1, b1, a3, b3, a5, b5
  EXPECT_EQ(odd.PairHarmonic(2), 5);
  EXPECT_EQ(odd.HarmonicOf(0), 1);
  EXPECT_EQ(odd.HarmonicOf(3), 3);
  EXPECT_TRUE(odd.Contains(3));
  EXPECT_FALSE(odd.Contains(2));
  EXPECT_FALSE(odd.Contains(0));
  EXPECT_TRUE(full.Contains(0));
  EXPECT_FALSE(full.Contains(4));
}

TEST(HarmonicBasis, ValidateNamesTheRule) {
  EXPECT_TRUE(HarmonicBasis{.harmonics = 0}.Validate().ok);
  const Status negative = HarmonicBasis{.harmonics = -1}.Validate();
  EXPECT_FALSE(negative.ok);
  EXPECT_NE(negative.message.find("harmonic.harmonics = -1"), std::string::npos)
      << negative.message;
  const Status even = HarmonicBasis{.harmonics = 4, .odd_only = true}.Validate();
  EXPECT_FALSE(even.ok);
  EXPECT_NE(even.message.find("must be odd"), std::string::npos) << even.message;
}

// Samples of a random series against the term-by-term sum, and back to the same
// coefficients: both are exact up to rounding (1e-13 on O(1) coefficients).
TEST(Aft, RoundTripIsExact) {
  for (const HarmonicBasis& basis :
       {HarmonicBasis{.harmonics = 1}, HarmonicBasis{.harmonics = 7},
        HarmonicBasis{.harmonics = 9, .odd_only = true}, HarmonicBasis{.harmonics = 0}}) {
    for (int n : {2 * basis.harmonics + 1, 64, 1024}) {
      Aft aft(basis, n);
      const VecX c = RandomCoefficients(basis.size(), 7u + n);
      VecX x(n);
      aft.ToTime(c, x);
      for (int j = 0; j < n; ++j) {
        ASSERT_NEAR(x(j), Series(basis, c, 2 * kPi * j / n), 1e-13) << "N = " << n;
      }
      VecX back(basis.size());
      aft.ToFrequency(x, back);
      EXPECT_LT((back - c).cwiseAbs().maxCoeff(), 1e-13)
          << "H = " << basis.harmonics << ", N = " << n;
    }
  }
}

// Parseval: the mean square over the samples is c0^2 + sum (a_k^2 + b_k^2) / 2.
TEST(Aft, Parseval) {
  const HarmonicBasis basis{.harmonics = 5};
  Aft aft(basis, 256);
  const VecX c = RandomCoefficients(basis.size(), 3u);
  VecX x(256);
  aft.ToTime(c, x);
  double mean_square = 0.0;
  mean_square = x.squaredNorm() / 256;
  const double expected = c(0) * c(0) + 0.5 * c.tail(basis.size() - 1).squaredNorm();
  EXPECT_NEAR(mean_square, expected, 1e-14 * expected);
}

// The derivative matrix against the analytic derivative of the series, and against
// central differences of the samples in theta.
TEST(Aft, DerivativeMatrix) {
  const HarmonicBasis basis{.harmonics = 4};
  const MatX d = DerivativeMatrix(basis);
  // (a cos 3t + b sin 3t)' = 3 b cos 3t - 3 a sin 3t: a' = 3 b, b' = -3 a.
  EXPECT_EQ(d.row(0).cwiseAbs().sum(), 0.0);
  EXPECT_EQ(d(basis.CosIndex(2) + 1, basis.CosIndex(2)), -3.0);
  EXPECT_EQ(d(basis.CosIndex(2), basis.CosIndex(2) + 1), 3.0);
  const int n = 512;
  Aft aft(basis, n);
  const VecX c = RandomCoefficients(basis.size(), 11u);
  VecX dx(n);
  aft.ToTimeDerivative(c, dx);
  const double h = 1e-5;
  for (int j = 0; j < n; ++j) {
    const double theta = 2 * kPi * j / n;
    double exact = 0.0;
    for (int pair = 0; pair < basis.num_pairs(); ++pair) {
      const int k = basis.PairHarmonic(pair);
      exact += -k * c(basis.CosIndex(pair)) * std::sin(k * theta) +
               k * c(basis.CosIndex(pair) + 1) * std::cos(k * theta);
    }
    ASSERT_NEAR(dx(j), exact, 1e-12);
    // Central difference: error h^2 / 6 max|x'''| <= 1e-10 * 4^3 * 9 coefficients.
    const double fd = (Series(basis, c, theta + h) - Series(basis, c, theta - h)) / (2 * h);
    ASSERT_NEAR(dx(j), fd, 1e-7);
  }
  // The sample tables agree with the transforms.
  VecX x(n);
  aft.ToTime(c, x);
  EXPECT_LT((aft.basis_samples() * c - x).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_LT((aft.derivative_samples() * c - dx).cwiseAbs().maxCoeff(), 1e-12);
}

// cos^3 = 3/4 cos + 1/4 cos 3: exact with N >= 7 (degree 3 < N / 2); with N = 4 the third
// harmonic aliases onto the first (3 = -1 mod 4), as the DFT must.
TEST(Aft, CubeOfACosine) {
  const HarmonicBasis basis{.harmonics = 3};
  Aft aft(basis, 16);
  VecX x(16);
  for (int j = 0; j < 16; ++j) x(j) = std::pow(std::cos(2 * kPi * j / 16 + 0.3), 3);
  VecX c(basis.size());
  aft.ToFrequency(x, c);
  // cos^3(t + p) = 3/4 cos(t + p) + 1/4 cos(3 t + 3 p).
  EXPECT_NEAR(c(0), 0.0, 1e-15);
  EXPECT_NEAR(c(1), 0.75 * std::cos(0.3), 1e-15);
  EXPECT_NEAR(c(2), -0.75 * std::sin(0.3), 1e-15);
  EXPECT_NEAR(c(3), 0.0, 1e-15);
  EXPECT_NEAR(c(4), 0.0, 1e-15);
  EXPECT_NEAR(c(5), 0.25 * std::cos(0.9), 1e-15);
  EXPECT_NEAR(c(6), -0.25 * std::sin(0.9), 1e-15);

  const HarmonicBasis first{.harmonics = 1};
  Aft coarse(first, 4);
  VecX y(4);
  for (int j = 0; j < 4; ++j) y(j) = std::pow(std::cos(2 * kPi * j / 4), 3);
  VecX d(first.size());
  coarse.ToFrequency(y, d);
  EXPECT_NEAR(d(1), 1.0, 1e-15);  // 3/4 + 1/4 aliased
}

// A square wave keeps only odd harmonics 4 / (pi k) in the sine terms; sampled with its
// jumps on samples (where the sample takes the mid value 0) the DFT coefficient of harmonic
// k is (4 / N) cot(pi k / N) (the trapezoidal rule on the jump): 4 / (pi k) to O(1 / N^2).
TEST(Aft, OddOnlyBasisOfASquareWave) {
  const HarmonicBasis basis{.harmonics = 5, .odd_only = true};
  const int n = 1024;
  Aft aft(basis, n);
  VecX x(n);
  for (int j = 0; j < n; ++j) x(j) = j == 0 || j == n / 2 ? 0.0 : (j < n / 2 ? 1.0 : -1.0);
  VecX c(basis.size());
  aft.ToFrequency(x, c);
  for (int pair = 0; pair < 3; ++pair) {
    const int k = basis.PairHarmonic(pair);
    EXPECT_NEAR(c(basis.CosIndex(pair)), 0.0, 1e-14);
    EXPECT_NEAR(c(basis.CosIndex(pair) + 1), 4.0 / n / std::tan(kPi * k / n), 1e-13);
    // cot x = 1 / x - x / 3 - x^3 / 45: 4 / (pi k) - 4 pi k / (3 N^2) to 1e-9.
    EXPECT_NEAR(c(basis.CosIndex(pair) + 1), 4.0 / (kPi * k) - 4.0 * kPi * k / (3.0 * n * n), 1e-9);
  }
}

}  // namespace
}  // namespace jointdyn::harmonic
