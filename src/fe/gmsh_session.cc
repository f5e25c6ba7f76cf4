#include "fe/gmsh_session.h"

#include <gmsh.h>

namespace jointdyn::fe {
namespace {

std::mutex& SessionMutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

GmshSession::GmshSession(bool verbose) : lock_(SessionMutex()) {
  // Gmsh afresh for every session: options and internal state (e.g. the random perturbation
  // of its meshers) from an earlier mesh in the same process must not change this one (a
  // second mesh of the friction bar in one process differed at rounding). No configuration
  // files: a user's gmshrc must not change jointdyn's meshes.
  gmsh::initialize(0, nullptr, /*readConfigFiles=*/false);
  gmsh::option::setNumber("General.Terminal", verbose ? 1 : 0);
  gmsh::clear();
  // Errors are logged, not thrown: Gmsh 4.8 stays "busy" for the rest of the process
  // after an exception from a failed file read.
  gmsh::option::setNumber("General.AbortOnError", 0);
  gmsh::option::setNumber("General.Verbosity", verbose ? 5 : 1);
  gmsh::logger::start();
  gmsh::model::add("jointdyn");
}

GmshSession::~GmshSession() {
  gmsh::logger::stop();
  gmsh::finalize();
}

std::vector<std::string> GmshSession::Errors() const {
  std::vector<std::string> log;
  gmsh::logger::get(log);
  std::vector<std::string> errors;
  const std::string prefix = "Error: ";
  for (const std::string& line : log) {
    if (line.rfind(prefix, 0) == 0) errors.push_back(line.substr(prefix.size()));
  }
  return errors;
}

}  // namespace jointdyn::fe
