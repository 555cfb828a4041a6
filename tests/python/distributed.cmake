# The distributed part of the Python package (collective, rabit, tracker, treering.dask).
treering_add_pytest(dist_collective dist_collective_test.py TIMEOUT 120)
treering_add_pytest(dist_dask dist_dask_test.py TIMEOUT 180)
# The dask estimators reuse the sklearn XGBModel (no cluster needed).
treering_add_pytest(dask_params dask_params_test.py)
treering_add_pytest(dist_dask_fault dist_dask_fault_test.py TIMEOUT 180)
