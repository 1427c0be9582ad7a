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
// Clang before 17 does not deduce an aggregate's template arguments (P1816) without a guide.
template <class... F>
Overload(F...) -> Overload<F...>;
} // namespace rl
