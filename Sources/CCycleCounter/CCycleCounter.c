// Header-only: see include/CCycleCounter.h. SwiftPM needs one source file per C target.
