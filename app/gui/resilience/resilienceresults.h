#pragma once
// How the Resilience view shows a computed plan: the figures table (quantity, value with its
// unit, basis: which session, typed value or published row it rests on) and the reshape tree
// (each new rank, the old shards it reads, bytes). Kept apart from the form.
#include <QString>

#include "gui/resilience/resiliencejob.h"
#include "resulttablemodel.h"

class QTreeWidget;

namespace rl {
// The figures table's columns, and its rows from the plan (none when there is no plan): a bold
// section title, then quantity | value (the analysis value behind it: bytes, seconds, a fraction) | basis.
std::vector<charts::ResultColumn> resilienceFigureColumns();
charts::ResultTable resilienceFigures(const ResilienceOutcome& outcome);
// Fills the tree with every new rank and its shard reads; returns the summary sentence.
QString showReshape(QTreeWidget* tree, const ResilienceOutcome& outcome);
} // namespace rl
