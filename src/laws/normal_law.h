// Pointwise normal contact laws p(g, g_dot): penalty family, Lankarani-Nikravesh,
// unilateral with preload. Stateless and immutable after construction.
//
// Sign convention: the gap g is positive when the surfaces are apart and negative when
// they penetrate; the pressure p is positive in compression. Laws with an offset (g_N0)
// start contact at contact_onset_gap(). A bilateral law (a bonded, "tied" interface) is
// the exception: it never separates and carries tension (p < 0) for g > onset.
#pragma once

#include <string_view>

namespace jointdyn::laws {

struct NormalResponse {
  double pressure = 0.0;               // p [Pa] (force [N] for point laws), >= 0 unless bilateral
  double d_pressure_d_gap = 0.0;       // dp/dg [Pa/m], <= 0 for penalty laws
  double d_pressure_d_gap_rate = 0.0;  // dp/dg_dot [Pa s/m]
  double stored_energy = 0.0;          // elastic energy int_g^onset p_el dg' [J/m^2]
};

class NormalLaw {
 public:
  virtual ~NormalLaw() = default;

  virtual std::string_view type() const = 0;  // model-file name, e.g. "linear"
  // Gap at and above which the surfaces carry no pressure [m].
  // Bilateral laws: the gap at which the pressure is zero.
  virtual double contact_onset_gap() const = 0;
  // True when the law carries tension: the surfaces never separate (the joint keeps every
  // pair closed and its friction law active whatever the sign of p).
  virtual bool bilateral() const { return false; }
  virtual NormalResponse Evaluate(double gap, double gap_rate) const = 0;
};

}  // namespace jointdyn::laws
