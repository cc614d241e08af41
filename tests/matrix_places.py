"""How two processors of results.json's matrix stand to each other, from
the places it gives each (package, last-level cache, core): the
relations of bench/model/topology.h, for the boot tests' and the
browser tests' checks alike."""


def relation_of(cpus):
    """A function of two APIC IDs of the matrix's processors `cpus`
    (results.json's cross_cpu.matrix.cpus) giving their relation's
    name."""
    where = {c["apic_id"]: c for c in cpus}

    def relation(a, b):
        a, b = where[a], where[b]
        if a["package"] != b["package"]:
            return "other-package"
        if a["core"] == b["core"]:
            return "smt-sibling"
        return "same-llc" if a["llc"] == b["llc"] else "same-package"

    return relation
