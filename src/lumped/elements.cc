#include "lumped/elements.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/error.h"

namespace jointdyn::lumped {
namespace {

using laws::NormalResponse;

// Generalized forces and their derivatives: at most one per end pair.
using StrainVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxEnds / 2, 1>;
using StrainMatrix =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxEnds / 2, kMaxEnds / 2>;

// An element's forces and tangents from its generalized forces F (the force conjugate to
// each generalized strain e = B q_ends) and their derivatives: f = B' F, K = B' dF/de B,
// D = B' dF/de_dot B. Strain i is the difference of end pair i, q_(2i) - q_(2i+1): the
// slip components, then for a node-to-node element the gap (gap0 drops out of the
// derivatives).
void Scatter(const StrainVector& force, const StrainMatrix& d_force,
             const StrainMatrix& d_force_rate, KernelResponse& out) {
  const int strains = int(force.size());
  out.f.resize(2 * strains);
  out.K.resize(2 * strains, 2 * strains);
  out.D.resize(2 * strains, 2 * strains);
  // B has +1 at (i, 2i) and -1 at (i, 2i + 1).
  const auto sign = [](int end) { return end % 2 == 0 ? 1.0 : -1.0; };
  for (int i = 0; i < 2 * strains; ++i) {
    out.f(i) = sign(i) * force(i / 2);
    for (int j = 0; j < 2 * strains; ++j) {
      out.K(i, j) = sign(i) * sign(j) * d_force(i / 2, j / 2);
      out.D(i, j) = sign(i) * sign(j) * d_force_rate(i / 2, j / 2);
    }
  }
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

// The ends, in pairs: (a[i], b[i]) per slip component, then the normal DOF pair.
std::vector<int> FrictionEnds(const FrictionElement& e) {
  JD_CHECK(e.law != nullptr && (e.law->dim() == 1 || e.law->dim() == 2) &&
               int(e.a.size()) == e.law->dim() && e.b.size() == e.a.size(),
           "friction element '" + e.name + "' needs a 1D or 2D tangential law and one end pair " +
               "per slip component");
  std::vector<int> ends;
  for (size_t i = 0; i < e.a.size(); ++i) ends.insert(ends.end(), {e.a[i], e.b[i]});
  if (e.normal.kind == NormalSource::Kind::kGapDofs)
    ends.insert(ends.end(), {e.normal.a, e.normal.b});
  return ends;
}

class FrictionKernel final : public ElementKernel {
 public:
  explicit FrictionKernel(const FrictionElement& e)
      : ElementKernel(e.name, FrictionEnds(e)), law_(e.law), normal_(e.normal), dim_(e.law->dim()) {
    if (normal_.kind != NormalSource::Kind::kPressure)
      JD_CHECK(normal_.law != nullptr, "friction element '" + name() + "' needs a normal law");
    if (normal_.kind == NormalSource::Kind::kGapDofs) contact_.emplace(normal_.law, law_);
  }

  int state_size() const override { return law_->state_size(); }
  void InitState(std::span<double> state) const override { law_->InitState(state); }

  Status Evaluate(const KernelPoint& point, const EndState& ends, std::span<const double> base,
                  std::span<double> trial, KernelResponse& out) const override {
    // Generalized forces: tau per slip component, then -p conjugate to the gap.
    const int strains = dim_ + (contact_ ? 1 : 0);
    StrainVector force(strains);
    StrainMatrix d_force = StrainMatrix::Zero(strains, strains);
    StrainMatrix d_force_rate = StrainMatrix::Zero(strains, strains);
    if (contact_) {
      laws::ContactResponse r;
      if (Status s = contact_->Evaluate(ContactAt(point, ends), base, trial, r); !s) return s;
      // Strain i is row / column i of the law's (s_x, s_y, g) for i < dim, the gap (row /
      // column 2) for i = dim; the gap's generalized force is -p.
      const auto law_index = [this](int i) { return i < dim_ ? i : 2; };
      const auto sign = [this](int i) { return i < dim_ ? 1.0 : -1.0; };
      for (int i = 0; i < strains; ++i) {
        force(i) = i < dim_ ? r.traction(i) : -r.pressure;
        for (int j = 0; j < strains; ++j)
          d_force(i, j) = sign(i) * r.tangent(law_index(i), law_index(j));
        d_force_rate(i, dim_) = i < dim_ ? r.d_traction_d_gap_rate(i) : -r.d_pressure_d_gap_rate;
      }
      out.force = r.traction;
      out.stored_energy = r.stored_energy;
      out.normal_force = r.pressure;
    } else {
      double pressure = 0.0;
      if (Status s = PressureAt(point.t, pressure); !s) return s;
      laws::TangentialResponse r;
      if (Status s = law_->Evaluate({Slip(ends), pressure, point.dt}, base, trial, r); !s) return s;
      force = r.traction.head(dim_);
      d_force = r.d_traction_d_slip.topLeftCorner(dim_, dim_);
      out.force = r.traction;
      out.stored_energy = r.stored_energy;
      out.normal_force = pressure;
    }
    Scatter(force, d_force, d_force_rate, out);
    return Status::Ok();
  }

  double PostNewtonUpdate(const KernelPoint& point, const EndState& ends,
                          std::span<const double> trial,
                          std::span<double> switching) const override {
    if (contact_) return contact_->PostNewtonUpdate(ContactAt(point, ends), trial, switching);
    double pressure = 0.0;
    if (!PressureAt(point.t, pressure)) return 0.0;  // Evaluate() reported it already
    return law_->PostNewtonUpdate({Slip(ends), pressure, point.dt}, trial, switching);
  }

 private:
  // The slip q_a - q_b per component (y = 0 for 1D laws) [m].
  Vec2 Slip(const EndState& ends) const {
    return Vec2(ends.q(0) - ends.q(1), dim_ == 2 ? ends.q(2) - ends.q(3) : 0.0);
  }

  laws::ContactInput ContactAt(const KernelPoint& point, const EndState& ends) const {
    const int n = 2 * dim_;  // the normal pair's first end
    return {Slip(ends), normal_.gap0 + ends.q(n) - ends.q(n + 1), ends.v(n) - ends.v(n + 1),
            point.dt};
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
  int dim_;  // slip components
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
    out.force = Vec2(r.pressure, 0.0);
    out.normal_force = r.pressure;
    Scatter(StrainVector::Constant(1, force), StrainMatrix::Constant(1, 1, d_force),
            StrainMatrix::Constant(1, 1, -r.d_pressure_d_gap_rate), out);
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
