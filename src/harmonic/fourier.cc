#include "harmonic/fourier.h"

#include <cmath>
#include <mutex>
#include <numbers>
#include <string>

#include "core/error.h"
#include "solvers/option_check.h"

namespace jointdyn::harmonic {
namespace {

using solvers::CheckOption;

// FFTW's planner is not thread-safe (execution is): plans are made and destroyed under it.
std::mutex& PlannerMutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

Status HarmonicBasis::Validate() const {
  if (Status status = CheckOption(harmonics >= 0 && harmonics <= 100000, "harmonic.harmonics",
                                  harmonics, "must be in [0, 100000]");
      !status) {
    return status;
  }
  return CheckOption(!odd_only || harmonics % 2 == 1, "harmonic.harmonics", harmonics,
                     "must be odd with odd_harmonics_only");
}

int HarmonicBasis::HarmonicOf(int c) const {
  if (has_static() && c == 0) return 0;
  return PairHarmonic((c - (has_static() ? 1 : 0)) / 2);
}

std::string HarmonicBasis::CoefficientName(int c) const {
  if (has_static() && c == 0) return "c0";
  const bool cosine = (c - (has_static() ? 1 : 0)) % 2 == 0;
  return (cosine ? "a" : "b") + std::to_string(HarmonicOf(c));
}

bool HarmonicBasis::Contains(int k) const {
  if (k == 0) return has_static();
  return k > 0 && k <= harmonics && (!odd_only || k % 2 == 1);
}

MatX DerivativeMatrix(const HarmonicBasis& basis) {
  MatX d = MatX::Zero(basis.size(), basis.size());
  for (int pair = 0; pair < basis.num_pairs(); ++pair) {
    const int a = basis.CosIndex(pair);
    const double k = basis.PairHarmonic(pair);
    d(a, a + 1) = k;  // (a cos + b sin)' = k b cos - k a sin
    d(a + 1, a) = -k;
  }
  return d;
}

Aft::Aft(const HarmonicBasis& basis, int samples)
    : basis_(basis), samples_(samples), derivative_(DerivativeMatrix(basis)) {
  JD_CHECK(basis.Validate().ok, "Aft: invalid basis");
  JD_CHECK(samples >= 2 * basis.harmonics + 1, "Aft: need at least 2 H + 1 samples");
  const int nc = basis.size();
  basis_samples_.resize(samples, nc);
  for (int j = 0; j < samples; ++j) {
    const double theta = 2.0 * std::numbers::pi * j / samples;
    if (basis.has_static()) basis_samples_(j, 0) = 1.0;
    for (int pair = 0; pair < basis.num_pairs(); ++pair) {
      const int k = basis.PairHarmonic(pair);
      basis_samples_(j, basis.CosIndex(pair)) = std::cos(k * theta);
      basis_samples_(j, basis.CosIndex(pair) + 1) = std::sin(k * theta);
    }
  }
  derivative_samples_ = basis_samples_ * derivative_;
  scratch_.resize(nc);
  std::lock_guard<std::mutex> lock(PlannerMutex());
  real_ = fftw_alloc_real(samples);
  spectrum_ = fftw_alloc_complex(samples / 2 + 1);
  JD_CHECK(real_ != nullptr && spectrum_ != nullptr, "Aft: FFTW buffer allocation failed");
  forward_ = fftw_plan_dft_r2c_1d(samples, real_, spectrum_, FFTW_ESTIMATE);
  backward_ = fftw_plan_dft_c2r_1d(samples, spectrum_, real_, FFTW_ESTIMATE);
  JD_CHECK(forward_ != nullptr && backward_ != nullptr, "Aft: FFTW planning failed");
}

Aft::~Aft() {
  std::lock_guard<std::mutex> lock(PlannerMutex());
  fftw_destroy_plan(forward_);
  fftw_destroy_plan(backward_);
  fftw_free(real_);
  fftw_free(spectrum_);
}

void Aft::ToTime(const Eigen::Ref<const VecX>& coefficients, Eigen::Ref<VecX> samples) {
  JD_CHECK(coefficients.size() == num_coefficients() && samples.size() == samples_,
           "Aft::ToTime: sizes");
  // FFTW's c2r computes x_j = sum_k X_k e^{+2 pi i j k / N} over the Hermitian spectrum:
  // X_0 = c0 and X_k = (a_k - i b_k) / 2 give c0 + a_k cos + b_k sin.
  for (int k = 0; k <= samples_ / 2; ++k) spectrum_[k][0] = spectrum_[k][1] = 0.0;
  if (basis_.has_static()) spectrum_[0][0] = coefficients(0);
  for (int pair = 0; pair < basis_.num_pairs(); ++pair) {
    const int k = basis_.PairHarmonic(pair);
    const int a = basis_.CosIndex(pair);
    spectrum_[k][0] = 0.5 * coefficients(a);
    spectrum_[k][1] = -0.5 * coefficients(a + 1);
  }
  fftw_execute(backward_);
  samples = Eigen::Map<const VecX>(real_, samples_);
}

void Aft::ToTimeDerivative(const Eigen::Ref<const VecX>& coefficients, Eigen::Ref<VecX> samples) {
  scratch_ = derivative_ * coefficients;
  ToTime(scratch_, samples);
}

void Aft::ToFrequency(const Eigen::Ref<const VecX>& samples, Eigen::Ref<VecX> coefficients) {
  JD_CHECK(coefficients.size() == num_coefficients() && samples.size() == samples_,
           "Aft::ToFrequency: sizes");
  Eigen::Map<VecX>(real_, samples_) = samples;
  fftw_execute(forward_);  // X_k = sum_j x_j e^{-2 pi i j k / N}
  const double scale = 1.0 / samples_;
  if (basis_.has_static()) coefficients(0) = scale * spectrum_[0][0];
  for (int pair = 0; pair < basis_.num_pairs(); ++pair) {
    const int k = basis_.PairHarmonic(pair);
    const int a = basis_.CosIndex(pair);
    coefficients(a) = 2.0 * scale * spectrum_[k][0];
    coefficients(a + 1) = -2.0 * scale * spectrum_[k][1];
  }
}

}  // namespace jointdyn::harmonic
