#include "arch/dispatch/schemes.h"

#include "arch/cpu.h"
#include "arch/desc.h"
#include "arch/exceptions.h"
#include "arch/mitigations.h"
#include "arch/dispatch/irq.h"

#include "arch/lib/fmt.h"

int schemes_own_paging;

SCHEME_SYMBOLS(direct);
SCHEME_SYMBOLS(push_jmp);
SCHEME_SYMBOLS(push_jmp_ibt);
SCHEME_SYMBOLS(compact);
SCHEME_SYMBOLS(call);
SCHEME_SYMBOLS(cs_selector);
SCHEME_SYMBOLS(pf_cr2);
SCHEME_SYMBOLS(int3_byte);
SCHEME_SYMBOLS(gate);
#define SCHEME_CODE_VIA(id, entry, bare_entry, counted_entry)               \
	.code = { { id##_gates, id##_code, id##_code_end, entry },          \
		  { id##_bare_gates, id##_bare_code, id##_bare_code_end,    \
		    bare_entry },                                           \
		  { id##_counted_gates, id##_counted_code,                  \
		    id##_counted_code_end, counted_entry } }
#define SCHEME_CODE(id) SCHEME_CODE_VIA(id, 0, 0, 0)

extern const char exception_stubs[];
extern const char pf_cr2_pf_entry[], pf_cr2_bare_pf_entry[],
	pf_cr2_counted_pf_entry[];
extern const char int3_byte_bp_entry[], int3_byte_bare_bp_entry[],
	int3_byte_counted_bp_entry[];

static void restore_exception_gate(uint8_t vector)
{
	idt_set_gate(vector, exception_stubs + vector * EXCEPTION_STUB_STRIDE, 0);
}

/* cs-selector: GDT index = vector, so selector = vector * 8. */
static uint16_t cs_selector_for(uint8_t vector)
{
	return (uint16_t)(vector * 8);
}

static void cs_selector_prepare(void)
{
	unsigned v;

	for (v = FIRST_IRQ_VECTOR; v < 256; v++)
		gdt_set_code64(v);
}

static void cs_selector_finish(void)
{
	unsigned v;

	for (v = FIRST_IRQ_VECTOR; v < 256; v++)
		gdt_clear(v);
}

static const char *pf_cr2_unsupported(void)
{
	return schemes_own_paging ? 0 :
	       "irqlab's own page tables are not active, so no page can be "
	       "made not-present";
}


/* fred.S: an entry page per kind, and no gates; the same for fred-linux. */
#define FRED_SYMBOLS(id)                                                    \
	extern const char id##_page[], id##_bare_page[],                    \
		id##_counted_page[];                                        \
	extern const char id##_code[], id##_code_end[];                     \
	extern const char id##_bare_code[], id##_bare_code_end[];           \
	extern const char id##_counted_code[], id##_counted_code_end[]
FRED_SYMBOLS(fred);
FRED_SYMBOLS(fred_linux);
#define FRED_CODE(id)                                                       \
	.code = { { 0, id##_code, id##_code_end, 0 },                       \
		  { 0, id##_bare_code, id##_bare_code_end, 0 },             \
		  { 0, id##_counted_code, id##_counted_code_end, 0 } }

static const char *fred_unsupported(void)
{
	if (!cpu_has(X86_FEATURE_FRED))
		return "CPUID.(7,1):EAX[17] (FRED) is 0 on this CPU";
	return 0;
}

/* The events that may come on a broken stack take the stacks their IDT
 * gates take through the IST (exceptions_install): NMI at stack level 1,
 * #DF at 2, #MC at 3, each level's RSP MSR pointing at that IST stack.
 * Everything else stays on the interrupted stack at level 0, as the IDT
 * schemes' frames do. RSP0 only serves events in ring 3. */
static void fred_prepare(void)
{
	static const struct {
		uint8_t vector, level;
	} raised[] = {
		{ VECTOR_NMI, IST_NMI },
		{ VECTOR_DF, IST_DOUBLE_FAULT },
		{ VECTOR_MC, IST_MACHINE_CHECK },
	};
	uint64_t levels = 0;
	unsigned i;

	wrmsr(MSR_FRED_RSP0, 0);
	for (i = 0; i < sizeof(raised) / sizeof(raised[0]); i++) {
		/* The RSP MSRs take 64-byte aligned stacks. */
		wrmsr(MSR_FRED_RSP0 + raised[i].level,
		      ist_stack_top(raised[i].level) & ~63ull);
		levels |= (uint64_t)raised[i].level << (2 * raised[i].vector);
	}
	wrmsr(MSR_FRED_STKLVLS, levels);
}

/* The entry page of the kind's handlers, with stack level 0, no red
 * zone and interrupts at level 0 in the low bits; then FRED on. */
static void fred_enter_at(const char *page)
{
	wrmsr(MSR_FRED_CONFIG, (uint64_t)(uintptr_t)page);
	write_cr4(read_cr4() | CR4_FRED);
}

static void fred_install(enum handler_kind kind)
{
	static const char *const page_of[HANDLER_KINDS] = {
		[HANDLER_TIMED] = fred_page,
		[HANDLER_BARE] = fred_bare_page,
		[HANDLER_COUNTED] = fred_counted_page,
	};

	fred_enter_at(page_of[kind]);
}

static void fred_linux_install(enum handler_kind kind)
{
	static const char *const page_of[HANDLER_KINDS] = {
		[HANDLER_TIMED] = fred_linux_page,
		[HANDLER_BARE] = fred_linux_bare_page,
		[HANDLER_COUNTED] = fred_linux_counted_page,
	};

	fred_enter_at(page_of[kind]);
}

/* FRED off: the IDT, whose gates scheme_rest puts back, serves again. */
static void fred_finish(void)
{
	write_cr4(read_cr4() & ~CR4_FRED);
	wrmsr(MSR_FRED_CONFIG, 0);
}

/* fred-linux's sites run the steps Linux's rule took for this CPU
 * (bench/run/mitigation_probe.c), of which it has VERW's alone. */
static void fred_linux_prepare(void)
{
	fred_prepare();
	mitigations_linux_patch(mitigation_linux_steps);
}

static void fred_linux_finish(void)
{
	fred_finish();
	mitigations_linux_patch(0);
}

static const char *call16_unsupported(void)
{
	return "not applicable in long mode: Intel ignores 66h on CALL (a "
	       "6-byte call rel32); AMD truncates RIP to 16 bits";
}

const struct dispatch_scheme dispatch_schemes[] = {
	{
		.id = SCHEME_DIRECT,
		SCHEME_CODE(direct),
		.stub_bytes = DIRECT_STRIDE,
	},
	{
		.id = SCHEME_PUSH_JMP,
		.fault_selftest = 1,
		SCHEME_CODE(push_jmp),
		.stub_bytes = PUSH_JMP_STRIDE,
	},
	{
		.id = SCHEME_PUSH_JMP_IBT,
		SCHEME_CODE(push_jmp_ibt),
		.stub_bytes = PUSH_JMP_IBT_STRIDE,
	},
	{
		.id = SCHEME_COMPACT,
		SCHEME_CODE(compact),
		.stub_bytes = 4,
	},
	{
		.id = SCHEME_CALL,
		SCHEME_CODE(call),
		.stub_bytes = CALL_STRIDE,
	},
	{
		.id = SCHEME_CS_SELECTOR,
		SCHEME_CODE(cs_selector),
		.selector = cs_selector_for,
		.prepare = cs_selector_prepare,
		.finish = cs_selector_finish,
		.stub_bytes = 0,
		.data_bytes = (256 - FIRST_IRQ_VECTOR) * 8,
	},
	{
		.id = SCHEME_PF_CR2,
		.unsupported = pf_cr2_unsupported,
		SCHEME_CODE_VIA(pf_cr2, pf_cr2_pf_entry, pf_cr2_bare_pf_entry,
				pf_cr2_counted_pf_entry),
		.exception_vector = VECTOR_PF,
		.stub_bytes = 0,
	},
	{
		.id = SCHEME_INT3_BYTE,
		SCHEME_CODE_VIA(int3_byte, int3_byte_bp_entry,
				int3_byte_bare_bp_entry,
				int3_byte_counted_bp_entry),
		.exception_vector = VECTOR_BP,
		.stub_bytes = INT3_BYTE_STRIDE,
	},
	{
		.id = SCHEME_GATE,
		SCHEME_CODE(gate),
		.stub_bytes = GATE_STRIDE,
	},
	{
		.id = SCHEME_FRED,
		.unsupported = fred_unsupported,
		FRED_CODE(fred),
		.install = fred_install,
		.prepare = fred_prepare,
		.finish = fred_finish,
		.stub_bytes = 0,
	},
	{
		.id = SCHEME_FRED_LINUX,
		.unsupported = fred_unsupported,
		FRED_CODE(fred_linux),
		.install = fred_linux_install,
		.prepare = fred_linux_prepare,
		.finish = fred_linux_finish,
		.stub_bytes = 0,
	},
	{
		.id = SCHEME_CALL16,
		.unsupported = call16_unsupported,
	},
};

const size_t dispatch_scheme_count =
	sizeof(dispatch_schemes) / sizeof(dispatch_schemes[0]);
const struct dispatch_scheme *const dispatch_baseline = &dispatch_schemes[0];

void scheme_install(const struct dispatch_scheme *s, uint8_t vector,
		    enum handler_kind kind)
{
	idt_set_gate_selector(vector,
			      (const void *)(uintptr_t)
				      s->code[kind].gates[vector - FIRST_IRQ_VECTOR],
			      0, s->selector ? s->selector(vector) : SEL_KERNEL_CS);
}

void scheme_install_all(const struct dispatch_scheme *s, enum handler_kind kind)
{
	unsigned v;

	if (s->install) {
		s->install(kind);
		return;
	}
	if (s->exception_vector)
		idt_set_gate(s->exception_vector, s->code[kind].exception_entry, 0);
	for (v = FIRST_IRQ_VECTOR; v < 256; v++)
		scheme_install(s, (uint8_t)v, kind);
}

void scheme_take_over(const struct dispatch_scheme *s, enum handler_kind kind)
{
	if (s->prepare)
		s->prepare();
	scheme_install_all(s, kind);
}

void scheme_rest(const struct dispatch_scheme *used)
{
	unsigned v;

	if (used && used->exception_vector)
		restore_exception_gate(used->exception_vector);
	if (used && used->finish)
		used->finish();
	for (v = FIRST_IRQ_VECTOR; v < 256; v++)
		scheme_install(dispatch_baseline, (uint8_t)v, HANDLER_TIMED);
}
