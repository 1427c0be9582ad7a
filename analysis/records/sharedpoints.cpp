#include "records/sharedpoints.h"

#include <algorithm>

namespace rl {

SharedPoints::SharedPoints(std::vector<CollectivePoint> points)
    : m_store(std::make_shared<std::vector<CollectivePoint>>(std::move(points))), m_size(m_store->size())
{
}

SharedPoints::SharedPoints(std::initializer_list<CollectivePoint> points)
    : SharedPoints(std::vector<CollectivePoint>(points))
{
}

SharedPoints SharedPoints::slice(std::size_t first, std::size_t count) const
{
    SharedPoints s;
    s.m_store = m_store;
    s.m_first = m_first + std::min(first, m_size);
    s.m_size = std::min(count, m_size - std::min(first, m_size));
    return s;
}

void SharedPoints::makeOwn(std::size_t extra)
{
    // Another holder (a slice, a copy on another thread) keeps reading the points as they were.
    if (m_store && m_store.use_count() == 1 && m_first == 0 && m_size == m_store->size())
        return;
    auto own = std::make_shared<std::vector<CollectivePoint>>();
    own->reserve(m_size + extra);
    own->assign(begin(), end());
    m_store = std::move(own);
    m_first = 0;
}

void SharedPoints::push_back(const CollectivePoint& point)
{
    makeOwn(1);
    m_store->push_back(point);
    ++m_size;
}

void SharedPoints::clear()
{
    m_store.reset();
    m_first = m_size = 0;
}

bool operator==(const SharedPoints& a, const SharedPoints& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
}
} // namespace rl
