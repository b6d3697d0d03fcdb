// EINOPS_API: the mark on the library's out-of-line functions and classes that callers link
// against. A shared libeinops is compiled with hidden visibility (CMake defines EINOPS_SHARED
// for it and for its users), so its dynamic symbol table holds what carries this mark and
// nothing else; in a static build the mark is empty.
#pragma once

#if defined(EINOPS_SHARED) && (defined(__GNUC__) || defined(__clang__))
#define EINOPS_API __attribute__((visibility("default")))
#else
#define EINOPS_API
#endif
