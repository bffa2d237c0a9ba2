#pragma once
// What the web build's standard library (Emscripten 3.1.6's libc++) lacks of C++20, for the core's sources;
// included ahead of every file of the web build (web/CMakeLists.txt) and nowhere else.
#include <version>

#if !defined(__cpp_lib_bit_cast)
#include <type_traits>
namespace std {
template <class To, class From>
requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> &&
         is_trivially_copyable_v<From>) constexpr To bit_cast(const From& from) noexcept {
    return __builtin_bit_cast(To, from);
}
} // namespace std
#endif

#if !defined(__cpp_lib_smart_ptr_for_overwrite)
#include <cstddef>
#include <memory>
namespace std {
// Only the array form the core uses (a buffer left uninitialised).
template <class T>
requires is_unbounded_array_v<T> unique_ptr<T> make_unique_for_overwrite(size_t n) {
    return unique_ptr<T>(new remove_extent_t<T>[n]);
}
} // namespace std
#endif
