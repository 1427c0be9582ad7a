#pragma once
// Training-log parsing: Megatron-LM / Megatron-DeepSpeed iteration lines, torchtitan step lines,
// and generic CSV / JSON-lines metric tables given (or guessing) a column mapping.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "importers/importer.h"
#include "records/trainlogrecords.h"
#include "trace/columnmapping.h"

namespace rl::trace {

// One log line to a step, or nothing when the line is not a step line. tool is set to
// "megatron-lm", "megatron-deepspeed" or "torchtitan".
// globalBatch receives "global batch size" (for tokens/s from the run's seq_length).
std::optional<TrainStep> parseMegatronLine(std::string_view line, std::string* tool = nullptr,
                                           double* globalBatch = nullptr);
std::optional<TrainStep> parseTorchtitanLine(std::string_view line);
// Strips ANSI colour escapes ("\x1b[32m").
std::string stripAnsi(std::string_view line);
// "2024-04-06 02:59:36" or "2026-02-24 19:46:17,508" anywhere near the start -> UTC epoch seconds.
std::optional<double> findTimestamp(std::string_view line);

int sniffTrainLog(std::string_view head, std::string_view fileName);
ImportResult importTrainLog(ImportInput& input, const ImportOptions& options);

// Guesses from header names ("step"/"iteration", "loss"/"train/loss", "step_time_ms", "tps", ...).
ColumnMapping guessColumns(const std::vector<std::string>& header);

// The column names of a metrics table from the head of the file: the CSV / TSV header, or the keys
// of the first JSON object in file order. Empty when the head is neither.
std::vector<std::string> trainTableColumns(std::string_view head);

int sniffTrainTable(std::string_view head, std::string_view fileName);
// mapping empty (no step column) = guess from the header / first object. The registry passes
// ImportOptions::trainColumns as the mapping when the user chose one.
ImportResult importTrainTable(ImportInput& input, const ImportOptions& options, const ColumnMapping& mapping = {});

// Fills the session of a parsed log: analysis (restarts, stalls, goodput) into params and events.
void finishTrainLogSession(SessionData& s);
} // namespace rl::trace
