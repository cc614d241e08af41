#include "apic/lapic.h"

#include "arch/cpu.h"
#include "arch/lib/fmt.h"
#include "firmware/acpi.h"

const struct lapic_ops *lapic;
volatile uint32_t *lapic_mmio;

static uint32_t xapic_read(uint32_t reg)
{
	return lapic_mmio[reg / 4];
}

static void xapic_write(uint32_t reg, uint32_t value)
{
	lapic_mmio[reg / 4] = value;
}

static uint32_t x2apic_read(uint32_t reg)
{
	return (uint32_t)rdmsr(MSR_X2APIC_BASE + reg / 16);
}

/* WRMSR to x2APIC registers is not serialising; on Intel it wants
 * mfence; lfence first (SDM vol. 3 §11.12.3, Linux weak_wrmsr_fence; docs/controllers.md). The set-up
 * writes here are not timed, so they always fence. */
static void x2apic_write(uint32_t reg, uint32_t value)
{
	weak_wrmsr_fence();
	wrmsr(MSR_X2APIC_BASE + reg / 16, value);
}

static const struct lapic_ops xapic_ops = {
	LAPIC_XAPIC, "xapic", xapic_read, xapic_write,
};
static const struct lapic_ops x2apic_ops = {
	LAPIC_X2APIC, "x2apic", x2apic_read, x2apic_write,
};

void xapic_eoi(void)
{
	lapic_mmio[APIC_EOI / 4] = 0;
}

void x2apic_eoi(void)
{
	wrmsr(MSR_X2APIC_BASE + APIC_EOI / 16, 0);
}

const char *lapic_enable(enum lapic_mode mode)
{
	uint64_t base;

	if (!cpu_has(X86_FEATURE_APIC) || !cpu_has(X86_FEATURE_MSR))
		return "CPUID.1:EDX[9] (APIC) is 0: no local APIC";
	if (mode == LAPIC_X2APIC && !cpu_has(X86_FEATURE_X2APIC))
		return "CPUID.1:ECX[21] (x2APIC) is 0";
	base = rdmsr(MSR_APIC_BASE);
	if (mode == LAPIC_XAPIC && (base & APIC_BASE_EXTD)) {
		/* x2APIC -> xAPIC only through disabled (SDM vol. 3
		 * §11.12.5, Figure 11-27). */
		wrmsr(MSR_APIC_BASE, base & ~(APIC_BASE_EXTD | APIC_BASE_ENABLE));
		base &= ~APIC_BASE_EXTD;
	}
	base |= APIC_BASE_ENABLE;
	if (mode == LAPIC_X2APIC)
		base |= APIC_BASE_EXTD;
	wrmsr(MSR_APIC_BASE, base);

	lapic_mmio = (volatile uint32_t *)(uintptr_t)(base & APIC_BASE_ADDR_MASK);
	lapic = mode == LAPIC_X2APIC ? &x2apic_ops : &xapic_ops;
	lapic->write(APIC_TPR, 0);
	/* Directed EOI where the APIC offers it (LVR bit 24): level EOIs
	 * then go to the IO-APIC's EOI register instead of a broadcast. */
	lapic->write(APIC_SVR, APIC_SVR_ENABLE | APIC_SPURIOUS_VECTOR |
				       (lapic->read(APIC_LVR) & APIC_LVR_DIRECTED_EOI ?
						APIC_SVR_DIRECTED_EOI : 0));
	lapic->write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	lapic->write(APIC_LVT_LINT0, APIC_LVT_MASKED);
	lapic->write(APIC_LVT_ERROR, APIC_LVT_MASKED);
	lapic->write(APIC_LVT_PERF, APIC_LVT_MASKED);
	lapic->write(APIC_LVT_THERMAL, APIC_LVT_MASKED);
	/* Corrected machine-check interrupts would land in a row; the
	 * entry exists only where MCG_CAP says so (SDM vol. 3B §16.5.1), and
	 * in x2APIC mode writing a missing one raises #GP. */
	if (lapic_has_cmci())
		lapic->write(APIC_LVT_CMCI, APIC_LVT_MASKED);
	lapic->write(APIC_ESR, 0);
	return 0;
}

#define MSR_MCG_CAP 0x179
#define MCG_CMCI_P (1ull << 10)

