// What the app says about a lesson sized for this machine (quiz/bank/LessonSizing.h):
// the choice and why, what cannot be shown for real here, and which condition failed.
// Markdown, in the UI language, numbers through QLocale.
#pragma once

#include "quiz/bank/LessonSizing.h"

#include <QString>

namespace shardlab::app {

// "Sized for this machine: 2 cores → 2 stages; hidden 384 and batch 512 so that ..."
QString sizingStatement(const shardlab::quiz::LessonSize& size, shardlab::StrategyKind strategy, int cores);

} // namespace shardlab::app
