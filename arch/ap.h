/* The application processors: the trampoline a SIPI starts them in
 * (arch/ap_start.S), and what each does once in long mode. Shared by C
 * and assembly. */
#ifndef IRQLAB_ARCH_AP_H
#define IRQLAB_ARCH_AP_H

/* The trampoline's data block: offsets from the start of its page,
 * filled in by ap_trampoline_prepare for the page it is copied to. */
#define AP_GDTR 0x200		/* limit (2 bytes), base (4) */
#define AP_FAR32 0x208		/* offset (4), selector (2) */
#define AP_FAR64 0x210		/* offset (4), selector (2) */
#define AP_CR3 0x218
#define AP_CR4 0x21c
#define AP_EFER 0x220		/* 8 bytes */
#define AP_ENTRY 0x228		/* 8: ap_main */
/* Every AP of a start reads the block at once, none writes it but the
 * count of strays, so all can start together: each finds its slot by
 * its own APIC ID in a table, as Linux's parallel start-up does
 * (arch/ap_start.S). */
#define AP_IDS 0x230		/* 8: the APIC id of each slot (uint32_t) */
#define AP_TOPS 0x238		/* 8: the top of each slot's stack (uint64_t) */
#define AP_COUNT 0x240		/* 4: the slots in both tables */
#define AP_STRAYS 0x244		/* 4: APs whose APIC id no slot has */
#define AP_GDT 0x248		/* four descriptors */
#define AP_CR0 0x268		/* 4: the boot CPU's, PG and PE included */
#define AP_DATA_END 0x270

#define AP_SEL_CODE32 0x08
#define AP_SEL_DATA32 0x10
#define AP_SEL_CODE64 0x18

#define AP_STACK_BYTES (16 * 1024)
/* The lowest part of it: the AP's NMI stack (IST1). */
#define AP_NMI_STACK_BYTES (4 * 1024)

/* What an AP does while it waits (struct ap_cpu's command and state). */
#define AP_QUIET 1	/* interrupts off, a pause loop: ready for INIT */
#define AP_SPIN 2	/* interrupts on, a pause loop */
#define AP_HALT 3	/* interrupts on, HLT */
#define AP_MWAIT 4	/* interrupts on, MWAIT on its command word */
#define AP_RUN 5	/* interrupts off: run `work` once, then say done */
/* Interrupts off, HLT, for good: the end of phase B, where the
 * firmware's runtime services and SMIs run (docs/cross-cpu.md "Parked
 * for good"). */
#define AP_PARKED 6
/* Each command is stored with a new `seq`, which the AP echoes in
 * `taken` once it took it: the boot CPU then knows the AP has left its
 * last wait, even where the command is the one it had. */

/* struct ap_cpu's fields as assembly reaches them through GS. Two cache
 * lines: the first holds what the boot CPU writes (the command, which
 * MWAIT monitors); the second what the AP and its handler write, so that
 * none of their own stores ends the MWAIT they wait in (SDM vol. 2B,
 * MONITOR: a store to the armed range wakes it; vol. 3A §9.10.4). */
#define AP_CPU_LINE 64
#define AP_CPU_COMMAND 0
#define AP_CPU_SEQ 4
#define AP_CPU_SLOT 64
#define AP_CPU_STATE 68
#define AP_CPU_WAITING 72
#define AP_CPU_INTERRUPTS 76
#define AP_CPU_FAULT 80
#define AP_CPU_ENTRY_TSC 96
#define AP_CPU_WAKES 124
#define AP_CPU_BYTES (2 * AP_CPU_LINE)

/* The other processors' exception stubs, one per vector 0-31. */
#define AP_FAULT_STUB_BYTES 32

#ifndef __ASSEMBLER__

#include <stdint.h>

/* Why the APs cannot be started with this page and these tables, or
 * NULL: the trampoline's page must lie below 1 MiB, and the page
 * tables below 4 GiB (a 32-bit MOV to CR3 loads them). */
const char *ap_start_unsupported(const void *page);
/* Copies the trampoline to `page` and fills in its data block. */
void ap_trampoline_prepare(void *page);
/* The processors a start may wake, by slot in ap_cpus: slot s is APIC
 * id ids[s], on the stack whose top is stacks + (s + 1) *
 * AP_STACK_BYTES. Each AP finds its own slot as it arrives. */
void ap_trampoline_set_cpus(void *page, const uint32_t *ids, uint32_t count,
			    uint8_t *stacks);
/* Readies `slot` to be started: its command AP_QUIET. */
void ap_slot_ready(uint32_t slot);
/* The APs that arrived since the trampoline was copied whose APIC id
 * no slot holds: they park themselves in the trampoline. */
uint32_t ap_trampoline_strays(const void *page);
/* How many times the AP in each slot reached ap_main. */
extern volatile uint32_t ap_arrivals[];

