# The scikit-learn estimators (treering.sklearn) against python3-xgboost 1.7.4's.
treering_add_pytest(sklearn_peer sklearn_peer_test.py TIMEOUT 120)
treering_add_pytest(sklearn_api sklearn_api_test.py TIMEOUT 120)
treering_add_pytest(sklearn_checks sklearn_checks_test.py TIMEOUT 120)
