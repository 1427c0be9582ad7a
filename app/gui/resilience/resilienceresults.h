#pragma once
// How the Resilience view shows a computed plan: the figures table (quantity, value with its
// unit, basis: which session, typed value or published row it rests on) and the reshape tree
// (each new rank, the old shards it reads, bytes). Kept apart from the form.
#include <QString>

#include "gui/resilience/resiliencejob.h"

class QTableWidget;
class QTreeWidget;

namespace rl {
// Fills the table's rows from the plan (clears it when there is none).
void showResilienceFigures(QTableWidget* table, const ResilienceOutcome& outcome);
// Fills the tree with every new rank and its shard reads; returns the summary sentence.
QString showReshape(QTreeWidget* tree, const ResilienceOutcome& outcome);
} // namespace rl
