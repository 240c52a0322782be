// glibc's malloc tuning (mallopt), which Swift's Glibc module does not export.
#if defined(__linux__)
#include <malloc.h>
#endif
