#include "harmonic/continuation.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/clock.h"
#include "core/error.h"
#include "core/stop.h"
#include "harmonic/stability.h"
#include "solvers/option_check.h"

namespace jointdyn::harmonic {
namespace {

using solvers::CheckOption;

// With the automatic displacement scale the continuation's scale follows the current point
// down to this fraction of the largest coefficient met on the curve.
constexpr double kScaleFloor = 1e-3;

struct Scales {
  double q = 1.0;  // displacement [m]
  double f = 1.0;  // force [N]
  double p = 1.0;  // parameter [rad/s] or [-]
};

// f_s: the largest harmonic excitation amplitude at the largest level; the static forces
// only when there is no harmonic excitation (a preload, e.g. a locked bolt's load, can be
// orders larger than the vibration whose equations Newton must resolve); 1 N without any.
double AutomaticForceScale(const HarmonicSystem& system, double level) {
  double harmonic = 0.0, static_force = 0.0;
  for (const ExcitationTerm& term : system.excitation) {
    const double amplitude = std::max(std::abs(term.cos_amplitude), std::abs(term.sin_amplitude));
    if (term.harmonic == 0) {
      static_force = std::max(static_force, amplitude);
    } else {
      harmonic = std::max(harmonic, std::abs(level) * amplitude);
    }
  }
  if (harmonic > 0.0) return harmonic;
  return static_force > 0.0 ? static_force : 1.0;
}

// The largest harmonic coefficient of q (the static terms left out, for the reason of
// AutomaticForceScale), or the largest of all when the harmonics vanish.
double LargestCoefficient(const HarmonicBalance& hb, const VecX& q) {
  const Eigen::Index skip = hb.basis().has_static() ? hb.layout().dofs : 0;
  const double harmonic = q.size() > skip ? q.tail(q.size() - skip).cwiseAbs().maxCoeff() : 0.0;
  if (harmonic > 0.0) return harmonic;
  return q.size() > 0 ? q.cwiseAbs().maxCoeff() : 0.0;
}

// q_s: the largest (harmonic) coefficient of the first guess; at rest the static
// deflection of the force scale on the stiffest diagonal entry (1 m without stiffness).
double AutomaticDisplacementScale(const HarmonicBalance& hb, const VecX& guess, double force) {
  const double largest = LargestCoefficient(hb, guess);
  if (largest > 0.0) return largest;
  const double k = hb.system().stiffness.diagonal().cwiseAbs().maxCoeff();
  return k > 0.0 ? force / k : 1.0;
}

// The scaled harmonic-balance residual R(q_s y; p_s p~) / f_s as a solvers::ResidualModel:
// over y at a fixed parameter, or over z = (y, p~) with the pseudo-arc-length row
// t . (z - z_predicted).
class Corrector final : public solvers::ResidualModel {
 public:
  Corrector(HarmonicBalance& hb, ContinuationParameter parameter, double fixed,
            const Scales& scales)
      : hb_(hb), parameter_(parameter), fixed_(fixed), scales_(scales) {}

  void FixParameter(double value) {
    arc_ = false;
    value_ = value;
  }
  void SetArc(const VecX& tangent, const VecX& predicted) {
    arc_ = true;
    tangent_ = tangent;
    predicted_ = predicted;
  }
  const Scales& scales() const { return scales_; }
  void set_scales(const Scales& scales) { scales_ = scales; }
  double Omega(double p) const {
    return parameter_ == ContinuationParameter::kFrequency ? p : fixed_;
  }
  double Level(double p) const { return parameter_ == ContinuationParameter::kLevel ? p : fixed_; }

  int size() const override { return hb_.num_unknowns() + (arc_ ? 1 : 0); }

  // The Jacobian is dense, as harmonic balance's (factored by dense LU under kAuto).
  Status Evaluate(const VecX& x, VecX& residual, solvers::Matrix* jacobian) override {
    const int n = hb_.num_unknowns();
    const double p = arc_ ? x(n) * scales_.p : value_;
    VecX r;
    if (Status status = Open(x.head(n), p, r, jacobian ? &open_jacobian_ : nullptr); !status)
      return status;
    if (!arc_) {
      residual = r;
      if (jacobian) *jacobian = open_jacobian_.leftCols(n);
      return Status::Ok();
    }
    residual.resize(n + 1);
    residual.head(n) = r;
    residual(n) = tangent_.dot(x - predicted_);
    if (jacobian) {
      MatX full(n + 1, n + 1);
      full.topRows(n) = open_jacobian_;
      full.row(n) = tangent_.transpose();
      *jacobian = std::move(full);
    }
    return Status::Ok();
  }

