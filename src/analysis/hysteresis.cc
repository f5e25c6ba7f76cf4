#include "analysis/hysteresis.h"

#include <algorithm>

#include "core/clock.h"
#include "core/error.h"

namespace jointdyn::analysis {

void HysteresisOptions::Validate() const {
  if (!law && !normal)
    throw InputError("law", "", "missing: give a tangential law, or a normal law under normal.law");
  const laws::SlipPath& path = loop.path;
  const bool planar =
      path.amplitude_y != 0.0 || std::any_of(path.table_slip.begin(), path.table_slip.end(),
                                             [](const Vec2& s) { return s.y() != 0.0; });
  if (planar && law && law->dim() == 1)
    throw InputError("path", "", "has a y component but the law is 1D (set law.dim: 2)");
  if (!loop.gap.table.empty() && !normal)
    throw InputError("path.points", "",
                     "a gap column (t, s_x, s_y, g) needs a normal law (normal.law)");
  if (!sweep.empty() && path.kind == laws::PathKind::kTable)
    throw InputError("sweep.amplitudes", "", "an amplitude sweep needs a periodic path");
  for (const double a : sweep)
    if (!(a > 0.0)) throw InputError("sweep.amplitudes", FormatValue(a), "must be > 0");
}

std::string HysteresisOptions::LawName() const {
  std::string name = law ? std::string(law->type()) : "";
  if (normal) name += (name.empty() ? "" : " + ") + std::string(normal->type());
  return name;
}

HysteresisResult RunHysteresis(const HysteresisOptions& options, Observer& observer) {
  options.Validate();
  const Clock::time_point start = Clock::now();
  laws::HysteresisOptions loop = options.loop;
  loop.law = options.law.get();
  loop.normal = options.normal.get();
  HysteresisResult result;
  result.loop = laws::RunHysteresis(loop);
  result.status = result.loop.status;
  if (result.status && !options.sweep.empty()) {
    const int count = static_cast<int>(options.sweep.size());
    observer.Progress("amplitude sweep", 0, count);
    result.sweep =
        laws::RunAmplitudeSweep(loop, options.sweep, observer.ProgressOf("amplitude sweep"));
    if (!result.sweep.status)
      result.status = Status::Failure("amplitude sweep: " + result.sweep.status.message);
  }
  result.wall_seconds = Seconds(start);
  return result;
}

}  // namespace jointdyn::analysis
