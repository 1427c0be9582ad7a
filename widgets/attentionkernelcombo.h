#pragma once
// One list of fused attention kernels for every combo that offers them (the Calibration picker, the
// Report options dialog): "By GEMM shape" first, then the kernels the hardware profile has measured
// rates for, as ridgeline-cli's --attention takes them.
#include <QString>

class QComboBox;

namespace rl {
// Refills `box` with the kernels of profile `hardwareId` (item data: the kernel name, "" for by
// shape), keeping the chosen kernel where the profile has it; disabled when there is none to pick.
// An unknown profile lists none (its host says why).
void listAttentionKernels(QComboBox* box, const QString& hardwareId);
} // namespace rl
