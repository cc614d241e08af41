/* Which build this binary is (docs/timing.md "The path length,
 * checked"): what the run's results carry, and what the icount
 * reference on the stick must name to be compared with them. */
#ifndef IRQLAB_EFI_BUILD_ID_H
#define IRQLAB_EFI_BUILD_ID_H

/* image/stamp-build.py finds this marker in the linked binary and
 * writes the build's 16 hex digits after it. */
#define BUILD_ID_MARKER "irqlab-build-id:"
#define BUILD_ID_DIGITS 16

/* The 16 hex digits; all zeros in a binary that was never stamped. */
const char *build_id(void);

#endif
