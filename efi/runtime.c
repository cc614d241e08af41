#include <efi.h>
#include <efilib.h>

#include "efi/runtime.h"
#include "arch/cpu.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/reset.h"
#include "bench/run/other_cpus.h"

static struct {
	int guarded;
	uint64_t tsc_hz;
	uint32_t simulate;	/* the config's, once guarded */
	char lost[160];
	/* Phase B's calls, and those made while a processor an INIT of
	 * this boot's left in wait-for-SIPI: the firmware's SMIs, which a
	 * runtime service may raise, gather every processor but such a
	 * one, and wait for it (docs/cross-cpu.md "Parked for good"). */
	uint32_t calls, calls_beside_init;
} rt;

/* A pointer no firmware can read: bit 63 set and bit 47 clear is
 * non-canonical, so the first access raises #GP (SDM vol. 1 §3.3.7.1). */
#define NON_CANONICAL ((const void *)0x8000000000000000ull)
/* No attribute set but RUNTIME_ACCESS: invalid without BOOTSERVICE_ACCESS
 * (UEFI spec §8.2, SetVariable), so the firmware refuses it. */
#define INVALID_ATTRIBUTES EFI_VARIABLE_RUNTIME_ACCESS

void runtime_guard_on(const struct irqlab_config *c, uint64_t tsc_hz)
{
	rt.guarded = 1;
	rt.tsc_hz = tsc_hz;
	rt.simulate = c->simulate;
}

const char *runtime_lost(void)
{
	return rt.lost[0] ? rt.lost : 0;
}

static int simulated(enum simulate_id what)
{
	return rt.guarded && ((rt.simulate >> what) & 1);
}

struct call {
	const char *service;
	EFI_STATUS status;
	CHAR16 *name;
	EFI_GUID *guid;
	UINT32 attributes;
	UINTN size;
	const void *data;
	UINT64 *max_storage, *remaining, *max_variable;
	EFI_RESET_TYPE reset;
};

static void call_set_variable(void *arg)
{
	struct call *c = arg;

	c->status = uefi_call_wrapper(RT->SetVariable, 5, c->name, c->guid,
				      c->attributes, c->size, (void *)c->data);
}

static void call_query_variable_info(void *arg)
{
	struct call *c = arg;

	c->status = uefi_call_wrapper(RT->QueryVariableInfo, 4, c->attributes,
				      c->max_storage, c->remaining,
				      c->max_variable);
}

static void call_reset_system(void *arg)
{
	struct call *c = arg;

	uefi_call_wrapper(RT->ResetSystem, 4, c->reset, EFI_SUCCESS, 0, NULL);
}

/* Runs one call, under the guard in phase B. A fault ends the use of
 * runtime services: the firmware's state after it is unknown. */
static EFI_STATUS call(void (*fn)(void *), struct call *c)
{
	struct fault_info fault;
	char what[96];

	if (rt.lost[0])
		return RUNTIME_LOST_STATUS;
	if (!rt.guarded) {
		fn(c);
		return c->status;
	}
	rt.calls++;
	rt.calls_beside_init += other_cpus_left_in_init() != 0;
	if (!guard_run(fn, c, &fault))
		return c->status;
	fault_describe(&fault, what, sizeof(what));
	fmt_snprintf(rt.lost, sizeof(rt.lost), "%s faulted (%s)", c->service,
		     what);
	log_printf("phase B: runtime service %s; runtime services are not "
		   "called again\n", rt.lost);
	log_status(STATUS_RUNTIME_LOST, "service=%s vector=%llu", c->service,
		   (unsigned long long)fault.vector);
	return RUNTIME_LOST_STATUS;
}

EFI_STATUS runtime_set_variable(CHAR16 *name, EFI_GUID *guid,
				UINT32 attributes, UINTN size, const void *data)
{
	struct call c = { .service = "SetVariable", .name = name, .guid = guid,
			  .attributes = attributes, .size = size, .data = data };

	if (simulated(SIMULATE_SETVARIABLE_ERROR))
		c.attributes = INVALID_ATTRIBUTES;
	if (simulated(SIMULATE_SETVARIABLE_FAULT) && size)
		c.data = NON_CANONICAL;
	return call(call_set_variable, &c);
}

EFI_STATUS runtime_query_variable_info(UINT32 attributes, UINT64 *max_storage,
				       UINT64 *remaining, UINT64 *max_variable)
{
	struct call c = { .service = "QueryVariableInfo",
			  .attributes = attributes, .max_storage = max_storage,
			  .remaining = remaining, .max_variable = max_variable };

	return call(call_query_variable_info, &c);
}

void runtime_reset(EFI_RESET_TYPE type)
{
	struct call c = { .service = "ResetSystem", .reset = type };

	if (!rt.guarded) {
		call_reset_system(&c);
	} else if (!rt.lost[0] && !simulated(SIMULATE_RESET_RETURNS)) {
		/* This call counted in: the last runtime service phase B
		 * calls. */
		log_status(STATUS_RESET, "method=firmware type=%s "
			   "runtime_calls=%u beside_wait_for_sipi=%u "
			   "in_wait_for_sipi=%u",
			   type == EfiResetShutdown ? "shutdown" : "warm",
			   rt.calls + 1, rt.calls_beside_init +
			   (other_cpus_left_in_init() != 0),
			   other_cpus_left_in_init());
		call(call_reset_system, &c);
	}
	if (simulated(SIMULATE_RESET_RETURNS))
		log_printf("phase B: ResetSystem not called (simulate = "
			   "reset-returns)\n");
	if (!rt.guarded && type == EfiResetShutdown) {
		/* With boot services, after the files or a refusal: a reset
		 * here could start a run nobody asked for. */
		log_printf("\nirqlab: the firmware did not power the machine "
			   "off; switch it off now\n");
		for (;;)
			hlt();
	}
	/* In phase B a shutdown the firmware did not make is a reset too:
	 * the next boot finds the marker and does not measure again
	 * (docs/run.md "When the firmware fails"). */
	log_printf("irqlab: the firmware did not reset the machine%s%s; "
		   "irqlab does\n", rt.lost[0] ? ": " : "", rt.lost);
	reset_by_ports(rt.tsc_hz);
}

void runtime_power_off(int offered)
{
	struct call c = { .service = "ResetSystem", .reset = EfiResetShutdown };

	if (!offered)
		log_printf("irqlab: ResetSystem is not offered after "
			   "ExitBootServices (EFI_RT_PROPERTIES_TABLE)\n");
	else if (!rt.lost[0] && !simulated(SIMULATE_RESET_RETURNS)) {
		log_status(STATUS_RESET, "method=firmware type=shutdown");
		call(call_reset_system, &c);
	}
	if (simulated(SIMULATE_RESET_RETURNS))
		log_printf("phase B: ResetSystem not called (simulate = "
			   "reset-returns)\n");
	log_printf("irqlab: the firmware did not power the machine off%s%s\n",
		   rt.lost[0] ? ": " : "", rt.lost);
}
