// The tables of law specifications (one function per kind; see law_registry.h).
#pragma once

#include <vector>

#include "io/law_registry.h"

namespace jointdyn::io {

std::vector<TangentialSpec> MakeTangentialSpecs();
std::vector<NormalSpec> MakeNormalSpecs();

}  // namespace jointdyn::io
