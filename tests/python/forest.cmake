# Random forests (num_parallel_tree) through the scikit-learn estimators, against python3-xgboost.
treering_add_pytest(forest_peer forest_peer_test.py TIMEOUT 120)
