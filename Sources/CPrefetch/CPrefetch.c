// Header-only module (static inline functions); SwiftPM wants one source file per C target.
#include "CPrefetch.h"
