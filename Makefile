# irqlab: one entry point. `make run` builds, images, boots under
# QEMU+OVMF and collects the results; `make test` runs every test.

# The build's folder; `make ENTRY="a.S b.S"` builds irqlab with your
# entry code (docs/your-entry.md) in a folder of its own. What no build
# changes (the report pages, the reference, the tests' tools) stays in
# TOP.
TOP        := build
ifeq ($(origin BUILD),undefined)
BUILD      := $(if $(strip $(ENTRY)),$(TOP)/entry,$(TOP))
endif
YOURS_DIR  := $(BUILD)/yours
EFI_INC    := /usr/include/efi
EFI_LIB    := /usr/lib
EFI_CRT0   := $(EFI_LIB)/crt0-efi-x86_64.o
EFI_LDS    := $(EFI_LIB)/elf_x86_64_efi.lds

CC         ?= cc
HOST_CC    ?= cc

WARNINGS   := -Wall -Wextra -Werror
# The EFI recipe of docs/toolchain.md. -mgeneral-regs-only: interrupt handlers
# call C, which must not touch the interrupted code's SSE/x87 state.
EFI_CFLAGS := -std=gnu11 -O2 -g $(WARNINGS) -ffreestanding -fpic \
	-fshort-wchar -mno-red-zone -fno-stack-protector \
	-maccumulate-outgoing-args -mgeneral-regs-only \
	-DGNU_EFI_USE_MS_ABI -I. -I$(YOURS_DIR) -isystem $(EFI_INC) \
	-isystem $(EFI_INC)/x86_64
EFI_ASFLAGS := -D__ASSEMBLER__ -I. -I$(YOURS_DIR) $(WARNINGS)
EFI_LDFLAGS := -shared -Bsymbolic -nostdlib -z defs -znocombreloc -T $(EFI_LDS)
LIBGCC     := $(shell $(CC) -print-libgcc-file-name)

# Every floor, bottom to top (docs/layout.md): the ground floor of
# freestanding utilities, the parsers of the firmware's tables, the CPU,
# the controllers, the data model, the runner, the report writers and
# the phases.
FLOORS     := arch/lib firmware arch arch/dispatch apic bench/model \
	      bench/run bench/report efi
