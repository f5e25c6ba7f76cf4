#include "harmonic/nonlinear_mode.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/clock.h"
#include "core/error.h"
#include "core/stop.h"
#include "solvers/option_check.h"

namespace jointdyn::harmonic {
namespace {

using solvers::CheckOption;

// d(M q')/dq per unit omega in the layout of the unknowns (all DOFs): harmonic k maps the
// sine coefficients to the cosine row with k M and the cosine coefficients to the sine row
// with -k M (q' = k omega (b_k cos - a_k sin)).
solvers::SparseMatrix MassRate(const HarmonicBalance& hb) {
  const CoefficientLayout& layout = hb.layout();
  const HarmonicBasis& basis = hb.basis();
  std::vector<Eigen::Triplet<double>> entries;
  for (int pair = 0; pair < basis.num_pairs(); ++pair) {
    const double k = basis.PairHarmonic(pair);
    const int c = basis.CosIndex(pair);
    for (int col = 0; col < hb.system().mass.outerSize(); ++col) {
      for (solvers::SparseMatrix::InnerIterator it(hb.system().mass, col); it; ++it) {
        const int i = static_cast<int>(it.row()), j = static_cast<int>(it.col());
        entries.emplace_back(layout.Index(i, c), layout.Index(j, c + 1), k * it.value());
        entries.emplace_back(layout.Index(i, c + 1), layout.Index(j, c), -k * it.value());
      }
    }
  }
  solvers::SparseMatrix rate(layout.size(), layout.size());
  rate.setFromTriplets(entries.begin(), entries.end());
  return rate;
}

// The EPMC equations over x = (y, omega / omega0, xi / omega0), q = rest + q_s y, at one
// modal amplitude (SetAmplitude): harmonic balance with -xi M q' scaled by the modal
// inertia force, then the amplitude and the phase equations (nonlinear_mode.h).
class ModeEquations final : public solvers::ResidualModel {
 public:
  ModeEquations(HarmonicBalance& hb, const NonlinearModeOptions& options)
      : hb_(hb),
        phi_(options.shape),
        m_phi_(hb.system().mass * options.shape),
        omega0_(options.omega),
        rest_(hb.RestUnknowns()),
        rate_(MassRate(hb)) {
    const int c = hb.basis().CosIndex(0);  // the first harmonic's cosine coefficient
    for (int dof = 0; dof < hb.num_dofs(); ++dof) {
      cos_.push_back(hb.layout().Index(dof, c));
      sin_.push_back(hb.layout().Index(dof, c + 1));
    }
  }

  void SetAmplitude(double a) {
    amplitude_ = a;
    q_scale_ = a * phi_.cwiseAbs().maxCoeff();
    f_scale_ = omega0_ * omega0_ * a * m_phi_.cwiseAbs().maxCoeff();
  }
  int size() const override { return hb_.num_unknowns() + 2; }
  double Omega(const VecX& x) const { return omega0_ * x(hb_.num_unknowns()); }
  double Xi(const VecX& x) const { return omega0_ * x(hb_.num_unknowns() + 1); }
  VecX Coefficients(const VecX& x) const { return rest_ + q_scale_ * x.head(hb_.num_unknowns()); }

  // The first iterate at the current amplitude: the guess scaled to it, or the linear mode
  // a phi cos(omega0 t) with xi0 = phi^T C phi.
  VecX FirstGuess(const std::optional<ModeGuess>& guess) const {
    VecX x = VecX::Zero(size());
    const VecX& cosine = guess ? guess->cosine : phi_;
    const double s = amplitude_ / std::sqrt(cosine.dot(hb_.system().mass * cosine)) / q_scale_;
    for (int dof = 0; dof < hb_.num_dofs(); ++dof) {
      x(cos_[dof]) = s * cosine(dof);
      if (guess && hb_.basis().has_static()) x(hb_.layout().Index(dof, 0)) = s * guess->mean(dof);
    }
    x(hb_.num_unknowns()) = guess ? guess->omega / omega0_ : 1.0;
    x(hb_.num_unknowns() + 1) =
        (guess ? guess->xi : phi_.dot(hb_.system().damping * phi_)) / omega0_;
    return x;
  }

