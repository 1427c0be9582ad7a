#include "records/trainlogrecords.h"

namespace rl {
const char* toString(TrainEventKind k)
{
    switch (k) {
    case TrainEventKind::Restart: return "restart";
    case TrainEventKind::TimeGap: return "gap";
    case TrainEventKind::Stall: return "stall";
    case TrainEventKind::Skipped: return "skipped";
    case TrainEventKind::NanLoss: return "nan";
    }
    return "restart";
}
} // namespace rl
