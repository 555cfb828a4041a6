/* For programs written for XGBoost: with -I<prefix>/include/treering/compat, their
 * `#include <xgboost/c_api.h>` finds treering's header (the same API, served by libtreering). */
#ifndef TREERING_COMPAT_XGBOOST_C_API_H_
#define TREERING_COMPAT_XGBOOST_C_API_H_
#include "../../c_api.h"
#endif /* TREERING_COMPAT_XGBOOST_C_API_H_ */
