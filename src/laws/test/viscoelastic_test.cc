#include "laws/viscoelastic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>

#include "core/error.h"
#include "laws/law_point.h"
#include "laws/test/conformance.h"

namespace jointdyn::laws {
namespace {

using conformance::CaseName;
using conformance::TangentialCase;
using conformance::TangentialConformance;
using Complex = std::complex<double>;

// Interface-scale parameters: tangential contact stiffness 1e11 Pa/m, relaxation time
// c/k = 1e-4 s.
const KelvinVoigtParams kKelvinVoigt{.k = 1e11, .c = 1e7};
const MaxwellParams kMaxwell{.k = 1e11, .c = 1e7};
const ZenerParams kZener{.k_inf = 2e10, .k1 = 1e11, .c1 = 1e7};

struct Model {
  std::string name;
  std::function<std::unique_ptr<TangentialLaw>(int dim)> make;
  std::function<Complex(double omega)> stiffness;  // complex stiffness K*(omega) [Pa/m]
  // Parallel spring, branch compliance and branch damper of the Zener form
  // tau = k_inf s + sigma, f1 d(sigma)/dt + sigma/c1 = ds/dt, for the discrete reference.
  double k_inf, compliance, c1;
  double order;  // observed order of the loop-energy error in dt
};

// Complex stiffnesses of the continuous models (s = A e^{i w t}, tau = K* s).
std::vector<Model> Models() {
  const Complex i(0.0, 1.0);
  return {
      {"kelvin_voigt", [](int dim) { return std::make_unique<ViscoelasticLaw>(kKelvinVoigt, dim); },
       [=](double w) { return kKelvinVoigt.k + i * w * kKelvinVoigt.c; }, kKelvinVoigt.k, 0.0,
       kKelvinVoigt.c, 2.0},
      {"maxwell", [](int dim) { return std::make_unique<ViscoelasticLaw>(kMaxwell, dim); },
       [=](double w) {
         return kMaxwell.k * i * w * kMaxwell.c / (kMaxwell.k + i * w * kMaxwell.c);
       },
       0.0, 1.0 / kMaxwell.k, kMaxwell.c, 1.0},
      {"zener", [](int dim) { return std::make_unique<ViscoelasticLaw>(kZener, dim); },
       [=](double w) {
         return kZener.k_inf + kZener.k1 * i * w * kZener.c1 / (kZener.k1 + i * w * kZener.c1);
       },
       kZener.k_inf, 1.0 / kZener.k1, kZener.c1, 1.0},
  };
}

std::vector<TangentialCase> Cases() {
  std::vector<TangentialCase> cases;
  for (const Model& model : Models())
    for (int dim : {1, 2})
      cases.push_back({model.name + "_" + std::to_string(dim) + "d",
                       [make = model.make, dim] { return make(dim); }, 1e-5, 1e6, 1e-4});
  for (int dim : {1, 2})
    cases.push_back({"elastic_" + std::to_string(dim) + "d",
                     [dim] { return std::make_unique<ElasticLaw>(ElasticParams{.k = 1e11}, dim); },
                     1e-5, 1e6, 1e-4});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Viscoelastic, TangentialConformance, ::testing::ValuesIn(Cases()),
                         CaseName());

// Work per cycle of the last of `cycles` cycles of s = A (sin wt) in 1D, or the circle
// s = A (sin wt, 1 - cos wt) in 2D, with `per_cycle` steps per cycle; trapezoidal work.
double LoopEnergy(const TangentialLaw& law, double amplitude, double omega, int per_cycle,
                  int cycles) {
  LawPoint point(law);
  const double dt = 2 * M_PI / omega / per_cycle;
  TangentialResponse r, previous;
  Vec2 s_prev = Vec2::Zero();
  double work = 0.0;
  for (int i = 0; i <= cycles * per_cycle; ++i) {
    const double phase = 2 * M_PI * i / per_cycle;
    const Vec2 s = amplitude * Vec2(std::sin(phase), law.dim() == 2 ? 1 - std::cos(phase) : 0);
    EXPECT_TRUE(point.Step({s, 0.0, dt}, r).ok);
    if (i > (cycles - 1) * per_cycle)
      work += 0.5 * (r.traction + previous.traction).dot(s - s_prev);
    previous = r;
    s_prev = s;
  }
  return work;
}

// Closed form of the steady loop: pi A^2 Im K*(omega) per loaded component (two for the
// circle).
double ExactLoopEnergy(const Model& model, int dim, double amplitude, double omega) {
  return dim * M_PI * amplitude * amplitude * model.stiffness(omega).imag();
}

constexpr double kAmplitude = 1e-5;    // m
constexpr double kOmega = 1.0 / 1e-4;  // w tau = 1 for the Maxwell branch [rad/s]
constexpr int kCycles = 6;             // transient exp(-6 * 2 pi) ~ 4e-17

TEST(Viscoelastic, LoopEnergyMatchesComplexStiffnessWithExpectedOrder) {
  for (const Model& model : Models()) {
    for (int dim : {1, 2}) {
      const auto law = model.make(dim);
      const double exact = ExactLoopEnergy(model, dim, kAmplitude, kOmega);
      auto error = [&](int per_cycle) {
        return std::abs(LoopEnergy(*law, kAmplitude, kOmega, per_cycle, kCycles) / exact - 1);
      };
      const double coarse = error(500), fine = error(1000), finest = error(8000);
      const double order = std::log2(coarse / fine);
      // Backward Euler of the branch stress is first order. Kelvin-Voigt has no ODE: its
      // only error is the backward-difference velocity, which the trapezoidal work sums
      // to second order (pi c w A^2 sinc^2(w dt/2) (1 + cos w dt)/2).
      EXPECT_NEAR(order, model.order, 0.1)
          << model.name << " " << dim << "d: errors " << coarse << ", " << fine;
      EXPECT_LT(finest, 1e-3) << model.name << " " << dim << "d";
      std::printf("%s %dd: rel. error %.3e (500/cycle), %.3e (1000), %.3e (8000), order %.3f\n",
                  model.name.c_str(), dim, coarse, fine, finest, order);
    }
  }
}

// Independent reference for the discrete steady state. With s_n = Re(S e^{i n h}),
// h = w dt, backward Euler gives tau_n = Re(K_d S e^{i n h}) with the discrete stiffness
// K_d = k_inf + (1 - e^{-ih}) / (f1 (1 - e^{-ih}) + dt / c1), and the trapezoidal work over
// one cycle of N = 2 pi / h steps sums to (N/2) |S|^2 sin(h) Im K_d = pi A^2 sinc(h) Im K_d
// per loaded component.
TEST(Viscoelastic, SteadyLoopEnergyMatchesDiscreteTransferFunction) {
  for (const Model& model : Models()) {
    for (int dim : {1, 2}) {
      const auto law = model.make(dim);
      for (const int per_cycle : {50, 500}) {
        const double h = 2 * M_PI / per_cycle, dt = h / kOmega;
        const Complex back = 1.0 - std::exp(Complex(0.0, -h));
        const Complex k_d = model.k_inf + back / (model.compliance * back + dt / model.c1);
        const double exact = dim * M_PI * kAmplitude * kAmplitude * std::sin(h) / h * k_d.imag();
        // Enough cycles for the discrete transient (factor (1 + dt/tau)^-N per cycle) to
        // fall below 1e-15; the work sum itself is exact up to round-off.
        const double work = LoopEnergy(*law, kAmplitude, kOmega, per_cycle, 8);
        EXPECT_NEAR(work / exact, 1.0, 1e-12) << model.name << " " << dim << "d N " << per_cycle;
      }
    }
  }
}

TEST(Viscoelastic, LoopEnergyDependsOnRate) {
  for (const Model& model : Models()) {
    const auto law = model.make(1);
    double energy[2];
    const double frequencies[2] = {1.0, 1e3};  // Hz
    for (int k = 0; k < 2; ++k) {
      const double omega = 2 * M_PI * frequencies[k];
      energy[k] = LoopEnergy(*law, kAmplitude, omega, 8000, 4);
      const double exact = ExactLoopEnergy(model, 1, kAmplitude, omega);
      EXPECT_NEAR(energy[k] / exact, 1.0, 1e-3) << model.name << " at " << frequencies[k];
    }
    // Closed-form ratios W(1 Hz)/W(1 kHz): Kelvin-Voigt 1e-3, Maxwell and Zener
    // (1 + (2 pi 1e3 tau)^2) / 1e3 = 1.39e-3 with tau = c/k = 1e-4 s.
    EXPECT_LT(energy[0] / energy[1], 0.5) << model.name;
  }
}

TEST(Viscoelastic, KelvinVoigtAndMaxwellAreLimitsOfZener) {
  // Zener with k_inf -> 0 is Maxwell; with k1 -> infinity it is Kelvin-Voigt (to
  // O(dt c / k1) relative).
  const ViscoelasticLaw maxwell(kMaxwell, 1), kv(kKelvinVoigt, 1);
  const ViscoelasticLaw zener_m({.k_inf = 1e-300, .k1 = kMaxwell.k, .c1 = kMaxwell.c}, 1);
  const ViscoelasticLaw zener_kv({.k_inf = kKelvinVoigt.k, .k1 = 1e20, .c1 = kKelvinVoigt.c}, 1);
  LawPoint pm(maxwell), pzm(zener_m), pkv(kv), pzkv(zener_kv);
  for (int i = 0; i < 50; ++i) {
    const TangentialInput in{Vec2(1e-5 * std::sin(0.3 * i), 0.0), 0.0, 1e-4};
    TangentialResponse a, b, c, d;
    ASSERT_TRUE(pm.Step(in, a).ok && pzm.Step(in, b).ok && pkv.Step(in, c).ok &&
                pzkv.Step(in, d).ok);
    EXPECT_NEAR(a.traction.x(), b.traction.x(), 1e-12 * 1e6);
    // c1 / (k1 dt) = 1e7 / (1e20 * 1e-4) = 1e-9 relative.
    EXPECT_NEAR(c.traction.x(), d.traction.x(), 1e-8 * std::abs(c.traction.x()) + 1e-6);
  }
}

TEST(Viscoelastic, IgnoresPressure) {
  const ViscoelasticLaw law(kZener, 2);
  LawPoint a(law), b(law);
  TangentialResponse ra, rb;
  for (const double p : {1e6, 0.0, -1e6}) {
    ASSERT_TRUE(a.Step({Vec2(1e-6, -2e-6), 1e6, 1e-4}, ra).ok);
    ASSERT_TRUE(b.Step({Vec2(1e-6, -2e-6), p, 1e-4}, rb).ok);
    EXPECT_EQ(ra.traction, rb.traction);
    EXPECT_EQ(rb.d_traction_d_pressure, Vec2::Zero());
  }
}

// The elastic law is the Zener solid without a branch: tau = k s at any rate and pressure,
// the energy of the spring, no dissipation and no stick/slip.
TEST(Viscoelastic, ElasticIsASpringIgnoringRateAndPressure) {
  const ElasticLaw law({.k = 3e11}, 2);
  EXPECT_TRUE(law.rate_independent());
  EXPECT_EQ(law.state_size(), 0);
  for (const double p : {-1e6, 0.0, 1e6})
    for (const double dt : {0.0, 1e-3}) {
      TangentialResponse r;
      ASSERT_TRUE(law.Evaluate({Vec2(2e-6, -1e-6), p, dt}, {}, {}, r).ok);
      EXPECT_EQ(r.traction, Vec2(6e5, -3e5));
      EXPECT_EQ(r.d_traction_d_slip, 3e11 * Mat2::Identity());
      EXPECT_EQ(r.d_traction_d_pressure, Vec2::Zero());
      EXPECT_NEAR(r.stored_energy, 0.5 * 3e11 * 5e-12, 1e-15);
      EXPECT_EQ(r.state, ContactState::kStick);
    }
  const ElasticLaw one_d({.k = 3e11}, 1);
  TangentialResponse r;
  ASSERT_TRUE(one_d.Evaluate({Vec2(2e-6, -1e-6), 1e6, 0.0}, {}, {}, r).ok);
  EXPECT_EQ(r.traction, Vec2(6e5, 0.0));
  EXPECT_THROW(ElasticLaw({.k = 0.0}, 2), InputError);
  EXPECT_THROW(ElasticLaw({.k = 1e11}, 3), InputError);
}

TEST(Viscoelastic, RejectsBadParameters) {
  EXPECT_THROW(ViscoelasticLaw(KelvinVoigtParams{.k = -1, .c = 1}, 1), InputError);
  EXPECT_THROW(ViscoelasticLaw(KelvinVoigtParams{.k = 1, .c = 0}, 1), InputError);
  EXPECT_THROW(ViscoelasticLaw(MaxwellParams{.k = 0, .c = 1}, 1), InputError);
  EXPECT_THROW(ViscoelasticLaw(MaxwellParams{.k = 1, .c = 1}, 3), InputError);
  EXPECT_THROW(ViscoelasticLaw(ZenerParams{.k_inf = 1, .k1 = 1, .c1 = -1}, 2), InputError);
  try {
    ViscoelasticLaw(ZenerParams{.k_inf = 1, .k1 = -2, .c1 = 1}, 2);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "k1 = -2: must be > 0 and finite");
  }
  EXPECT_EQ(ViscoelasticLaw(kKelvinVoigt, 1).type(), "kelvin_voigt");
  EXPECT_EQ(ViscoelasticLaw(kMaxwell, 1).type(), "maxwell");
  EXPECT_EQ(ViscoelasticLaw(kZener, 1).type(), "zener");
}

}  // namespace
}  // namespace jointdyn::laws
