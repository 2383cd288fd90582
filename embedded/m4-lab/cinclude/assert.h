/* Freestanding stand-in: assertions compiled out, as with NDEBUG. */
#ifndef M4LAB_ASSERT_H
#define M4LAB_ASSERT_H
#define assert(x) ((void)0)
#endif
