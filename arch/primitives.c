#include "arch/primitives.h"

#include "arch/cpu.h"

#define PRIMITIVE_FN(id) uint64_t prim_##id(void)
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
#undef PRIMITIVE_FN

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

static const char *push_cs_unsupported(void)
{
	return "push %cs (0E) is #UD in 64-bit mode; see cs-push";
}

const struct primitive primitives[] = {
	{ "push-imm", 0, prim_push_imm },
	{ "push-cs", push_cs_unsupported, 0 },
	{ "cs-push", 0, prim_cs_push },
	{ "cs-vector", 0, prim_cs_vector },
	{ "ds-mov32", 0, prim_ds_mov32 },
	{ "ds-mov16", 0, prim_ds_mov16 },
	{ "ds-conditional", 0, prim_ds_conditional },
	{ "gs-selector", 0, prim_gs_selector },
	{ "swapgs", 0, prim_swapgs },
	{ "wrgsbase", wrgsbase_unsupported, prim_wrgsbase },
	{ "wrmsr-gsbase", 0, prim_wrmsr_gsbase },
	{ "lkgs", lkgs_unsupported, prim_lkgs },
	{ "iretq-self", 0, prim_iretq_self },
};

const size_t primitive_count = sizeof(primitives) / sizeof(primitives[0]);
