#include "analysis/harmonic.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "core/clock.h"
#include "core/error.h"
#include "harmonic/dry_friction.h"
#include "harmonic/point_kernel.h"
#include "laws/contact_point.h"
#include "laws/normal_law.h"

namespace jointdyn::analysis {
namespace {

using lumped::kGround;

// harmonic::ContactKernel with the gap at r = 0 shifted to gap0: its last input r is the
// approach at gap0 = 0 (lumped sign convention: q_b - q_a of the normal pair) and the
// kernel sees v = r - gap0, so that g = -v = gap0 + q_a - q_b (lumped/elements.h).
class GapOffsetKernel final : public harmonic::PointKernel {
 public:
  GapOffsetKernel(laws::ContactPoint point, double gap0) : kernel_(std::move(point)), gap0_(gap0) {}

  int num_inputs() const override { return kernel_.num_inputs(); }
  int state_size() const override { return kernel_.state_size(); }
  bool dt_dependent() const override { return kernel_.dt_dependent(); }
  bool uses_rates() const override { return kernel_.uses_rates(); }
  void InitState(std::span<double> state) const override { kernel_.InitState(state); }
  Status Evaluate(const harmonic::KernelInput& in, std::span<const double> committed,
                  std::span<double> trial, harmonic::KernelResponse& out) const override {
    return kernel_.Evaluate(Shifted(in), committed, trial, out);
  }
  bool has_history_sensitivity() const override { return kernel_.has_history_sensitivity(); }
  void Sensitivity(const harmonic::KernelInput& in, std::span<const double> committed,
                   const harmonic::KernelResponse& response,
                   harmonic::HistorySensitivity& out) const override {
    kernel_.Sensitivity(Shifted(in), committed, response, out);
  }

 private:
  harmonic::KernelInput Shifted(harmonic::KernelInput in) const {
    in.r(in.r.size() - 1) -= gap0_;
    return in;
  }

  harmonic::ContactKernel kernel_;
  double gap0_;  // [m]
};

// A normal law alone (a contact element): one input r = q_b - q_a [m] of the element's
// ends, gap g = gap0 - r, force p(g, g_dot) >= 0 [N] on b (and -p on a), memoryless.
class NormalKernel final : public harmonic::PointKernel {
 public:
  NormalKernel(std::shared_ptr<const laws::NormalLaw> law, double gap0)
      : law_(std::move(law)), gap0_(gap0) {}

  int num_inputs() const override { return 1; }
  int state_size() const override { return 0; }
  bool dt_dependent() const override { return false; }
  bool uses_rates() const override { return true; }
  void InitState(std::span<double>) const override {}
  Status Evaluate(const harmonic::KernelInput& in, std::span<const double>, std::span<double>,
                  harmonic::KernelResponse& out) const override {
    const laws::NormalResponse p = law_->Evaluate(gap0_ - in.r(0), -in.r_dot(0));
    if (!std::isfinite(p.pressure) || !std::isfinite(p.d_pressure_d_gap) ||
        !std::isfinite(p.d_pressure_d_gap_rate))
      return Status::Failure("normal law " + std::string(law_->type()) +
                             ": the pressure or its tangent is not finite at gap " +
                             std::to_string(gap0_ - in.r(0)) + " m");
    out.force.setConstant(1, p.pressure);
    out.d_force_d_r.setConstant(1, 1, -p.d_pressure_d_gap);
    out.d_force_d_r_dot.setConstant(1, 1, -p.d_pressure_d_gap_rate);
    out.state = p.pressure > 0.0 ? laws::ContactState::kStick : laws::ContactState::kOpen;
    return Status::Ok();
  }

