#pragma once
// A visitor from lambdas, for std::visit over a record variant (records/recordroute.cpp,
// store/appendrecord.cpp): list one lambda per alternative, and a new alternative does not compile
// until it has one.
namespace rl {
template <class... F>
struct Overload : F...
{
    using F::operator()...;
};
} // namespace rl
