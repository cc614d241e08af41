#include "bench/model/names.h"

#include "arch/lib/cpuid_bits.h"
#include "arch/lib/fmt.h"

const char *name_or_unknown(const char *const *names, unsigned count,
			    unsigned i)
{
	return i < count ? names[i] : "unknown";
}

const char *exp_status_name(unsigned status)
{
	static const char *const names[EXP_STATUS_COUNT] = {
		[EXP_OK] = "ok",
		[EXP_SKIPPED] = "skipped",
		[EXP_FAILED] = "failed",
		[EXP_TIMEOUT] = "timeout",
	};
	return name_or_unknown(names, EXP_STATUS_COUNT, status);
}

const char *metric_name(unsigned metric)
{
	static const char *const names[METRIC_COUNT] = {
		[METRIC_ENTRY] = "entry",
		[METRIC_EXIT] = "exit",
		[METRIC_ROUND_TRIP] = "round_trip",
		[METRIC_ROUND_TRIP_TIMED] = "round_trip_timed",
	};
	return name_or_unknown(names, METRIC_COUNT, metric);
}

const char *boost_state_name(unsigned state)
{
	static const char *const names[BOOST_STATE_COUNT] = {
		[BOOST_UNKNOWN] = "unknown", [BOOST_ABSENT] = "absent",
		[BOOST_ON] = "on", [BOOST_OFF] = "off",
	};
	return name_or_unknown(names, BOOST_STATE_COUNT, state);
}

const char *hwp_state_name(unsigned state)
{
	static const char *const names[HWP_STATE_COUNT] = {
		[HWP_ABSENT] = "absent", [HWP_OFF] = "off", [HWP_ON] = "on",
	};
	return name_or_unknown(names, HWP_STATE_COUNT, state);
}

const char *core_type_name(unsigned type, char *buf, size_t cap)
{
	if (type == 0)
		return "not-hybrid";
	if (type == CORE_TYPE_ATOM)
		return "atom";
	if (type == CORE_TYPE_CORE)
		return "core";
	fmt_snprintf(buf, cap, "0x%02x", type);
	return buf;
}

const char *platform_probe_name(unsigned id)
{
	static const char *const names[PROBE_COUNT] = {
#define PROBE_NAME(id, name) name,
		PROBE_LIST(PROBE_NAME)
#undef PROBE_NAME
	};
	return name_or_unknown(names, PROBE_COUNT, id);
}

const char *probe_state_name(unsigned state)
{
	static const char *const names[PROBE_STATE_COUNT] = {
		[PROBE_NOT_RUN] = "not-run",
		[PROBE_OK] = "ok",
		[PROBE_QUIRK] = "quirk",
		[PROBE_ABSENT] = "absent",
		[PROBE_SIMULATED] = "simulated",
	};
	return name_or_unknown(names, PROBE_STATE_COUNT, state);
}

const char *boot_return_name(unsigned how)
{
	static const char *const names[BOOT_RETURN_COUNT] = {
		[BOOT_RETURN_BOOT_NEXT] = "boot-next",
		[BOOT_RETURN_NO_BOOT_CURRENT] = "no-boot-current",
		[BOOT_RETURN_REFUSED] = "boot-next-refused",
		[BOOT_RETURN_NOT_ASKED] = "not-asked",
	};
	return name_or_unknown(names, BOOT_RETURN_COUNT, how);
}

#define CROSS_KIND_NAME(id, name, what) [CROSS_##id] = name,
#define CROSS_KIND_WHAT(id, name, what) [CROSS_##id] = what,
const char *cross_kind_name(unsigned kind)
{
	static const char *const names[CROSS_KIND_COUNT] = {
		CROSS_KIND_LIST(CROSS_KIND_NAME)
	};
	return name_or_unknown(names, CROSS_KIND_COUNT, kind);
}

const char *cross_kind_what(unsigned kind)
{
	static const char *const what[CROSS_KIND_COUNT] = {
		CROSS_KIND_LIST(CROSS_KIND_WHAT)
	};
	return name_or_unknown(what, CROSS_KIND_COUNT, kind);
}
#undef CROSS_KIND_NAME
#undef CROSS_KIND_WHAT

const char *cell_why_name(unsigned why)
{
#define CELL_WHY_NAME(id, name, why) name,
	static const char *const names[CELL_WHY_COUNT] = {
		CELL_WHY_LIST(CELL_WHY_NAME)
	};
#undef CELL_WHY_NAME
	return name_or_unknown(names, CELL_WHY_COUNT, why);
}

const char *cell_why_text(unsigned why)
{
#define CELL_WHY_TEXT(id, name, why) why,
	static const char *const texts[CELL_WHY_COUNT] = {
		CELL_WHY_LIST(CELL_WHY_TEXT)
	};
#undef CELL_WHY_TEXT
	return name_or_unknown(texts, CELL_WHY_COUNT, why);
}

const char *cpu_pin_state_name(unsigned state)
{
	static const char *const names[CPU_PIN_STATE_COUNT] = {
		[CPU_PIN_NOT_RUN] = "not-run", [CPU_PIN_PINNED] = "pinned",
		[CPU_PIN_AS_BOOT] = "not-pinned",
		[CPU_PIN_EIST_DISABLED] = "not-pinned-eist-disabled",
		[CPU_PIN_HWP_OFF] = "not-pinned-hwp-off",
		[CPU_PIN_FAULTED] = "faulted",
		[CPU_PIN_TIMED_OUT] = "timed-out",
	};
	return name_or_unknown(names, CPU_PIN_STATE_COUNT, state);
}

const char *cpu_turbo_state_name(unsigned state)
{
	static const char *const names[CPU_TURBO_STATE_COUNT] = {
		[CPU_TURBO_NOT_HELD] = "not-turned-off",
		[CPU_TURBO_HELD] = "off-throughout",
		[CPU_TURBO_LOST] = "found-on-again",
	};
	return name_or_unknown(names, CPU_TURBO_STATE_COUNT, state);
}

const char *cpu_fence_state_name(unsigned state)
{
	static const char *const names[CPU_FENCE_STATE_COUNT] = {
		[CPU_FENCE_NOT_RUN] = "not-run",
		[CPU_FENCE_ARCHITECTURAL] = "serialising",
		[CPU_FENCE_DE_CFG] = "de-cfg-set",
		[CPU_FENCE_IN_ORDER] = "in-order",
		[CPU_FENCE_UNCONFIRMED] = "unconfirmed",
	};
	return name_or_unknown(names, CPU_FENCE_STATE_COUNT, state);
}

const char *counted_state_name(unsigned state)
{
	static const char *const names[COUNTED_STATE_COUNT] = {
		[COUNTED_NOT_RUN] = "skipped",
		[COUNTED_MEASURED] = "measured",
	};
	return name_or_unknown(names, COUNTED_STATE_COUNT, state);
}
