/* The counters as the firmware left them (docs/timing.md "Counters the
 * firmware owns"): what counters_probe reads before it takes them, the
 * enables it takes and reads again after each counted pass
 * (counters_pass_ends, bench/run/counters.h), and the counters it starts
 * from 0. */
#ifndef IRQLAB_BENCH_RUN_COUNTERS_FIRMWARE_H
#define IRQLAB_BENCH_RUN_COUNTERS_FIRMWARE_H

#include <stdint.h>

struct run_result;

/* Every MSR the probe and the pin change is logged, to be put back
 * before the reset: counters_change writes `value` where the MSR reads
 * and writes without an exception, keeping the old one (0, or -1 where
 * it faulted or the log is full); counters_changed is how many are
 * logged; counters_put_back puts back all after the first `keep`. */
int counters_change(uint32_t msr, uint64_t value);
uint32_t counters_changed(void);
void counters_put_back(uint32_t keep);
/* Puts back all the log holds; with `log_them`, logs each as it reads
 * once put back (counters: put back ...). */
void counters_put_back_all(int log_them);

/* Around each row's counted pass: counters_pass_ends reads the PMU's
 * enables again, and where one no longer holds what irqlab wrote (SMM
 * code or firmware took the counters meanwhile) logs it, writes it back
 * and returns 1: the pass's counted figures are dropped, as
 * counters_pass_disturbed says until the next pass begins. */
void counters_pass_begins(void);
int counters_pass_ends(void);
int counters_pass_disturbed(void);

/* Logs each of the `n` MSRs as read now, and records in the
 * counters-found probe the first whose `enable_bits` are set, in the
 * words of Linux's check_hw_exists, or "none in use". */
void counters_record_found(struct run_result *r, const uint32_t *msr,
			   const uint64_t *enable_bits, unsigned n);
/* Writes 0 to `n` counters from `first`, `stride` apart, their values
 * kept to be put back (counters_change): 0, or -1 where one faults. */
int counters_zero(uint32_t first, uint32_t stride, unsigned n);
/* counters_change of a PMU enable, kept to be read again after each
 * counted pass: 0, or -1. */
int counters_take_enable(uint32_t msr, uint64_t value);
/* Forgets the enables taken; with `simulate_taken` (simulate =
 * counters-taken) the first counted pass finds the first one cleared. */
void counters_enables_forget(int simulate_taken);

#endif
