// Whether this build runs under a sanitizer, for tests that scale their work to it: g++ says so
// with __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__, clang (the test command's sanitizer builds)
// only through __has_feature.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define BC_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BC_TEST_ASAN 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define BC_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BC_TEST_TSAN 1
#endif
#endif

namespace bc::test {

#ifdef BC_TEST_ASAN
inline constexpr bool kAsan = true;
#else
inline constexpr bool kAsan = false;
#endif
#ifdef BC_TEST_TSAN
inline constexpr bool kTsan = true;
#else
inline constexpr bool kTsan = false;
#endif
inline constexpr bool kSanitized = kAsan || kTsan;

}  // namespace bc::test