  Status Evaluate(const VecX& x, VecX& residual, solvers::Matrix* jacobian) override {
    const int n = hb_.num_unknowns();
    const double omega = Omega(x), xi = Xi(x);
    const VecX q = Coefficients(x);
    VecX r;
    if (Status status = hb_.Evaluate(q, omega, 0.0, r, jacobian ? &d_q_ : nullptr,
                                     jacobian ? &d_omega_ : nullptr, nullptr);
        !status)
      return status;
    const VecX rate_q = rate_ * q;  // M q' / omega
    const double s = q_scale_ / amplitude_;
    residual.resize(n + 2);
    residual.head(n) = (r - xi * omega * rate_q) / f_scale_;
    residual(n) = s * s * (Quadratic(x, cos_) + Quadratic(x, sin_)) - 1.0;
    residual(n + 1) = s * Projection(x, sin_);
    if (jacobian == nullptr) return Status::Ok();
    MatX full = MatX::Zero(n + 2, n + 2);
    full.topLeftCorner(n, n) = d_q_ * (q_scale_ / f_scale_);
    full.topLeftCorner(n, n) -= (xi * omega * q_scale_ / f_scale_) * rate_;
    full.col(n).head(n) = (d_omega_ - xi * rate_q) * (omega0_ / f_scale_);
    full.col(n + 1).head(n) = -omega * rate_q * (omega0_ / f_scale_);
    const solvers::SparseMatrix& mass = hb_.system().mass;
    const VecX m_cos = mass * Gather(x, cos_), m_sin = mass * Gather(x, sin_);
    for (int dof = 0; dof < hb_.num_dofs(); ++dof) {
      full(n, cos_[dof]) = 2.0 * s * s * m_cos(dof);
      full(n, sin_[dof]) = 2.0 * s * s * m_sin(dof);
      full(n + 1, sin_[dof]) = s * m_phi_(dof);
    }
    *jacobian = std::move(full);
    return Status::Ok();
  }

 private:
  VecX Gather(const VecX& x, const std::vector<int>& index) const {
    VecX out(index.size());
    for (size_t i = 0; i < index.size(); ++i) out(i) = x(index[i]);
    return out;
  }
  double Quadratic(const VecX& x, const std::vector<int>& index) const {
    const VecX v = Gather(x, index);
    return v.dot(hb_.system().mass * v);
  }
  double Projection(const VecX& x, const std::vector<int>& index) const {
    return m_phi_.dot(Gather(x, index));
  }

