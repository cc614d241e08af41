#include "bench/run/counters_firmware.h"

#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "bench/model/results.h"

/* Every MSR the probe and the pin changed, to be put back before the
 * reset (counters_unpin): the PMU's enables, then the clock's. */
#define MAX_CHANGED 16
static struct {
	uint32_t n;
	uint32_t msr[MAX_CHANGED];
	uint64_t value[MAX_CHANGED];
} changed;

int counters_change(uint32_t msr, uint64_t value)
{
	uint64_t old;

	if (changed.n >= MAX_CHANGED || msr_read_guarded(msr, &old) ||
	    msr_write_guarded(msr, value))
		return -1;
	changed.msr[changed.n] = msr;
	changed.value[changed.n++] = old;
	return 0;
}

uint32_t counters_changed(void)
{
	return changed.n;
}

void counters_put_back(uint32_t keep)
{
	while (changed.n > keep) {
		changed.n--;
		msr_write_guarded(changed.msr[changed.n],
				  changed.value[changed.n]);
	}
}

/* The PMU's enables irqlab wrote (the controls of the counters it
 * counts on), to be read again after each counted pass: SMM code or
 * firmware that programs the counters meanwhile changes what was
 * counted. */
#define MAX_ENABLES 3
static struct {
	uint32_t n;
	uint32_t msr[MAX_ENABLES];
	uint64_t wrote[MAX_ENABLES];
	int pass_disturbed;
	int simulate_taken;	/* simulate = counters-taken */
} enables;

int counters_take_enable(uint32_t msr, uint64_t value)
{
	if (enables.n >= MAX_ENABLES || counters_change(msr, value))
		return -1;
	enables.msr[enables.n] = msr;
	enables.wrote[enables.n++] = value;
	return 0;
}

void counters_pass_begins(void)
{
	enables.pass_disturbed = 0;
}

int counters_pass_ends(void)
{
	uint64_t now;
	uint32_t i;

	if (enables.simulate_taken && enables.n) {
		/* Once, as SMM code that stops the counters would leave
		 * them: the first enable (IA32_FIXED_CTR_CTRL, or AMD's
		 * PERF_CTL0) cleared. */
		enables.simulate_taken = 0;
		msr_write_guarded(enables.msr[0], 0);
	}
	for (i = 0; i < enables.n; i++) {
		if (msr_read_guarded(enables.msr[i], &now) ||
		    now == enables.wrote[i])
			continue;
		log_printf("counters: MSR %x reads %llx after the counted "
			   "pass, not the %llx irqlab wrote: the pass's "
			   "counted figures are dropped\n", enables.msr[i],
			   (unsigned long long)now,
			   (unsigned long long)enables.wrote[i]);
		msr_write_guarded(enables.msr[i], enables.wrote[i]);
		enables.pass_disturbed = 1;
	}
	return enables.pass_disturbed;
}

int counters_pass_disturbed(void)
{
	return enables.pass_disturbed;
}

void counters_enables_forget(int simulate_taken)
{
	enables.n = 0;
	enables.simulate_taken = simulate_taken;
}

/* What the firmware left in the counters and controls irqlab is about to
 * take, logged whole, and in the results the first enable found set, in
 * the words of Linux's check_hw_exists (arch/x86/events/core.c): real
 * firmware and SMM code often leave the PMU programmed. `enable_bits`
 * are each MSR's bits that make a counter count (0 for a counter). */
void counters_record_found(struct run_result *r, const uint32_t *msr,
			 const uint64_t *enable_bits, unsigned n)
{
	char values[200];
	size_t at = 0;
	uint64_t value, in_use_value = 0;
	uint32_t in_use_msr = 0;
	unsigned i;

	values[0] = 0;
	for (i = 0; i < n && at < sizeof(values); i++) {
		int faults = msr_read_guarded(msr[i], &value);

		at += fmt_snprintf(values + at, sizeof(values) - at,
				   faults ? " %x=faults" : " %x=%llx", msr[i],
				   (unsigned long long)value);
		if (!faults && !in_use_msr && (value & enable_bits[i])) {
			in_use_msr = msr[i];
			in_use_value = value;
		}
	}
	log_printf("counters: found (MSR=value, hex):%s\n", values);
	if (in_use_msr)
		record_probe(r, PROBE_COUNTERS_FOUND, PROBE_QUIRK, "the BIOS "
			     "has corrupted hw-PMU resources (MSR %x is %llx): "
			     "taken, and put back before the reset", in_use_msr,
			     (unsigned long long)in_use_value);
	else
		record_probe(r, PROBE_COUNTERS_FOUND, PROBE_OK, "none in use: "
			     "taken, and put back before the reset");
}

/* The counters irqlab counts on start from 0, their firmware values
 * kept to be put back: a counter left near its width's end would
 * otherwise wrap inside a row, where the counted wait's deadline
 * (arch/timing.S WAIT_DEADLINE) is not taken modulo the width. */
int counters_zero(uint32_t first, uint32_t stride, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (counters_change(first + i * stride, 0))
			return -1;
	return 0;
}

void counters_put_back_all(int log_them)
{
	char values[200];
	size_t at = 0;
	uint64_t value;
	uint32_t i, n = changed.n;

	counters_put_back(0);
	if (!n || !log_them)
		return;
	/* Read once put back: what the firmware gets is what it had
	 * (put_back leaves the log's entries where they were). */
	values[0] = 0;
	for (i = 0; i < n && at < sizeof(values); i++) {
		int same = msr_read_guarded(changed.msr[i], &value) == 0 &&
			   value == changed.value[i];

		at += fmt_snprintf(values + at, sizeof(values) - at,
				   same ? " %x=%llx" : " %x=%llx!=%llx",
				   changed.msr[i], (unsigned long long)value,
				   (unsigned long long)changed.value[i]);
	}
	log_printf("counters: put back (MSR=value, hex):%s\n", values);
}
