#include "bench/model/catalog.h"

#include "arch/lib/fmt.h"
#include "arch/matrix.h"

/* Made from PRIMITIVE_LIST (arch/matrix.h): entry i is primitive id i. */
#define CATALOG_ENTRY(id, name, kind, code, setup, seed, words)            \
	[PRIMITIVE_##id] = { name, words, seed },
const struct catalog_entry catalog_primitives[] = {
	PRIMITIVE_LIST(CATALOG_ENTRY)
};
#undef CATALOG_ENTRY
const size_t catalog_primitive_count =
	sizeof(catalog_primitives) / sizeof(catalog_primitives[0]);

const struct catalog_entry *catalog_find(const struct catalog_entry *table,
					 size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (str_eq(table[i].name, name))
			return &table[i];
	return NULL;
}
