// Factories of the concrete objectives (private to booster/common).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "booster/objective.h"

namespace treering::booster {

std::unique_ptr<Objective> MakeElementwiseObjective(const ObjectiveConfig& config);
// reg:squaredlogerror, reg:pseudohubererror, reg:gamma, reg:tweedie, binary:hinge; nullptr
// for any other name.
std::unique_ptr<Objective> MakeRegressionObjective(const ObjectiveConfig& config);
std::unique_ptr<Objective> MakeCoxObjective();
std::unique_ptr<Objective> MakeAbsoluteErrorObjective();
// survival:aft (objective_aft.cc).
std::unique_ptr<Objective> MakeAftObjective(const ObjectiveConfig& config);
// Why `labels` cannot feed survival:aft or a survival metric (`what` starts the message):
// bounds missing or not one per row, NaN, or lower > upper; Ok otherwise.
Status CheckAftBounds(const std::string& what, const LabelView& labels);
// reg:quantileerror with one output per alpha (each in (0, 1), at least one).
Result<std::unique_ptr<Objective>> MakeQuantileObjective(const std::vector<float>& alpha);
// Row ids by ascending |label|, ties in row order (XGBoost's MetaInfo::LabelAbsSort): the
// order of survival:cox and cox-nloglik.
std::vector<std::size_t> AbsLabelOrder(const std::vector<float>& labels);
std::unique_ptr<Objective> MakeSoftmaxObjective(const std::string& name, int num_class);
// `inner` (one output per row) asked for `outputs` > 1 outputs per row by num_class: trained
// only with the caller's gradients (objective_custom_outputs.cc).
std::unique_ptr<Objective> MakeCustomOutputsObjective(std::unique_ptr<Objective> inner,
                                                      int outputs);
// rank:pairwise, rank:ndcg, rank:map; nullptr for any other name.
std::unique_ptr<Objective> MakeRankObjective(const ObjectiveConfig& config);
// The first row whose label is NaN or infinite, as "OBJECTIVE: label of row I is not finite
// (MEANING)"; Ok when there is none.
Status CheckLabelsFinite(const std::string& objective, const LabelView& labels,
                         const std::string& meaning = "");
// labels.group_ptr, or {0, rows} (one group) when there is none.
std::vector<std::uint64_t> QueryGroupBounds(const LabelView& labels);

}  // namespace treering::booster
