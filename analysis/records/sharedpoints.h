#pragma once
// A session's collective points and each of its curves' points, one store of them in memory
// (issue 26 item 11): Workspace::collectivePoints gives each curve's points one after another,
// sorted by size, so a curve is a slice of its session's points instead of a copy (a 1 M-point
// session's curves were another 272 MB and 230-380 ms). Copies share the points; the first
// append to shared points (a live point of a running session) copies them, so a reader on
// another thread or a curve sliced from them never sees them change.
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <vector>

#include "records/collectivepoint.h"

namespace rl {

class SharedPoints
{
public:
    SharedPoints() = default;
    SharedPoints(std::vector<CollectivePoint> points); // implicit: a vector of points is what it holds
    SharedPoints(std::initializer_list<CollectivePoint> points);

    // Points [first, first + count) of these (clamped to them), sharing their store.
    SharedPoints slice(std::size_t first, std::size_t count) const;
    bool sharesStoreWith(const SharedPoints& other) const { return m_store && m_store == other.m_store; }

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const CollectivePoint* data() const { return m_store ? m_store->data() + m_first : nullptr; }
    const CollectivePoint* begin() const { return data(); }
    const CollectivePoint* end() const { return data() + m_size; }
    const CollectivePoint& operator[](std::size_t i) const { return data()[i]; }
    const CollectivePoint& front() const { return data()[0]; }
    const CollectivePoint& back() const { return data()[m_size - 1]; }
    std::span<const CollectivePoint> span() const { return {data(), m_size}; }
    operator std::span<const CollectivePoint>() const { return span(); } // readers take spans

    // Copies the points first when they are shared or a slice.
    void push_back(const CollectivePoint& point);
    // edit(vector&) changes the points in place, after the same copy.
    template <typename Edit>
    void edit(Edit&& edit)
    {
        makeOwn(0);
        edit(*m_store);
        m_size = m_store->size();
    }
    void clear();

    friend bool operator==(const SharedPoints& a, const SharedPoints& b);

private:
    void makeOwn(std::size_t extra); // m_store held by these alone, all of it theirs

    std::shared_ptr<std::vector<CollectivePoint>> m_store;
    std::size_t m_first = 0, m_size = 0;
};
} // namespace rl
