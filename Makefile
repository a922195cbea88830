# gpumodel: the two commands are `make run` and `make check` (see README.md).
# Everything generated goes under build/.

SHELL := /bin/sh
MESON ?= /usr/bin/meson

.PHONY: all deps qemu unit unit-sanitize fuzz qemu-fuzz fuzz-smoke \
	genxml guest-image guest-root igt-build igt-full-list igt-image igt \
	compute mesa run check bench clean

all: qemu unit

deps:
	@scripts/deps.sh

qemu: deps
	scripts/build-qemu.sh

# Again when tests/qtest gains or loses a file: meson lists the qtests
# when it configures (tests/meson.build).
build/unit/build.ninja: tests/qtest | deps
	$(MESON) setup --reconfigure build/unit

unit: build/unit/build.ninja
	ninja -C build/unit

# The same unit tests and fuzz smoke test built with ASan and UBSan.
build/sanitize/build.ninja: | deps
	$(MESON) setup build/sanitize -Db_sanitize=address,undefined \
	    -Db_lundef=false

unit-sanitize: build/sanitize/build.ninja
	ninja -C build/sanitize

# The libFuzzer harnesses (clang) and QEMU's generic-fuzz binary
# (clang, --enable-fuzzing, in build/qemu-fuzz).
build/fuzz/build.ninja: | deps
	CC=clang $(MESON) setup build/fuzz -Dfuzz=true

fuzz: build/fuzz/build.ninja
	ninja -C build/fuzz fuzz-intel-cs fuzz-intel-eu fuzz-nv-pcounter

qemu-fuzz: deps
	scripts/build-qemu.sh --fuzz

# Every fuzzer briefly, from the committed seed corpus (a few minutes).
fuzz-smoke: unit unit-sanitize fuzz qemu-fuzz
	scripts/fuzz-smoke.sh

# Mesa's genxml, which the unit test genxml-check compares the GFXPIPE
# state description with (cached per machine, see scripts/fetch-genxml.sh).
genxml: deps
	@scripts/fetch-genxml.sh > /dev/null

guest-image: deps
	scripts/make-guest.sh

# IGT 1.27.1's tests built from source (cached per machine, see
# scripts/build-igt.sh), and the guest overlay that carries them.
igt-build: deps
	scripts/build-igt.sh

# tests/igt/i915-full.testlist again from the IGT build's own test
# programs (tests/igt/full_list.py), after an IGT update.
igt-full-list: igt-build
	/usr/bin/python3 tests/igt/full_list.py

igt-image: guest-image igt-build
	scripts/make-igt-image.sh

# IGT's own tests through igt_runner in the guest on intel-gpu: BAT, perf,
# tiling and rc6 by default; IGT_LISTS, IGT_ORDER (listed, reversed, shuffle),
# IGT_SEED, IGT_PASSES, IGT_TEST_TIMEOUT choose (scripts/run-igt.sh --help).
igt: qemu igt-image
	scripts/run-igt.sh

# The Debian root of the tiers that need user space beyond busybox, built
# with mmdebstrap once per machine (scripts/make-guest-root.sh).
guest-root: deps
	scripts/make-guest-root.sh

# The compute tier: the project's OpenCL and Vulkan programs in that root
# on intel-gpu (NEO, anv), each result compared with PoCL's or C's on the
# host, piglit's OpenCL profile against PoCL, and clpeak
# (scripts/run-compute.sh; tests/compute/README.md).  Hours on 2 cores:
# COMPUTE_PIGLIT=K/N runs the K-th of N parts of piglit's tests (drm-ci's
# split), COMPUTE_CLPEAK= none of clpeak's.  check runs the programs
# alone.
COMPUTE_PIGLIT ?= 1/1
COMPUTE_CLPEAK ?= kernel-latency,transfer-bandwidth,global-bandwidth
compute: qemu guest-root
	scripts/run-compute.sh --piglit $(COMPUTE_PIGLIT) \
	    $(if $(COMPUTE_CLPEAK),--clpeak $(COMPUTE_CLPEAK))

# The Mesa tier: the project's GLES programs in that root on intel-gpu
# (iris), each image compared with llvmpipe's on the host
# (scripts/run-mesa.sh; tests/mesa/README.md).  make check runs it too.
mesa: qemu guest-root
	scripts/run-mesa.sh

# Boot Debian's stock kernel on intel-gpu, load i915, print what it saw.
run: qemu guest-image
	scripts/run-guest.sh --summary

# Every test tier, as meson test suites of build/unit (tests/meson.build),
# then the seconds of each tier and "N passed, N failed, N skipped" over
# all of them (tools/check-summary.py).  MESON_TEST_ARGS go to meson test
# (e.g. --timeout-multiplier 2, --num-processes 1).
MESON_TEST_ARGS ?=
check: qemu unit unit-sanitize fuzz qemu-fuzz genxml guest-image igt-image \
	guest-root
	rm -f build/unit/meson-logs/testlog.json
	$(MESON) test -C build/unit $(MESON_TEST_ARGS); s=$$?; \
	    /usr/bin/python3 tools/check-summary.py build/unit || s=1; \
	    exit $$s

# Throughput and overhead as ratios against baselines in the same run.
# BENCH_BASE_QEMU=OLD/build/qemu/qemu-system-x86_64 pairs the guest's
# fixed work with that build's (tools/bench-guest-compare.py).
BENCH_GUEST_RUNS ?= 1
BENCH_BASE_QEMU ?=
bench: qemu unit guest-image igt-image guest-root
	build/unit/bench-intel-mmio
	build/unit/bench-intel-cs
	build/unit/bench-nv-pcounter
	build/unit/bench-intel-eu
	build/unit/bench-intel-render
	scripts/bench-guest.sh
	tools/bench-guest-compare.py -n $(BENCH_GUEST_RUNS) \
	    $(if $(BENCH_BASE_QEMU),--base $(BENCH_BASE_QEMU))
	scripts/run-igt.sh --perf-cost
	scripts/run-compute.sh --kernels vadd,lsum --size 16777216

clean:
	rm -rf build
