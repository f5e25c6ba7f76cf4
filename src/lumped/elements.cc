#include "lumped/elements.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/error.h"

namespace jointdyn::lumped {
namespace {

using laws::NormalResponse;

// An element's forces and tangents from its generalized forces F (the force conjugate to
// each generalized strain e = B q_ends) and their derivatives: f = B' F, K = B' dF/de B,
// D = B' dF/de_dot B. The strains are the slip q_0 - q_1 and, for a node-to-node element,
// the gap q_2 - q_3 (gap0 drops out of the derivatives).
void Scatter(int ends, const Vec2& force, const Mat2& d_force, const Mat2& d_force_rate,
             KernelResponse& out) {
  Eigen::Matrix<double, 2, kMaxEnds> b = Eigen::Matrix<double, 2, kMaxEnds>::Zero();
  b(0, 0) = 1.0;
  b(0, 1) = -1.0;
  if (ends == 4) {
    b(1, 2) = 1.0;
    b(1, 3) = -1.0;
  }
  const auto bb = b.leftCols(ends);
  out.f = bb.transpose() * force;
  out.K = bb.transpose() * d_force * bb;
  out.D = bb.transpose() * d_force_rate * bb;
}

Status CheckNormal(const laws::NormalLaw& law, const NormalResponse& r, double gap) {
  if (std::isfinite(r.pressure) && std::isfinite(r.d_pressure_d_gap) &&
      std::isfinite(r.d_pressure_d_gap_rate) && std::isfinite(r.stored_energy))
    return Status::Ok();
  return Status::Failure("normal law '" + std::string(law.type()) +
                         "' gave a non-finite response at gap " + FormatValue(gap) + " m (p = " +
                         FormatValue(r.pressure) + ", dp/dg = " + FormatValue(r.d_pressure_d_gap) +
                         ", dp/dg_dot = " + FormatValue(r.d_pressure_d_gap_rate) +
                         ", energy = " + FormatValue(r.stored_energy) + ")");
}

class FrictionKernel final : public ElementKernel {
 public:
  explicit FrictionKernel(const FrictionElement& e)
      : ElementKernel(e.name, e.normal.kind == NormalSource::Kind::kGapDofs
                                  ? std::vector<int>{e.a, e.b, e.normal.a, e.normal.b}
                                  : std::vector<int>{e.a, e.b}),
        law_(e.law),
        normal_(e.normal) {
    JD_CHECK(law_ != nullptr && law_->dim() == 1,
             "friction element '" + name() + "' needs a 1D tangential law");
    if (normal_.kind != NormalSource::Kind::kPressure)
      JD_CHECK(normal_.law != nullptr, "friction element '" + name() + "' needs a normal law");
    if (normal_.kind == NormalSource::Kind::kGapDofs) contact_.emplace(normal_.law, law_);
  }

  int state_size() const override { return law_->state_size(); }
  void InitState(std::span<double> state) const override { law_->InitState(state); }

  Status Evaluate(const KernelPoint& point, const EndState& ends, std::span<const double> base,
                  std::span<double> trial, KernelResponse& out) const override {
    const double slip = ends.q(0) - ends.q(1);
    Vec2 force = Vec2::Zero();
    Mat2 d_force = Mat2::Zero(), d_force_rate = Mat2::Zero();
    if (contact_) {
      laws::ContactResponse r;
      if (Status s = contact_->Evaluate(ContactAt(point, ends), base, trial, r); !s) return s;
      force = Vec2(r.traction.x(), -r.pressure);
      d_force << r.tangent(0, 0), r.tangent(0, 2), -r.tangent(2, 0), -r.tangent(2, 2);
      d_force_rate << 0.0, r.d_traction_d_gap_rate.x(), 0.0, -r.d_pressure_d_gap_rate;
      out.stored_energy = r.stored_energy;
      out.normal_force = r.pressure;
    } else {
      double pressure = 0.0;
      if (Status s = PressureAt(point.t, pressure); !s) return s;
      laws::TangentialResponse r;
      if (Status s = law_->Evaluate({Vec2(slip, 0.0), pressure, point.dt}, base, trial, r); !s)
        return s;
      force.x() = r.traction.x();
      d_force(0, 0) = r.d_traction_d_slip(0, 0);
      out.stored_energy = r.stored_energy;
      out.normal_force = pressure;
    }
    out.force = force.x();
    Scatter(int(ends.q.size()), force, d_force, d_force_rate, out);
    return Status::Ok();
  }

  double PostNewtonUpdate(const KernelPoint& point, const EndState& ends,
                          std::span<const double> trial,
                          std::span<double> switching) const override {
    if (contact_) return contact_->PostNewtonUpdate(ContactAt(point, ends), trial, switching);
    double pressure = 0.0;
    if (!PressureAt(point.t, pressure)) return 0.0;  // Evaluate() reported it already
    const double slip = ends.q(0) - ends.q(1);
    return law_->PostNewtonUpdate({Vec2(slip, 0.0), pressure, point.dt}, trial, switching);
  }

