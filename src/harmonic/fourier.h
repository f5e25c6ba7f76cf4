// Truncated Fourier series of periodic signals and the alternating frequency-time (AFT)
// transforms of harmonic balance (seed 004, fig. 4), through FFTW.
//
// A periodic signal of angular frequency omega is written in the phase theta = omega t as
//   x(theta) = c0 + sum_k [a_k cos(k theta) + b_k sin(k theta)]
// over the harmonics k of a HarmonicBasis. Its coefficients are stored per signal in the
// real arrangement [c0, a_1, b_1, a_2, b_2, ..., a_H, b_H] (seed 004, eq. 22: the complex
// amplitude of harmonic k is Q_k = a_k - i b_k, x = Re sum_k Q_k e^{i k theta}, and its real
// and imaginary parts become two real unknowns). With odd harmonics only the static term
// and the even harmonics are left out: [a_1, b_1, a_3, b_3, ..., a_H, b_H].
//
// Time samples are taken at theta_j = 2 pi j / N, j = 0 .. N-1 (t_j = j T / N).
#pragma once

#include <fftw3.h>

#include <string>

#include "core/status.h"
#include "core/types.h"

namespace jointdyn::harmonic {

struct HarmonicBasis {
  int harmonics = 1;      // highest harmonic H [-], >= 0 (0: the static term only)
  bool odd_only = false;  // only the odd harmonics 1, 3, .., H (H odd), no static term
  // Checks the ranges above; the message names the option, value and rule.
  Status Validate() const;

  bool has_static() const { return !odd_only; }
  int num_pairs() const { return odd_only ? (harmonics + 1) / 2 : harmonics; }  // cos/sin pairs
  int size() const { return (has_static() ? 1 : 0) + 2 * num_pairs(); }  // coefficients per signal
  // Harmonic number k of the cos/sin pair `pair` (0-based).
  int PairHarmonic(int pair) const { return odd_only ? 2 * pair + 1 : pair + 1; }
  // Coefficient index of the cosine (sine: + 1) term of pair `pair`.
  int CosIndex(int pair) const { return (has_static() ? 1 : 0) + 2 * pair; }
  // Harmonic number of coefficient c (0 for the static term).
  int HarmonicOf(int c) const;
  // The name of coefficient c: "c0" (static), "a<k>" (cosine), "b<k>" (sine).
  std::string CoefficientName(int c) const;
  // Whether harmonic k belongs to the basis.
  bool Contains(int k) const;
};

// d/dtheta in coefficient space (size() x size()): the coefficients of dx/dtheta are
// DerivativeMatrix(basis) * coefficients of x (a_k -> k b_k, b_k -> -k a_k).
MatX DerivativeMatrix(const HarmonicBasis& basis);

// The AFT transforms for one basis and N samples. FFTW plans (real-to-complex and
// complex-to-real, FFTW_ESTIMATE so results are reproducible run to run) are made once in
// the constructor and reused by every transform. The transforms use buffers owned by the
// object: one Aft must not be used by two threads at once.
class Aft {
 public:
  // basis.Validate() must pass and samples >= 2 H + 1 (checked: an internal error
  // otherwise; user input is validated with HarmonicOptions).
  Aft(const HarmonicBasis& basis, int samples);
  ~Aft();
  Aft(const Aft&) = delete;
  Aft& operator=(const Aft&) = delete;

  const HarmonicBasis& basis() const { return basis_; }
  int num_samples() const { return samples_; }
  int num_coefficients() const { return basis_.size(); }

  // Samples x(theta_j) of the series with `coefficients` (size num_coefficients()).
  void ToTime(const Eigen::Ref<const VecX>& coefficients, Eigen::Ref<VecX> samples);
  // Samples of dx/dtheta (multiply by omega for the time derivative).
  void ToTimeDerivative(const Eigen::Ref<const VecX>& coefficients, Eigen::Ref<VecX> samples);
  // Coefficients of the basis harmonics of the sampled signal (discrete Fourier transform:
  // exact for trigonometric polynomials of degree < N / 2; higher harmonics alias).
  void ToFrequency(const Eigen::Ref<const VecX>& samples, Eigen::Ref<VecX> coefficients);

  // Basis functions at the samples: basis_samples()(j, c) is coefficient c's function at
  // theta_j (N x num_coefficients()), derivative_samples() those of d/dtheta.
  const MatX& basis_samples() const { return basis_samples_; }
  const MatX& derivative_samples() const { return derivative_samples_; }
  const MatX& derivative_matrix() const { return derivative_; }

 private:
  HarmonicBasis basis_;
  int samples_;
  MatX derivative_;                   // DerivativeMatrix(basis_)
  MatX basis_samples_;                // N x nc
  MatX derivative_samples_;           // N x nc
  VecX scratch_;                      // nc: derivative coefficients
  double* real_ = nullptr;            // N samples (fftw_malloc)
  fftw_complex* spectrum_ = nullptr;  // N / 2 + 1 bins (fftw_malloc)
  fftw_plan forward_ = nullptr;       // real_ -> spectrum_
  fftw_plan backward_ = nullptr;      // spectrum_ -> real_ (overwrites spectrum_)
};

}  // namespace jointdyn::harmonic