  HarmonicBalance& hb_;
  VecX phi_, m_phi_;
  double omega0_;
  VecX rest_;
  solvers::SparseMatrix rate_;
  std::vector<int> cos_, sin_;  // the first harmonic's unknowns per DOF
  double amplitude_ = 1.0, q_scale_ = 1.0, f_scale_ = 1.0;
  MatX d_q_;
  VecX d_omega_;
};

// A solved amplitude: log a and the scaled unknowns.
struct Solved {
  double log_amplitude = 0.0;
  VecX x;
};

// The predictor at log a: the first guess first, then the last solution, then the secant
// through the last two in log a.
VecX Predict(const std::vector<Solved>& solved, double log_amplitude,
             const ModeEquations& equations, const std::optional<ModeGuess>& guess) {
  if (solved.empty()) return equations.FirstGuess(guess);
  const Solved& last = solved.back();
  if (solved.size() == 1) return last.x;
  const Solved& before = solved[solved.size() - 2];
  const double t =
      (log_amplitude - last.log_amplitude) / (last.log_amplitude - before.log_amplitude);
  return last.x + t * (last.x - before.x);
}

// The smallest log-amplitude step a refinement may make: the smallest requested step
// halved max_refinements times (unbounded for a single amplitude: nothing to refine from).
double SmallestLogStep(const NonlinearModeOptions& options) {
  double smallest = std::numeric_limits<double>::infinity();
  for (size_t i = 1; i < options.amplitudes.size(); ++i)
    smallest = std::min(smallest, std::log(options.amplitudes[i] / options.amplitudes[i - 1]));
  return std::ldexp(smallest, -options.max_refinements);
}

}  // namespace

Status NonlinearModeOptions::Validate(int dofs) const {
  bool ascending = !amplitudes.empty();
  for (size_t i = 0; i < amplitudes.size(); ++i)
    ascending = ascending && std::isfinite(amplitudes[i]) && amplitudes[i] > 0.0 &&
                (i == 0 || amplitudes[i] > amplitudes[i - 1]);
  for (const Status& status : {
           newton.Validate(),
           CheckOption(
               shape.size() == dofs && shape.allFinite() && shape.cwiseAbs().maxCoeff() > 0,
               "nonlinear_mode.shape", std::to_string(shape.size()) + " entries",
               "must be a finite, non-zero vector over the " + std::to_string(dofs) + " DOFs"),
           CheckOption(omega > 0.0 && std::isfinite(omega), "nonlinear_mode.omega", omega,
                       "must be a frequency > 0"),
           CheckOption(ascending, "nonlinear_mode.amplitudes",
                       std::to_string(amplitudes.size()) + " values",
                       "must be amplitudes > 0 in ascending order, at least one"),
           CheckOption(max_refinements >= 0, "nonlinear_mode.max_refinements", max_refinements,
                       "must be >= 0"),
           CheckOption(!guess || (guess->mean.size() == dofs && guess->mean.allFinite() &&
                                  guess->cosine.size() == dofs && guess->cosine.allFinite() &&
                                  guess->cosine.cwiseAbs().maxCoeff() > 0 && guess->omega > 0.0 &&
                                  std::isfinite(guess->omega) && std::isfinite(guess->xi)),
                       "nonlinear_mode.guess", guess ? FormatValue(guess->omega) + " rad/s" : "",
                       "must be finite vectors over the " + std::to_string(dofs) +
                           " DOFs (a non-zero cosine) and a frequency > 0"),
       }) {
    if (!status) return status;
  }
  return Status::Ok();
}

NonlinearModeResult ContinueNonlinearMode(HarmonicBalance& hb,
                                          const NonlinearModeOptions& options) {
  const auto start = Clock::now();
  NonlinearModeResult result;
  const auto finish = [&](Status status) {
    result.status = std::move(status);
    result.seconds = Seconds(start);
    return std::move(result);
  };
  if (Status status = options.Validate(hb.num_dofs()); !status) return finish(status);
  if (static_cast<int>(hb.unknown_dofs().size()) != hb.num_dofs())
    return finish(Status::Failure(
        "nonlinear modes need every DOF's coefficients as unknowns (no condensation)"));
  if (!hb.basis().Contains(1))
    return finish(Status::Failure("nonlinear modes need the first harmonic in the basis"));
  ModeEquations equations(hb, options);
  solvers::NewtonSolver newton(options.newton);
  const double smallest_step = SmallestLogStep(options);
  std::vector<double> targets(options.amplitudes.rbegin(), options.amplitudes.rend());
  std::vector<Solved> solved;
  while (!targets.empty()) {
    if (StopRequested())
      return finish(Status::Failure(StopReason() + " after " +
                                    std::to_string(result.points.size()) + " amplitudes"));
    const double a = targets.back(), log_a = std::log(a);
    equations.SetAmplitude(a);
    VecX x = Predict(solved, log_a, equations, options.guess);
    const solvers::NewtonResult newton_result = newton.Solve(equations, x);
    result.newton_iterations += newton_result.iterations;
    result.residual_evaluations += newton_result.residual_evaluations;
    if (!newton_result.status) {
      const double step = solved.empty() ? 0.0 : log_a - solved.back().log_amplitude;
      if (!(step > 2.0 * smallest_step))
        return finish(
            Status::Failure("amplitude " + FormatValue(a) + ": " + newton_result.status.message));
      targets.push_back(std::exp(log_a - 0.5 * step));
      ++result.refinements;
      continue;
    }
    targets.pop_back();
    ModePoint point{.amplitude = a,
                    .omega = equations.Omega(x),
                    .xi = equations.Xi(x),
                    .newton_iterations = newton_result.iterations,
                    .periods = hb.last_periods()};
    if (Status status = hb.Recover(equations.Coefficients(x), point.omega, 0.0, point.coefficients);
        !status)
      return finish(status);
    result.points.push_back(std::move(point));
    if (options.on_point) options.on_point(result.points.back());
    solved.push_back({log_a, std::move(x)});
  }
  return finish(Status::Ok());
}

}  // namespace jointdyn::harmonic
