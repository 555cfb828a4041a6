# The gblinear part: booster=gblinear against python3-xgboost 1.7.4 (weights, predictions,
# model files, dumps, sklearn's coef_, two workers against one process).
treering_add_pytest(linear_peer linear_peer_test.py TIMEOUT 120)
