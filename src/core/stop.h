// A request to stop a long computation early, from outside it: SIGINT or SIGTERM on the
// command line (the handler calls RequestStop, which is async-signal-safe). The long loops
// (time steps, continuation steps, the runs of a study) poll StopRequested() between steps
// and end with a failed status saying where they stopped, so that the results so far are
// kept and written. Process-wide, like the signals that set it.
#pragma once

#include <string>

namespace jointdyn {

// Records the request (signal number, > 0). Async-signal-safe.
void RequestStop(int signal);
// The signal number of the request; 0 when none.
int StopRequested();
// Clears a request (tests; a new run in the same process).
void ClearStopRequest();
// "interrupted by SIGINT" (or SIGTERM, or "signal N"), for messages.
std::string StopReason();

}  // namespace jointdyn
