#include "arch/ap.h"

#include <stddef.h>

#include "arch/cpu.h"
#include "arch/desc.h"
#include "arch/primitives.h"

/* ap_start.S: the trampoline, and where its 32- and 64-bit parts start;
 * ap_entry.S: the exception stubs. */
extern const char ap_trampoline[], ap_trampoline_end[];
extern const char ap_protected[], ap_long[];
extern const char ap_fault_stubs[];

#define ONE_MIB 0x100000ull
#define PAGE_BYTES 4096ull
#define CR4_PAE (1ull << 5)
#define CR4_PSE (1ull << 4)
#define EFER_LMA (1ull << 10)
#define MSR_EFER 0xc0000080
#define MSR_TSC_ADJUST 0x3b

#define OFFSET(field) __builtin_offsetof(struct ap_cpu, field)
_Static_assert(sizeof(struct ap_cpu) == AP_CPU_BYTES, "two lines per AP");
_Static_assert(OFFSET(command) == AP_CPU_COMMAND &&
		       OFFSET(command_and_seq) == AP_CPU_COMMAND &&
		       OFFSET(seq) == AP_CPU_SEQ &&
		       OFFSET(wakes) == AP_CPU_WAKES &&
		       OFFSET(slot) == AP_CPU_SLOT &&
		       OFFSET(state) == AP_CPU_STATE &&
		       OFFSET(waiting) == AP_CPU_WAITING &&
		       OFFSET(interrupts) == AP_CPU_INTERRUPTS &&
		       OFFSET(fault) == AP_CPU_FAULT &&
		       OFFSET(entry_tsc) == AP_CPU_ENTRY_TSC,
	       "arch/ap.h's offsets, which assembly uses");
/* MONITOR arms the line of &command (CPUID.5:EBX gives its size; 64
 * bytes on every part irqlab knows, SDM vol. 3A §9.10.4). Only the boot
 * CPU writes the first line; everything the AP or its handler
 * (apic/ap_interrupt.S) writes lies in the second. */
_Static_assert(AP_CPU_COMMAND / AP_CPU_LINE == 0 &&
		       OFFSET(seq) / AP_CPU_LINE == 0 &&
		       OFFSET(work) / AP_CPU_LINE == 0 &&
		       OFFSET(work_arg) / AP_CPU_LINE == 0 &&
		       sizeof(void *) + OFFSET(work_arg) <= AP_CPU_LINE,
	       "the monitored line holds the boot CPU's words only");
_Static_assert(OFFSET(slot) / AP_CPU_LINE == 1 &&
		       OFFSET(state) / AP_CPU_LINE == 1 &&
		       OFFSET(waiting) / AP_CPU_LINE == 1 &&
		       OFFSET(interrupts) / AP_CPU_LINE == 1 &&
		       OFFSET(fault) / AP_CPU_LINE == 1 &&
		       OFFSET(done) / AP_CPU_LINE == 1 &&
		       OFFSET(wakeups_without_interrupt) / AP_CPU_LINE == 1 &&
		       OFFSET(entry_tsc) / AP_CPU_LINE == 1 &&
		       OFFSET(tsc_adjust) / AP_CPU_LINE == 1 &&
		       OFFSET(halts) / AP_CPU_LINE == 1 &&
		       OFFSET(mwaits) / AP_CPU_LINE == 1 &&
		       OFFSET(taken) / AP_CPU_LINE == 1 &&
		       OFFSET(wakes) / AP_CPU_LINE == 1,
	       "what the AP and its handler write is off the monitored line");
#undef OFFSET

_Static_assert(AP_MAX_CPUS == DESC_OTHER_CPUS, "a GDT and TSS for each AP");

volatile uint32_t ap_arrivals[AP_MAX_CPUS];
struct ap_cpu ap_cpus[AP_MAX_CPUS];
/* The trampoline's tables (AP_IDS, AP_TOPS): each slot's APIC id, and
 * the top of its stack, whose lowest AP_NMI_STACK_BYTES are its NMI
 * stack. */
static uint32_t apic_id_of[AP_MAX_CPUS];
static uint64_t stack_top_of[AP_MAX_CPUS];
void (*ap_on_arrival)(void);
/* The boot CPU's CR4, which each AP takes once in long mode. */
static uint64_t boot_cr4;
static int idt_prepared;

static void put(uint8_t *p, unsigned at, uint64_t v, unsigned bytes)
{
	unsigned i;

	for (i = 0; i < bytes; i++)
		p[at + i] = (uint8_t)(v >> (8 * i));
}

