/* SPDX-License-Identifier: GPL-2.0-only */
/* The controllers' rows, as data. */
#include "model/controllers.h"

const struct controller_info controller_info[_CONTROLLER_MAX] = {
#define CONTROLLER_INFO(id, name_, alias_, v1_)                                                    \
	[CONTROLLER_##id] = {.name = name_, .alias = alias_, .v1 = v1_},
    CGACCT_CONTROLLERS(CONTROLLER_INFO)
#undef CONTROLLER_INFO
};
