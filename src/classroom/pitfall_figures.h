// The figures of a strategy's card that come from runs: the guard in its tightest race
// (explore), and each pitfall's first breaking interleaving (explore), or, where two
// concurrent twins cannot show it, the first request the simulator's run breaks.
#pragma once

#include "classroom/report_data.h"

namespace idemlab {

Status guard_race_figure(const Strategy& strategy, RaceFigure* out);
Status pitfall_figure(const Strategy& strategy, const PitfallInfo& pitfall, Figure* out);

}  // namespace idemlab
