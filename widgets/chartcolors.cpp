#include "chartcolors.h"

namespace rl::charts {
QColor segmentColor(StepSegment s)
{
    switch (s) {
    case StepSegment::Gemm: return QColor(0x1f, 0x77, 0xb4);
    case StepSegment::Attention: return QColor(0x94, 0x67, 0xbd);
    case StepSegment::Memcpy: return QColor(0x8c, 0x56, 0x4b);
    case StepSegment::Other: return QColor(0x17, 0xbe, 0xcf);
    case StepSegment::HiddenComm: return QColor(0xe6, 0x55, 0x0d); // the hatch over compute
    case StepSegment::ExposedComm: return QColor(0xd6, 0x27, 0x28);
    case StepSegment::Idle: return QColor(0xc7, 0xc7, 0xc7);
    case StepSegment::Count: break;
    }
    return Qt::black;
}
} // namespace rl::charts