const char *ap_start_unsupported(const void *page)
{
	uint64_t at = (uint64_t)(uintptr_t)page;

	if (!page)
		return "no page below 1 MiB was free for the trampoline";
	if (at >= ONE_MIB || at % PAGE_BYTES)
		return "the trampoline's page is not a page below 1 MiB";
	if (read_cr3() >> 32)
		return "the page tables lie above 4 GiB, beyond the "
		       "trampoline's 32-bit MOV to CR3";
	return 0;
}

/* A wake-up from HLT or MWAIT is counted when it brought neither an
 * interrupt (the handler counts those), nor a wake-up IPI (ap_wake
 * counts those), nor a new command (a store to the monitored line):
 * MWAIT may end for other events too (SDM vol. 2B, MWAIT), and a store
 * of the AP's own to the armed line ends it at once. */
static void count_wakeup(struct ap_cpu *me, uint32_t seq,
			 uint32_t interrupts_before, uint32_t wakes_before)
{
	if (me->interrupts == interrupts_before &&
	    me->wakes == wakes_before && me->seq == seq)
		me->wakeups_without_interrupt++;
}

/* Waits as the boot CPU commands (arch/ap.h), until an INIT or AP_PARKED
 * parks it.
 * Each pass reads the command and its seq in one load, takes
 * the command in `state` and echoes the seq in `taken`. A halted or
 * MWAITing AP wakes for an interrupt, and its handler's IRET returns
 * after HLT or MWAIT, where CLI closes the window again. QUIET spins
 * rather than halts: QEMU's TCG does not wake a halted vCPU for an INIT
 * alone (it counts INIT as no work for a halted CPU). */
static __attribute__((noreturn)) void ap_wait(struct ap_cpu *me)
{
	uint32_t ran = 0;

	for (;;) {
		uint64_t given = me->command_and_seq;
		uint32_t seq = (uint32_t)(given >> 32);
		uint32_t command = (uint32_t)given, before, wakes;

		me->state = command;
		me->taken = seq;
		if (command == AP_SPIN) {
			__asm__ volatile("sti; pause; cli" ::: "memory");
		} else if (command == AP_HALT) {
			/* The boot CPU stores the command, then reads
			 * `waiting` to decide whether to send the wake-up
			 * IPI; this stores `waiting`, then reads the
			 * command. A load may pass an older store to
			 * another address (SDM vol. 3A §9.2.3.4), so both
			 * could read the old value, and this would halt
			 * with no IPI coming: the full fence here and in
			 * other_cpus_command_one
			 * (bench/run/other_cpus_command.c) orders each
			 * store before its load (§9.2.2), so at least one
			 * sees the other's. An IPI sent once `waiting` is
			 * seen stays pending while interrupts are off, and
			 * STI's shadow delivers it only once HLT waits. */
			before = me->interrupts;
			wakes = me->wakes;
			me->waiting = ap_waiting_token(before);
			mfence();
			if (me->seq == seq) {
				__asm__ volatile("sti; hlt; cli" ::: "memory");
				me->halts++;
				count_wakeup(me, seq, before, wakes);
			}
			me->waiting = 0;
		} else if (command == AP_MWAIT) {
			/* The monitor armed first, then the seq read
			 * again: a write between them wakes MWAIT at once
			 * (SDM vol. 2B, MONITOR). MONITOR is ordered as a
			 * load (ibid.), so no fence is needed: a command
			 * stored before it is read here, one stored after
			 * it ends the wait. `waiting` lies on the other
			 * line (arch/ap.h), so storing it does not. STI's
			 * one-instruction shadow keeps an interrupt out
			 * until MWAIT waits. */
			before = me->interrupts;
			wakes = me->wakes;
			__asm__ volatile("monitor" ::"a"(&me->command), "c"(0),
					 "d"(0));
			me->waiting = ap_waiting_token(before);
			if (me->seq == seq) {
				__asm__ volatile("sti; mwait; cli" ::"a"(0),
						 "c"(0)
						 : "memory");
				me->mwaits++;
				count_wakeup(me, seq, before, wakes);
			}
			me->waiting = 0;
		} else if (command == AP_PARKED) {
			/* Taken (`taken` above), never left. An SMI or NMI
			 * ends the HLT and comes back to it, so that the
			 * firmware's SMM rendezvous gathers this processor,
			 * as it could not one INIT left in wait-for-SIPI
			 * (docs/cross-cpu.md "Parked for good"). */
			for (;;)
				__asm__ volatile("cli; hlt" ::: "memory");
		} else if (command == AP_RUN && ran != seq) {
			/* Once per command: `seq` tells a new run from the
			 * one that just returned. */
			ran = seq;
			me->work(me->work_arg);
			me->done = 1;
		} else {
			__asm__ volatile("pause" ::: "memory");
		}
	}
}

