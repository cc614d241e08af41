#include "arch/primitives.h"

#include "arch/cpu.h"
#include "arch/lib/fmt.h"
#include "arch/matrix.h"
#include "arch/mitigations.h"

/* primitives.S: each once per instrument; compat.S: the same as i386
 * code, in compatibility mode. The sequences run elsewhere
 * (bench/run/sequences.c). */
#define PRIMITIVE_FN_LONG(code)                                            \
	uint64_t prim_##code(void), prim_##code##_counted(void);
#define PRIMITIVE_FN_COMPAT(code) uint64_t prim32_##code(void);
#define PRIMITIVE_FN_IOAPIC(code)
#define PRIMITIVE_FN(id, name, kind, code, ...) PRIMITIVE_FN_##kind(code)
PRIMITIVE_LIST(PRIMITIVE_FN)
#undef PRIMITIVE_FN
extern const char compat_tsc[];

static int fsgsbase_on;

int primitives_enable_fsgsbase(void)
{
	if (cpu_has(X86_FEATURE_FSGSBASE)) {
		write_cr4(read_cr4() | CR4_FSGSBASE);
		fsgsbase_on = 1;
	}
	return fsgsbase_on;
}

static const char *wrgsbase_unsupported(void)
{
	return fsgsbase_on ? 0 : "CPUID.(7,0):EBX[0] (FSGSBASE) is 0: "
				 "wrgsbase would be #UD";
}

static const char *lkgs_unsupported(void)
{
	return cpu_has(X86_FEATURE_LKGS) ? 0 : "CPUID.(7,1):EAX[18] (LKGS) is "
					       "0 on this CPU";
}

#define FOUR_GIB 0x100000000ull

/* Compatibility mode runs with 32-bit EIP and ESP: the code, its
 * timestamp slots and the stack it runs on must lie below 4 GiB. */
static const char *compat_unsupported(void)
{
	static char why[96];
	uint64_t stack = (uint64_t)(uintptr_t)__builtin_frame_address(0);

	if ((uint64_t)(uintptr_t)prim32_gs_selector >= FOUR_GIB ||
	    (uint64_t)(uintptr_t)compat_tsc >= FOUR_GIB)
		return "compatibility mode needs irqlab's code below 4 GiB, "
		       "and the firmware loaded it above";
	if (stack >= FOUR_GIB) {
		fmt_snprintf(why, sizeof(why), "compatibility mode needs the "
			     "stack below 4 GiB; it is at 0x%llx",
			     (unsigned long long)stack);
		return why;
	}
	return 0;
}

/* The no-flush write needs CR4.PCIDE, and PTI's pair of tables gives it
 * a CR3 with a PCID; the SPEC_CTRL writes need their two values. */
#define AROUND(name, before, after)                                         \
	static uint64_t name##_around(uint64_t (*block)(void))              \
	{                                                                   \
		uint64_t ticks;                                             \
                                                                            \
		before;                                                     \
		ticks = block();                                            \
		after;                                                      \
		return ticks;                                               \
	}                                                                   \
	static uint64_t prim_##name##_set_up(void)                          \
	{                                                                   \
		return name##_around(prim_##name);                          \
	}                                                                   \
	static uint64_t prim_##name##_counted_set_up(void)                  \
	{                                                                   \
		return name##_around(prim_##name##_counted);                \
	}
AROUND(mov_cr3_noflush, mitigations_pti_enter(1), mitigations_pti_leave())
AROUND(wrmsr_spec_ctrl, mitigations_prepare_ibrs(), mitigations_finish_ibrs())
#undef AROUND

/* A block's row by what it needs around it (SETUP in PRIMITIVE_LIST):
 * what says it cannot run, and the block with each instrument. */
#define SETUP_PLAIN(code) 0, prim_##code, prim_##code##_counted
#define SETUP_FSGSBASE(code)                                                \
	wrgsbase_unsupported, prim_##code, prim_##code##_counted
#define SETUP_LKGS(code) lkgs_unsupported, prim_##code, prim_##code##_counted
#define SETUP_PCID(code)                                                    \
	mitigation_no_pcid, prim_##code##_set_up, prim_##code##_counted_set_up
#define SETUP_SPEC_CTRL(code)                                               \
	mitigation_no_spec_ctrl, prim_##code##_set_up,                      \
		prim_##code##_counted_set_up
#define SETUP_PRED_CMD(code)                                                \
	mitigation_no_ibpb, prim_##code, prim_##code##_counted
#define PRIMITIVE_ROW_LONG(name, code, setup) { name, SETUP_##setup(code) },
#define PRIMITIVE_ROW_COMPAT(name, code, setup)                             \
	{ name, compat_unsupported, prim32_##code, 0 },
#define PRIMITIVE_ROW_IOAPIC(name, code, setup)
#define PRIMITIVE_ROW(id, name, kind, code, setup, ...)                     \
	PRIMITIVE_ROW_##kind(name, code, setup)
/* The blocks in PRIMITIVE_LIST's order (arch/matrix.h). */
const struct primitive primitives[] = { PRIMITIVE_LIST(PRIMITIVE_ROW) };
#undef PRIMITIVE_ROW

const size_t primitive_count = sizeof(primitives) / sizeof(primitives[0]);
