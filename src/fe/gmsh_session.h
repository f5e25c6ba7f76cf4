// Safe use of the Gmsh C++ API (libgmsh) from jointdyn: Gmsh is a process-wide singleton
// that must be initialized once and is not thread-safe. A GmshSession initializes Gmsh on
// first use (never finalized before exit, so that any number of sessions, also in tests,
// may follow each other), holds a process-wide lock for its lifetime, works on a fresh
// model of its own (removed again on destruction) and silences Gmsh's terminal output
// unless `verbose`. Gmsh does not throw inside a session: its error messages are
// collected, and callers check Errors() after each step and name them.
//
// Options are process-wide and not reset between sessions (Gmsh 4.8 cannot restore its
// defaults): each builder sets every option it relies on.
#pragma once

#include <mutex>
#include <string>
#include <vector>

namespace jointdyn::fe {

class GmshSession {
 public:
  explicit GmshSession(bool verbose = false);
  ~GmshSession();
  GmshSession(const GmshSession&) = delete;
  GmshSession& operator=(const GmshSession&) = delete;

  // The messages Gmsh logged at level "Error" since the session began (without prefix).
  std::vector<std::string> Errors() const;

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace jointdyn::fe
