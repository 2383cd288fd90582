/* Freestanding stand-in for the <unistd.h> that pqcrypto's randombytes.h includes. */
#ifndef M4LAB_UNISTD_H
#define M4LAB_UNISTD_H
#include <stddef.h>
#endif
