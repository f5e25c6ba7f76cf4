#include "model/time_function_reader.h"

#include <cmath>
#include <utility>
#include <vector>

namespace jointdyn::model {

using time::TimeFunction;

namespace {

TimeFunction ReadUndelayed(const ModelNode& node) {
  using TK = TimeFunction::Kind;
  const TK kind = node.Enum<TK>("type", {{"constant", TK::kConstant},
                                         {"ramp", TK::kRamp},
                                         {"sinusoid", TK::kSinusoid},
                                         {"force0", TK::kSmoothStep0},
                                         {"force1", TK::kSmoothStep1},
                                         {"table", TK::kTable},
                                         {"speed_ramp", TK::kSpeedRamp}});
  switch (kind) {
    case TK::kConstant:
      return TimeFunction::Constant(node.Double("value"));
    case TK::kRamp:
      return TimeFunction::Ramp(node.Double("value", 0.0), node.Double("rate"));
    case TK::kSinusoid:
      return TimeFunction::Sinusoid(node.Double("amplitude"), node.Double("frequency", Positive()),
                                    node.Double("phase_deg", 0.0) * M_PI / 180.0,
                                    node.Double("mean", 0.0));
    case TK::kSmoothStep0:
      return TimeFunction::SmoothStep0(node.Double("f0"), node.Double("period", Positive()));
    case TK::kSmoothStep1:
      return TimeFunction::SmoothStep1(node.Double("f0"), node.Double("period", Positive()));
    case TK::kSpeedRamp:
      return TimeFunction::SpeedRamp(node.Double("value", 0.0), node.Double("speed"),
                                     node.Double("ramp_time", Positive()));
    case TK::kTable: {
      // The values are checked as they are read; the table checks its rows.
      std::vector<double> times, values;
      for (const auto& row : node.Rows("points", 2, 2)) {
        times.push_back(row[0]);
        values.push_back(row[1]);
      }
      try {
        return TimeFunction::Table(std::move(times), std::move(values));
      } catch (const InputError& error) {
        node.Rethrow(error);
      }
    }
  }
  return {};
}

}  // namespace

TimeFunction ReadTimeFunction(const ModelNode& node) {
  const TimeFunction f = ReadUndelayed(node);
  return node.Has("delay") ? f.Delayed(node.Double("delay")) : f;
}

}  // namespace jointdyn::model