/* One AP's data, reached through its GS base; two cache lines each (see
 * AP_CPU_LINE), so that the boot CPU's polling of one does not move
 * another's, and an AP waiting in MWAIT on its command word wakes only
 * for the boot CPU's store to it or for an interrupt. */
struct ap_cpu {
	/* The first line, the monitored one: only the boot CPU writes it.
	 * The command (AP_*) and its seq are stored and read as one
	 * aligned quadword, which x86 does atomically (SDM vol. 3A
	 * §9.1.1): read as two words, an AP could pair a new command with
	 * the old seq, take it, and take it again with the new one,
	 * running an AP_RUN's work twice (ap_command_give). */
	union {
		struct {
			volatile uint32_t command;
			volatile uint32_t seq;
		};
		volatile uint64_t command_and_seq;
	};
	void (*volatile work)(void *arg);	/* AP_RUN's, and its */
	void *volatile work_arg;		/* argument */
	/* The second line: what the AP and its handler write. */
	uint32_t slot __attribute__((aligned(AP_CPU_LINE)));
	volatile uint32_t state;	/* the command it last took */
	/* Set just before HLT or MWAIT, to ap_waiting_token of its
	 * `interrupts` then; cleared once woken, after its CLI. The boot
	 * CPU fires at a waiting target only, and the token tells a wait
	 * begun after the target took its last interrupt from the wait
	 * that interrupt ended (ap_waits_afresh). */
	volatile uint32_t waiting;
	volatile uint32_t interrupts;	/* interrupts its handler took */
	/* An exception on it: its vector + 1; it then parks itself with
	 * interrupts off (0: none). */
	volatile uint32_t fault;
	volatile uint32_t done;		/* AP_RUN: work returned */
	/* Wake-ups from HLT or MWAIT that brought neither an interrupt nor
	 * a new command, since it started: each a moment it was not
	 * waiting, which a sample could have timed (docs/cross-cpu.md
	 * "Wake-ups without an interrupt"). */
	volatile uint32_t wakeups_without_interrupt;
	/* CPUID.1AH:EAX as it arrived, where CPUID.7.0:EDX[15] says the
	 * CPU is hybrid: its core type in bits 31:24 (SDM vol. 2A, CPUID
	 * leaf 1AH); 0 elsewhere. */
	uint32_t core_type;
	/* The TSC its interrupt handler read first, at its last entry. */
	volatile uint64_t entry_tsc;
	/* IA32_TSC_ADJUST as it arrived (SDM vol. 3B §18.17.3); 0 where
	 * CPUID.7.0:EBX[1] says there is none. */
	uint64_t tsc_adjust;
	/* The waits it served since it started: each HLT and each MWAIT
	 * it entered and left again, counted once it left, so that a row
	 * can tell what the target did from what it was told (`state`). */
	volatile uint32_t halts, mwaits;
	/* The `seq` of the command it last took (arch/ap.h, AP_RUN). */
	volatile uint32_t taken;
	/* Wake-up IPIs (WAKE_VECTOR) its handler ap_wake took: kept apart
	 * from `interrupts`, so that a row counts its own IPIs alone. */
	volatile uint32_t wakes;
} __attribute__((aligned(AP_CPU_BYTES)));

/* Gives the AP `command` with the next seq, in one store. */
static inline void ap_command_give(struct ap_cpu *ap, uint32_t command)
{
	ap->command_and_seq = (uint64_t)(ap->seq + 1) << 32 | command;
}

/* `waiting`'s value for a wait begun with `interrupts` taken: never
 * 0, which says the AP does not wait. */
static inline uint32_t ap_waiting_token(uint32_t interrupts)
{
	return 1 + (interrupts & 0x7fffffffu);
}

/* Whether the AP waits in a wait begun after it took its last
 * interrupt. Its handler counts the interrupt before it answers
 * (apic/ap_interrupt.S), and `waiting` keeps the ended wait's token
 * until the AP's CLI, so an IPI fired on the answer alone could arrive
 * between its IRET and that CLI and be taken without a HLT. x86 keeps
 * the two loads in order (SDM vol. 3A §9.2.2). In x2APIC mode the
 * answer's WRMSR is not ordered after the count's store (§11.12.3);
 * the handler does not fence, to keep its path the one timed, and an
 * IPI's delivery outlasts a store's draining. */
static inline int ap_waits_afresh(const volatile struct ap_cpu *ap)
{
	uint32_t waiting = ap->waiting;

	return waiting && waiting == ap_waiting_token(ap->interrupts);
}

#define AP_MAX_CPUS 512
extern struct ap_cpu ap_cpus[AP_MAX_CPUS];

/* work(arg) on the stack whose top is `stack_top` (16-byte aligned),
 * then back on the caller's (arch/ap_entry.S). */
void ap_call_on_stack(void (*work)(void *arg), void *arg, void *stack_top);

/* Called on each AP once it is in long mode, before it counts itself
 * and waits: the runner sets up its local APIC there, in the boot CPU's
 * mode (NULL: nothing). */
extern void (*ap_on_arrival)(void);

#endif
#endif
