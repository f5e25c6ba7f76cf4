// The tables of law specifications (one function per kind; see law_registry.h).
#pragma once

#include <vector>

#include "model/law_registry.h"

namespace jointdyn::model {

std::vector<TangentialSpec> MakeTangentialSpecs();
std::vector<NormalSpec> MakeNormalSpecs();

}  // namespace jointdyn::model
