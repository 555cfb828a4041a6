# The core part of the Python package, pytest files against python3-xgboost 1.7.4 (the older
# core tests are plain scripts, registered in CMakeLists.txt).
treering_add_pytest(core_multiclass core_multiclass_test.py TIMEOUT 60)
treering_add_pytest(core_feature_weights core_feature_weights_test.py TIMEOUT 60)
treering_add_pytest(core_update_process core_update_process_test.py TIMEOUT 60)
