#include "arch/primitives.h"

#include "arch/cpu.h"
#include "arch/lib/fmt.h"
#include "arch/mitigations.h"

/* primitives.S: each once per instrument. */
#define PRIMITIVE_FN(id) uint64_t prim_##id(void), prim_##id##_counted(void)
PRIMITIVE_FN(push_imm);
PRIMITIVE_FN(cs_push);
PRIMITIVE_FN(cs_vector);
PRIMITIVE_FN(ds_mov32);
PRIMITIVE_FN(ds_mov16);
PRIMITIVE_FN(ds_conditional);
PRIMITIVE_FN(gs_selector);
PRIMITIVE_FN(swapgs);
PRIMITIVE_FN(wrgsbase);
PRIMITIVE_FN(wrmsr_gsbase);
PRIMITIVE_FN(lkgs);
PRIMITIVE_FN(iretq_self);
PRIMITIVE_FN(mov_cr3);
PRIMITIVE_FN(mov_cr3_noflush);
PRIMITIVE_FN(wrmsr_spec_ctrl);
PRIMITIVE_FN(wrmsr_pred_cmd);
PRIMITIVE_FN(verw);
PRIMITIVE_FN(bhb_clear_5x5);
PRIMITIVE_FN(bhb_clear_12x7);
PRIMITIVE_FN(rsb_fill);
#undef PRIMITIVE_FN
/* arch/compat.S: the same as i386 code, in compatibility mode. */
#define COMPAT_FN(id) uint64_t prim32_##id(void)
COMPAT_FN(push_imm);
COMPAT_FN(push_cs);
COMPAT_FN(cs_vector);
COMPAT_FN(ds_mov32);
COMPAT_FN(ds_mov16);
COMPAT_FN(gs_selector);
#undef COMPAT_FN
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

const struct primitive primitives[] = {
	{ "push-imm", 0, prim_push_imm, prim_push_imm_counted },
	{ "cs-push", 0, prim_cs_push, prim_cs_push_counted },
	{ "cs-vector", 0, prim_cs_vector, prim_cs_vector_counted },
	{ "ds-mov32", 0, prim_ds_mov32, prim_ds_mov32_counted },
	{ "ds-mov16", 0, prim_ds_mov16, prim_ds_mov16_counted },
	{ "ds-conditional", 0, prim_ds_conditional, prim_ds_conditional_counted },
	{ "gs-selector", 0, prim_gs_selector, prim_gs_selector_counted },
	{ "swapgs", 0, prim_swapgs, prim_swapgs_counted },
	{ "wrgsbase", wrgsbase_unsupported, prim_wrgsbase, prim_wrgsbase_counted },
	{ "wrmsr-gsbase", 0, prim_wrmsr_gsbase, prim_wrmsr_gsbase_counted },
	{ "lkgs", lkgs_unsupported, prim_lkgs, prim_lkgs_counted },
	{ "iretq-self", 0, prim_iretq_self, prim_iretq_self_counted },
	{ "mov-cr3", 0, prim_mov_cr3, prim_mov_cr3_counted },
	{ "mov-cr3-noflush", mitigation_no_pcid, prim_mov_cr3_noflush_set_up,
	  prim_mov_cr3_noflush_counted_set_up },
	{ "wrmsr-spec-ctrl", mitigation_no_spec_ctrl,
	  prim_wrmsr_spec_ctrl_set_up, prim_wrmsr_spec_ctrl_counted_set_up },
	{ "wrmsr-pred-cmd", mitigation_no_ibpb, prim_wrmsr_pred_cmd,
	  prim_wrmsr_pred_cmd_counted },
	{ "verw", 0, prim_verw, prim_verw_counted },
	{ "bhb-clear-5x5", 0, prim_bhb_clear_5x5, prim_bhb_clear_5x5_counted },
	{ "bhb-clear-12x7", 0, prim_bhb_clear_12x7,
	  prim_bhb_clear_12x7_counted },
	{ "rsb-fill", 0, prim_rsb_fill, prim_rsb_fill_counted },
	/* i386, in compatibility mode: seed 000's program as written. */
	{ "push-imm-i386", compat_unsupported, prim32_push_imm, 0 },
	{ "push-cs", compat_unsupported, prim32_push_cs, 0 },
	{ "cs-vector-i386", compat_unsupported, prim32_cs_vector, 0 },
	{ "ds-mov32-i386", compat_unsupported, prim32_ds_mov32, 0 },
	{ "ds-mov16-i386", compat_unsupported, prim32_ds_mov16, 0 },
	{ "gs-selector-i386", compat_unsupported, prim32_gs_selector, 0 },
};

const size_t primitive_count = sizeof(primitives) / sizeof(primitives[0]);
