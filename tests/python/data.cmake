# The data part of the Python package (pandas input, DataIter / QuantileDMatrix, stratified
# and pandas cv, trees_to_dataframe, global configuration, plotting): pytest files run
# against python3-xgboost 1.7.4 (skipped loudly without it).
treering_add_pytest(data_pandas data_pandas_test.py TIMEOUT 60)
treering_add_pytest(data_iter data_iter_test.py TIMEOUT 60)
treering_add_pytest(data_misc data_misc_test.py TIMEOUT 60)
treering_add_pytest(data_plot data_plot_test.py TIMEOUT 60)
treering_add_pytest(data_plot_render data_plot_render_test.py TIMEOUT 60)
treering_add_pytest(data_cache_signals data_cache_signals_test.py TIMEOUT 60)
