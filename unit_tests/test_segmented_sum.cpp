// Segmented reduce and scans with kprim::Sum over every space and value type (segmented_support.hpp).
#include "segmented_support.hpp"

KPRIM_SEGMENTED_CASES(kprim::Sum, Sum)