EFI_C_SRCS := $(wildcard $(FLOORS:%=%/*.c))
EFI_S_SRCS := $(wildcard $(FLOORS:%=%/*.S))
# Objects keep their source's extension, so foo.c and foo.S can coexist.
# The console font, made at build time from a Debian console font.
FONT       := /usr/share/consolefonts/Lat15-Terminus16.psf.gz
FONT_C     := $(BUILD)/gen/screen_font.c
# Your entry code: each file of ENTRY, in a wrapper of its own.
YOURS_OBJ  := $(if $(strip $(ENTRY)),$(BUILD)/efi-obj/yours.S.o)
EFI_OBJS   := $(EFI_C_SRCS:%=$(BUILD)/efi-obj/%.o) \
	      $(EFI_S_SRCS:%=$(BUILD)/efi-obj/%.o) $(BUILD)/efi-obj/screen_font.o \
	      $(YOURS_OBJ)
ENTRY_OBJS := $(EFI_S_SRCS:%=$(BUILD)/efi-obj/%.o) $(YOURS_OBJ)

# The floors in plain C that also build on the host, whole folders: the
# ground floor, the firmware's tables, the data model and the report
# writers.
HOST_FLOORS := arch/lib firmware bench/model bench/report
PURE_SRCS  := $(wildcard $(HOST_FLOORS:%=%/*.c))
PURE_HDRS  := $(wildcard $(HOST_FLOORS:%=%/*.h))
HOST_CFLAGS := -std=gnu11 -O1 -g $(WARNINGS) -fsanitize=address,undefined \
	-DTEST_DATA_DIR=\"tests/unit/data\" -I. \
	-fno-omit-frame-pointer -fno-sanitize-recover=all
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(TOP)/tests/%)

IMAGE      := $(BUILD)/irqlab.img

.PHONY: all efi image run entry-selected config-checked names test test-long unit-test deps test-deps usb collect rescue \
	fuzz fuzz-smoke reference help \
	bochs bochs-exact compare serve fleet clean FORCE

# A plain `make` says what there is to make.
all: help

help:
	@echo "irqlab: make TARGET [KEY=value ...]"
	@echo "  run             build, image, boot under QEMU+OVMF, print the headline"
	@echo "                  CONFIG=file.cfg  SMP=N (processors the MADT lists;"
	@echo "                  the section between CPUs needs 2 or more)"
	@echo "                  ACCEL= CPU= MACHINE= ICOUNT= SECURE_BOOT=1 TPM="
	@echo "                  VARS_FILE= DISK_FILE= OTHER_DISK= ONE_TIME_BOOT=1"
	@echo "                  (README's table; image/run.sh: every key)"
	@echo "                  EMULATOR=bochs [BOCHS=path] [BOCHS_CPU=model]"
	@echo "                  ENTRY=\"my.S ...\"  your entry code, measured against"
	@echo "                  direct, the gate and linux (docs/your-entry.md); also"
	@echo "                  for usb and image. Built in build/entry"
	@echo "  test            every test; ends with 'N passed, N failed'"
	@echo "  test-long       the checks of scale (docs/testing.md): 72, 128 and"
	@echo "                  288 processors, ten store cycles; its own line"
	@echo "  usb DEVICE=/dev/sdX [CONFIG=file.cfg]   write the stick"
	@echo "  collect [DISK=image|device|mount] [DEST=results]   the stick's results"
	@echo "  rescue [SOURCE=efivars dir | VARS=OVMF_VARS.fd] [DEST=results]"
	@echo "         [DELETE=1] [STICK=the stick's EFI/irqlab/results]"
	@echo "                  results left in the variable store; DELETE=1 then"
	@echo "                  deletes the records (not with VARS=, only read);"
	@echo "                  STICK= joins a run in parts with its earlier parts"
	@echo "  compare RUNS=\"results/<run> ...\" [OUT=file.html]   runs side by side"
	@echo "  serve LAB=folder INTERFACE=eth0 [MODE=dhcp RANGE=first,last] [RUNS=n]"
	@echo "                  a lab's server: its machines PXE-boot irqlab and"
	@echo "                  their runs arrive in LAB/runs (docs/lab.md);"
	@echo "                  MODE=user (no INTERFACE) for QEMU user networking;"
	@echo "                  ALLOW=file answers only the MACs/UUIDs listed,"
	@echo "                  ROUTER=1, FORCE=1, LIMITS=name=value,... (docs/lab.md)"
	@echo "  fleet DIR=folder   every machine's runs under DIR: fleet.html (side by"
	@echo "                  side, grouped by CPU model) and fleet.db (SQLite)"
	@echo "  reference       record the icount reference for this build"
	@echo "  efi, image      the EFI application, the disk image"
	@echo "  bochs BOCHS_SOURCE=bochs-<commit>-src.tar.xz   the three Bochs builds"
	@echo "                  make test uses, into build/ (docs/emulators.md)"
	@echo "  bochs-exact BOCHS_SOURCE=bochs-<commit>-src.tar.xz   the exact-count Bochs"
	@echo "  names           every config key, its default and what it takes"
	@echo "  fuzz [FUZZ_SECONDS=60], fuzz-smoke, unit-test, clean"
	@echo "  V=1             the full compiler lines"

efi: $(BUILD)/irqlab.efi $(BUILD)/irqlab-entry.lst

# The compiler lines are long: each is one short line, V=1 for them all.
ifeq ($(V),1)
Q :=
say = @true
else
Q := @
say = @echo "  $(1) $(2)"
endif

$(BUILD)/efi-obj/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(EFI_CFLAGS) -MMD -MP -c $< -o $@

$(FONT_C): $(FONT) image/font-to-c.py
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)
	$(Q)image/font-to-c.py $(FONT) $@

$(BUILD)/efi-obj/screen_font.o: $(FONT_C) efi/screen_font.h
	$(call say,CC,$<)
	$(Q)$(CC) $(EFI_CFLAGS) -c $< -o $@

$(FONT):
	@image/install-deps.sh

$(BUILD)/efi-obj/%.S.o: %.S
	@mkdir -p $(dir $@)
	$(call say,AS,$<)
	$(Q)$(CC) $(EFI_ASFLAGS) -MMD -MP -c $< -o $@

# Your entry code (docs/your-entry.md). The list is written again on
# every make, and only changes when ENTRY or a file's markers do; the
# files' SHA-256 and their parts' lengths come from the assembled
# wrapper.
$(YOURS_DIR)/yours_list.h: FORCE
	@mkdir -p $(YOURS_DIR)
	$(Q)image/your-entry.py list $(YOURS_DIR) $(ENTRY)

$(YOURS_DIR)/yours_files.h: $(YOURS_DIR)/yours_list.h $(YOURS_OBJ) \
			    $(ENTRY)
	$(Q)image/your-entry.py counts $(YOURS_DIR) $(or $(YOURS_OBJ),-) \
		$(ENTRY)

$(BUILD)/efi-obj/yours.S.o: $(YOURS_DIR)/yours_list.h $(ENTRY)
	@mkdir -p $(dir $@)
	$(call say,AS,$(ENTRY))
	$(Q)$(CC) $(EFI_ASFLAGS) -MMD -MP -c $(YOURS_DIR)/yours.S -o $@

$(BUILD)/efi-obj/bench/model/yours.c.o: $(YOURS_DIR)/yours_files.h
$(EFI_OBJS): | $(YOURS_DIR)/yours_list.h

# Linked, then stamped with its build: the hash of its code
# (image/stamp-build.py), which $(BUILD)/irqlab.build holds too.
$(BUILD)/irqlab.so: $(EFI_OBJS) image/stamp-build.py
	$(call say,LD,$@)
	$(Q)ld $(EFI_LDFLAGS) $(EFI_CRT0) $(EFI_OBJS) -L$(EFI_LIB) -lefi \
		-lgnuefi $(LIBGCC) -o $@
	$(Q)image/stamp-build.py $@ $(BUILD)/irqlab.build

%.efi: %.so
	$(call say,OBJCOPY,$@)
	$(Q)objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
		-j .rela -j .reloc --target=efi-app-x86_64 --subsystem=10 $< $@

# The one-time-boot test's "installed OS": a disk that boots first.
$(TOP)/other-disk.so: tests/boot/other_disk.c
	@mkdir -p $(dir $@)
	$(CC) $(EFI_CFLAGS) -c $< -o $(TOP)/other-disk.o
	ld $(EFI_LDFLAGS) $(EFI_CRT0) $(TOP)/other-disk.o -L$(EFI_LIB) \
		-lefi -lgnuefi $(LIBGCC) -o $@

$(TOP)/other-disk.img: $(TOP)/other-disk.efi image/mkimage.sh
	image/mkimage.sh $@ $(TOP)/other-disk.efi

# The exact bytes every entry path executes, for review (xv6-style).
# The 32-bit code (.code32) is decoded again as i386 at the end: objdump
# reads an ELF64 object as 64-bit code throughout.
I386_OBJS := $(filter %/compat.S.o %/protected.S.o %/i386_direct.S.o \
	       %/i386_push_jmp.S.o %/i386_cs_selector.S.o %/i386_call16.S.o, \
	       $(ENTRY_OBJS))
$(BUILD)/irqlab-entry.lst: $(ENTRY_OBJS)
	$(call say,OBJDUMP,$@)
	$(Q)objdump -d -r $(ENTRY_OBJS) > $@
	$(Q)echo "=== the 32-bit code again, decoded as i386 (.code32 sections" \
	     "of compat.S, protected.S and arch/dispatch/i386_*.S) ===" >> $@
	$(Q)objdump -d -r -M i386 $(I386_OBJS) >> $@

$(IMAGE): $(BUILD)/irqlab.efi image/mkimage.sh image/irqlab.cfg \
	  $(TOP)/report-template.html $(TOP)/icount.ref
	image/mkimage.sh $@ $(BUILD)/irqlab.efi image/irqlab.cfg \
		$(TOP)/report-template.html $(TOP)/icount.ref

# The icount reference for the stick, naming the build that recorded it
# (docs/timing.md "The path length, checked").
ICOUNT_REFERENCE := tests/boot/reference/icount-figures.json
$(TOP)/icount.ref: $(ICOUNT_REFERENCE) image/reference-to-stick.py
	@mkdir -p $(dir $@)
	image/reference-to-stick.py $< $@

# The report pages (web/): the charting library comes from npm at the
# versions web/package-lock.json pins, installed under $(TOP), and is
# inlined with the page's scripts into one self-contained template.
WEB_MODULES := $(TOP)/web/node_modules/.package-lock.json
WEB_SOURCES := $(wildcard web/*.js web/*.css) web/inline.py

$(WEB_MODULES): web/package.json web/package-lock.json
	@mkdir -p $(TOP)/web
	cp web/package.json web/package-lock.json $(TOP)/web/
	cd $(TOP)/web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(TOP)/%-template.html: web/page.html web/%.js $(WEB_SOURCES) \
	  $(WEB_MODULES)
	python3 web/inline.py $< $* $(TOP)/web/node_modules $@

# make compare RUNS="results/<run> results/<run> ..." [OUT=file.html]:
# the page goes beside the first run's folder unless OUT says where.
compare: $(TOP)/compare-template.html
	python3 tools/compare.py --template $(TOP)/compare-template.html \
		$(if $(OUT),--out $(OUT)) $(RUNS)

# make fleet DIR=lab: every results.json under DIR, one row per machine,
# run and row in DIR/fleet.db, and DIR/fleet.html (docs/lab.md).
fleet: $(TOP)/fleet-template.html
	python3 tools/fleet.py --template $(TOP)/fleet-template.html \
		$(or $(DIR),lab)

image: $(IMAGE)

# make serve LAB=folder INTERFACE=eth0 [MODE=dhcp RANGE=first,last
# RANGE6=first,last] [ALLOW=file] [ROUTER=1] [FORCE=1] [LIMITS=...]
# [RUNS=n]: a lab's machines PXE-boot irqlab from here,
# and their runs arrive in LAB/runs (docs/lab.md). RANGE6 leases IPv6
# addresses and boots over IPv6 too. MODE=user, with no INTERFACE, serves
# QEMU machines on user networking.
serve: $(BUILD)/irqlab.efi $(TOP)/report-template.html $(TOP)/icount.ref
	EFI=$(BUILD)/irqlab.efi TEMPLATE=$(TOP)/report-template.html \
	RANGE6=$(RANGE6) ALLOW=$(ALLOW) ROUTER=$(ROUTER) FORCE=$(FORCE) \
	LIMITS='$(LIMITS)' \
	REFERENCE=$(TOP)/icount.ref image/serve.sh $(or $(LAB),lab) \
		$(or $(INTERFACE),-) \
		$(or $(MODE),proxy) $(if $(filter dhcp,$(MODE)),$(or $(RANGE),-)) \
		$(RUNS)

deps:
	@image/install-deps.sh

# A CONFIG is checked before the boot: its errors stop the run, by the
# firmware's own parser; with ENTRY, it must select the files' rows, or
# the run would measure none of them (checked before any build).
entry-selected:
	$(if $(strip $(ENTRY)),$(if $(CONFIG),@image/your-entry.py selected \
		$(CONFIG) $(ENTRY)))

config-checked: $(BUILD)/irqlab-config
	$(if $(CONFIG),@$(BUILD)/irqlab-config $(CONFIG))

# make run EMULATOR=bochs: under Bochs instead (docs/emulators.md); its
# results folder is written from the blob phase B prints (irqlab-rescue).
run: entry-selected config-checked deps efi image $(BUILD)/irqlab-rescue
ifeq ($(EMULATOR),bochs)
	IRQLAB_RESCUE=$(BUILD)/irqlab-rescue image/bochs.sh $(IMAGE)
else
	IRQLAB_RESCUE=$(BUILD)/irqlab-rescue image/run.sh $(IMAGE)
endif

# The host-built floors, compiled once for every unit test (each of the
# 24 compiled them all again: minutes of make test).
# arch/matrix.h: the axes' lists, which the host-built floors expand.
HOST_OBJS := $(PURE_SRCS:%.c=$(TOP)/host-obj/%.o)
# Kept between makes: intermediates of a pattern rule are removed.
.SECONDARY: $(HOST_OBJS)
$(TOP)/host-obj/%.o: %.c $(PURE_HDRS) arch/matrix.h
	@mkdir -p $(dir $@)
	$(call say,HOSTCC,$<)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@

$(TOP)/tests/%: tests/unit/%.c $(HOST_OBJS) $(PURE_HDRS) arch/matrix.h \
		  $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $< $(HOST_OBJS) -lcmocka -lm -o $@

unit-test: test-deps $(UNIT_BINS)

test: test-deps efi image $(UNIT_BINS) $(TOP)/other-disk.img \
	$(BUILD)/irqlab-rescue $(TOP)/compare-template.html \
	$(TOP)/fleet-template.html
	tests/run.sh $(UNIT_BINS)

# The checks of scale, not of a code path (docs/testing.md): the
# matrices of 72 and 128 processors, 288 processors, ten store cycles.
test-long: test-deps efi image
	tests/run.sh --long

# What the tests use beyond what make run needs: cmocka, chromium.
test-deps:
	@image/install-deps.sh test

# make reference: the icount reference recorded anew from an icount run
# of this build, which it then names (docs/timing.md "The path length,
# checked"); each row it changes must be explained in
# tests/boot/reference/EXPLAINED.
reference: deps efi image
	python3 tests/boot/boot_test.py --record-reference
	@$(MAKE) --no-print-directory image

# Coverage-guided fuzzing (clang + libFuzzer, with ASan and UBSan): one
# harness per parser, built from the same sources as the firmware. Each
# takes its seeds from tests/fuzz/corpus/<harness>/ and the unit tests'
# fixtures (tests/fuzz/run.sh); what it learns
# goes to build/fuzz-corpus/<harness>/. `make fuzz-smoke` is CI's short run.
FUZZ_SECONDS ?= 60
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS  := $(FUZZ_NAMES:%=$(TOP)/fuzz/fuzz_%)

$(TOP)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(PURE_SRCS) $(PURE_HDRS) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(call say,CLANG,$<)
	$(Q)clang -std=gnu11 -O1 -g -Wall -Wextra -Werror -I. \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$< $(PURE_SRCS) -o $@

fuzz: $(FUZZ_BINS)
	@tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BINS)

fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=20

# Results left in the variable store, written on Linux (tools/rescue.c):
# make rescue [SOURCE=/sys/firmware/efi/efivars] [DEST=results] [DELETE=1]
#             [STICK=the stick's EFI/irqlab/results, for a run in parts]
# make rescue VARS=OVMF_VARS.fd: the records of an OVMF variable store
#             file (a VM's, build/run/vars.fd), read, never changed
$(BUILD)/irqlab-rescue: tools/rescue.c $(PURE_SRCS) $(PURE_HDRS) \
			$(YOURS_DIR)/yours_files.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(HOST_CC) -std=gnu11 -O2 $(WARNINGS) -I. -I$(YOURS_DIR) $< \
		$(PURE_SRCS) -lm -o $@

# The config checked on the host by the firmware's own parser
# (tools/config_check.c): make run stops on its errors before it boots,
# and make names lists every key and what it takes.
$(BUILD)/irqlab-config: tools/config_check.c $(PURE_SRCS) $(PURE_HDRS) \
			$(YOURS_DIR)/yours_list.h
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(HOST_CC) -std=gnu11 -O2 $(WARNINGS) -I. -I$(YOURS_DIR) $< \
		$(PURE_SRCS) -lm -o $@

names: $(BUILD)/irqlab-config
	@$(BUILD)/irqlab-config --names

rescue: $(BUILD)/irqlab-rescue $(TOP)/report-template.html \
	  $(TOP)/icount.ref
	$(BUILD)/irqlab-rescue $(if $(DELETE),--delete) \
		$(if $(STICK),--stick $(STICK)) --template $(TOP)/report-template.html \
		--reference $(TOP)/icount.ref \
		$(if $(VARS),--vars $(VARS),$(or $(SOURCE),/sys/firmware/efi/efivars)) \
		$(or $(DEST),results)

# make usb DEVICE=/dev/sdX [CONFIG=file.cfg]
usb: image
	image/usb.sh $(IMAGE) $(DEVICE) $(CONFIG)

# make collect [DISK=image, device or mount point] [DEST=folder]
collect:
	image/collect.sh $(or $(DISK),build/run/disk.img) $(or $(DEST),results)

# A Bochs whose TSC counts every instruction, built from a Bochs source
# snapshot, for the cross-check with QEMU -icount (docs/emulators.md):
# make bochs-exact BOCHS_SOURCE=bochs-<commit>-src.tar.xz: with
# --enable-smp, whose single-processor loop counts as the plain build's
# (docs/emulators.md "Two Bochs builds").
bochs-exact:
	image/build-bochs.sh --smp $(BOCHS_SOURCE) $(TOP)/bochs-exact

# The three Bochs builds the tests use, from one source snapshot
# (docs/emulators.md "Bochs for anyone"): the optimised one, the same
# with several processors, and the exact-count one. make test finds them
# here with no variable.
bochs:
	image/build-bochs.sh --plain $(BOCHS_SOURCE) $(TOP)/bochs
	image/build-bochs.sh --plain --smp $(BOCHS_SOURCE) $(TOP)/bochs
	image/build-bochs.sh --smp $(BOCHS_SOURCE) $(TOP)/bochs-exact

clean:
	rm -rf $(TOP)

-include $(shell find $(BUILD)/efi-obj -name '*.d' 2>/dev/null)