  // R / f_s at (y, p) and d(R / f_s) / d(y, p / p_s) (n x (n + 1)).
  Status Open(const VecX& y, double p, VecX& residual, MatX* d_z) {
    const int n = hb_.num_unknowns();
    VecX raw;
    const bool frequency = parameter_ == ContinuationParameter::kFrequency;
    if (Status status =
            hb_.Evaluate(scales_.q * y, Omega(p), Level(p), raw, d_z ? &d_q_ : nullptr,
                         d_z && frequency ? &d_p_ : nullptr, d_z && !frequency ? &d_p_ : nullptr);
        !status) {
      return status;
    }
    residual = raw / scales_.f;
    if (d_z != nullptr) {
      d_z->resize(n, n + 1);
      d_z->leftCols(n) = d_q_ * (scales_.q / scales_.f);
      d_z->col(n) = d_p_ * (scales_.p / scales_.f);
    }
    return Status::Ok();
  }

  // Unit tangent at z: [dR/dz; previous^T] t = [0; 1], normalized.
  Status Tangent(const VecX& z, const VecX& previous, VecX& tangent) {
    const int n = hb_.num_unknowns();
    VecX r;
    if (Status status = Open(z.head(n), z(n) * scales_.p, r, &open_jacobian_); !status)
      return status;
    MatX augmented(n + 1, n + 1);
    augmented.topRows(n) = open_jacobian_;
    augmented.row(n) = previous.transpose();
    const Eigen::PartialPivLU<MatX> lu(augmented);
    if (!(lu.rcond() >= std::numeric_limits<double>::epsilon()))
      return Status::Failure("singular augmented Jacobian (a bifurcation point?)");
    tangent = lu.solve(VecX::Unit(n + 1, n));
    tangent.normalize();
    return Status::Ok();
  }

