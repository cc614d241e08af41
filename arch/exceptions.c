#include "arch/exceptions.h"

#include "arch/lib/log.h"
#include "arch/cpu.h"
#include "arch/desc.h"
#include "arch/lib/fmt.h"
#include "arch/reset.h"

extern const char exception_stubs[];

uint64_t nmi_count;
static struct fault_info last_fault;
static void (*fatal_hook)(const struct fault_info *);
static int in_fatal;

void exceptions_install(void)
{
	unsigned v;

	for (v = 0; v < EXCEPTION_VECTORS; v++) {
		uint8_t ist = 0;

		/* NMI, #DF and #MC can arrive on a broken stack; #PF must not
		 * use an IST, since a nested #PF would overwrite it (docs/long-mode.md). */
		if (v == VECTOR_NMI)
			ist = IST_NMI;
		else if (v == VECTOR_DF)
			ist = IST_DOUBLE_FAULT;
		else if (v == VECTOR_MC)
			ist = IST_MACHINE_CHECK;
		idt_set_gate((uint8_t)v,
			     exception_stubs + v * EXCEPTION_STUB_STRIDE, ist);
	}
}

void exceptions_set_fatal_hook(void (*hook)(const struct fault_info *))
{
	fatal_hook = hook;
}

int guard_run(void (*fn)(void *), void *arg, struct fault_info *fault)
{
	int faulted = guard_enter(fn, arg);

	if (faulted && fault)
		*fault = last_fault;
	return faulted;
}

static const char *const exception_names[EXCEPTION_VECTORS] = {
	"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM",
	"#DF", "CSO", "#TS", "#NP", "#SS", "#GP", "#PF", "(15)",
	"#MF", "#AC", "#MC", "#XM", "#VE", "#CP", "(22)", "(23)",
	"(24)", "(25)", "(26)", "(27)", "#HV", "#VC", "#SX", "(31)",
};

/* The faulting context, on the log. Under FRED the CS and SS slots also
 * carry the stack level and the event information (arch/frame.h), so
 * they are printed whole. */
static void log_registers(const struct irq_frame *f)
{
	log_printf("registers: RAX %llx RBX %llx RCX %llx RDX %llx RSI %llx "
		   "RDI %llx RBP %llx RSP %llx\n",
		   (unsigned long long)f->rax, (unsigned long long)f->rbx,
		   (unsigned long long)f->rcx, (unsigned long long)f->rdx,
		   (unsigned long long)f->rsi, (unsigned long long)f->rdi,
		   (unsigned long long)f->rbp, (unsigned long long)f->rsp);
	log_printf("registers: R8 %llx R9 %llx R10 %llx R11 %llx R12 %llx "
		   "R13 %llx R14 %llx R15 %llx\n",
		   (unsigned long long)f->r8, (unsigned long long)f->r9,
		   (unsigned long long)f->r10, (unsigned long long)f->r11,
		   (unsigned long long)f->r12, (unsigned long long)f->r13,
		   (unsigned long long)f->r14, (unsigned long long)f->r15);
	log_printf("registers: RIP %llx CS %llx RFLAGS %llx SS %llx CR4 %llx\n",
		   (unsigned long long)f->rip, (unsigned long long)f->cs,
		   (unsigned long long)f->rflags, (unsigned long long)f->ss,
		   (unsigned long long)read_cr4());
}

void exception_dispatch(struct irq_frame *f)
{
	struct fault_info fi = {
		.vector = f->vector,
		.error_code = f->error_code,
		.rip = f->rip,
		.cr2 = f->vector == VECTOR_PF ? read_cr2() : 0,
	};

	if (f->vector == VECTOR_NMI) {
		/* Counted as noise; the experiment decides what it means. */
		nmi_count++;
		return;
	}
	if (guard_saved_rsp && f->vector != VECTOR_DF &&
	    f->vector != VECTOR_MC) {
		/* Abandon the experiment: return into guard_recover on the
		 * guard's stack with interrupts still disabled. */
		last_fault = fi;
		log_registers(f);
		f->rip = (uint64_t)(uintptr_t)guard_recover;
		f->cs = SEL_KERNEL_CS;
		f->rsp = guard_saved_rsp;
		f->ss = SEL_KERNEL_DS;
		f->rflags = 0x2;	/* bit 1 is reserved and always 1 */
		return;
	}
	log_printf("FATAL: %s (vector %llu) error 0x%llx RIP 0x%llx CR2 0x%llx "
		   "RSP 0x%llx\n",
		   exception_names[f->vector & 31], (unsigned long long)fi.vector,
		   (unsigned long long)fi.error_code,
		   (unsigned long long)fi.rip, (unsigned long long)fi.cr2,
		   (unsigned long long)f->rsp);
	log_registers(f);
	if (!in_fatal && fatal_hook) {
		in_fatal = 1;
		fatal_hook(&fi);
	}
	/* A fault while the hook ran: nothing is left to save. A reset
	 * beats a machine that sits halted; the next boot finds the
	 * "measuring" marker and does not measure again (docs/run.md). */
	log_printf("FATAL: a second fault; resetting\n");
	reset_by_ports(0);
}

const char *exception_name(unsigned vector)
{
	return vector < EXCEPTION_VECTORS ? exception_names[vector] : "?";
}

void fault_describe(const struct fault_info *f, char *out, unsigned cap)
{
	fmt_snprintf(out, cap, "%s vector %llu, error code 0x%llx, RIP 0x%llx, "
		     "CR2 0x%llx", exception_name((unsigned)f->vector),
		     (unsigned long long)f->vector,
		     (unsigned long long)f->error_code,
		     (unsigned long long)f->rip, (unsigned long long)f->cr2);
}

struct msr_access {
	uint32_t msr;
	uint64_t value;
};

static void read_msr(void *arg)
{
	struct msr_access *a = arg;

	a->value = rdmsr(a->msr);
}

static void write_msr(void *arg)
{
	struct msr_access *a = arg;

	wrmsr(a->msr, a->value);
}

int msr_read_guarded(uint32_t msr, uint64_t *value)
{
	struct msr_access a = { msr, 0 };

	if (guard_run(read_msr, &a, 0))
		return -1;
	*value = a.value;
	return 0;
}

int msr_write_guarded(uint32_t msr, uint64_t value)
{
	struct msr_access a = { msr, value };

	return guard_run(write_msr, &a, 0) ? -1 : 0;
}
