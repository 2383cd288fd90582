/* Freestanding declarations for PQClean's C code on the m4-lab firmware: the definitions come
 * from Rust's compiler_builtins (memcpy, memmove, memset, memcmp). */
#ifndef M4LAB_STRING_H
#define M4LAB_STRING_H
#include <stddef.h>
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
#endif
