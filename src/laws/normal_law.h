// Pointwise normal contact laws p(g, g_dot): penalty family, Lankarani-Nikravesh,
// unilateral with preload. Stateless and immutable after construction.
//
// Sign convention: the gap g is positive when the surfaces are apart and negative when
// they penetrate; the pressure p is positive in compression. Laws with an offset (g_N0)
// start contact at contact_onset_gap().
#pragma once

#include <string_view>

namespace jointdyn::laws {

struct NormalResponse {
  double pressure = 0.0;               // p [Pa] (force [N] for point laws), >= 0
  double d_pressure_d_gap = 0.0;       // dp/dg [Pa/m], <= 0 for penalty laws
  double d_pressure_d_gap_rate = 0.0;  // dp/dg_dot [Pa s/m]
  double stored_energy = 0.0;          // elastic energy int_g^onset p_el dg' [J/m^2]
};

class NormalLaw {
 public:
  virtual ~NormalLaw() = default;

  virtual std::string_view type() const = 0;  // model-file name, e.g. "linear"
  // Gap at and above which the surfaces carry no pressure [m].
  virtual double contact_onset_gap() const = 0;
  virtual NormalResponse Evaluate(double gap, double gap_rate) const = 0;
};

}  // namespace jointdyn::laws
