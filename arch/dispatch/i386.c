#include "arch/dispatch/i386.h"

SCHEME_SYMBOLS(i386_direct);
SCHEME_SYMBOLS(i386_push_jmp);
SCHEME_SYMBOLS(i386_cs_selector);
SCHEME_SYMBOLS(i386_cs_push);
SCHEME_SYMBOLS(i386_call16);
SCHEME_SYMBOLS(i386_call16_3byte);
#define I386_CODE(id)                                                       \
	.code = { { id##_gates, id##_code, id##_code_end },                 \
		  { id##_bare_gates, id##_bare_code, id##_bare_code_end },  \
		  { id##_counted_gates, id##_counted_code,                  \
		    id##_counted_code_end } }

const struct i386_scheme i386_schemes[] = {
	{ SCHEME_I386_DIRECT, I386_CODE(i386_direct), PM_GATES_FLAT,
	  I386_DIRECT_STRIDE, 0 },
	/* 7 bytes below vector 128, 10 above, each 4-aligned */
	{ SCHEME_I386_PUSH_JMP, I386_CODE(i386_push_jmp), PM_GATES_FLAT, 10, 0,
	  .fault_selftest = 1 },
	/* a code descriptor per vector */
	{ SCHEME_I386_CS_SELECTOR, I386_CODE(i386_cs_selector), PM_GATES_PER_VECTOR,
	  0, IRQ_VECTORS * 8 },
	{ SCHEME_I386_CS_SELECTOR_PUSH_CS, I386_CODE(i386_cs_push),
	  PM_GATES_PER_VECTOR, 0, IRQ_VECTORS * 8 },
	/* one code descriptor, based at the stubs */
	{ SCHEME_I386_CALL16, I386_CODE(i386_call16), PM_GATES_CALL16,
	  I386_CALL16_STRIDE, 8 },
	{ SCHEME_I386_CALL16_3BYTE, I386_CODE(i386_call16_3byte), PM_GATES_CALL16,
	  3, 8 },
};
const size_t i386_scheme_count = sizeof(i386_schemes) / sizeof(i386_schemes[0]);
const struct i386_scheme *const i386_baseline = &i386_schemes[0];

extern const char i386_variant_ds_es[], i386_variant_ds_es_bare[],
	i386_variant_ds_es_counted[];
extern const char i386_variant_pda_gs[], i386_variant_pda_gs_bare[],
	i386_variant_pda_gs_counted[];

const struct i386_variant i386_variants[] = {
	{ VARIANT_DS_ES, { i386_variant_ds_es, i386_variant_ds_es_bare,
			   i386_variant_ds_es_counted } },
	{ VARIANT_PDA_GS, { i386_variant_pda_gs, i386_variant_pda_gs_bare,
			    i386_variant_pda_gs_counted } },
};
const size_t i386_variant_count =
	sizeof(i386_variants) / sizeof(i386_variants[0]);

void i386_install(const struct i386_scheme *s, enum handler_kind kind)
{
	pm_set_gates(s->code[kind].gates, (enum pm_gate_segment)s->segment,
		     (uint64_t)(uintptr_t)s->code[kind].code_start);
}

void i386_install_variant(const struct i386_variant *v, enum handler_kind kind)
{
	pm_set_gates(i386_baseline->code[kind].gates, PM_GATES_FLAT, 0);
	pm_set_gate(VARIANT_VECTOR, v->handler[kind]);
}

const char *i386_unsupported(const struct i386_scheme *s)
{
	unsigned k;

	for (k = 0; k < HANDLER_KINDS; k++)
		if ((uint64_t)(uintptr_t)s->code[k].code_end > 0xffffffffull)
			return "the scheme's code lies above 4 GiB, beyond a "
			       "32-bit EIP";
	return pm_unsupported();
}