/* An AP in long mode, in slot `slot`: its own GDT and TSS, whose IST1
 * is the bottom of its stack, for NMIs; the APs' IDT; the boot CPU's CR4
 * less FRED, which only the boot CPU's MSRs configure; its ap_cpu
 * through GS; then the runner's set-up. It says it is here and waits,
 * interrupts off, for a command. */
static void ap_main(uint64_t slot)
{
	struct ap_cpu *me = &ap_cpus[slot];

	desc_load_on_this_cpu((uint32_t)slot, stack_top_of[slot] -
						      AP_STACK_BYTES +
						      AP_NMI_STACK_BYTES);
	write_cr4(boot_cr4 & ~CR4_FRED);
	wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)me);
	me->fault = 0;
	me->interrupts = 0;
	me->waiting = 0;
	me->wakeups_without_interrupt = 0;
	me->halts = 0;
	me->mwaits = 0;
	me->tsc_adjust = cpu_has(X86_FEATURE_TSC_ADJUST) ?
				 rdmsr(MSR_TSC_ADJUST) : 0;
	me->core_type = cpu_core_type();
	me->wakes = 0;
	if (ap_on_arrival)
		ap_on_arrival();
	__atomic_add_fetch(&ap_arrivals[slot], 1, __ATOMIC_SEQ_CST);
	ap_wait(me);
}

void ap_trampoline_prepare(void *page)
{
	uint8_t *p = page;
	uint32_t base = (uint32_t)(uintptr_t)page;
	const char *from = ap_trampoline;
	size_t i, n = (size_t)(ap_trampoline_end - ap_trampoline);

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)from[i];
	boot_cr4 = read_cr4();
	if (!idt_prepared) {
		/* Once: the runner's gates (the NMI's) then stay. */
		ap_idt_prepare(ap_fault_stubs, AP_FAULT_STUB_BYTES);
		idt_prepared = 1;
	}
	put(p, AP_GDTR, 4 * 8 - 1, 2);
	put(p, AP_GDTR + 2, base + AP_GDT, 4);
	put(p, AP_FAR32, base + (uint32_t)(ap_protected - ap_trampoline), 4);
	put(p, AP_FAR32 + 4, AP_SEL_CODE32, 2);
	put(p, AP_FAR64, base + (uint32_t)(ap_long - ap_trampoline), 4);
	put(p, AP_FAR64 + 4, AP_SEL_CODE64, 2);
	put(p, AP_CR3, read_cr3(), 4);
	/* Before paging only the paging bits may be set: PAE, PSE, and
	 * LA57 where the tables have five levels. */
	put(p, AP_CR4, boot_cr4 & (CR4_PAE | CR4_PSE | CR4_LA57), 4);
	put(p, AP_EFER, rdmsr(MSR_EFER) & ~EFER_LMA, 8);
	put(p, AP_CR0, read_cr0(), 4);
	put(p, AP_ENTRY, (uint64_t)(uintptr_t)ap_main, 8);
	put(p, AP_STRAYS, 0, 4);
}

void ap_trampoline_set_cpus(void *page, const uint32_t *ids, uint32_t count,
			    uint8_t *stacks)
{
	uint32_t s;

	for (s = 0; s < count && s < AP_MAX_CPUS; s++) {
		apic_id_of[s] = ids[s];
		stack_top_of[s] = (uint64_t)(uintptr_t)stacks +
				  (uint64_t)(s + 1) * AP_STACK_BYTES;
		ap_cpus[s].slot = s;
	}
	put(page, AP_IDS, (uint64_t)(uintptr_t)apic_id_of, 8);
	put(page, AP_TOPS, (uint64_t)(uintptr_t)stack_top_of, 8);
	put(page, AP_COUNT, s, 4);
}

void ap_slot_ready(uint32_t slot)
{
	ap_cpus[slot].command_and_seq = AP_QUIET;	/* seq 0 */
	ap_cpus[slot].state = 0;
	ap_cpus[slot].taken = ~0u;
	ap_cpus[slot].done = 0;
}

uint32_t ap_trampoline_strays(const void *page)
{
	return *(const volatile uint32_t *)(const void *)(
		(const uint8_t *)page + AP_STRAYS);
}
