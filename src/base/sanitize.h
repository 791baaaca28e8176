/* sanitize.h: what checks this build runs under. FOLIO_ASAN is defined in
 * an AddressSanitizer build (gcc says so with __SANITIZE_ADDRESS__, clang
 * with __has_feature), which then has <sanitizer/asan_interface.h>;
 * RUNNING_ON_VALGRIND is true under valgrind (its header comes with it; 0
 * where it is missing). */
#ifndef FOLIO_SANITIZE_H
#define FOLIO_SANITIZE_H

#if defined(__SANITIZE_ADDRESS__)
#define FOLIO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FOLIO_ASAN 1
#endif
#endif
#ifdef FOLIO_ASAN
#include <sanitizer/asan_interface.h>
#endif

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#endif
