/* Freestanding stand-in for glibc's <features.h>, which PQClean's compat.h includes under GCC
 * for __GNUC_PREREQ. */
#ifndef M4LAB_FEATURES_H
#define M4LAB_FEATURES_H
#define __GNUC_PREREQ(maj, min) ((__GNUC__ << 16) + __GNUC_MINOR__ >= ((maj) << 16) + (min))
#endif
