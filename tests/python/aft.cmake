# survival:aft and the survival metrics against python3-xgboost 1.7.4.
treering_add_pytest(aft_peer aft_peer_test.py TIMEOUT 120)
