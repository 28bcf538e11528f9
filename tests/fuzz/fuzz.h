/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the fuzz target files share. Each executable is one of them compiled
 * with FUZZ_TARGET naming one of its targets, so every parser gets its own
 * binary and corpus (tests/fuzz/corpus/<target>/) without a source file
 * per target. Targets only check memory safety and invariants that must
 * hold for any input; the unit tests check the values.
 */
#pragma once

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Only the FUZZ_TARGET one is called in each binary. */
#define TARGET static __attribute__((unused)) void

/* The input as a C string, up to its first NUL, as MHD's headers and YAML's scalars are. */
static inline char *fuzz_string(const char *buf, size_t len)
{
	return strndup(buf, len);
}

#define FUZZ_CONCAT_(a, b) a##b
#define FUZZ_CONCAT(a, b)  FUZZ_CONCAT_(a, b)

/*
 * The entry point: the target gets a heap copy of exactly the input's
 * bytes, so that ASan catches any read past len, whoever made the input
 * (libFuzzer, or fuzz-replay.c from a corpus file).
 */
#define FUZZ_MAIN()                                                                                \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                               \
	{                                                                                          \
		char *buf = malloc(size ? size : 1);                                               \
                                                                                                   \
		if (!buf)                                                                          \
			return 0;                                                                  \
		if (size)                                                                          \
			memcpy(buf, data, size);                                                   \
		FUZZ_CONCAT(fuzz_, FUZZ_TARGET)(buf, size);                                        \
		free(buf);                                                                         \
		return 0;                                                                          \
	}
