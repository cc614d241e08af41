/* Layout constants of arch/timing.S shared with C. */
#ifndef IRQLAB_ARCH_TIMING_H
#define IRQLAB_ARCH_TIMING_H

#define INT_SAMPLE_STRIDE 64
#define INT_TRIGGER_STRIDE 4

#endif
