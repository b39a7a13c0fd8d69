// The app's words for a job: the one-line description lessons and the status bar
// show, and the rules a job breaks in the UI language. The rules' English templates
// are the engine's (job/JobRules.h); Qt translates them in the "JobRule" context.
#pragma once

#include "job/JobConfig.h"

#include <QString>

namespace shardlab::app {

// "FSDP · 4 ranks · 4 layers × 64 · batch 64 · 20 steps"
QString describeJob(const shardlab::JobConfig& config);
// "FSDP", "DDP", ...: the strategy as the UI labels it.
QString strategyLabel(shardlab::StrategyKind strategy);
// The rule with its arguments, translated, without the field.
QString ruleText(const shardlab::JobIssue& issue);
// "batch: ..." with the rule translated.
QString issueText(const shardlab::JobIssue& issue);

} // namespace shardlab::app
