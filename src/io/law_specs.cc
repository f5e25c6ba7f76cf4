#include "io/law_specs.h"

#include "laws/coulomb.h"

namespace jointdyn::io {

namespace {
const char kStiffnessPerArea[] = "Pa/m";
}  // namespace

std::vector<TangentialSpec> MakeTangentialSpecs() {
  std::vector<TangentialSpec> specs;
  specs.push_back(
      {"coulomb",
       "Three-parameter Coulomb-type friction: stick spring c1 in series with a slider of "
       "limit mu p, parallel spring c2; elastic predictor, plastic corrector",
       "seed 003 eq. 2.113, fig. 2.4",
       true,
       {{"c1", ParamKind::kNumber, kStiffnessPerArea, "> 0", "stick stiffness of the slider branch"},
        {"c2", ParamKind::kNumber, kStiffnessPerArea, ">= 0", "parallel (slip) stiffness", 0.0},
        {"mu", ParamKind::kNumber, "-", ">= 0", "friction coefficient, R_G = mu p"}},
       [](const ParamValues& v, int dim) {
         return std::make_unique<laws::CoulombLaw>(
             laws::CoulombParams{.c1 = v.number("c1"), .c2 = v.number("c2"), .mu = v.number("mu")},
             dim);
       },
       "{c1: 2.0e11, c2: 1.0e9, mu: 0.3}", 3e-6, 1e6});
  return specs;
}

std::vector<NormalSpec> MakeNormalSpecs() { return {}; }

}  // namespace jointdyn::io
