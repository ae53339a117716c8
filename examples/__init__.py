"""Runnable examples of Warrant in its domains (invoice audit is the running one)."""