int lapic_has_cmci(void)
{
	return cpu_has(X86_FEATURE_MCA) && (rdmsr(MSR_MCG_CAP) & MCG_CMCI_P);
}

static int in_service(void)
{
	unsigned i;

	for (i = 0; i < 8; i++)
		if (lapic->read(APIC_ISR + i * 0x10))
			return 1;
	return 0;
}

unsigned lapic_settle(void)
{
	unsigned eois;

	/* Each EOI ends the highest-priority vector in service (SDM vol. 3
	 * §11.8.5); 256 of them end them all. */
	for (eois = 0; lapic && eois < 256 && in_service(); eois++)
		lapic->write(APIC_EOI, 0);
	return eois;
}

const char *lapic_check_quiet(char *why, unsigned cap)
{
	unsigned i;
	uint32_t esr;

	for (i = 0; i < 8; i++) {
		uint32_t isr = lapic->read(APIC_ISR + i * 0x10);

		if (isr) {
			fmt_snprintf(why, cap, "ISR[%u] = 0x%08x after the "
				     "experiment: an interrupt was not EOI'd",
				     i, isr);
			return why;
		}
	}
	/* A write latches the errors seen since the last one (SDM vol. 3
	 * §11.5.3); x2APIC wants the write to be 0 too. */
	lapic->write(APIC_ESR, 0);
	esr = lapic->read(APIC_ESR);
	if (esr) {
		fmt_snprintf(why, cap, "APIC error status 0x%x", esr);
		return why;
	}
	return 0;
}

#define ICR_DELIVERY_INIT (5u << 8)	/* delivery mode 101b */
#define ICR_DELIVERY_STARTUP (6u << 8)	/* 110b: SIPI */
#define ICR_TRIGGER_LEVEL (1u << 15)

/* INIT to one processor (SDM vol. 3A §9.4.4.1, the MP initialization
 * protocol): asserted, then, in xAPIC mode, de-asserted, as older
 * processors want; x2APIC has no de-assert (§11.12.9). Returns 0, or -1
 * when the xAPIC never finished sending it: both waits share one
 * budget. In xAPIC mode an ID past XAPIC_LAST_ID is never sent to: its
 * low 8 bits would name another processor, or all of them
 * (firmware/acpi.h). */
int lapic_send_init(uint32_t apic_id)
{
	unsigned left;

	if (lapic->mode != LAPIC_X2APIC && !apic_id_fits_xapic(apic_id))
		return -1;
	if (lapic->mode == LAPIC_X2APIC) {
		weak_wrmsr_fence();
		lapic_icr_write(1, apic_id, ICR_DELIVERY_INIT |
					APIC_ICR_LEVEL_ASSERT | ICR_TRIGGER_LEVEL);
		return 0;
	}
	lapic_icr_write(0, apic_id, ICR_DELIVERY_INIT | APIC_ICR_LEVEL_ASSERT |
				   ICR_TRIGGER_LEVEL);
	left = xapic_icr_wait_idle(APIC_ICR_IDLE_POLLS);
	lapic_icr_write(0, apic_id, ICR_DELIVERY_INIT | ICR_TRIGGER_LEVEL);
	return left && xapic_icr_wait_idle(left) ? 0 : -1;
}

int lapic_send_sipi(uint32_t apic_id, uint8_t vector)
{
	if (lapic->mode != LAPIC_X2APIC && !apic_id_fits_xapic(apic_id))
		return -1;
	if (lapic->mode == LAPIC_X2APIC) {
		weak_wrmsr_fence();
		lapic_icr_write(1, apic_id, ICR_DELIVERY_STARTUP | vector);
		return 0;
	}
	lapic_icr_write(0, apic_id, ICR_DELIVERY_STARTUP | vector);
	return xapic_icr_wait_idle(APIC_ICR_IDLE_POLLS) ? 0 : -1;
}

uint32_t lapic_own_id(void)
{
	uint32_t id = lapic->read(APIC_ID);

	return lapic->mode == LAPIC_X2APIC ? id : id >> 24;
}

enum lapic_mode lapic_firmware_mode(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);

	return base & APIC_BASE_EXTD ? LAPIC_X2APIC : LAPIC_XAPIC;
}
