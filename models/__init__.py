"""The embedded models, shipped inside the distribution as package data (`warrant.models`)."""