 private:
  HarmonicBalance& hb_;
  ContinuationParameter parameter_;
  double fixed_;
  Scales scales_;
  bool arc_ = false;
  double value_ = 0.0;
  VecX tangent_, predicted_;
  MatX d_q_, open_jacobian_;
  VecX d_p_;
};

// Recovers all DOFs at the unknowns q and fills the point (stability on request).
Status MakePoint(HarmonicBalance& hb, const VecX& q, double omega, double level,
                 const PeriodicOptions& options, SolutionPoint& point) {
  point.omega = omega;
  point.level = level;
  point.periods = hb.last_periods();  // Newton's last evaluation was at q
  if (Status status = hb.Recover(q, omega, level, point.coefficients); !status) return status;
  if (!options.stability) return Status::Ok();
  if (Status size =
          CheckDenseSize(hb.num_dofs(), hb.basis(), "the stability analysis (Hill's method)");
      !size)
    return Status::Failure(size.message + ": turn it off (stability: false)");
  MatX jacobian, rate_jacobian;
  if (Status status = hb.FullJacobian(point.coefficients, omega, jacobian); !status) return status;
  if (Status status = hb.FullRateJacobian(point.coefficients, omega, rate_jacobian); !status)
    return status;
  const HillResult hill = HillExponents(MatX(hb.system().mass), MatX(hb.system().damping),
                                        hb.basis(), omega, jacobian, rate_jacobian);
  if (!hill.status) return hill.status;
  point.floquet_max_real = hill.max_real;
  point.stability = hill.max_real <= options.stability_tolerance * omega ? Stability::kStable
                                                                         : Stability::kUnstable;
  return Status::Ok();
}

// Newton on the corrector; a model without unknowns (a linear system at a fixed
// parameter, all DOFs condensed away) is solved as it is.
solvers::NewtonResult Correct(solvers::NewtonSolver& newton, Corrector& corrector, VecX& x) {
  if (corrector.size() == 0) return {};
  return newton.Solve(corrector, x);
}

void Count(const solvers::NewtonResult& newton, ContinuationResult& result) {
  result.newton_iterations += newton.iterations;
  result.residual_evaluations += newton.residual_evaluations;
  result.jacobian_evaluations += newton.jacobian_evaluations;
  result.factorizations += newton.factorizations;
}

std::string AtParameter(ContinuationParameter parameter, double p) {
  return parameter == ContinuationParameter::kFrequency ? "omega = " + FormatValue(p) + " rad/s"
                                                        : "level = " + FormatValue(p);
}

}  // namespace

Status PeriodicOptions::Validate() const {
  for (const Status& status : {
           newton.Validate(),
           CheckOption(displacement_scale >= 0.0 && std::isfinite(displacement_scale),
                       "harmonic.displacement_scale", displacement_scale,
                       "must be > 0, or 0 for automatic"),
           CheckOption(force_scale >= 0.0 && std::isfinite(force_scale), "harmonic.force_scale",
                       force_scale, "must be > 0, or 0 for automatic"),
           CheckOption(stability_tolerance >= 0.0 && std::isfinite(stability_tolerance),
                       "harmonic.stability_tolerance", stability_tolerance, "must be >= 0"),
       }) {
    if (!status) return status;
  }
  return Status::Ok();
}

Status ContinuationOptions::Validate() const {
  const bool frequency = parameter == ContinuationParameter::kFrequency;
  for (const Status& status : {
           solve.Validate(),
           CheckOption(std::isfinite(start) && (!frequency || start > 0.0), "continuation.start",
                       start, frequency ? "must be a frequency > 0" : "must be finite"),
           CheckOption(std::isfinite(end) && end != start && (!frequency || end > 0.0),
                       "continuation.end", end,
                       frequency ? "must be a frequency > 0 other than start"
                                 : "must be finite and differ from start"),
           CheckOption(std::isfinite(fixed) && (frequency || fixed > 0.0), "continuation.fixed",
                       fixed, frequency ? "must be a finite level" : "must be a frequency > 0"),
           CheckOption(initial_step > 0.0 && std::isfinite(initial_step),
                       "continuation.initial_step", initial_step, "must be > 0"),
           CheckOption(min_step > 0.0 && min_step <= initial_step, "continuation.min_step",
                       min_step, "must be in (0, initial_step]"),
           CheckOption(max_step >= initial_step && std::isfinite(max_step), "continuation.max_step",
                       max_step, "must be >= initial_step"),
           CheckOption(target_iterations >= 1, "continuation.target_iterations", target_iterations,
                       "must be >= 1"),
           CheckOption(max_points >= 2, "continuation.max_points", max_points, "must be >= 2"),
       }) {
    if (!status) return status;
  }
  return Status::Ok();
}

PeriodicResult SolvePeriodic(HarmonicBalance& hb, double omega, double level,
                             const PeriodicOptions& options, const VecX* guess) {
  const auto start = Clock::now();
  PeriodicResult result;
  if (Status status = options.Validate(); !status) {
    result.status = status;
    return result;
  }
  VecX q;
  if (guess != nullptr) {
    JD_CHECK(guess->size() == hb.num_unknowns(), "SolvePeriodic: guess size");
    q = *guess;
  } else if (Status status = hb.LinearizedSolution(omega, level, q); !status) {
    result.status = Status::Failure("initial guess: " + status.message);
    return result;
  }
  Scales scales;
  scales.f =
      options.force_scale > 0.0 ? options.force_scale : AutomaticForceScale(hb.system(), level);
  scales.q = options.displacement_scale > 0.0 ? options.displacement_scale
                                              : AutomaticDisplacementScale(hb, q, scales.f);
  Corrector corrector(hb, ContinuationParameter::kFrequency, level, scales);
  corrector.FixParameter(omega);
  VecX y = q / scales.q;
  solvers::NewtonSolver newton(options.newton);
  result.newton = Correct(newton, corrector, y);
  if (!result.newton.status) {
    result.status = result.newton.status;
    result.seconds = Seconds(start);
    return result;
  }
  result.status = MakePoint(hb, scales.q * y, omega, level, options, result.point);
  result.point.newton_iterations = result.newton.iterations;
  result.seconds = Seconds(start);
  return result;
}

ContinuationResult Continue(HarmonicBalance& hb, const ContinuationOptions& options) {
  const auto start_time = Clock::now();
  ContinuationResult result;
  if (Status status = options.Validate(); !status) {
    result.status = status;
    return result;
  }
  const ContinuationParameter parameter = options.parameter;
  const bool frequency = parameter == ContinuationParameter::kFrequency;
  const int n = hb.num_unknowns();
  const double direction = options.end > options.start ? 1.0 : -1.0;
  const double level_max =
      frequency ? options.fixed : std::max(std::abs(options.start), std::abs(options.end));
  auto finish = [&](Status status, std::string reason) {
    result.status = std::move(status);
    result.stop_reason = std::move(reason);
    result.seconds = Seconds(start_time);
    return result;
  };

  // The first point: Newton at the start value from the linearized solution.
  const double omega0 = frequency ? options.start : options.fixed;
  const double level0 = frequency ? options.fixed : options.start;
  VecX q;
  if (Status status = hb.LinearizedSolution(omega0, level0, q); !status)
    return finish(Status::Failure("initial guess: " + status.message), "failed");
  Scales scales;
  scales.f = options.solve.force_scale > 0.0 ? options.solve.force_scale
                                             : AutomaticForceScale(hb.system(), level_max);
  scales.q = options.solve.displacement_scale > 0.0 ? options.solve.displacement_scale
                                                    : AutomaticDisplacementScale(hb, q, scales.f);
  scales.p = frequency ? options.start : level_max;
  Corrector corrector(hb, parameter, options.fixed, scales);
  solvers::NewtonSolver newton(options.solve.newton);
  corrector.FixParameter(options.start);
  VecX y = q / scales.q;
  solvers::NewtonResult solved = Correct(newton, corrector, y);
  Count(solved, result);
  if (!solved.status) {
    return finish(Status::Failure("first point at " + AtParameter(parameter, options.start) + ": " +
                                  solved.status.message),
                  "failed");
  }
  auto record = [&](const VecX& yy, double p, const solvers::NewtonResult& nr, bool turning) {
    SolutionPoint point;
    Status status =
        MakePoint(hb, scales.q * yy, corrector.Omega(p), corrector.Level(p), options.solve, point);
    point.newton_iterations = nr.iterations;
    point.turning_point = turning;
    result.points.push_back(std::move(point));
    if (status && options.on_point) options.on_point(result.points.back());
    return status;
  };
  if (Status status = record(y, options.start, solved, false); !status)
    return finish(status, "failed");

  VecX z(n + 1), tangent;
  z << y, options.start / scales.p;
  if (Status status = corrector.Tangent(z, direction * VecX::Unit(n + 1, n), tangent); !status)
    return finish(Status::Failure("tangent at the first point: " + status.message), "failed");
  double step = options.initial_step;
  VecX z_new, tangent_new;
  double largest = scales.q;  // largest coefficient of any point so far [m]
  while (static_cast<int>(result.points.size()) < options.max_points) {
    if (StopRequested())
      return finish(Status::Failure(StopReason() + " after " +
                                    std::to_string(result.points.size()) + " points"),
                    "interrupted");
    if (options.solve.displacement_scale == 0.0) {
      // Automatic scale: follow the current point's largest coefficient, so that the step
      // is relative to the amplitude along curves spanning orders of magnitude (at least
      // kScaleFloor of the largest so far, where the response passes near zero).
      const double current = scales.q * LargestCoefficient(hb, z.head(n));
      largest = std::max(largest, current);
      const double q_s = std::max(current, kScaleFloor * largest);
      z.head(n) *= scales.q / q_s;
      tangent.head(n) *= scales.q / q_s;
      tangent.normalize();
      scales.q = q_s;
      corrector.set_scales(scales);
    }
    const VecX predicted = z + step * tangent;
    corrector.SetArc(tangent, predicted);
    z_new = predicted;
    const solvers::NewtonResult corrected = Correct(newton, corrector, z_new);
    Count(corrected, result);
    Status status = corrected.status;
    if (status) status = corrector.Tangent(z_new, tangent, tangent_new);
    if (!status) {
      ++result.rejected_steps;
      step *= 0.5;
      if (step < options.min_step) {
        return finish(
            Status::Failure("continuation step below min_step at " +
                            AtParameter(parameter, z(n) * scales.p) + ": " + status.message),
            "failed");
      }
      continue;
    }
    ++result.steps;
    const double p_old = z(n) * scales.p, p_new = z_new(n) * scales.p;
    if ((p_new - options.end) * direction >= 0.0) {
      // Past the end: the last point exactly at the end, from the secant between the two.
      const double alpha = (options.end - p_old) / (p_new - p_old);
      VecX y_end = z.head(n) + alpha * (z_new.head(n) - z.head(n));
      corrector.FixParameter(options.end);
      const solvers::NewtonResult last = Correct(newton, corrector, y_end);
      Count(last, result);
      if (!last.status) {
        return finish(Status::Failure("last point at " + AtParameter(parameter, options.end) +
                                      ": " + last.status.message),
                      "failed");
      }
      const bool turning = tangent_new(n) * tangent(n) < 0.0;
      result.turning_points += turning ? 1 : 0;
      if (Status s = record(y_end, options.end, last, turning); !s) return finish(s, "failed");
      return finish(Status::Ok(), "reached the end");
    }
    const bool turning = tangent_new(n) * tangent(n) < 0.0;
    result.turning_points += turning ? 1 : 0;
    if (Status s = record(z_new.head(n), p_new, corrected, turning); !s) return finish(s, "failed");
    if ((p_new - options.start) * direction < 0.0)
      return finish(Status::Ok(), "turned back past the start");
    z.swap(z_new);
    tangent.swap(tangent_new);
    const double factor = std::clamp(
        static_cast<double>(options.target_iterations) / std::max(corrected.iterations, 1), 0.5,
        2.0);
    step = std::min(step * factor, options.max_step);
  }
  return finish(Status::Ok(), "max_points");
}

}  // namespace jointdyn::harmonic
