// How a computation reports its progress without printing (run/console.h shows it).
#pragma once

#include <functional>

namespace jointdyn {

// Where a computation reports how far it got (done of total, e.g. the stages of building
// an FE model), so that a caller can show it; empty: nobody listens. Compute layers take
// one of these and never print.
using ProgressFn = std::function<void(int done, int total)>;

}  // namespace jointdyn
