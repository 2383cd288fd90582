/* Freestanding stand-in: PQClean's clean code includes <stdlib.h> but allocates nothing. */
#ifndef M4LAB_STDLIB_H
#define M4LAB_STDLIB_H
#include <stddef.h>
#endif
