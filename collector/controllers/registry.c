/* SPDX-License-Identifier: GPL-2.0-only */
/* The readers, by the rows of model/controllers.h: nothing to add here for a new one. */
#include "collector/controllers/controller.h"

const struct controller_reader *const controller_readers[_CONTROLLER_MAX] = {
#define CONTROLLER_READER(id, name, alias, v1) [CONTROLLER_##id] = &reader_##id,
    CGACCT_CONTROLLERS(CONTROLLER_READER)
#undef CONTROLLER_READER
};
