#include "schemes.h"

#include "../desc.h"
#include "irq.h"

extern const char direct_handlers[], direct_handlers_end[];

static void direct_install(uint8_t vector)
{
	idt_set_gate(vector, direct_handlers +
		     (size_t)(vector - FIRST_IRQ_VECTOR) * DIRECT_STRIDE, 0);
}

const struct dispatch_scheme dispatch_schemes[] = {
	{
		.name = "direct",
		.description = "dedicated handler per vector; the vector is "
			       "an immediate (lower bound)",
		.seed = "-",
		.install = direct_install,
		.code_start = direct_handlers,
		.code_end = direct_handlers_end,
	},
};

const size_t dispatch_scheme_count =
	sizeof(dispatch_schemes) / sizeof(dispatch_schemes[0]);

static int name_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

const struct dispatch_scheme *scheme_find(const char *name)
{
	size_t i;

	for (i = 0; i < dispatch_scheme_count; i++)
		if (name_eq(dispatch_schemes[i].name, name))
			return &dispatch_schemes[i];
	return 0;
}
