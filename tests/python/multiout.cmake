# Several targets (one tree per target) and reg:quantileerror, issue 35 items 4-5.
treering_add_pytest(multiout_peer multiout_peer_test.py TIMEOUT 120)
