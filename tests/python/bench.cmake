# The bench part of the Python package: XGBoost 1.7.4's own demos (guide-python, dask) run
# through treering and compared with python3-xgboost (tests/python/demos_test.py). The demos'
# sources come from the XGBoost mirror beside the checkout; without it the test skips loudly.
treering_add_pytest(demos demos_test.py TIMEOUT 300)
# Large dense inplace_predict batches (predicted by blocks of rows in the library).
treering_add_pytest(inplace_blocks inplace_blocks_test.py)
# Dense inplace_predict straight from the array into the tree walk (no DMatrix copy).
treering_add_pytest(inplace_dense inplace_dense_test.py)
# Dense arrays in other layouts than C-ordered float32 (read through a tile in the library).
treering_add_pytest(dense_layout dense_layout_test.py)