 private:
  std::shared_ptr<const laws::NormalLaw> law_;
  double gap0_;  // [m]
};

}  // namespace

void HarmonicOptions::Validate() const {
  if (const Status status = harmonics.Validate(); !status)
    throw InputError("harmonics", "", status.message);
  harmonic::ContinuationOptions first = continuation;
  if (by_frequency() && !levels.empty()) first.fixed = levels.front();
  if (const Status status = first.Validate(); !status)
    throw InputError("continuation", "", status.message);
  const int dofs = static_cast<int>(model.dofs.size());
  for (const int d : output_dofs)
    if (d < 0 || d >= dofs) throw InputError("output.dofs", std::to_string(d), "is no DOF");
}

std::vector<double> HarmonicOptions::CurveParameters() const {
  return by_frequency() ? levels : std::vector<double>{continuation.fixed};
}

harmonic::HarmonicSystem BuildHarmonicSystem(const HarmonicOptions& options) {
  const auto& lm = options.model;
  const int n = int(lm.dofs.size());
  harmonic::HarmonicSystem system;
  using Triplets = std::vector<Eigen::Triplet<double>>;
  Triplets mass, damping, stiffness;
  for (int i = 0; i < n; ++i) mass.emplace_back(i, i, lm.dofs[i].mass);
  const auto add = [](Triplets& matrix, int a, int b, double value) {
    matrix.emplace_back(a, a, value);
    if (b == kGround) return;
    matrix.emplace_back(b, b, value);
    matrix.emplace_back(a, b, -value);
    matrix.emplace_back(b, a, -value);
  };
  for (const auto& s : lm.springs) add(stiffness, s.a, s.b, s.k);
  for (const auto& d : lm.dampers) add(damping, d.a, d.b, d.c);
  const auto assemble = [n](solvers::SparseMatrix& matrix, const Triplets& triplets) {
    matrix.resize(n, n);
    matrix.setFromTriplets(triplets.begin(), triplets.end());
  };
  assemble(system.mass, mass);
  assemble(system.damping, damping);
  assemble(system.stiffness, stiffness);
  system.excitation = options.excitation;
  // One component per input: from dof_a[i] to dof_b[i].
  const auto element = [&](std::unique_ptr<harmonic::PointKernel> kernel,
                           const std::vector<int>& dof_a, const std::vector<int>& dof_b) {
    system.elements.push_back(harmonic::Between(
        std::make_unique<harmonic::MarchedForce>(std::move(kernel), harmonic::MarchOptions{}),
        dof_a, dof_b));
  };
  // One tangential component per slip component (a[i] to b[i], the law's dim). A
  // non-positive pressure opens the element (lumped::NormalSource): no friction force.
  // A normal DOF pair enters as the kernel's last component from normal.b to normal.a
  // (r = q_b - q_a, the approach at gap0 = 0), so that the normal force p acts as -p on
  // normal.a and +p on normal.b like in the time domain (lumped/elements.h).
  for (const auto& f : lm.friction) {
    if (f.normal.kind == lumped::NormalSource::Kind::kGapDofs) {
      std::vector<int> from = f.a, to = f.b;
      from.push_back(f.normal.b);
      to.push_back(f.normal.a);
      element(
          std::make_unique<GapOffsetKernel>(laws::ContactPoint(f.normal.law, f.law), f.normal.gap0),
          std::move(from), std::move(to));
    } else {
      element(std::make_unique<harmonic::TangentialKernel>(
                  f.law, std::max(0.0, f.normal.pressure.Value(0.0))),
              f.a, f.b);
    }
  }
  for (const auto& c : lm.contacts)
    element(std::make_unique<NormalKernel>(c.law, c.gap0), {c.b}, {c.a});
  for (const auto& s : options.polynomial_springs)
    element(std::make_unique<harmonic::PolynomialKernel>(s.coefficients), {s.a}, {s.b});
  for (const auto& d : options.dry_friction)
    system.elements.push_back(harmonic::Between(
        std::make_unique<harmonic::DryFrictionForce>(d.slip_force, d.name), {d.a}, {d.b}));
  return system;
}

double FirstHarmonicAmplitude(const harmonic::HarmonicBasis& basis,
                              const harmonic::SolutionPoint& point, int dof) {
  const int c = basis.CosIndex(0);
  return std::hypot(point.coefficients(dof, c), point.coefficients(dof, c + 1));
}

HarmonicResult RunHarmonic(const HarmonicOptions& options, Observer& observer) {
  options.Validate();
  const Clock::time_point start = Clock::now();
  harmonic::HarmonicBalance hb(BuildHarmonicSystem(options), options.harmonics);
  HarmonicResult result;
  result.dofs = hb.num_dofs();
  result.unknowns = hb.num_unknowns();
  const std::vector<double> curves = options.CurveParameters();
  const int count = static_cast<int>(curves.size());
  observer.Progress("curves", 0, count);
  for (const double fixed : curves) {
    harmonic::ContinuationOptions continuation = options.continuation;
    continuation.fixed = fixed;
    result.curves.push_back({fixed, harmonic::Continue(hb, continuation)});
    observer.Progress("curves", static_cast<int>(result.curves.size()), count);
    if (const Status& status = result.curves.back().continuation.status; !status) {
      const std::string label = options.by_frequency()
                                    ? "level " + FormatValue(fixed)
                                    : "f = " + FormatValue(fixed / (2.0 * M_PI)) + " Hz";
      result.status = Status::Failure(label + ": " + status.message);
      break;
    }
  }
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