 private:
  laws::ContactInput ContactAt(const KernelPoint& point, const EndState& ends) const {
    return {Vec2(ends.q(0) - ends.q(1), 0.0), normal_.gap0 + ends.q(2) - ends.q(3),
            ends.v(2) - ends.v(3), point.dt};
  }

  // The normal force of a given pressure or of the normal law at a prescribed gap [N].
  Status PressureAt(double t, double& pressure) const {
    if (normal_.kind == NormalSource::Kind::kPressure) {
      pressure = std::max(normal_.pressure.Value(t), 0.0);
      return Status::Ok();
    }
    const double gap = normal_.gap.Value(t);
    const NormalResponse r = normal_.law->Evaluate(gap, normal_.gap.Rate(t));
    pressure = r.pressure;
    return CheckNormal(*normal_.law, r, gap);
  }

  std::shared_ptr<const laws::TangentialLaw> law_;
  NormalSource normal_;
  std::optional<laws::ContactPoint> contact_;
};

class ContactKernel final : public ElementKernel {
 public:
  explicit ContactKernel(const ContactElement& e)
      : ElementKernel(e.name, {e.a, e.b}), law_(e.law), gap0_(e.gap0) {
    JD_CHECK(law_ != nullptr, "contact element '" + name() + "' needs a normal law");
  }

  // No history: `base` and `trial` are empty.
  Status Evaluate(const KernelPoint& point, const EndState& ends, std::span<const double> /*base*/,
                  std::span<double> /*trial*/, KernelResponse& out) const override {
    const double gap = gap0_ + ends.q(0) - ends.q(1);
    const double gap_rate = ends.v(0) - ends.v(1);
    const NormalResponse r = law_->Evaluate(gap, gap_rate);
    if (Status s = CheckNormal(*law_, r, gap); !s) return s;
    // F = dV/dg - (p - p_el): the end-point force is -p; the energy-conserving variant
    // replaces the elastic part -p_el(g) = dV/dg by the discrete gradient.
    double force = -r.pressure, d_force = -r.d_pressure_d_gap;
    if (point.discrete_gradient) {
      const NormalResponse elastic = law_->Evaluate(gap, 0.0);
      double gradient = 0.0, d_gradient = 0.0;
      DiscreteGradient(gap, gap0_ + ends.q_n(0) - ends.q_n(1), elastic, gradient, d_gradient);
      force = gradient - (r.pressure - elastic.pressure);
      d_force = d_gradient - (r.d_pressure_d_gap - elastic.d_pressure_d_gap);
    }
    out.stored_energy = r.stored_energy;
    out.force = out.normal_force = r.pressure;
    Mat2 tangent = Mat2::Zero(), tangent_rate = Mat2::Zero();
    tangent(0, 0) = d_force;
    tangent_rate(0, 0) = -r.d_pressure_d_gap_rate;
    Scatter(2, Vec2(force, 0.0), tangent, tangent_rate, out);
    return Status::Ok();
  }

 private:
  // (V(g) - V(g_n)) / (g - g_n) and its derivative with respect to g; close to g_n (where
  // the difference quotient loses digits) the midpoint gradient -p_el((g + g_n) / 2),
  // which differs by O((g - g_n)^2), with derivative -dp_el/dg / 2 there.
  void DiscreteGradient(double gap, double gap_n, const NormalResponse& elastic, double& gradient,
                        double& d_gradient) const {
    const double onset = law_->contact_onset_gap();
    const double scale = std::max(std::abs(gap - onset), std::abs(gap_n - onset));
    const double step = gap - gap_n;
    if (std::abs(step) > kRelativeStep * scale) {
      const double energy_n = law_->Evaluate(gap_n, 0.0).stored_energy;
      gradient = (elastic.stored_energy - energy_n) / step;
      d_gradient = (-elastic.pressure - gradient) / step;
      return;
    }
    const NormalResponse mid = law_->Evaluate(0.5 * (gap + gap_n), 0.0);
    gradient = -mid.pressure;
    d_gradient = -0.5 * mid.d_pressure_d_gap;
  }

  // Below this relative step the difference quotient would lose more than about 1e-9 of
  // its value to cancellation, while the midpoint gradient is exact to about 1e-14.
  static constexpr double kRelativeStep = 1e-7;

  std::shared_ptr<const laws::NormalLaw> law_;
  double gap0_;
};

}  // namespace

std::unique_ptr<ElementKernel> MakeKernel(const FrictionElement& element) {
  return std::make_unique<FrictionKernel>(element);
}

std::unique_ptr<ElementKernel> MakeKernel(const ContactElement& element) {
  return std::make_unique<ContactKernel>(element);
}

}  // namespace jointdyn::lumped
