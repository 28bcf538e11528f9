/* SPDX-License-Identifier: GPL-2.0-only */
/* The one table of controllers. Adding a controller is adding a row here. */
#include "base/util.h"
#include "collector/controllers/controller.h"

const struct controller *const controllers[] = {
    &controller_cpuacct, &controller_cpu,  &controller_memory,	 &controller_hugetlb,
    &controller_blkio,	 &controller_pids, &controller_pressure,
};

const size_t n_controllers = ELEMENTSOF(controllers);
