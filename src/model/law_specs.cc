#include "model/law_specs.h"

#include "laws/bouc_wen.h"
#include "laws/bristle.h"
#include "laws/coulomb.h"
#include "laws/dahl_valanis.h"
#include "laws/iwan.h"
#include "laws/lugre.h"
#include "laws/normal_laws.h"
#include "laws/viscoelastic.h"

namespace jointdyn::model {

namespace {

const char kStiffness[] = "Pa/m";
const char kDamping[] = "Pa s/m";

template <class Law, class Params>
auto Tangential(Params (*make)(const ParamValues&)) {
  return [make](const ParamValues& v, int dim) -> std::unique_ptr<laws::TangentialLaw> {
    return std::make_unique<Law>(make(v), dim);
  };
}

template <class Law, class Params>
auto Normal(Params (*make)(const ParamValues&)) {
  return [make](const ParamValues& v, int) -> std::unique_ptr<laws::NormalLaw> {
    return std::make_unique<Law>(make(v));
  };
}

}  // namespace

std::vector<TangentialSpec> MakeTangentialSpecs() {
  std::vector<TangentialSpec> specs;
  specs.push_back(
      {"coulomb",
       "Three-parameter Coulomb-type friction: stick spring c1 in series with a slider of "
       "limit mu p, parallel spring c2; elastic predictor, plastic corrector",
       "seed 003 eq. 2.113, fig. 2.4",
       true,
       {{"c1", ParamKind::kNumber, kStiffness, "> 0", "stick stiffness of the slider branch"},
        {"c2", ParamKind::kNumber, kStiffness, ">= 0", "parallel (slip) stiffness", 0.0},
        {"mu", ParamKind::kNumber, "-", ">= 0", "friction coefficient, R_G = mu p"}},
       Tangential<laws::CoulombLaw>(+[](const ParamValues& v) {
         return laws::CoulombParams{
             .c1 = v.number("c1"), .c2 = v.number("c2"), .mu = v.number("mu")};
       }),
       "{c1: 2.0e11, c2: 1.0e9, mu: 0.3}",
       3e-6,
       1e6});
  // Smooth rate-independent friction laws, comparable with coulomb: same c1, c2, mu.
  const ParamDoc c1{"c1", ParamKind::kNumber, kStiffness, "> 0", "stick stiffness (initial slope)"};
  const ParamDoc c2{"c2", ParamKind::kNumber, kStiffness, ">= 0", "parallel (slip) stiffness", 0.0};
  const ParamDoc mu{"mu", ParamKind::kNumber, "-", ">= 0", "friction coefficient, R_G = mu p"};
  const ParamDoc n{"n", ParamKind::kNumber, "-", ">= 1, finite",
                   "shape exponent: large n approaches the Coulomb corner"};
  specs.push_back({"dahl",
                   "Adapted Dahl friction (alpha = 1) with parallel spring c2; backward Euler, "
                   "safe as R_G -> 0",
                   "seed 003 eq. 2.114-2.118",
                   true,
                   {c1, c2, mu},
                   Tangential<laws::DahlValanisLaw>(+[](const ParamValues& v) {
                     return laws::DahlParams{
                         .c1 = v.number("c1"), .c2 = v.number("c2"), .mu = v.number("mu")};
                   }),
                   "{c1: 2.0e11, c2: 1.0e9, mu: 0.3}",
                   3e-6,
                   1e6});
  specs.push_back(
      {"valanis",
       "Valanis endochronic friction: E0 = c1 + c2, Et = c2, lambda from eq. 2.121",
       "seed 003 eq. 2.119-2.121",
       true,
       {c1,
        c2,
        mu,
        {"kappa", ParamKind::kNumber, "-", "in (0, 1)", "transition shape (high = sharper)"}},
       Tangential<laws::DahlValanisLaw>(+[](const ParamValues& v) {
         return laws::ValanisParams{.c1 = v.number("c1"),
                                    .c2 = v.number("c2"),
                                    .mu = v.number("mu"),
                                    .kappa = v.number("kappa")};
       }),
       "{c1: 2.0e11, c2: 1.0e9, mu: 0.3, kappa: 0.9}",
       3e-6,
       1e6});
  specs.push_back(
      {"bouc_wen",
       "Bouc-Wen friction: A = c1, B = gamma = c1 / (2 R_G^n), plus parallel spring c2",
       "seed 003 eq. 2.122-2.124",
       true,
       {c1, c2, mu, n},
       Tangential<laws::BoucWenLaw>(+[](const ParamValues& v) {
         return laws::BoucWenParams{
             .c1 = v.number("c1"), .c2 = v.number("c2"), .mu = v.number("mu"), .n = v.number("n")};
       }),
       "{c1: 2.0e11, c2: 1.0e9, mu: 0.3, n: 2}",
       3e-6,
       1e6});
  specs.push_back({"masing",
                   "Masing approximation of a spring-slider: the Bouc-Wen kernel with c2 = 0",
                   "seed 003 eq. E.1-E.3",
                   true,
                   {c1, mu, n},
                   Tangential<laws::BoucWenLaw>(+[](const ParamValues& v) {
                     return laws::MasingParams{
                         .c1 = v.number("c1"), .mu = v.number("mu"), .n = v.number("n")};
                   }),
                   "{c1: 2.0e11, mu: 0.3, n: 8}",
                   3e-6,
                   1e6});
  specs.push_back(
      {"lugre",
       "LuGre friction: bristle state z with dz/dt = v - sigma0 |v| z / g(v), "
       "g(v) = p (mu_c + (mu_s - mu_c) exp(-(v/v_s)^2)), tau = sigma0 z + sigma1 dz/dt + "
       "sigma2 v; open contact carries nothing",
       "seed 003 app. E.1, seed 002 sec. 2.4",
       true,
       {{"sigma0", ParamKind::kNumber, kStiffness, "> 0", "bristle stiffness"},
        {"sigma1", ParamKind::kNumber, kDamping, ">= 0", "bristle damping"},
        {"sigma2", ParamKind::kNumber, kDamping, ">= 0", "viscous friction", 0.0},
        {"mu_c", ParamKind::kNumber, "-", "> 0", "Coulomb level F_c = mu_c p"},
        {"mu_s", ParamKind::kNumber, "-", ">= mu_c", "stiction level F_s = mu_s p"},
        {"v_s", ParamKind::kNumber, "m/s", "> 0", "Stribeck velocity"}},
       Tangential<laws::LuGreLaw>(+[](const ParamValues& v) {
         return laws::LuGreParams{.sigma0 = v.number("sigma0"),
                                  .sigma1 = v.number("sigma1"),
                                  .sigma2 = v.number("sigma2"),
                                  .mu_c = v.number("mu_c"),
                                  .mu_s = v.number("mu_s"),
                                  .v_s = v.number("v_s")};
       }),
       "{sigma0: 1.0e11, sigma1: 3.0e6, sigma2: 1.0e5, mu_c: 0.3, mu_s: 0.45, v_s: 1.0e-3}",
       3e-6,
       1e6});
  specs.push_back({"kelvin_voigt",
                   "Kelvin-Voigt element: spring k parallel to damper c (ignores p)",
                   "seed 003 fig. 2.12",
                   true,
                   {{"k", ParamKind::kNumber, kStiffness, ">= 0", "spring stiffness"},
                    {"c", ParamKind::kNumber, kDamping, "> 0", "damping coefficient"}},
                   Tangential<laws::ViscoelasticLaw>(+[](const ParamValues& v) {
                     return laws::KelvinVoigtParams{.k = v.number("k"), .c = v.number("c")};
                   }),
                   "{k: 1.0e11, c: 1.0e7}",
                   3e-6,
                   1e6});
  specs.push_back({"maxwell",
                   "Maxwell element: spring k in series with damper c (ignores p)",
                   "seed 003 fig. 2.12",
                   true,
                   {{"k", ParamKind::kNumber, kStiffness, "> 0", "series spring stiffness"},
                    {"c", ParamKind::kNumber, kDamping, "> 0", "series damping coefficient"}},
                   Tangential<laws::ViscoelasticLaw>(+[](const ParamValues& v) {
                     return laws::MaxwellParams{.k = v.number("k"), .c = v.number("c")};
                   }),
                   "{k: 1.0e11, c: 1.0e7}",
                   3e-6,
                   1e6});
  specs.push_back(
      {"zener",
       "Zener (standard linear solid): spring k_inf parallel to a Maxwell branch k1, c1 "
       "(ignores p)",
       "seed 003 fig. 2.12",
       true,
       {{"k_inf", ParamKind::kNumber, kStiffness, ">= 0", "parallel (long-term) stiffness"},
        {"k1", ParamKind::kNumber, kStiffness, "> 0", "spring of the Maxwell branch"},
        {"c1", ParamKind::kNumber, kDamping, "> 0", "damper of the Maxwell branch"}},
       Tangential<laws::ViscoelasticLaw>(+[](const ParamValues& v) {
         return laws::ZenerParams{
             .k_inf = v.number("k_inf"), .k1 = v.number("k1"), .c1 = v.number("c1")};
       }),
       "{k_inf: 2.0e10, k1: 1.0e11, c1: 1.0e7}",
       3e-6,
       1e6});
  specs.push_back({"elastic",
                   "Elastic spring tau = k s, no slip (ignores p): the tangential side of a "
                   "bonded interface",
                   "a tied contact; the Zener solid without its branch",
                   true,
                   {{"k", ParamKind::kNumber, kStiffness, "> 0", "tangential stiffness"}},
                   Tangential<laws::ElasticLaw>(+[](const ParamValues& v) {
                     return laws::ElasticParams{.k = v.number("k")};
                   }),
                   "{k: 1.0e14}",
                   3e-6,
                   1e6});
  specs.push_back(
      {"bristle",
       "Bristle friction with history variables: stick force mu_v v + mu_k dx_stick up to "
       "mu p, Coulomb slip beyond; stick/slip switches in a post-Newton step",
       "seed 002 eq. 20-30",
       true,
       {{"mu_k", ParamKind::kNumber, kStiffness, "> 0", "bristle (stick) stiffness"},
        {"mu_v", ParamKind::kNumber, kDamping, ">= 0", "velocity penalty in stick", 0.0},
        {"mu", ParamKind::kNumber, "-", ">= 0", "friction coefficient"}},
       Tangential<laws::BristleLaw>(+[](const ParamValues& v) {
         return laws::BristleParams{
             .mu_k = v.number("mu_k"), .mu_v = v.number("mu_v"), .mu = v.number("mu")};
       }),
       "{mu_k: 1.0e11, mu_v: 1.0e6, mu: 0.3}",
       3e-6,
       1e6});
  // The Iwan family: whole-interface laws in N and m; `elements` selects the form.
  const std::vector<ParamDoc> iwan_common{
      {"k_t", ParamKind::kNumber, "N/m", "> 0", "stiffness of the stuck interface"},
      {"mu", ParamKind::kNumber, "-", "> 0", "friction coefficient: gross-slip force mu N"},
      {"elements", ParamKind::kInteger, "-", "0 to 1e6",
       "0: closed-form backbone with "
       "Masing rules; N_J > 0: N_J discrete Jenkins elements",
       0.0},
      {"max_turning_points", ParamKind::kInteger, "-", "1 to 1e5",
       "closed form: turning-point memory capacity", 32.0}};
  const auto iwan_params = [](const ParamValues& v) {
    return laws::IwanParams{.k_t = v.number("k_t"),
                            .mu = v.number("mu"),
                            .elements = int(v.number("elements")),
                            .max_turning_points = int(v.number("max_turning_points"))};
  };
  specs.push_back(
      {"iwan_uniform",
       "Original Iwan model: uniform density of slider strengths on [0, 2 mu N] "
       "(pressure = normal load N [N], traction = force [N])",
       "seed 001 eq. 1", false, iwan_common,
       [iwan_params](const ParamValues& v, int) -> std::unique_ptr<laws::TangentialLaw> {
         return laws::MakeUniformIwan(iwan_params(v));
       },
       "{k_t: 2.0e7, mu: 0.3}", 2e-5, 1000.0});
  std::vector<ParamDoc> segalman = iwan_common;
  segalman.push_back({"chi", ParamKind::kNumber, "-", "in (-1, 0]",
                      "exponent of the power-law density; microslip dissipation ~ A^(3 + chi)"});
  segalman.push_back({"beta", ParamKind::kNumber, "-", ">= 0",
                      "Dirac mass at the largest strength over the continuous mass"});
  specs.push_back(
      {"iwan_segalman", "Segalman four-parameter Iwan model (K_T = k_t, F_S = mu N, chi, beta)",
       "seed 001 sec. 3; Segalman 2005", false, segalman,
       [iwan_params](const ParamValues& v, int) -> std::unique_ptr<laws::TangentialLaw> {
         return laws::MakeSegalmanIwan({iwan_params(v), v.number("chi"), v.number("beta")});
       },
       "{k_t: 2.0e7, mu: 0.3, chi: -0.5, beta: 0.5}", 2e-5, 1000.0});
  specs.push_back(
      {"iwan_pressure",
       "Pressure-based Iwan model: density from the cone pressure distribution of "
       "a bolted joint",
       "seed 001 eq. 2-13", false, iwan_common,
       [iwan_params](const ParamValues& v, int) -> std::unique_ptr<laws::TangentialLaw> {
         return laws::MakePressureIwan(iwan_params(v));
       },
       "{k_t: 2.0e7, mu: 0.3}", 2e-5, 1000.0});
  return specs;
}

std::vector<NormalSpec> MakeNormalSpecs() {
  std::vector<NormalSpec> specs;
  specs.push_back({"linear",
                   "Linear penalty p = eps (-g) in contact",
                   "seed 003 eq. 2.106",
                   false,
                   {{"eps", ParamKind::kNumber, kStiffness, "> 0", "penalty stiffness"}},
                   Normal<laws::LinearPenaltyLaw>(+[](const ParamValues& v) {
                     return laws::LinearPenaltyParams{.eps = v.number("eps")};
                   }),
                   "{eps: 4.0e11}",
                   2.5e-6});
  specs.push_back({"bonded",
                   "Bonded (tied) interface: bilateral p = eps (-g) for every gap, tension "
                   "when pulled apart; never separates",
                   "a tied contact; eps -> inf is the merged mesh",
                   false,
                   {{"eps", ParamKind::kNumber, kStiffness, "> 0", "normal stiffness"}},
                   Normal<laws::BondedLaw>(+[](const ParamValues& v) {
                     return laws::BondedParams{.eps = v.number("eps")};
                   }),
                   "{eps: 1.0e14}",
                   2.5e-6});
  specs.push_back(
      {"multi_stage_linear",
       "Multi-stage linear penalty: stiffness eps_j below onset gap g_j, any number of stages",
       "seed 003 eq. 2.107 generalized",
       false,
       {{"onset_gaps", ParamKind::kList, "m", "finite, strictly decreasing",
         "gap g_j at which stage j starts (g_0 = contact onset)"},
        {"stiffnesses", ParamKind::kList, kStiffness, "> 0, one per onset gap",
         "stiffness eps_j of stage j"}},
       Normal<laws::MultiStageLinearLaw>(+[](const ParamValues& v) {
         return laws::MultiStageLinearParams{.onset_gaps = v.list("onset_gaps"),
                                             .stiffnesses = v.list("stiffnesses")};
       }),
       "{onset_gaps: [0.0, -1.25e-6], stiffnesses: [1.33e11, 6.67e11]}",
       2.5e-6});
  specs.push_back({"power",
                   "Power-function penalty p = eps |g|^m in contact",
                   "seed 003 eq. 2.108",
                   false,
                   {{"eps", ParamKind::kNumber, "Pa/m^m", "> 0", "coefficient"},
                    {"m", ParamKind::kNumber, "-", ">= 1", "exponent (about 2 for metals)"}},
                   Normal<laws::PowerPenaltyLaw>(+[](const ParamValues& v) {
                     return laws::PowerPenaltyParams{.eps = v.number("eps"), .m = v.number("m")};
                   }),
                   "{eps: 1.6e17, m: 2}",
                   2.5e-6});
  specs.push_back(
      {"quadratic_linear",
       "Quadratic-linear penalty: quadratic from g0 to g1, linear with slope eps below, "
       "continuous slope",
       "seed 003 eq. 2.109",
       false,
       {{"eps", ParamKind::kNumber, kStiffness, "> 0", "stiffness of the linear part"},
        {"g0", ParamKind::kNumber, "m", "finite", "contact onset gap", 0.0},
        {"g1", ParamKind::kNumber, "m", "< g0", "gap where the linear part starts"}},
       Normal<laws::QuadraticLinearLaw>(+[](const ParamValues& v) {
         return laws::QuadraticLinearParams{
             .eps = v.number("eps"), .g0 = v.number("g0"), .g1 = v.number("g1")};
       }),
       "{eps: 5.7e11, g0: 0.0, g1: -1.5e-6}",
       2.5e-6});
  specs.push_back({"exponential",
                   "Exponential penalty (Abaqus form): p0 at g = 0, zero from g0 on",
                   "seed 003 eq. 2.110",
                   false,
                   {{"p0", ParamKind::kNumber, "Pa", "> 0", "pressure at zero gap"},
                    {"g0", ParamKind::kNumber, "m", "> 0", "clearance at which contact starts"}},
                   Normal<laws::ExponentialLaw>(+[](const ParamValues& v) {
                     return laws::ExponentialParams{.p0 = v.number("p0"), .g0 = v.number("g0")};
                   }),
                   "{p0: 1.0e5, g0: 0.4e-6}",
                   1.0e-6});
  specs.push_back({"joint_exponential",
                   "Joint-adapted exponential penalty p = eps (g0 - g)(exp(lambda (g0 - g)) - 1)",
                   "seed 003 eq. 2.112",
                   false,
                   {{"eps", ParamKind::kNumber, kStiffness, "> 0", "stiffness"},
                    {"lambda", ParamKind::kNumber, "1/m", "> 0", "roughness parameter 1/sigma"},
                    {"g0", ParamKind::kNumber, "m", "finite", "contact onset gap", 0.0}},
                   Normal<laws::JointExponentialLaw>(+[](const ParamValues& v) {
                     return laws::JointExponentialParams{.eps = v.number("eps"),
                                                         .lambda = v.number("lambda"),
                                                         .g0 = v.number("g0")};
                   }),
                   "{eps: 6.17e11, lambda: 2.0e5, g0: 0.0}",
                   2.5e-6});
  specs.push_back(
      {"lankarani_nikravesh",
       "Lankarani-Nikravesh spring-damper p = k_c pen^n + (d_c + chi pen^n) pen_rate, "
       "never adhesive",
       "seed 002 eq. 9",
       false,
       {{"k_c", ParamKind::kNumber, "Pa/m^n", "> 0", "contact stiffness"},
        {"n", ParamKind::kNumber, "-", ">= 1", "exponent (1 flat belt, 1.5 Hertz)", 1.0},
        {"d_c", ParamKind::kNumber, kDamping, ">= 0", "constant damping", 0.0},
        {"chi", ParamKind::kNumber, "Pa s/m^(n+1)", ">= 0",
         "hysteresis damping factor, 3 k_c (1 - e^2) / (4 v_impact)", 0.0}},
       Normal<laws::LankaraniNikraveshLaw>(+[](const ParamValues& v) {
         return laws::LankaraniNikraveshParams{.k_c = v.number("k_c"),
                                               .n = v.number("n"),
                                               .d_c = v.number("d_c"),
                                               .chi = v.number("chi")};
       }),
       "{k_c: 4.0e9, n: 1, d_c: 8.0e4}",
       1.0e-4});
  specs.push_back(
      {"unilateral_preload",
       "Unilateral contact with static preload p = max(n0 - k_n g, 0); n0 < 0 is an initial "
       "gap -n0/k_n",
       "seed 004 eq. 13",
       false,
       {{"k_n", ParamKind::kNumber, "Pa/m (N/m)", "> 0", "normal stiffness"},
        {"n0", ParamKind::kNumber, "Pa (N)", "finite", "static preload at g = 0", 0.0}},
       Normal<laws::UnilateralPreloadLaw>(+[](const ParamValues& v) {
         return laws::UnilateralPreloadParams{.k_n = v.number("k_n"), .n0 = v.number("n0")};
       }),
       "{k_n: 2.0e7, n0: 100.0}",
       1.0e-6});
  return specs;
}

}  // namespace jointdyn::model
