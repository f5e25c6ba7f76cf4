#include "laws/tangential_law.h"

#include <algorithm>

namespace jointdyn::laws {

std::string_view ToString(ContactState state) {
  switch (state) {
    case ContactState::kOpen:
      return "open";
    case ContactState::kStick:
      return "stick";
    case ContactState::kSlip:
      return "slip";
  }
  return "?";
}

void TangentialLaw::InitState(std::span<double> state) const {
  std::fill(state.begin(), state.end(), 0.0);
}

double TangentialLaw::PostNewtonUpdate(const TangentialInput&, std::span<const double>,
                                       std::span<double>) const {
  return 0.0;
}

}  // namespace jointdyn::laws
